package loop

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// A generated run on a vsynced display. The display shows a frame at each
// vblank; frame i wakes up after vblank m_i, late by the jitter, and the
// next frame follows the next vblank, or a later one when the frame took
// too long (a missed vblank). The test knows every frame's vblank, which
// the pacer has to find from the wake-up times alone.

// display is a refresh rate with its vblanks at origin + m/hz, exactly.
type display struct {
	hz     float64
	origin time.Duration
}

func (d display) period() time.Duration { return time.Duration(math.Round(1e9 / d.hz)) }

func (d display) vblank(m int64) time.Duration {
	return d.origin + time.Duration(math.Round(float64(m)*1e9/d.hz))
}

// jitterFunc is a wake-up delay after the vblank, given the interval.
type jitterFunc func(r *rand.Rand, period time.Duration) time.Duration

// uniform is a delay uniform in [0, d].
func uniform(d time.Duration) jitterFunc {
	return func(r *rand.Rand, _ time.Duration) time.Duration { return time.Duration(r.Int64N(int64(d) + 1)) }
}

// heavy is a heavy-tailed delay: Pareto with shape 1.5 and scale 100 µs,
// cut at just under three quarters of an interval (a wake-up later than
// that is taken for an early one of the next vblank's).
func heavy(r *rand.Rand, period time.Duration) time.Duration {
	u := 1 - r.Float64() // (0, 1]
	d := time.Duration(100e3 * (math.Pow(u, -1/1.5) - 1))
	return min(d, period*3/4-time.Microsecond)
}

// segment is a stretch of a run: frames on one display.
type segment struct {
	disp   display
	frames int
	jitter jitterFunc
	miss   float64 // the chance a frame misses 1 to 3 vblanks
}

// wake is one generated frame.
type wake struct {
	now    time.Duration // when it woke up
	vblank time.Duration // the vblank it followed
	steps  int           // vblanks since the last frame's (0 for the first of a segment)
	jitter time.Duration // now - vblank
	seg    int
}

// genRun generates the frames of the segments in order; each segment's
// display starts after the last vblank of the one before.
func genRun(r *rand.Rand, segs []segment) []wake {
	var ws []wake
	for si, s := range segs {
		d := s.disp
		if len(ws) > 0 {
			d.origin = ws[len(ws)-1].vblank + d.period()
		}
		m := int64(0)
		for i := 0; i < s.frames; i++ {
			steps := 0
			if i > 0 {
				steps = 1
				if s.miss > 0 && r.Float64() < s.miss {
					steps += 1 + r.IntN(3)
				}
			}
			m += int64(steps)
			v := d.vblank(m)
			j := s.jitter(r, d.period())
			ws = append(ws, wake{now: v + j, vblank: v, steps: steps, jitter: j, seg: si})
		}
	}
	return ws
}

// paceRun runs a pacer over the wake-ups, checks the bounds every frame
// must keep, and returns the frames.
func paceRun(t *testing.T, p *Pacer, ws []wake) []PacedFrame {
	t.Helper()
	out := make([]PacedFrame, len(ws))
	for i, w := range ws {
		fr := p.Step(w.now)
		out[i] = fr
		checkPaced(t, i, fr)
		if i > 0 && fr.Time < out[i-1].Time {
			t.Fatalf("frame %d: Time %v before the last frame's %v", i, fr.Time, out[i-1].Time)
		}
	}
	return out
}

// checkPaced checks what holds of every paced frame.
func checkPaced(t *testing.T, i int, fr PacedFrame) {
	t.Helper()
	switch {
	case fr.Time > fr.Now:
		t.Fatalf("frame %d: Time %v after Now %v", i, fr.Time, fr.Now)
	case fr.Snapped && fr.Lag() >= fr.Interval*3/4+1:
		t.Fatalf("frame %d: Time %v is %v before Now, three quarters of the interval %v or more", i, fr.Time, fr.Lag(), fr.Interval)
	case !fr.Snapped && fr.Time != fr.Now:
		t.Fatalf("frame %d: not snapped, but Time %v != Now %v", i, fr.Time, fr.Now)
	case fr.Steps < 0 || !fr.Snapped && fr.Steps != 0:
		t.Fatalf("frame %d: %d steps (snapped %v)", i, fr.Steps, fr.Snapped)
	case fr.Snapped && fr.Steps > 0 && fr.Interval <= 0:
		t.Fatalf("frame %d: snapped with interval %v", i, fr.Interval)
	}
}

// stepErrors returns, for frames from..to-1, how far each frame's step of
// time is from the step of the vblanks it follows: |ΔTime - Δvblank| for
// the pacer, |Δnow - Δvblank| for the raw wake-up times.
func stepErrors(ws []wake, frs []PacedFrame, from, to int) (paced, raw []time.Duration) {
	for i := max(from, 1); i < to; i++ {
		dv := ws[i].vblank - ws[i-1].vblank
		e := frs[i].Time - frs[i-1].Time - dv
		paced = append(paced, max(e, -e))
		e = ws[i].now - ws[i-1].now - dv
		raw = append(raw, max(e, -e))
	}
	return paced, raw
}

// quantile is the nearest-rank q-quantile.
func quantile(v []time.Duration, q float64) time.Duration {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// TestPacerTable walks a short run by hand, each output derived from the
// documented rules: a 10 ms hint; the first frame passes through, the
// second starts the grid; a frame goes to the last grid point before it
// (or up to 2.5 ms after it), and moves the grid back onto itself if it
// woke up before its point.
func TestPacerTable(t *testing.T) {
	p, err := NewPacer(PacerConfig{Refresh: 10 * ms})
	if err != nil {
		t.Fatal(err)
	}
	us := time.Microsecond
	for i, c := range []struct {
		now, time        time.Duration
		snapped          bool
		steps            int
		correction, ival time.Duration
	}{
		{now: 1000 * us, time: 1000 * us, ival: 10 * ms},                  // first frame: passes through
		{now: 10300 * us, time: 10300 * us, snapped: true, ival: 10 * ms}, // starts the grid
		{20100 * us, 20100 * us, true, 1, -200 * us, 10 * ms},             // woke before 20.3: the grid moves back
		{30200 * us, 30100 * us, true, 1, 0, 10 * ms},                     // 0.1 ms late: on the grid
		{50400 * us, 50100 * us, true, 2, 0, 10 * ms},                     // a missed vblank: two steps
		{60050 * us, 60050 * us, true, 1, -50 * us, 10 * ms},              // early again
		{70049 * us, 70049 * us, true, 1, -1 * us, 10 * ms},               // and again, by 1 µs
		{70049 * us, 70049 * us, true, 0, 0, 10 * ms},                     // the same time again
		{83000 * us, 80049 * us, true, 1, 0, 10 * ms},                     // 2.95 ms late: still the nearest point
		{90049 * us, 90049 * us, true, 1, 0, 10 * ms},                     // right on it
		{140049*us + 4900*us, 140049 * us, true, 5, 0, 10 * ms},           // four missed vblanks, 4.9 ms late
		{150049*us + 7000*us, 150049 * us, true, 1, 0, 10 * ms},           // 7 ms late: still after 150.049 ms
		{160049*us + 8200*us, 168249 * us, true, 1, 8200 * us, 10 * ms},   // 1.8 ms early for 170.049: taken for 8.2 ms late, Time is now
		{168249 * us, 168249 * us, true, 0, 0, 10 * ms},                   // the same time again: that Time, not the grid's 160.049 (FuzzPacer)
	} {
		fr := p.Step(c.now)
		checkPaced(t, i, fr)
		if fr.Now != c.now || fr.Time != c.time || fr.Snapped != c.snapped || fr.Steps != c.steps || fr.Correction != c.correction || fr.Interval != c.ival {
			t.Fatalf("frame %d at %v: got %+v; want time %v snapped %v steps %d correction %v interval %v",
				i, c.now, fr, c.time, c.snapped, c.steps, c.correction, c.ival)
		}
	}
	if p.TotalMissed() != 1+4 || p.TotalFrames() != 14 {
		t.Fatalf("missed %d frames %d, want 5 and 14", p.TotalMissed(), p.TotalFrames())
	}
}

// TestPacerSchedules runs generated displays and checks, after the pacer
// has found the grid (the warm-up: one second, or the 32 frames it
// measures without a hint, plus a second):
//   - every frame is on the vblank it follows: its step of Time is the
//     step of the vblanks to within maxErr for 99 % of the frames (it is
//     the jitter itself, up to a millisecond, for the raw times), and
//     Steps counts the vblanks (missed ones included) for every frame
//     that woke up within half an interval of its vblank;
//   - the interval is found to within 0.01 %;
//   - with a hint, over the whole run, the p99 step error is at most a
//     quarter of the raw times'.
func TestPacerSchedules(t *testing.T) {
	us := time.Microsecond
	for _, c := range []struct {
		name   string
		hz     float64
		hint   bool
		jitter jitterFunc
		miss   float64
		maxErr time.Duration // p99 of the step error after the warm-up
	}{
		{"60Hz uniform 1ms", 60, true, uniform(ms), 0, 60 * us},
		{"60Hz uniform 1ms no hint", 60, false, uniform(ms), 0, 60 * us},
		{"60Hz uniform 2ms", 60, true, uniform(2 * ms), 0, 120 * us},
		{"120Hz uniform 1ms", 120, true, uniform(ms), 0, 60 * us},
		{"144Hz uniform 1ms", 144, true, uniform(ms), 0, 60 * us},
		{"144Hz uniform 2ms no hint", 144, false, uniform(2 * ms), 0, 120 * us},
		{"59.94Hz uniform 300us", 60000.0 / 1001, true, uniform(300 * us), 0, 30 * us},
		{"60Hz missed frames", 60, true, uniform(ms), 0.05, 60 * us},
		{"144Hz missed frames no hint", 144, false, uniform(ms), 0.05, 60 * us},
		{"60Hz heavy tail", 60, true, heavy, 0, 150 * us},
		{"144Hz heavy tail", 144, true, heavy, 0.02, 150 * us},
		{"240Hz uniform 500us", 240, true, uniform(500 * us), 0, 40 * us},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(c.hz*1000), 7))
			disp := display{hz: c.hz, origin: 5*time.Second + time.Duration(r.Int64N(int64(time.Second)))}
			frames := int(c.hz * 20)
			ws := genRun(r, []segment{{disp, frames, c.jitter, c.miss}})
			var cfg PacerConfig
			if c.hint {
				cfg.Refresh = disp.period()
			}
			p, err := NewPacer(cfg)
			if err != nil {
				t.Fatal(err)
			}
			frs := paceRun(t, p, ws)
			warm := int(c.hz)
			if !c.hint {
				warm += pacerBoot + 1
			}
			for i := warm; i < len(ws); i++ {
				if !frs[i].Snapped {
					t.Fatalf("frame %d: not snapped after the warm-up", i)
				}
				if ws[i].jitter <= disp.period()/2 && frs[i].Steps != ws[i].steps {
					t.Fatalf("frame %d: %d steps, the display moved %d vblanks (jitter %v)", i, frs[i].Steps, ws[i].steps, ws[i].jitter)
				}
			}
			paced, raw := stepErrors(ws, frs, warm, len(ws))
			if q := quantile(paced, 0.99); q > c.maxErr {
				t.Errorf("after the warm-up: p99 step error %v, want at most %v (raw %v)", q, c.maxErr, quantile(raw, 0.99))
			}
			// Without a hint the first 32 frames pass through while the
			// pacer measures: the whole run is compared with a hint only.
			allPaced, allRaw := stepErrors(ws, frs, 0, len(ws))
			if qp, qr := quantile(allPaced, 0.99), quantile(allRaw, 0.99); c.hint && qp*4 > qr {
				t.Errorf("whole run: p99 step error %v, raw %v: not a quarter", qp, qr)
			}
			if got, want := p.Interval(), float64(1e9)/c.hz; math.Abs(float64(got)-want) > want*1e-4 {
				t.Errorf("interval %v, the display's %.1fns", got, want)
			}
			t.Logf("p99 step error %v (raw %v), max %v; interval %v; missed %d",
				quantile(paced, 0.99), quantile(raw, 0.99), quantile(paced, 1), p.Interval(), p.TotalMissed())
		})
	}
}

// TestPacerRateChange: the display changes its rate without telling (the
// pacer gives the old grid up, measures and snaps to the new one within a
// second), or with SetRefresh (it snaps to the new grid at once).
func TestPacerRateChange(t *testing.T) {
	for _, c := range []struct {
		from, to float64
		tell     bool
	}{
		{60, 144, false},
		{144, 60, false},
		{60, 120, false},
		{75, 60, false},
		{60, 144, true},
		{144, 60, true},
	} {
		r := rand.New(rand.NewPCG(uint64(c.from), uint64(c.to)))
		a := display{hz: c.from, origin: time.Second}
		b := display{hz: c.to}
		n1 := int(c.from * 5)
		ws := genRun(r, []segment{{a, n1, uniform(ms), 0}, {b, int(c.to * 5), uniform(ms), 0}})
		p, err := NewPacer(PacerConfig{Refresh: a.period()})
		if err != nil {
			t.Fatal(err)
		}
		frs := make([]PacedFrame, len(ws))
		for i, w := range ws {
			if c.tell && i == n1 {
				if err := p.SetRefresh(b.period()); err != nil {
					t.Fatal(err)
				}
			}
			frs[i] = p.Step(w.now)
			checkPaced(t, i, frs[i])
		}
		settle := n1 + 2
		if !c.tell {
			settle = n1 + int(c.to) // a second on the new display
		}
		for i := settle; i < len(ws); i++ {
			if !frs[i].Snapped || frs[i].Steps != ws[i].steps {
				t.Fatalf("%v->%v Hz (told %v): frame %d (%d into the new rate): snapped %v steps %d, want %d",
					c.from, c.to, c.tell, i, i-n1, frs[i].Snapped, frs[i].Steps, ws[i].steps)
			}
		}
		if got, want := p.Interval(), 1e9/c.to; math.Abs(float64(got)-want) > want*1e-3 {
			t.Errorf("%v->%v Hz: interval %v, want %.0fns", c.from, c.to, got, want)
		}
		paced, raw := stepErrors(ws, frs, settle, len(ws))
		if qp, qr := quantile(paced, 0.99), quantile(raw, 0.99); qp*4 > qr {
			t.Errorf("%v->%v Hz: p99 step error %v on the new rate, raw %v", c.from, c.to, qp, qr)
		}
	}
}

// TestPacerProperties: random displays (30 to 360 Hz: whole rates, the
// 1000/1001 rates of video, or a whole rate off by up to 0.1 %), jitter
// spreads up to a quarter of the interval, missed vblanks, hints that are
// right, a little wrong (the whole rate, as a display mode reports it) or
// absent, and the pacer's bounds on every frame; after a warm-up, Steps
// counts the vblanks and the steps of Time follow the display's to within
// an eighth of the jitter's spread (plus a microsecond) for 99 % of the
// frames.
func TestPacerProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for iter := 0; iter < 200; iter++ {
		whole := float64(30 + r.IntN(331))
		hz := whole
		switch r.IntN(3) {
		case 1:
			hz = whole * 1000 / 1001
		case 2:
			hz = whole * (1 + (r.Float64()*2-1)*1e-3)
		}
		disp := display{hz: hz, origin: time.Duration(r.Int64N(1 << 40))}
		spread := time.Duration(r.Int64N(int64(disp.period() / 4)))
		miss := []float64{0, 0.01, 0.1}[r.IntN(3)]
		var cfg PacerConfig
		switch r.IntN(3) {
		case 0:
			cfg.Refresh = disp.period()
		case 1:
			cfg.Refresh = time.Duration(1e9 / whole) // as a display mode reports it
		}
		p, err := NewPacer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		frames := int(hz * 10)
		ws := genRun(r, []segment{{disp, frames, uniform(spread), miss}})
		frs := paceRun(t, p, ws)
		warm := int(hz*2) + pacerBoot + 1
		for i := warm; i < len(ws); i++ {
			if !frs[i].Snapped || frs[i].Steps != ws[i].steps {
				t.Fatalf("iter %d (%.2f Hz, spread %v, hint %v): frame %d: snapped %v, %d steps, want %d",
					iter, hz, spread, cfg.Refresh, i, frs[i].Snapped, frs[i].Steps, ws[i].steps)
			}
		}
		paced, raw := stepErrors(ws, frs, warm, len(ws))
		if q := quantile(paced, 0.99); q > spread/8+time.Microsecond {
			t.Fatalf("iter %d (%.2f Hz, spread %v, hint %v, miss %v): p99 step error %v (raw %v)",
				iter, hz, spread, cfg.Refresh, miss, q, quantile(raw, 0.99))
		}
	}
}

// TestPacerVsyncOff: with vsync off the times pass through unchanged;
// turned on, the pacer snaps from the next frame; turned off again, it
// passes them through at once.
func TestPacerVsyncOff(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	ws := genRun(r, []segment{{display{hz: 60, origin: time.Second}, 600, uniform(ms), 0}})
	p, err := NewPacer(PacerConfig{Refresh: time.Second / 60, NoVsync: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range ws {
		switch i {
		case 200:
			p.SetVsync(true)
		case 400:
			p.SetVsync(false)
		}
		fr := p.Step(w.now)
		checkPaced(t, i, fr)
		on := i >= 200 && i < 400
		if fr.Snapped != on || !on && fr.Time != w.now {
			t.Fatalf("frame %d: %+v, vsync on %v", i, fr, on)
		}
		if on && i > 201 && fr.Steps != 1 {
			t.Fatalf("frame %d: %d steps", i, fr.Steps)
		}
	}
	if c := p.Config(); c.NoVsync != true || c.Refresh != time.Second/60 {
		t.Fatalf("config %+v", c)
	}
}

// TestPacerOddTimes: a clock that goes backwards restarts the pacer there
// (Time follows it back), the same time twice gives the same Time, a huge
// stall keeps the grid, and times at the ends of time.Duration do not
// overflow.
func TestPacerOddTimes(t *testing.T) {
	p, _ := NewPacer(PacerConfig{Refresh: 10 * ms})
	for i, now := range []time.Duration{0, 10 * ms, 20 * ms} {
		checkPaced(t, i, p.Step(now))
	}
	if fr := p.Step(5 * ms); fr.Time != 5*ms || fr.Snapped {
		t.Fatalf("clock back to 5ms: %+v", fr)
	}
	p.Step(15 * ms) // starts the grid again
	if fr := p.Step(25 * ms); !fr.Snapped || fr.Time != 25*ms || fr.Steps != 1 {
		t.Fatalf("after the restart: %+v", fr)
	}
	a := p.Step(35*ms + 100*time.Microsecond)
	if b := p.Step(a.Now); b.Time != a.Time || b.Steps != 0 {
		t.Fatalf("the same time twice: %+v then %+v", a, b)
	}
	// A stall of an hour: still on the grid.
	if fr := p.Step(35*ms + time.Hour + 200*time.Microsecond); !fr.Snapped || fr.Time != 35*ms+time.Hour || fr.Steps != 360000 {
		t.Fatalf("after an hour: %+v", fr)
	}
	// At the ends of time.Duration nothing overflows, and Time is never
	// after Now (within half an interval of the end, the grid point may
	// lie up to an interval before it).
	var z Pacer
	for _, p := range []*Pacer{p, &z} {
		for i, now := range []time.Duration{math.MaxInt64 - 1, math.MinInt64, math.MinInt64 + 1, 0, math.MaxInt64, math.MaxInt64, -1, math.MaxInt64 - 5*ms} {
			if fr := p.Step(now); fr.Time > fr.Now || fr.Lag() > fr.Interval {
				t.Fatalf("frame %d at %v: %+v", i, now, fr)
			}
		}
	}
}

// TestPacerSettings: a negative hint is an error wrapping ErrInvalid and
// changes nothing; a new hint snaps from the next frame; zero forgets the
// hint and keeps the interval.
func TestPacerSettings(t *testing.T) {
	if _, err := NewPacer(PacerConfig{Refresh: -1}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("NewPacer(Refresh -1): %v", err)
	}
	p, _ := NewPacer(PacerConfig{Refresh: 10 * ms})
	if err := p.SetRefresh(-ms); !errors.Is(err, ErrInvalid) || p.Interval() != 10*ms || p.Config().Refresh != 10*ms {
		t.Fatalf("SetRefresh(-1ms): %v, interval %v", err, p.Interval())
	}
	p.Step(0)
	p.Step(10 * ms)
	if err := p.SetRefresh(5 * ms); err != nil {
		t.Fatal(err)
	}
	if fr := p.Step(15 * ms); !fr.Snapped || fr.Steps != 0 || fr.Interval != 5*ms {
		t.Fatalf("after SetRefresh(5ms): %+v", fr)
	}
	if fr := p.Step(20 * ms); fr.Steps != 1 || fr.Time != 20*ms {
		t.Fatalf("on the 5 ms grid: %+v", fr)
	}
	// A new hint between two frames at the same time: the second is off
	// the grid, its time passed through (before, it got the last grid
	// point, not snapped, off Now).
	if fr := p.Step(25*ms + 300*time.Microsecond); !fr.Snapped || fr.Time != 25*ms {
		t.Fatalf("0.3 ms late on the 5 ms grid: %+v", fr)
	}
	if err := p.SetRefresh(5 * ms); err != nil {
		t.Fatal(err)
	}
	if fr := p.Step(25*ms + 300*time.Microsecond); fr.Snapped || fr.Time != fr.Now {
		t.Fatalf("the same time after SetRefresh(5ms): %+v", fr)
	}
	if err := p.SetRefresh(0); err != nil || p.Interval() != 5*ms || p.Config().Refresh != 0 {
		t.Fatalf("SetRefresh(0): %v, interval %v", err, p.Interval())
	}
}

// TestPacerFreeRunning: with "vsync on" but frames that no display paces
// (a driver that ignores the swap interval), the pacer finds no grid, or
// gives up any it thought it found, and passes the times through.
func TestPacerFreeRunning(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, hint := range []time.Duration{0, time.Second / 60} {
		p, _ := NewPacer(PacerConfig{Refresh: hint})
		now, snapped := time.Duration(0), 0
		for i := 0; i < 3000; i++ {
			now += time.Duration(r.Int64N(int64(20*ms))) + 100*time.Microsecond
			fr := p.Step(now)
			checkPaced(t, i, fr)
			if fr.Snapped {
				snapped++
			}
		}
		if snapped > 300 {
			t.Errorf("hint %v: %d of 3000 free-running frames snapped", hint, snapped)
		}
	}
}

func TestPacerAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	ws := genRun(r, []segment{{display{hz: 144, origin: time.Second}, 3000, uniform(ms), 0.01}})
	for _, hint := range []time.Duration{0, time.Second / 144} {
		p, _ := NewPacer(PacerConfig{Refresh: hint})
		i := 0
		if a := testing.AllocsPerRun(len(ws)-1, func() { p.Step(ws[i].now); i++ }); a != 0 {
			t.Fatalf("hint %v: Step allocates %v times per frame", hint, a)
		}
	}
}

// TestPacerCorrectsRoundedHint: a 59.94 Hz display whose mode says 60 Hz
// (the hint is 16.7 µs a frame short): within a second the interval is
// the display's to 0.01 %, and from the second second on the steps follow
// the display's.
func TestPacerCorrectsRoundedHint(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	disp := display{hz: 60000.0 / 1001, origin: time.Second}
	ws := genRun(r, []segment{{disp, 600, uniform(ms), 0}})
	p, _ := NewPacer(PacerConfig{Refresh: time.Second / 60})
	frs := paceRun(t, p, ws[:60])
	if got, want := p.Interval(), 1e9/disp.hz; math.Abs(float64(got)-want) > want*1e-4 {
		t.Fatalf("after a second: interval %v, the display's %.0fns", got, want)
	}
	frs = append(frs, paceRun(t, p, ws[60:])...)
	paced, raw := stepErrors(ws, frs, 120, len(ws))
	if q := quantile(paced, 0.99); q > 60*time.Microsecond {
		t.Fatalf("p99 step error %v from the second second on (raw %v)", q, quantile(raw, 0.99))
	}
}

// TestPacerHalfRate: a 60 Hz display taken for 120 Hz (a wrong hint, and
// no change the pacer can see): every frame looks like one that missed a
// vblank, two steps of 1/120 s, and Time steps by 1/60 s all the same.
func TestPacerHalfRate(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	ws := genRun(r, []segment{{display{hz: 60, origin: time.Second}, 600, uniform(ms), 0}})
	p, _ := NewPacer(PacerConfig{Refresh: time.Second / 120})
	frs := paceRun(t, p, ws)
	paced, _ := stepErrors(ws, frs, 60, len(ws))
	if q := quantile(paced, 0.99); q > 60*time.Microsecond {
		t.Fatalf("p99 step error %v", q)
	}
	for i := 60; i < len(frs); i++ {
		if frs[i].Steps != 2 {
			t.Fatalf("frame %d: %d steps of %v, want 2", i, frs[i].Steps, frs[i].Interval)
		}
	}
}

// TestPacerIntervalThroughLateWakeups: a run of 6 s on a display of 60
// or 144 Hz, wake-ups up to 1 ms late, and 8 frames the machine woke
// between half an interval and one and a half intervals late (the next
// frame follows the first vblank after it, as a real one does). The
// interval the pacer ends with is within a 2000th of the display's (8 µs
// at 60 Hz, 3.5 µs at 144), with a hint or measured, in each of 200 runs.
// (A late wake-up used to throw away the envelope's points before it:
// the interval came from the frames after the last one alone, and was
// off by up to 278 µs in these runs, and by more than the bound in 30
// to 38 of each 200.)
func TestPacerIntervalThroughLateWakeups(t *testing.T) {
	for _, hz := range []float64{60, 144} {
		for _, hint := range []bool{true, false} {
			per := time.Duration(math.Round(1e9 / hz))
			worst, over := time.Duration(0), 0
			for seed := range uint64(200) {
				r := rand.New(rand.NewPCG(seed, uint64(hz)))
				var cfg PacerConfig
				if hint {
					cfg.Refresh = per
				}
				p, err := NewPacer(cfg)
				if err != nil {
					t.Fatal(err)
				}
				frames := int(hz * 6)
				late := map[int]bool{}
				for len(late) < 8 {
					late[r.IntN(frames)] = true
				}
				vblank := time.Second
				for i := range frames {
					now := vblank + time.Duration(r.Int64N(int64(ms)+1))
					if late[i] {
						now += per/2 + time.Duration(r.Int64N(int64(per)))
					}
					checkPaced(t, i, p.Step(now))
					for vblank <= now+300*time.Microsecond { // 0.3 ms to draw
						vblank += per
					}
				}
				e := p.Interval() - per
				e = max(e, -e)
				worst = max(worst, e)
				if e > per/2000 {
					over++
				}
			}
			if over > 0 {
				t.Errorf("%v Hz, hint %v: the interval was off by more than %v in %d of 200 runs (worst %v)", hz, hint, per/2000, over, worst)
			}
			t.Logf("%v Hz, hint %v: worst interval error %v", hz, hint, worst)
		}
	}
}
