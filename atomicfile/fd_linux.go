package atomicfile

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// dupFile returns a duplicate of this process's descriptor fd, closed on
// exec, as a File named name. It shares fd's open file and offset.
func dupFile(fd int, name string) (*os.File, error) {
	if err := fdWritable(fd); err != nil {
		return nil, err
	}
	n, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(n), name), nil
}

// fdWritable reports whether this process's descriptor fd is open for
// writing.
func fdWritable(fd int) error {
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return err
	}
	if fl&unix.O_ACCMODE == unix.O_RDONLY {
		return fmt.Errorf("descriptor %d is open for reading only: %w", fd, unix.EBADF)
	}
	return nil
}
