package demo

import (
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/loop"
)

// paceSchedule is a generated run of frames on a 60 Hz display: frame i
// wakes up after vblank i (at 1 s + i/60 s), late by up to jitter, with
// now and then a stall; and key presses and releases of the arrows at
// random times, stamped on the same clock.
func paceSchedule(seed uint64, frames int, jitter time.Duration) (times []time.Duration, events [][]input.Event) {
	r := rand.New(rand.NewPCG(seed, 61))
	times = make([]time.Duration, frames)
	events = make([][]input.Event, frames)
	prev := time.Second
	for i := range times {
		now := time.Second + time.Duration(int64(i+1)*1e9/60) + time.Duration(r.Int64N(int64(jitter)+1))
		if r.IntN(200) == 0 {
			now += time.Duration(r.Int64N(int64(300 * time.Millisecond))) // a stall
		}
		now = max(now, prev+1)
		for t := prev; t < now; t += time.Duration(r.Int64N(int64(40*time.Millisecond)) + 1) {
			if r.IntN(6) == 0 {
				events[i] = append(events[i], input.Event{Time: t, Button: input.Button(r.IntN(4)), Down: r.IntN(2) == 0})
			}
		}
		times[i], prev = now, now
	}
	return times, events
}

func newPaceSim(t *testing.T, clock *loop.ManualClock, tick time.Duration) *sim.Sim {
	t.Helper()
	st := sim.DefaultSettings()
	st.Tick, st.Balls = tick, 10
	s, err := sim.New(sim.Config{Settings: st}, clock, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRawPacingIsTheOriginalLoop: with -pacing raw, the simulation gets
// each frame's clock reading exactly as the shell gave it before pacing
// existed (sim.Frame(now, events)), and its loop is the classic one: on
// the same schedule of frames and key presses, every frame runs the same
// ticks, draws at the same percentWithinTick and leaves the same world
// hash, and the ticks per frame are those of a classic loop.Fixed (which
// the loop's tests hold to the interp_demo article's literal loop). Smooth
// pacing, on the same schedule, is not the same.
func TestRawPacingIsTheOriginalLoop(t *testing.T) {
	for _, tick := range []time.Duration{40 * time.Millisecond, 16667 * time.Microsecond} {
		times, events := paceSchedule(1, 1500, 2*time.Millisecond)
		ca, cb, cc := loop.NewManualClock(time.Second), loop.NewManualClock(time.Second), loop.NewManualClock(time.Second)
		orig, paced, smooth := newPaceSim(t, ca, tick), newPaceSim(t, cb, tick), newPaceSim(t, cc, tick)
		raw := &pacing{mode: PacingRaw}
		sm := &pacing{mode: PacingSmooth}
		sm.pacer.SetRefresh(time.Second / 60)
		classic, err := loop.NewFixed(loop.FixedConfig{Tick: tick, MaxLoops: 5}, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		sameAsSmooth := true
		for i, now := range times {
			ca.Set(now)
			cb.Set(now)
			cc.Set(now)
			a := orig.Frame(now, events[i])
			b := paced.Frame(raw.frameTime(now, paced), events[i])
			c := smooth.Frame(sm.frameTime(now, smooth), events[i])
			if a != b || orig.World().Hash() != paced.World().Hash() {
				t.Fatalf("tick %v frame %d at %v: original %+v hash %x; raw pacing %+v hash %x",
					tick, i, now, a, orig.World().Hash(), b, paced.World().Hash())
			}
			if want := classic.Step(now).Ticks; a.Ticks != want {
				t.Fatalf("tick %v frame %d: %d ticks, the classic loop %d", tick, i, a.Ticks, want)
			}
			if a != c {
				sameAsSmooth = false
			}
		}
		if paced.Stabilize() != 0 || smooth.Stabilize() != stabilizeWindow(tick) {
			t.Fatalf("stabilisation windows: raw %v, smooth %v", paced.Stabilize(), smooth.Stabilize())
		}
		if sameAsSmooth {
			t.Fatalf("tick %v: smooth pacing ran every frame as raw pacing did: the comparison proves nothing", tick)
		}
	}
}

// TestSmoothPacingSteadiesTicks is the issue at the level of the
// simulation: 60 ticks a second on a 60 Hz display whose frames wake up
// within 1 ms after the vblanks, the tick boundaries amid the wake-ups
// (the vblanks half a millisecond before them). Raw pacing runs 0 or 2
// ticks on many frames; smooth pacing runs one tick on at least 99 % of
// them, and the drawn game time steps by one refresh interval.
func TestSmoothPacingSteadiesTicks(t *testing.T) {
	const frames = 3000
	tick := time.Second / 60
	for _, mode := range []PacingMode{PacingRaw, PacingSmooth} {
		r := rand.New(rand.NewPCG(2, 62))
		clock := loop.NewManualClock(time.Second)
		s := newPaceSim(t, clock, tick)
		p := &pacing{mode: mode}
		p.pacer.SetRefresh(tick)
		var counts [8]int
		var steps []time.Duration
		prevDrawn := time.Duration(0)
		for i := 1; i <= frames; i++ {
			vblank := time.Second - 500*time.Microsecond + time.Duration(int64(i)*1e9/60)
			now := vblank + time.Duration(r.Int64N(int64(time.Millisecond)+1))
			clock.Set(now)
			info := s.Frame(p.frameTime(now, s), nil)
			counts[min(info.Ticks, 7)]++
			if i > 60 {
				steps = append(steps, info.Drawn-prevDrawn)
			}
			prevDrawn = info.Drawn
		}
		switch mode {
		case PacingRaw:
			if odd := frames - counts[1]; odd < frames/4 {
				t.Errorf("raw: ticks per frame %v: want the 0/2 wobble on many frames", counts)
			}
		case PacingSmooth:
			if counts[1] < frames*99/100 {
				t.Errorf("smooth: ticks per frame %v: fewer than 99%% at one tick", counts)
			}
			even := 0
			for _, d := range steps {
				if e := d - tick; e < 50*time.Microsecond && e > -50*time.Microsecond {
					even++
				}
			}
			if even < len(steps)*99/100 {
				t.Errorf("smooth: %d of %d drawn steps within 50 µs of the refresh interval", even, len(steps))
			}
		}
		t.Logf("%v: ticks per frame %v", mode, counts[:4])
	}
}

// TestVsyncSimGrid: the simulated display's vblanks are exact (hz of them
// a second, none lost to rounding), next is the first one after a time,
// and the grid starts half the jitter before the loop.
func TestVsyncSimGrid(t *testing.T) {
	for _, hz := range []int{60, 144, 1000, 7} {
		v := newVsyncSim(hz, 2*time.Millisecond, 1)
		v.start(10 * time.Second)
		if v.origin != 10*time.Second-time.Millisecond {
			t.Fatalf("%d Hz: origin %v", hz, v.origin)
		}
		for s := int64(0); s < 3; s++ {
			if got := v.vblank(s*int64(hz)) - v.origin; got != time.Duration(s)*time.Second {
				t.Fatalf("%d Hz: vblank %d at %v after the origin, want %v s", hz, s*int64(hz), got, s)
			}
		}
		r := rand.New(rand.NewPCG(uint64(hz), 3))
		for i := 0; i < 1000; i++ {
			now := v.origin + time.Duration(r.Int64N(int64(100*time.Second)))
			if i == 0 {
				now = v.vblank(5) // exactly on one: the next is the one after
			}
			m := v.next(now)
			if v.vblank(m) <= now || m > 0 && v.vblank(m-1) > now {
				t.Fatalf("%d Hz: next(%v) = %d at %v; the one before at %v", hz, now, m, v.vblank(m), v.vblank(m-1))
			}
		}
		if v.next(v.origin-time.Hour) != 0 {
			t.Fatalf("%d Hz: before the origin, next is %d", hz, v.next(v.origin-time.Hour))
		}
	}
}

// TestStepMeter: the step error is |Δdrawn/speed - Δshown|, the first two
// frames and paused ones are left out, and a step of k intervals counts
// k-1 missed vblanks.
func TestStepMeter(t *testing.T) {
	iv := 10 * time.Millisecond
	var m stepMeter
	add := func(drawn, shown time.Duration, speed float64, paused bool) {
		m.add(drawn, shown, speed, paused, iv)
	}
	add(0, 0, 1, false)
	add(50*time.Millisecond, 10*time.Millisecond, 1, false) // the start-up step: left out
	if _, ok := m.p99(); ok {
		t.Fatal("a p99 before any counted step")
	}
	add(60*time.Millisecond, 20*time.Millisecond, 1, false)  // even: 0
	add(73*time.Millisecond, 30*time.Millisecond, 1, false)  // 3 ms long
	add(93*time.Millisecond, 60*time.Millisecond, 2, false)  // half speed: 10 drawn, 30 shown (2 missed): 20 ms
	add(500*time.Millisecond, 70*time.Millisecond, 1, true)  // paused: left out
	add(600*time.Millisecond, 80*time.Millisecond, 1, false) // first after the pause: left out
	add(610*time.Millisecond, 90*time.Millisecond, 1, false) // even: 0
	if m.hist.Count() != 4 || m.hist.Max() != 20*time.Millisecond || m.hist.Min() != 0 || m.hist.Mean() != 23*time.Millisecond/4 {
		t.Fatalf("%d steps, min %v max %v mean %v; want 4, 0, 20ms, 5.75ms", m.hist.Count(), m.hist.Min(), m.hist.Max(), m.hist.Mean())
	}
	if m.missed != 2 {
		t.Fatalf("%d missed vblanks, want 2", m.missed)
	}
}

// TestPacingFlags: -pacing defaults to smooth with vsync and raw without;
// -vsync-sim and -vsync-jitter are checked; the bad values name the flag.
func TestPacingFlags(t *testing.T) {
	for _, c := range []struct {
		args   []string
		pacing PacingMode
		err    string
	}{
		{nil, PacingSmooth, ""},
		{[]string{"-vsync", "off"}, PacingRaw, ""},
		{[]string{"-vsync", "adaptive"}, PacingSmooth, ""},
		{[]string{"-pacing", "raw"}, PacingRaw, ""},
		{[]string{"-vsync", "off", "-pacing", "smooth"}, PacingSmooth, ""},
		{[]string{"-vsync-sim", "60", "-vsync-jitter", "1ms"}, PacingSmooth, ""},
		{[]string{"-pacing", "fast"}, 0, "-pacing: unknown pacing"},
		{[]string{"-vsync-sim", "-1"}, 0, "-vsync-sim: must be between 0"},
		{[]string{"-vsync-sim", "1001"}, 0, "-vsync-sim: must be between 0"},
		{[]string{"-vsync-jitter", "1ms"}, 0, "-vsync-jitter: needs -vsync-sim"},
		{[]string{"-vsync-sim", "60", "-vsync-jitter", "-1ms"}, 0, "-vsync-jitter: must not be negative"},
		{[]string{"-vsync-sim", "100", "-vsync-jitter", "10ms"}, 0, "-vsync-jitter: must be less than"},
	} {
		cfg, err := Parse(c.args, io.Discard, Platform{})
		if c.err != "" {
			var ue UsageError
			if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%v: error %v, want a usage error starting %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil || cfg.Pacing != c.pacing {
			t.Errorf("%v: pacing %v, error %v; want %v", c.args, cfg.Pacing, err, c.pacing)
		}
	}
	for _, n := range pacingNames {
		if m, err := ParsePacing(n); err != nil || m.String() != n {
			t.Errorf("ParsePacing(%q) = %v, %v", n, m, err)
		}
	}
}

// TestPacingReports: the -stats fields and the HUD's line come from the
// pacing: its mode, the pacer's interval while a display paces the
// frames, the step error's p99 once there is one, and with a simulated
// display the missed vblanks and the late wake-ups.
func TestPacingReports(t *testing.T) {
	cfg := Config{Pacing: PacingSmooth, VsyncSim: 60}
	p := newPacing(&cfg)
	var r report.Stats
	p.report(&r)
	if r.Pacing != "smooth" || r.RefreshMs != nil || r.DisplayStepErrorMsP99 != nil || r.MissedVblanks != nil || r.LateWakeups == nil {
		t.Fatalf("before any frame, display not synced: %+v", r)
	}
	p.synced = true
	p.pacer.SetRefresh(p.vsim.interval())
	for i := 0; i < 5; i++ {
		d := time.Duration(i) * p.vsim.interval()
		p.meter.add(d, d+time.Duration(i%2)*time.Millisecond, 1, false, p.vsim.interval())
	}
	r = report.Stats{}
	p.report(&r)
	if r.RefreshMs == nil || *r.RefreshMs != 16.667 || r.DisplayStepErrorMsP99 == nil || *r.DisplayStepErrorMsP99 != 1 || r.MissedVblanks == nil {
		t.Fatalf("after 5 frames: %+v", r)
	}
	var s hud.Snapshot
	p.snapshot(&s)
	s.Help = true
	text := string(hud.AppendText(nil, &s))
	if !strings.Contains(text, "pacing smooth  refresh 16.7ms  step error p99 1.000ms") {
		t.Fatalf("HUD text lacks the pacing line:\n%s", text)
	}
	s.Help = false
	if text := string(hud.AppendText(nil, &s)); strings.Contains(text, "pacing") {
		t.Fatalf("the compact HUD shows the pacing line:\n%s", text)
	}
}

// TestPacingAllocs: the pacing's per-frame work allocates nothing: the
// time for the simulation, the simulated display's grid and the step
// measurement.
func TestPacingAllocs(t *testing.T) {
	clock := loop.NewManualClock(time.Second)
	s := newPaceSim(t, clock, time.Second/60)
	cfg := Config{Pacing: PacingSmooth, VsyncSim: 60, VsyncJitter: time.Millisecond}
	p := newPacing(&cfg)
	p.start(time.Second)
	p.synced = true
	now := time.Second
	a := testing.AllocsPerRun(1000, func() {
		now += time.Second / 60
		clock.Set(now)
		t0 := p.frameTime(now, s)
		vb := p.vsim.vblank(p.vsim.next(now))
		p.meter.add(t0, vb, 1, false, p.vsim.interval())
	})
	if a != 0 {
		t.Fatalf("a frame's pacing allocates %v times", a)
	}
}
