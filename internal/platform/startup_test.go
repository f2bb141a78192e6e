package platform

import (
	"strconv"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

// TestLaunchedBefore: a launch time given in report.LaunchedEnv is what
// the start-up counts from, to the nanosecond; a value that is no time,
// or not within the minute before main, is ignored.
func TestLaunchedBefore(t *testing.T) {
	main := time.Unix(1_800_000_000, 123_456_789)
	at := func(d time.Duration) string { return strconv.FormatInt(main.Add(-d).UnixNano(), 10) }
	for _, c := range []struct {
		v    string
		want time.Duration
		ok   bool
	}{
		{at(43_210_987 * time.Nanosecond), 43_210_987 * time.Nanosecond, true},
		{at(0), 0, true},
		{at(time.Minute), time.Minute, true},
		{at(time.Minute + time.Nanosecond), 0, false},
		{at(-time.Millisecond), 0, false}, // after main
		{"", 0, false},
		{"soon", 0, false},
		{"1.8e18", 0, false},
	} {
		got, ok := launchedBefore(main, c.v)
		if got != c.want || ok != c.ok {
			t.Errorf("%q: %v, %v; want %v, %v", c.v, got, ok, c.want, c.ok)
		}
	}
	// PreMain reads it from the environment.
	start := time.Now()
	t.Setenv(report.LaunchedEnv, strconv.FormatInt(start.Add(-7*time.Millisecond).UnixNano(), 10))
	if got := PreMain(start); got != 7*time.Millisecond {
		t.Errorf("PreMain with %s 7 ms before main: %v", report.LaunchedEnv, got)
	}
}
