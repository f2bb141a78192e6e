package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

// pacingRunDuration is each run's length: long enough that the 99th
// percentile is not one frame's (360 frames at 60 Hz).
const pacingRunDuration = 6 * time.Second

// maxDisturbed is the share of a run's frames that may miss a vblank:
// about one frame in a 6 s run at 60 Hz. A frame that woke up on time
// has a whole interval to draw a 320x240 picture, so more than that is the
// demo's doing unless the machine held the demo back (late_wakeups).
const maxDisturbed = 0.003

// pacingAttempts is how many pairs of runs the machine may spoil before
// the test gives up: it fails under INTERPDEMO_REQUIRE_GL=1 and is
// skipped otherwise.
const pacingAttempts = 3

// pacingRun runs the demo headless on a simulated display of hz with
// 1 ms of wake-up jitter, for pacingRunDuration, with the given tick and
// pacing, and returns its -stats. The run is bounded: it must exit within
// 40 s.
func pacingRun(t *testing.T, hz int, tick, pacing string) *report.Stats {
	t.Helper()
	args := []string{"-headless", "-vsync-sim", strconv.Itoa(hz), "-vsync-jitter", "1ms",
		"-tick", tick, "-pacing", pacing, "-duration", pacingRunDuration.String(),
		"-hud=false", "-graph=false", "-width", "320", "-height", "240", "-stats"}
	var extra []string
	rt := realTime()
	if rt != nil {
		extra = []string{"LP_NUM_THREADS=0"}
	}
	d := startDemoVia(t, rt, "", extra, args...)
	d.mustSucceed(40 * time.Second)
	return d.stats()
}

// realTime is the command that runs a program at the lowest real-time
// priority (chrt -f 1), or nil where the system refuses it (not root, or
// a container without real-time scheduling). The pacing runs measure how
// the demo paces its frames between wake-ups; another program's load on
// the cores delays the wake-ups and takes the CPU inside a frame, which
// is not the demo's doing: with two spinning loops on this 2-core
// machine, at a normal priority every attempt saw it (late_wakeups,
// 2026-12-06). In real time, llvmpipe draws on the demo's own thread
// (LP_NUM_THREADS=0): its rasterizer threads would run in real time too.
var realTime = sync.OnceValue(func() []string {
	chrt, err := exec.LookPath("chrt")
	if err != nil || exec.Command(chrt, "-f", "1", "true").Run() != nil {
		return nil
	}
	return []string{chrt, "-f", "1"}
})

// lateWakeups is the machine's own lateness in a run: the frames that
// the simulated display meant to wake and the OS woke more than half an
// interval later (late_wakeups). It is the only thing that counts a run
// as disturbed: a missed vblank after a wake-up on time, or a missing
// field, is the demo's own doing and a failure.
func lateWakeups(s *report.Stats) int64 { return *s.LateWakeups }

// missingFields returns the -stats fields the pacing checks read that a
// run did not write: a demo that stops reporting them fails, it is never
// taken for a disturbed one.
func missingFields(s *report.Stats) (missing []string) {
	if s.LateWakeups == nil {
		missing = append(missing, "late_wakeups")
	}
	if s.MissedVblanks == nil {
		missing = append(missing, "missed_vblanks")
	}
	if s.DisplayStepErrorMsP99 == nil {
		missing = append(missing, "display_step_error_ms_p99")
	}
	if s.Frames == 0 {
		missing = append(missing, "frames")
	}
	return missing
}

// TestPacingOnSimulatedDisplay is the acceptance run, the real
// binary headless on a simulated vsynced display (-vsync-sim, wake-ups up
// to 1 ms late), raw pacing, then smooth pacing:
//   - at 60 Hz with a 16.667 ms tick, raw pacing shows the problem: the
//     simulated vblanks sit half a millisecond before the tick boundaries,
//     so many frames run 0 or 2 ticks; smooth pacing runs exactly one tick
//     on at least 99 % of the frames (not counting the first, nor two
//     around each frame the machine itself made late);
//   - at 60, 120 and 144 Hz (a 40 ms tick at 120 and 144: a tick is not a
//     whole number of frames there), smooth pacing's 99th percentile of
//     the display step error is at most a quarter of raw pacing's;
//   - in each run, at most 0.3 % of the frames miss a vblank, not
//     counting one for each frame the machine woke late (late_wakeups);
//   - -stats says "simulated N Hz", the pacing, and the refresh interval
//     the pacer found, and has late_wakeups and missed_vblanks.
//
// A pair of runs that fails these checks may have measured the machine,
// not the pacing: a frame woke up more than half an interval late
// (late_wakeups, counted by the simulated display against the wake-up it
// asked for), or the process lost the CPU inside a frame, which no
// wake-up shows (a frame of 4 ticks among frames of one, under make
// test's own load). The pair is run again, up to three times, and one
// pair that passes is enough. If every pair fails and one of them had no
// late wake-up, the test fails; if every pair had late wake-ups it fails
// under INTERPDEMO_REQUIRE_GL=1, with what every attempt measured, and is
// skipped otherwise. A run without the fields fails at once.
func TestPacingOnSimulatedDisplay(t *testing.T) {
	if testing.Short() {
		t.Skip("12 s of wall time per pair of runs")
	}
	for _, c := range []struct {
		hz    int
		tick  string
		ticks bool // check the ticks per frame (a tick of one refresh)
	}{
		{60, "16.667ms", true},
		{120, "40ms", false},
		{144, "40ms", false},
	} {
		t.Run(fmt.Sprintf("%dHz", c.hz), func(t *testing.T) {
			// One display at a time: three demos at once, each in real
			// time (realTime), woke each other late and took the cores
			// from each other inside frames: about one attempt in two
			// failed, with or without other load; one at a time, none
			// in six beside two spinning loops (2026-12-06, this 2-core
			// machine).
			var attempts, clean []string
			for attempt := 1; attempt <= pacingAttempts; attempt++ {
				raw := pacingRun(t, c.hz, c.tick, "raw")
				smooth := pacingRun(t, c.hz, c.tick, "smooth")
				for _, s := range []*report.Stats{raw, smooth} {
					if m := missingFields(s); len(m) > 0 {
						t.Fatalf("%s run: -stats without %v", s.Pacing, m)
					}
				}
				problems := checkPacing(c.hz, c.ticks, raw, smooth)
				measured := fmt.Sprintf("attempt %d: display step error p99 raw %v ms, smooth %v ms; ticks per frame raw %v, smooth %v; late wake-ups %d and %d, missed vblanks %d and %d, in %d and %d frames; problems %q",
					attempt, *raw.DisplayStepErrorMsP99, *smooth.DisplayStepErrorMsP99, raw.TicksPerFrame, smooth.TicksPerFrame,
					*raw.LateWakeups, *smooth.LateWakeups, *raw.MissedVblanks, *smooth.MissedVblanks, raw.Frames, smooth.Frames, problems)
				t.Log(measured)
				attempts = append(attempts, measured)
				if len(problems) == 0 {
					return
				}
				if lateWakeups(raw) == 0 && lateWakeups(smooth) == 0 {
					clean = append(clean, problems...)
				}
			}
			if len(clean) > 0 {
				// A pair the machine left alone by its wake-ups failed;
				// so did every other attempt: the pacing's fault.
				t.Errorf("every one of %d attempts failed, one at least with no late wake-up:\n%s", pacingAttempts, strings.Join(attempts, "\n"))
				for _, p := range clean {
					t.Error(p)
				}
				return
			}
			msg := fmt.Sprintf("every one of %d attempts failed while the machine woke the demo late (late_wakeups): they measured its load, not the pacing:\n%s",
				pacingAttempts, strings.Join(attempts, "\n"))
			if os.Getenv("INTERPDEMO_REQUIRE_GL") == "1" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		})
	}
}

// checkPacing returns what is wrong with a pair of runs on a simulated
// display of hz, raw then smooth.
func checkPacing(hz int, ticks bool, raw, smooth *report.Stats) (problems []string) {
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	want := fmt.Sprintf("simulated %d Hz", hz)
	for _, s := range []*report.Stats{raw, smooth} {
		if s.VsyncActual != want || s.VsyncRequested != "on" {
			bad("%s run: vsync %s (actual %q), want on (actual %q)", s.Pacing, s.VsyncRequested, s.VsyncActual, want)
		}
		if s.RefreshMs == nil || math.Abs(*s.RefreshMs-1000/float64(hz)) > 0.01 {
			bad("%s run: refresh_ms %v, want %.3f", s.Pacing, derefF(s.RefreshMs), 1000/float64(hz))
		}
		if s.DisplayStepErrorMsP99 == nil {
			bad("%s run: no display_step_error_ms_p99", s.Pacing)
			return problems
		}
	}
	for _, s := range []*report.Stats{raw, smooth} {
		// A frame the machine woke more than half an interval late may
		// miss its vblank through no fault of the demo's: one each.
		if m, l := *s.MissedVblanks, lateWakeups(s); float64(m-l) > maxDisturbed*float64(s.Frames) {
			bad("%s run: %d vblanks missed in %d frames, %d of them after a late wake-up at most: want at most %.1f %% more", s.Pacing, m, s.Frames, min(m, l), 100*maxDisturbed)
		}
	}
	if raw.Pacing != "raw" || smooth.Pacing != "smooth" {
		bad("pacing %q and %q, want raw and smooth", raw.Pacing, smooth.Pacing)
	}
	if r, s := *raw.DisplayStepErrorMsP99, *smooth.DisplayStepErrorMsP99; s > r/4 {
		bad("display step error p99: smooth %.3f ms, raw %.3f ms: want at most a quarter", s, r)
	}
	if !ticks {
		return problems
	}
	if odd := raw.Frames - raw.TicksPerFrame["1"]; odd < raw.Frames/20 {
		bad("raw pacing: ticks per frame %v: want frames at 0 or 2 ticks (the problem)", raw.TicksPerFrame)
	}
	// Not counted: the first frame (no tick has ended yet), and the two
	// frames around each that the machine woke late. (Not those around a
	// missed vblank: a frame that woke on time and missed one is the
	// demo's.)
	counted := smooth.Frames - 1 - 2*lateWakeups(smooth)
	if ones := smooth.TicksPerFrame["1"]; ones*100 < counted*99 {
		bad("smooth pacing: ticks per frame %v over %d frames: fewer than 99%% at one tick", smooth.TicksPerFrame, smooth.Frames)
	}
	return problems
}

func derefF(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// TestJSwitchesPacing is the person at the keyboard: a real window under
// Xvfb on a simulated 60 Hz display, smooth pacing by default (vsync is
// on); J switches to raw and Q quits, and -stats says raw, with the
// simulated display reported as the vsync in force. The title shows it
// too.
func TestJSwitchesPacing(t *testing.T) {
	display := xvfb(t)
	d := startDemo(t, display, "-stats", "-vsync-sim", "60", "-vsync-jitter", "1ms", "-hud=false", "-graph=false")
	d.waitTitle("the simulated display", 10*time.Second, func(w winTitle) bool { return w.vsync == "simulated 60 Hz" })
	d.keys("j", "q")
	d.mustSucceed(10 * time.Second)
	s := d.stats()
	if s.Pacing != "raw" || s.VsyncActual != "simulated 60 Hz" || s.LateWakeups == nil {
		t.Errorf("after J: pacing %q, vsync actual %q, late wake-ups %v; want raw, simulated 60 Hz, counted", s.Pacing, s.VsyncActual, s.LateWakeups)
	}
}

// TestPacingChecksCatchRegressions checks the checks on made-up -stats,
// without the binary: a healthy pair passes; a run that drops
// late_wakeups or missed_vblanks is missing fields (a failure, never a
// disturbed run); frames that miss vblanks after waking on time fail,
// both as missed vblanks and as frames off one tick, however many there
// are.
func TestPacingChecksCatchRegressions(t *testing.T) {
	run := func(pacing string, ones, twos, late, missed int64, stepErr float64) *report.Stats {
		refresh := 1000.0 / 60
		s := &report.Stats{VsyncRequested: "on", VsyncActual: "simulated 60 Hz", Pacing: pacing,
			RefreshMs: &refresh, DisplayStepErrorMsP99: &stepErr, LateWakeups: &late, MissedVblanks: &missed,
			Frames: 1 + ones + twos, TicksPerFrame: map[string]int64{"0": 1, "1": ones, "2": twos}}
		return s
	}
	raw := run("raw", 180, 180, 0, 0, 0.95)
	if p := checkPacing(60, true, raw, run("smooth", 359, 0, 0, 0, 0.05)); len(p) != 0 {
		t.Errorf("a healthy pair: %q, want no problems", p)
	}
	if p := checkPacing(60, true, raw, run("smooth", 340, 19, 0, 19, 0.05)); len(p) != 2 {
		t.Errorf("19 frames of 360 missing a vblank after waking on time: %q, want missed vblanks and ticks per frame", p)
	}
	if p := checkPacing(60, true, raw, run("smooth", 355, 4, 2, 0, 0.05)); len(p) != 0 {
		t.Errorf("4 frames at 2 ticks around 2 late wake-ups: %q, want no problems (the machine's)", p)
	}
	s := run("smooth", 359, 0, 0, 0, 0.05)
	s.LateWakeups, s.MissedVblanks = nil, nil
	if m := missingFields(s); len(m) != 2 {
		t.Errorf("a run without late_wakeups and missed_vblanks: missing %v, want both", m)
	}
}
