package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

// The soak: one long run of the demo, long enough for what happens only
// now and then (a ring that fills after N frames, a buffer that grows, a
// refresh on a timer, the runtime's own periodic GC) to show as
// allocations, GC cycles or resident memory that creeps up. The 10 s runs
// of the ball matrix cannot show those.

// soakLeg is one run of the soak.
type soakLeg struct {
	balls       int
	long, quick time.Duration // its length, and with -quick
}

// soakLegs: the bench's reference load, 100,000 balls, where a leak in
// proportion to the balls would be largest, for three minutes: past the
// runtime's periodic GC (two minutes after the last cycle), whose flush of
// the span caches is what made the old count show warm-up allocations.
// At that load llvmpipe draws a few frames a second, so a second run at 1
// ball draws tens of thousands of frames a minute, where a ring or
// a slice that fills after N frames would show.
var soakLegs = []soakLeg{
	{balls: 100_000, long: 180 * time.Second, quick: 30 * time.Second},
	{balls: 1, long: 60 * time.Second, quick: 10 * time.Second},
}

func (l soakLeg) length(o *options) time.Duration {
	if o.quick {
		return l.quick
	}
	return l.long
}

// soakRSSSettle is how long after the start the bench starts sampling the
// run's resident memory: the window, the GL context and the first frames
// are built by then.
const soakRSSSettle = 5 * time.Second

// soakRun is the soak's figures.
type soakRun struct {
	stats *report.Stats
	// periodicGC counts the GC cycles the runtime started because none
	// had run for two minutes (sysmon's forced GC, which GODEBUG=gctrace=1
	// announces with a "GC forced" line), up to the end of the run.
	periodicGC uint64
	// The resident memory the bench saw, once a second from
	// soakRSSSettle on.
	rss rssSamples
}

// rssSamples are samples of a process's resident memory, in MiB, in
// the order taken.
type rssSamples []float64

func (s *rssSamples) add(bytes int64) { *s = append(*s, float64(bytes)/(1<<20)) }

// halves returns the least sample, and the most in the first and in the
// second half of the samples: a leak shows as a second half that reaches
// higher than the first, whatever the memory does from one frame to the
// next.
func (s rssSamples) halves() (least, first, second float64, ok bool) {
	if len(s) < 2 {
		return 0, 0, 0, false
	}
	h := len(s) / 2
	return slices.Min(s), slices.Max(s[:h]), slices.Max(s[h:]), true
}

// soak runs the soak's legs.
func soak(o *options, r *results) error {
	for _, l := range soakLegs {
		run, err := soakOnce(o, l)
		if err != nil {
			return err
		}
		r.soak = append(r.soak, run)
	}
	return nil
}

// soakOnce runs the demo for one leg with the HUD and the graph on (the
// defaults a user's long run has), with the runtime's GC trace on, and
// samples its resident memory from outside while it runs.
func soakOnce(o *options, l soakLeg) (*soakRun, error) {
	args := []string{"-balls", strconv.Itoa(l.balls), "-hud=true", "-graph=true", "-duration", l.length(o).String()}
	full := append([]string{"-headless", "-stats", "-vsync", "off"}, args...)
	cmd := exec.Command(o.bin, full...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = withGCTrace(headlessEnv(os.Environ()))
	fail := func(err error) error {
		return fmt.Errorf("%s %s: %v: %s", o.bin, strings.Join(full, " "), err, lastLines(stderr.String(), 5))
	}
	if err := cmd.Start(); err != nil {
		return nil, fail(err)
	}
	run := &soakRun{}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	started := time.Now()
	var err error
wait:
	for {
		select {
		case err = <-done:
			break wait
		case <-tick.C:
			if time.Since(started) < soakRSSSettle {
				continue
			}
			if b, ok := processRSS(cmd.Process.Pid); ok {
				run.rss.add(b)
			}
		}
	}
	if err != nil {
		return nil, fail(err)
	}
	s, err := report.Parse(bytes.TrimSpace(stdout.Bytes()))
	if err != nil {
		return nil, fail(err)
	}
	run.stats = s
	// The loop ended about startup + seconds after the process started.
	end := time.Duration((s.StartupMs/1e3 + s.Seconds) * float64(time.Second))
	run.periodicGC = periodicGCs(&stderr, end)
	return run, nil
}

// headlessEnv is env without a display: the demo's -headless picks SDL's
// offscreen driver.
func headlessEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "SDL_VIDEODRIVER=") {
			out = append(out, kv)
		}
	}
	return out
}

// withGCTrace is env with gctrace=1 added to GODEBUG: the runtime writes
// a line to stderr for every GC cycle, and "GC forced" before each
// periodic one. It changes nothing else.
func withGCTrace(env []string) []string {
	out := make([]string, 0, len(env)+1)
	debug := "GODEBUG=gctrace=1"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			if v != "" {
				debug += "," + v // a later setting wins: gctrace=1 comes first
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, debug)
}

// periodicGCs counts the GC cycles of a gctrace=1 log that the runtime
// started because no cycle had run for two minutes ("GC forced" right
// before the cycle's "gc N @Ts ..." line), up to end since the process
// started. A periodic cycle cannot come in the first two minutes, so
// every one of them is after the demo's warm-up.
func periodicGCs(log io.Reader, end time.Duration) uint64 {
	var n uint64
	forced := false
	sc := bufio.NewScanner(log)
	for sc.Scan() {
		line := sc.Text()
		if line == "GC forced" {
			forced = true
			continue
		}
		at, ok := gcLineTime(line)
		if !ok {
			continue
		}
		if forced && at <= end {
			n++
		}
		forced = false
	}
	return n
}

// gcLineTime is the time since the process started of a gctrace line,
// "gc 2 @120.378s 0%: ...".
func gcLineTime(line string) (time.Duration, bool) {
	f := strings.Fields(line)
	if len(f) < 3 || f[0] != "gc" {
		return 0, false
	}
	if _, err := strconv.Atoi(f[1]); err != nil {
		return 0, false
	}
	s, ok := strings.CutPrefix(f[2], "@")
	if !ok {
		return 0, false
	}
	s, ok = strings.CutSuffix(s, "s")
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, false
	}
	return time.Duration(v * float64(time.Second)), true
}

// processRSS is a process's resident memory in bytes: the second field of
// /proc/PID/statm, in pages. false where there is no such file.
func processRSS(pid int) (int64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || pages < 0 {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// counts returns the heap allocations and the GC cycles after the
// warm-up (every cycle, the runtime's periodic ones included); ok is
// false when the run did not report its counts.
func (s *soakRun) counts() (allocs, gcs uint64, ok bool) {
	if s == nil || s.stats == nil || s.stats.AllocsAfterWarmup == nil || s.stats.GCAfterWarmup == nil {
		return 0, 0, false
	}
	return *s.stats.AllocsAfterWarmup, *s.stats.GCAfterWarmup, true
}

// soakTarget writes the soak's row of the targets table: met when every
// leg ran, warmed up, and neither allocated nor ran a GC cycle after its
// warm-up.
func (r *results) soakTarget(row func(n int, target, measured string, ok bool), n int) {
	var legs, parts []string
	met := len(r.soak) > 0
	for _, run := range r.soak {
		if run == nil || run.stats == nil {
			met = false
			continue
		}
		st := run.stats
		legs = append(legs, fmt.Sprintf("%s at %s", minutes(st.Seconds), balls(st.Balls)))
		parts = append(parts, fmt.Sprintf("%s: %s heap allocations (%s OS threads started), %s GC cycles (%d periodic); resident %s MiB after warm-up, %s MiB at the end",
			balls(st.Balls), intOr(st.AllocsAfterWarmup), intOr(st.ThreadsAfterWarmup), intOr(st.GCAfterWarmup), run.periodicGC,
			floatOr(st.RSSMBStart, "%.1f"), floatOr(st.RSSMBEnd, "%.1f")))
		allocs, gcs, ok := run.counts()
		met = met && ok && allocs == 0 && gcs == 0
	}
	measured := "no soak run"
	if len(parts) > 0 {
		measured = strings.Join(parts, "; ")
	}
	target := "0 allocations and 0 GC cycles after warm-up in long runs with the HUD and graph on"
	if len(legs) > 0 {
		target += ": " + strings.Join(legs, ", ")
	}
	row(n, target, measured, met)
}

// balls writes a ball count: "1 ball", "100,000 balls".
func balls(n int) string {
	if n == 1 {
		return "1 ball"
	}
	return commas(int64(n)) + " balls"
}

// minutes writes a run's length: "3 min", "1.5 min".
func minutes(seconds float64) string {
	return strconv.FormatFloat(math.Round(seconds/6)/10, 'f', -1, 64) + " min"
}

// writeSoak writes the soak's section.
func (r *results) writeSoak(p func(string, ...any)) {
	if len(r.soak) == 0 {
		return
	}
	p("## Soak\n\n")
	p("`GODEBUG=gctrace=1 bin/interpdemo -headless -vsync off -stats -hud=true -graph=true -balls N -duration D`: long runs, so that what happens only now and then (a buffer that fills after N frames, a refresh on a timer, the runtime's periodic GC) shows.\n\n")
	p("The counts are exact: `runtime.ReadMemStats` at the end of the first second and when the loop ends. The demo turns the runtime's periodic GC (a cycle when none ran for two minutes, the GC trace's \"GC forced\") off after its warm-up (gc.go); the column \"of which periodic\" shows whether any still ran. The bench reads the process's resident memory (`/proc/PID/statm`) once a second from %v on.\n\n", soakRSSSettle)
	p("| balls | seconds | frames | FPS | allocs after warm-up | OS threads started after warm-up | GC cycles after warm-up | of which periodic | RSS after warm-up MiB | RSS at the end MiB | RSS peak MiB (VmHWM, start-up included) | RSS sampled MiB: least; most in the first half; most in the second half (samples) |\n")
	p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, s := range r.soak {
		if s == nil || s.stats == nil {
			continue
		}
		st := s.stats
		seen := "-"
		if least, first, second, ok := s.rss.halves(); ok {
			seen = fmt.Sprintf("%.1f; %.1f; %.1f (%d)", least, first, second, len(s.rss))
		}
		p("| %s | %.0f | %s | %.1f | %s | %s | %s | %d | %s | %s | %s | %s |\n",
			commas(int64(st.Balls)), st.Seconds, commas(st.Frames), st.FPS,
			intOr(st.AllocsAfterWarmup), intOr(st.ThreadsAfterWarmup), intOr(st.GCAfterWarmup), s.periodicGC,
			floatOr(st.RSSMBStart, "%.1f"), floatOr(st.RSSMBEnd, "%.1f"), floatOr(st.RSSMBPeak, "%.1f"), seen)
	}
	p("\nAt 100,000 balls the resident memory can move by tens of MiB, down as well as up, with no Go allocation at all: that is the C heap (`[heap]` in /proc/PID/smaps), the GL driver's (Mesa llvmpipe's) buffers for a frame, which glibc's malloc gives back to the system and takes again. It settles within seconds; a leak would show as a second half of the run that reaches higher than the first.\n\n")
}

// runSoakOnly runs the soak alone and prints its section and its target
// row to w (bench -soak-only): the report is not written.
func runSoakOnly(o *options, w io.Writer) error {
	r := &results{started: time.Now()}
	if err := soak(o, r); err != nil {
		return err
	}
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	r.writeSoak(p)
	p("| # | target | measured | met |\n|---|---|---|---|\n")
	r.soakTarget(targetRow(p), 9)
	return nil
}
