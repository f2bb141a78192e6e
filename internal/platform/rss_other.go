//go:build !linux

package platform

// ResidentBytes is the process's resident memory; only Linux reports it.
func ResidentBytes() (int64, bool) { return 0, false }

// PeakResidentBytes is the most resident memory the process has had; only
// Linux reports it.
func PeakResidentBytes() (int64, bool) { return 0, false }
