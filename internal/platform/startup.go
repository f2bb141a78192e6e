package platform

import (
	"os"
	"strconv"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

// PreMain estimates how long the process ran before main: exec, the
// dynamic loader mapping SDL and its libraries, the Go runtime's start.
// Where whoever started the process said when, in report.LaunchedEnv, it
// counts from then (to within the clock reads around the process's
// start, a fraction of a millisecond); else from the start the system
// keeps, which Linux rounds down to its 10 ms clock tick (procPreMain).
func PreMain(mainStart time.Time) time.Duration {
	if d, ok := launchedBefore(mainStart, os.Getenv(report.LaunchedEnv)); ok {
		return d
	}
	return procPreMain(mainStart)
}

// launchedBefore is how long before mainStart the process was launched,
// by v, report.LaunchedEnv's value; not ok where v is not a time within
// the minute before mainStart (unset, malformed, or a launcher's clock
// that disagrees), which is then ignored.
func launchedBefore(mainStart time.Time, v string) (_ time.Duration, ok bool) {
	if v == "" {
		return 0, false
	}
	ns, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false
	}
	d := mainStart.Round(0).Sub(time.Unix(0, ns)) // wall clocks, both
	if d < 0 || d > time.Minute {
		return 0, false
	}
	return d, true
}
