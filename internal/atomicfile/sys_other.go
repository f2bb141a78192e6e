//go:build !unix

package atomicfile

// nonBlock is the open flag that keeps CheckWritable from waiting on a
// device: none here.
const nonBlock = 0

// canWrite reports whether the caller may write to path without opening
// it. Without access(2) it cannot tell, and says yes; the write reports
// the error.
func canWrite(path string) error { return nil }
