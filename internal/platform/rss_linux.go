package platform

import (
	"os"
	"strconv"
	"strings"
)

// ResidentBytes is the process's resident memory (the second field of
// /proc/self/statm, in pages), and whether it could be read. It allocates
// a little: call it at the start and the end of a run, not every frame.
func ResidentBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}
