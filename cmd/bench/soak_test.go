package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

// gcLog is a gctrace=1 log as Go 1.26 writes it: a cycle at start-up, a
// periodic one ("GC forced" before it) two minutes later, one the heap
// started, and a periodic one after the run's end.
const gcLog = `gc 1 @0.063s 0%: 0.15+0.47+0.004 ms clock, 0.31+0/0.31/0.20+0.009 ms cpu, 4->4->3 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P
some other line the program wrote
GC forced
gc 2 @120.378s 0%: 0.10+2.1+0.39 ms clock, 0.20+0/0.20/0.44+0.78 ms cpu, 5->5->4 MB, 7 MB goal, 0 MB stacks, 0 MB globals, 2 P
gc 3 @151.064s 0%: 0.28+3.5+0.006 ms clock, 0.56+0/0.27/0.18+0.012 ms cpu, 4->4->4 MB, 9 MB goal, 0 MB stacks, 0 MB globals, 2 P
GC forced
gc 4 @271.2s 0%: 0.28+3.5+0.006 ms clock, 0.56+0/0.27/0.18+0.012 ms cpu, 4->4->4 MB, 9 MB goal, 0 MB stacks, 0 MB globals, 2 P
`

func TestPeriodicGCs(t *testing.T) {
	for _, c := range []struct {
		end  time.Duration
		want uint64
	}{
		{100 * time.Second, 0},
		{121 * time.Second, 1},
		{200 * time.Second, 1}, // gc 3 was not forced
		{300 * time.Second, 2},
	} {
		if got := periodicGCs(strings.NewReader(gcLog), c.end); got != c.want {
			t.Errorf("periodic GCs up to %v = %d, want %d", c.end, got, c.want)
		}
	}
}

func TestGCLineTime(t *testing.T) {
	for _, c := range []struct {
		line string
		at   time.Duration
		ok   bool
	}{
		{"gc 2 @120.378s 0%: ...", 120378 * time.Millisecond, true},
		{"gc 12 @0.5s 1%:", 500 * time.Millisecond, true},
		{"GC forced", 0, false},
		{"gc x @1s", 0, false},
		{"gc 1 120s", 0, false},
		{"gc 1 @120", 0, false},
		{"scvg: 1 MB released", 0, false},
	} {
		at, ok := gcLineTime(c.line)
		if ok != c.ok || (ok && (at-c.at).Abs() > time.Microsecond) {
			t.Errorf("gcLineTime(%q) = %v, %v; want %v, %v", c.line, at, ok, c.at, c.ok)
		}
	}
}

func TestWithGCTrace(t *testing.T) {
	got := withGCTrace([]string{"HOME=/root", "GODEBUG=madvdontneed=1", "PATH=/bin"})
	want := []string{"HOME=/root", "PATH=/bin", "GODEBUG=gctrace=1,madvdontneed=1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("withGCTrace = %q, want %q", got, want)
	}
	if got := withGCTrace([]string{"HOME=/root"}); got[len(got)-1] != "GODEBUG=gctrace=1" {
		t.Errorf("withGCTrace without GODEBUG = %q", got)
	}
	env := headlessEnv([]string{"DISPLAY=:1", "HOME=/root", "SDL_VIDEODRIVER=x11"})
	if len(env) != 1 || env[0] != "HOME=/root" {
		t.Errorf("headlessEnv = %q", env)
	}
}

func TestRSSSamples(t *testing.T) {
	var s rssSamples
	if _, _, _, ok := s.halves(); ok {
		t.Error("halves of no samples")
	}
	for _, mib := range []int64{131, 159, 128, 150, 159, 140, 160} {
		s.add(mib << 20)
	}
	least, first, second, ok := s.halves()
	if !ok || least != 128 || first != 159 || second != 160 {
		t.Errorf("halves of %v = %v, %v, %v, %v; want 128, 159, 160", s, least, first, second, ok)
	}
}

// TestProcessRSS reads this process's resident memory through its pid and
// checks it against /proc/self/status's VmRSS, another file.
func TestProcessRSS(t *testing.T) {
	b, ok := processRSS(os.Getpid())
	if !ok {
		t.Skip("no /proc")
	}
	st, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	var kb int64 = -1
	for _, line := range strings.Split(string(st), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmRSS:" {
			kb = parseInt(t, f[1])
		}
	}
	if d := kb*1024 - b; kb < 0 || d > 8<<20 || d < -8<<20 {
		t.Errorf("processRSS %d bytes, VmRSS %d kB", b, kb)
	}
	if _, ok := processRSS(-1); ok {
		t.Error("processRSS of pid -1 succeeded")
	}
}

func parseInt(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// TestSoakTargetIsJudgedFromTheFigures: an allocation or a GC cycle
// (the runtime's periodic one too) in any leg misses the target; so does
// a leg that reported no counts, or no soak at all.
func TestSoakTargetIsJudgedFromTheFigures(t *testing.T) {
	u := func(v uint64) *uint64 { return &v }
	leg := func(balls int, seconds float64, allocs, gcs *uint64, periodic uint64) *soakRun {
		return &soakRun{stats: &report.Stats{Balls: balls, Seconds: seconds, AllocsAfterWarmup: allocs, GCAfterWarmup: gcs}, periodicGC: periodic}
	}
	clean100k := leg(100_000, 180.01, u(0), u(0), 0)
	clean1 := leg(1, 60, u(0), u(0), 0)
	for _, c := range []struct {
		name   string
		legs   []*soakRun
		met    bool
		substr string
	}{
		{"clean", []*soakRun{clean100k, clean1}, true, "3 min at 100,000 balls, 1 min at 1 ball"},
		{"allocates", []*soakRun{leg(100_000, 180, u(117), u(0), 0), clean1}, false, "117 heap allocations"},
		{"periodic GC", []*soakRun{leg(100_000, 180, u(0), u(1), 1), clean1}, false, "1 GC cycles (1 periodic)"},
		{"allocates at 1 ball", []*soakRun{clean100k, leg(1, 60, u(3), u(0), 0)}, false, "3 heap allocations"},
		{"heap GC", []*soakRun{leg(100_000, 180, u(0), u(2), 1)}, false, "2 GC cycles (1 periodic)"},
		{"no counts", []*soakRun{clean100k, leg(1, 0.5, nil, nil, 0)}, false, "- heap allocations"},
		{"a leg failed", []*soakRun{clean100k, nil}, false, "100,000 balls: 0 heap allocations"},
		{"no soak", nil, false, "no soak run"},
	} {
		var line string
		(&results{soak: c.legs}).soakTarget(func(n int, target, measured string, ok bool) {
			line = sprintf("| %d | %s | %s | %v |", n, target, measured, ok)
		}, 9)
		if !strings.HasSuffix(line, sprintf("| %v |", c.met)) || !strings.Contains(line, c.substr) {
			t.Errorf("%s: %s; want met %v and %q", c.name, line, c.met, c.substr)
		}
	}
}

func TestWriteSoak(t *testing.T) {
	u := func(v uint64) *uint64 { return &v }
	f := func(v float64) *float64 { return &v }
	run := &soakRun{
		stats:      &report.Stats{Balls: 100_000, Seconds: 180.02, Frames: 1234, FPS: 6.85, AllocsAfterWarmup: u(0), ThreadsAfterWarmup: u(0), GCAfterWarmup: u(1), RSSMBStart: f(155.86), RSSMBEnd: f(183.9), RSSMBPeak: f(183.93)},
		periodicGC: 1,
	}
	for _, mib := range []int64{159, 131, 159, 131} {
		run.rss.add(mib << 20)
	}
	r := &results{soak: []*soakRun{run, {stats: &report.Stats{Balls: 1, Seconds: 60, Frames: 90_000, FPS: 1500}}}}
	var b strings.Builder
	r.writeSoak(func(format string, args ...any) { b.WriteString(sprintf(format, args...)) })
	for _, want := range []string{
		"| 100,000 | 180 | 1,234 | 6.8 | 0 | 0 | 1 | 1 | 155.9 | 183.9 | 183.9 | 131.0; 159.0; 159.0 (4) |\n",
		"| 1 | 60 | 90,000 | 1500.0 | - | - | - | 0 | - | - | - | - |\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("soak section lacks\n%s\nin\n%s", want, b.String())
		}
	}
	var none strings.Builder
	(&results{}).writeSoak(func(format string, args ...any) { none.WriteString(sprintf(format, args...)) })
	if none.Len() != 0 {
		t.Errorf("a bench without a soak wrote %q", none.String())
	}
}

func TestMinutes(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want string
	}{{180.02, "3 min"}, {60, "1 min"}, {90, "1.5 min"}, {30.4, "0.5 min"}, {10, "0.2 min"}} {
		if got := minutes(c.s); got != c.want {
			t.Errorf("minutes(%v) = %q, want %q", c.s, got, c.want)
		}
	}
}
