//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package loop

import "time"

// cpuTime is not available here: the benchmark reports no CPU figures.
func cpuTime() (time.Duration, bool) { return 0, false }
