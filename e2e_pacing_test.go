package main

import (
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

// pacingRunDuration is each run's length: long enough that the 99th
// percentile is not one frame's (360 frames at 60 Hz).
const pacingRunDuration = 6 * time.Second

// maxDisturbed is the share of a run's frames the machine may spoil
// before the run measures the machine rather than the pacing: each
// spoils the steps before and after it, and 99th percentiles are taken.
const maxDisturbed = 0.003

// pacingRun runs the demo headless on a simulated display of hz with
// 1 ms of wake-up jitter, for pacingRunDuration, with the given tick and
// pacing, and returns its -stats. The run is bounded: it must exit within
// 40 s.
func pacingRun(t *testing.T, hz int, tick, pacing string) *report.Stats {
	t.Helper()
	d := startDemo(t, "", "-headless", "-vsync-sim", strconv.Itoa(hz), "-vsync-jitter", "1ms",
		"-tick", tick, "-pacing", pacing, "-duration", pacingRunDuration.String(),
		"-hud=false", "-graph=false", "-width", "320", "-height", "240", "-stats")
	d.mustSucceed(40 * time.Second)
	return d.stats()
}

func deref(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// disturbed is the share of a run's frames that the machine, not the
// pacing, spoiled: frames that woke up more than half an interval late or
// missed a vblank because the machine did not run the demo in time.
func disturbed(s *report.Stats) float64 {
	if s.LateWakeups == nil || s.MissedVblanks == nil || s.Frames == 0 {
		return 1
	}
	return float64(*s.LateWakeups+*s.MissedVblanks) / float64(s.Frames)
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
//   - -stats says "simulated N Hz", the pacing, and the refresh interval
//     the pacer found.
//
// A pair of runs that fails these checks after the machine disturbed
// either (more than 0.3 % of its frames woke up late or missed a vblank
// because other work held the CPU: late_wakeups, missed_vblanks) measured
// the machine, not the pacing: the pair is run again, up to three times,
// and the test is skipped if the machine never leaves one alone. A pair
// the machine left alone must pass.
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
			for attempt := 1; ; attempt++ {
				raw := pacingRun(t, c.hz, c.tick, "raw")
				smooth := pacingRun(t, c.hz, c.tick, "smooth")
				problems := checkPacing(c.hz, c.ticks, raw, smooth)
				t.Logf("attempt %d: display step error p99 raw %v ms, smooth %v ms; ticks per frame raw %v, smooth %v; late wake-ups %v and %v, missed vblanks %v and %v",
					attempt, derefF(raw.DisplayStepErrorMsP99), derefF(smooth.DisplayStepErrorMsP99), raw.TicksPerFrame, smooth.TicksPerFrame,
					deref(raw.LateWakeups), deref(smooth.LateWakeups), deref(raw.MissedVblanks), deref(smooth.MissedVblanks))
				if len(problems) == 0 {
					return
				}
				if disturbed(raw) <= maxDisturbed && disturbed(smooth) <= maxDisturbed {
					for _, p := range problems {
						t.Error(p)
					}
					return
				}
				if attempt == 3 {
					t.Skipf("the machine disturbed 3 attempts (%v): they measured its load, not the pacing", problems)
				}
			}
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
	// frames around each that the machine made late.
	counted := smooth.Frames - 1 - 2*(deref(smooth.LateWakeups)+deref(smooth.MissedVblanks))
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
