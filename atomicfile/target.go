package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// A target is what a name resolved to when writing started.
type target struct {
	// path is the file to create or replace, with its directory free of
	// symbolic links, or, when direct, the file to open and write to.
	path string
	// direct: write straight to path (a device, a FIFO, or a file in a
	// pseudo file system), with no temporary file and no rename.
	direct bool
	fifo   bool // path is a FIFO (direct)
	pseudo bool // path is under /proc or /sys (direct)
	// fd >= 0: path is /proc/<this process>/fd/<fd>, one of this
	// process's own open files (/dev/stdout is /proc/self/fd/1). It is
	// written through a duplicate of the descriptor (direct).
	fd int
	// exists: a regular file is at path, with permission bits perm.
	exists bool
	perm   fs.FileMode
}

// openFlags returns the flags to open a direct target with. A file under
// /proc is opened to append: /proc/<pid>/fd/N of another process may be a
// regular file with that process's output in it, and appending goes on
// after what is there. (Kernel files under /proc/sys and /sys take a
// write whatever the flag; devices and FIFOs ignore it.)
func (t target) openFlags() int {
	if t.pseudo {
		return os.O_WRONLY | os.O_APPEND
	}
	return os.O_WRONLY
}

// maxLinks is how many symbolic links resolve follows before it reports a
// loop: 40, as Linux does (MAXSYMLINKS).
const maxLinks = 40

// errSocket is the error for a socket: open(2) cannot open one.
var errSocket = errors.New("is a socket, not a file, device or FIFO")

// resolve finds what writing name must write: it follows symbolic links
// one at a time, so that a link is never replaced, only what it finally
// points to, and stops at the first thing that is not a link.
//
// Each step resolves the links in the directory part first (with
// filepath.EvalSymlinks) and looks at the last element with Lstat, so a
// relative link target with ".." is taken from the link's real directory,
// as the kernel takes it. A directory under /proc or /sys ends the walk
// with a direct target: /dev/stdout leads to /proc/self/fd/1, whose own
// "link" reads as "pipe:[1234]" or a file's name, and only the kernel can
// follow it; no temporary file can be made there anyway.
func resolve(name string) (target, error) {
	if name == "" {
		return target{}, errors.New("empty file name")
	}
	p := name
	for links := 0; ; {
		dir, base := filepath.Split(p)
		if dir == "" {
			dir = "."
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return target{}, err
		}
		if base == "" || base == "." || base == ".." { // "dir/", "dir/.", "dir/.."
			if st, err := os.Stat(real); err == nil && !st.IsDir() {
				return target{}, syscall.ENOTDIR
			}
			return target{}, syscall.EISDIR
		}
		p = filepath.Join(real, base)
		if pseudoFS(real) {
			return pseudoTarget(real, base)
		}
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return target{path: p, fd: -1}, nil // nothing yet: create it
		}
		if err != nil {
			return target{}, err
		}
		switch m := st.Mode(); {
		case m&fs.ModeSymlink != 0:
			if links++; links > maxLinks {
				return target{}, syscall.ELOOP
			}
			to, err := os.Readlink(p)
			if err != nil {
				return target{}, err
			}
			if !filepath.IsAbs(to) {
				// Not filepath.Join: it would clean "sub/../x" lexically,
				// which is wrong when sub is itself a link.
				to = real + string(filepath.Separator) + to
			}
			p = to
		case m.IsDir():
			return target{}, syscall.EISDIR
		case m.IsRegular():
			return target{path: p, exists: true, perm: m.Perm(), fd: -1}, nil
		case m&fs.ModeSocket != 0:
			return target{}, errSocket
		default: // device, FIFO, or something else no rename should touch
			return target{path: p, direct: true, fifo: m&fs.ModeNamedPipe != 0, fd: -1}, nil
		}
	}
}

// pseudoTarget is the direct target base in dir, a directory in /proc or
// /sys, typed by what the kernel says it leads to.
//
// One of this process's own descriptors (/proc/<pid>/fd/N) is not opened
// again but duplicated: opening it would make a second open file with an
// offset of its own, and where standard output is a file the shell opened
// with `>`, the program's own printing and what it writes to /dev/stdout
// would overwrite each other. The duplicate shares the offset, as the
// shell's `2>&1` does.
func pseudoTarget(dir, base string) (target, error) {
	p := filepath.Join(dir, base)
	st, err := os.Stat(p)
	if err != nil {
		return target{}, err
	}
	switch m := st.Mode(); {
	case m.IsDir():
		return target{}, syscall.EISDIR
	case m&fs.ModeSocket != 0:
		return target{}, errSocket
	}
	t := target{path: p, direct: true, pseudo: true, fd: -1}
	if fd, err := strconv.Atoi(base); err == nil && fd >= 0 && dir == "/proc/"+strconv.Itoa(os.Getpid())+"/fd" {
		t.fd = fd
	} else {
		t.fifo = st.Mode()&fs.ModeNamedPipe != 0
	}
	return t, nil
}

// pseudoFS reports whether dir, free of symbolic links, is in /proc or
// /sys, the kernel's pseudo file systems.
func pseudoFS(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for _, root := range []string{"/proc", "/sys"} {
		if abs == root || strings.HasPrefix(abs, root+"/") {
			return true
		}
	}
	return false
}
