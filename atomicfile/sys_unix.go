//go:build unix

package atomicfile

import (
	"errors"

	"golang.org/x/sys/unix"
)

// nonBlock is the open flag that keeps CheckWritable from waiting on a
// device, and the opening of a FIFO from waiting for a reader.
const nonBlock = unix.O_NONBLOCK

// canWrite reports whether the caller may write to path, by its
// permissions, without opening it.
func canWrite(path string) error { return unix.Access(path, unix.W_OK) }

// noReader reports whether err is a FIFO's refusal of a writer that opens
// it without blocking while no reader has it open.
func noReader(err error) bool { return errors.Is(err, unix.ENXIO) }

// setBlocking clears the descriptor's non-blocking flag.
func setBlocking(fd uintptr) error { return unix.SetNonblock(int(fd), false) }
