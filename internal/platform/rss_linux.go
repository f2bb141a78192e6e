package platform

import (
	"bytes"
	"os"
	"strconv"
)

// ResidentBytes is the process's resident memory now (the second field of
// /proc/self/statm, in pages), and whether it could be read. It allocates
// a little: call it at the start and the end of a run, not every frame.
func ResidentBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	pages, ok := parseStatm(b)
	if !ok {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}

// PeakResidentBytes is the most resident memory the process has had (the
// VmHWM line of /proc/self/status, the "high water mark"), and whether it
// could be read. It allocates a little, like ResidentBytes.
func PeakResidentBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	kb, ok := statusKB(b, "VmHWM")
	return kb * 1024, ok
}

// parseStatm returns the resident pages of a /proc/PID/statm text: its
// second field.
func parseStatm(b []byte) (pages int64, ok bool) {
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0, false
	}
	n, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// statusKB returns the value of a "Key:   1234 kB" line of a
// /proc/PID/status text.
func statusKB(b []byte, key string) (int64, bool) {
	for line := range bytes.Lines(b) {
		rest, found := bytes.CutPrefix(line, []byte(key+":"))
		if !found {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, false
		}
		n, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil || n < 0 {
			return 0, false
		}
		return n, true
	}
	return 0, false
}
