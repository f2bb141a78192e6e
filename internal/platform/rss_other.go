//go:build !linux

package platform

// ResidentBytes is the process's resident memory; only Linux reports it.
func ResidentBytes() (int64, bool) { return 0, false }
