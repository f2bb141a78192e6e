//go:build !unix

package atomicfile

// nonBlock is the open flag that keeps CheckWritable from waiting on a
// device: none here.
const nonBlock = 0

// canWrite reports whether the caller may write to path without opening
// it. Without access(2) it cannot tell, and says yes; the write reports
// the error.
func canWrite(path string) error { return nil }

// noReader reports whether err says that a FIFO has no reader: never here,
// where a FIFO is opened as any file is.
func noReader(err error) bool { return false }

// setBlocking has nothing to do where nothing is opened without blocking.
func setBlocking(fd uintptr) error { return nil }
