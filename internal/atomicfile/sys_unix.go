//go:build unix

package atomicfile

import "golang.org/x/sys/unix"

// nonBlock is the open flag that keeps CheckWritable from waiting on a
// device.
const nonBlock = unix.O_NONBLOCK

// canWrite reports whether the caller may write to path, by its
// permissions, without opening it.
func canWrite(path string) error { return unix.Access(path, unix.W_OK) }
