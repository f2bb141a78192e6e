package loop

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

// equalRates is the schedule: frame i at i/60 s plus independent
// uniform jitter in [-j, +j], on a loop with a 1/60 s tick started at 0,
// the phase where the frames fall on the tick boundaries.
func equalRates(seed uint64, j time.Duration, frames int) []time.Duration {
	r := rand.New(rand.NewPCG(seed, 60))
	ts := make([]time.Duration, frames)
	for i := range ts {
		ts[i] = time.Duration(int64(i+1) * 1e9 / 60)
		if j > 0 {
			ts[i] += time.Duration(r.Int64N(int64(2*j)+1)) - j
		}
	}
	return ts
}

// tickCounts runs a loop over the times and counts its frames by the
// ticks they ran.
func tickCounts(t *testing.T, f *Fixed, ts []time.Duration) (counts [DefaultMaxLoops + 1]int) {
	t.Helper()
	for i, now := range ts {
		fr := f.Step(now)
		checkFrame(t, i, f, fr)
		counts[fr.Ticks]++
	}
	return counts
}

// TestUnstabilizedAlternates reproduces the issue: on the equal-rates
// schedule the classic loop runs one tick on every frame without jitter,
// and with ±0.3, ±1 or ±2 ms of jitter half the frames run 0 or 2 ticks.
// (A frame runs 1 + [it is past its boundary] - [the last frame was],
// and each is a coin toss: 0 and 2 come a quarter of the time each.)
func TestUnstabilizedAlternates(t *testing.T) {
	const frames = 6000
	tick := time.Second / 60
	c := tickCounts(t, mustFixed(t, FixedConfig{Tick: tick}, 0), equalRates(1, 0, frames))
	// i*1e9/60 ns lies 2i/3 ns past i ticks of 16666666 ns: frame 1 sits
	// exactly on its boundary (no tick: the loop's > is strict), frame 2
	// runs 2, and every later frame 1.
	if c[1] != frames-2 || c[0] != 1 || c[2] != 1 {
		t.Fatalf("no jitter: ticks per frame %v, want every frame but two at 1", c)
	}
	for _, j := range []time.Duration{300 * time.Microsecond, ms, 2 * ms} {
		c := tickCounts(t, mustFixed(t, FixedConfig{Tick: tick}, 0), equalRates(2, j, frames))
		odd := c[0] + c[2]
		if odd < frames*45/100 || odd > frames*55/100 || c[0]-c[2] > 1 || c[2]-c[0] > 1 || c[3] != 0 {
			t.Errorf("±%v: ticks per frame %v: want about half the frames at 0 or 2, as many of each", j, c)
		}
		t.Logf("±%v unstabilised: %d zeros, %d ones, %d twos", j, c[0], c[1], c[2])
	}
}

// TestStabilizedOneTick: the same schedules with a 4 ms window: at least
// 99 % of the frames run exactly one tick (in fact all but the first,
// which comes before the first boundary can have passed).
func TestStabilizedOneTick(t *testing.T) {
	const frames = 6000
	tick := time.Second / 60
	for _, j := range []time.Duration{0, 300 * time.Microsecond, ms, 2 * ms} {
		f := mustFixed(t, FixedConfig{Tick: tick, Stabilize: 4 * ms}, 0)
		c := tickCounts(t, f, equalRates(2, j, frames))
		if c[1] < frames*99/100 {
			t.Errorf("±%v stabilised: ticks per frame %v: fewer than 99%% at one tick", j, c)
		}
		if c[1] < frames-2 {
			t.Errorf("±%v stabilised: ticks per frame %v: want all but the first frames at 1", j, c)
		}
		if lag := f.Lag(); lag < 0 || lag > 4*ms {
			t.Errorf("±%v: lag %v outside [0, 4ms]", j, lag)
		}
		t.Logf("±%v stabilised: ticks per frame %v, lag %v", j, c[:3], f.Lag())
	}
}

// TestStabilizeWindowTooNarrow: a window narrower than the spread of the
// jitter cannot hold every frame, but it never makes things worse than
// the classic loop, and it still delays ticks by at most the window.
func TestStabilizeWindowTooNarrow(t *testing.T) {
	tick := time.Second / 60
	ts := equalRates(3, 2*ms, 6000) // a spread of 4 ms
	classic := tickCounts(t, mustFixed(t, FixedConfig{Tick: tick}, 0), ts)
	f := mustFixed(t, FixedConfig{Tick: tick, Stabilize: ms}, 0)
	for i, now := range ts {
		fr := f.Step(now)
		checkFrame(t, i, f, fr)
		if fr.Lag > ms || f.Time0()+tick < now-ms {
			t.Fatalf("frame %d: lag %v, time0 %v: a tick held back more than the 1 ms window", i, fr.Lag, f.Time0())
		}
	}
	narrow := tickCounts(t, mustFixed(t, FixedConfig{Tick: tick, Stabilize: ms}, 0), ts)
	if narrow[1] < classic[1] {
		t.Fatalf("1 ms window: %v one-tick frames, the classic loop %v", narrow, classic)
	}
}

// stabKind is the kind of jitter of a property run.
type stabKind int

const (
	stabUniform stabKind = iota // uniform in [0, spread)
	stabHeavy                   // uniform, plus rare delays of up to 3 windows
)

// TestStabilizeProperties drives random settings and schedules of frames
// at a steady interval near k ticks (k = 1..3, a rate mismatch of up to
// 1e-4, any phase, jitter of any spread within the window, and, for some,
// heavy-tailed delays beyond it) through a stabilised loop and the
// classic one, and checks that:
//   - every frame passes the classic loop's own checks (spans tile time,
//     no tick runs before its span ends);
//   - the lag stays in [0, window], and no tick is held back longer: after
//     each frame, the tick in progress ends no earlier than now - window;
//   - no tick is lost or invented: the ticks run (plus those owed in
//     lockstep) are exactly the classic count for now - lag, and within
//     ceil(window/tick) of the classic loop's own count;
//   - after a short warm-up every frame runs k ticks, but for the changes
//     the rate mismatch forces (one per tick of drift) and those around
//     the heavy-tailed delays.
func TestStabilizeProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for iter := 0; iter < 300; iter++ {
		tick := time.Duration(2+r.IntN(60))*ms + time.Duration(r.Int64N(int64(ms)))
		k := 1 + r.IntN(3)
		spread := time.Duration(r.Int64N(int64(tick / 4)))
		mismatch := time.Duration(0)
		if r.IntN(2) == 0 {
			mismatch = time.Duration(r.Int64N(int64(k)*int64(tick)/5000+1)) - time.Duration(k)*tick/10000
		}
		interval := time.Duration(k)*tick + mismatch
		abs := max(mismatch, -mismatch)
		window := spread + abs + time.Duration(r.Int64N(int64(tick/4)))
		kind := stabKind(r.IntN(2))
		cfg := FixedConfig{Tick: tick, MaxLoops: k + 1 + r.IntN(4), Lockstep: r.IntN(2) == 0, Stabilize: window}
		start := time.Duration(r.Int64N(1<<40)) - 1<<39
		f := mustFixed(t, cfg, start)
		classicCfg := cfg
		classicCfg.Stabilize = 0
		g := mustFixed(t, classicCfg, start)

		const frames, warmup = 3000, 50
		grid := start + time.Duration(r.Int64N(int64(tick))) // the frames' phase
		nonK, outliers := 0, 0
		prev := start
		for i := 0; i < frames; i++ {
			now := grid + time.Duration(i+1)*interval + time.Duration(r.Int64N(int64(spread)+1))
			if kind == stabHeavy && r.IntN(100) == 0 {
				now += time.Duration(r.Int64N(int64(3 * window)))
				outliers++
			}
			now = max(now, prev+1) // a frame never wakes before the last one
			prev = now
			fr := f.Step(now)
			checkFrame(t, i, f, fr)
			gr := g.Step(now)
			if fr.Lag < 0 || fr.Lag > window || fr.Lag != f.Lag() {
				t.Fatalf("iter %d frame %d: lag %v (Lag() %v), window %v", iter, i, fr.Lag, f.Lag(), window)
			}
			if end := f.Time0() + tick; end < now-window {
				t.Fatalf("iter %d frame %d: the tick in progress ended at %v, more than the window %v before now %v", iter, i, end, window, now)
			}
			if !cfg.Lockstep && f.TotalDiscarded() == 0 || cfg.Lockstep {
				owed := int64(0)
				if cfg.Lockstep {
					owed = owedTicks64(fr.Debt, tick)
				}
				if got, want := f.TotalTicks()+owed, wantTicks(now-fr.Lag-start, tick); got != want {
					t.Fatalf("iter %d frame %d (%+v): %d ticks run + %d owed, want %d for now-lag", iter, i, cfg, f.TotalTicks(), owed, want)
				}
			}
			if d := f.TotalTicks() - g.TotalTicks(); d > int64(ceilDiv(window, tick)) || d < -int64(ceilDiv(window, tick)) {
				t.Fatalf("iter %d frame %d: %d ticks, the classic loop %d", iter, i, f.TotalTicks(), g.TotalTicks())
			}
			if dt := fr.DrawTime(); dt != now-fr.Lag && !fr.Capped && fr.Debt == 0 {
				t.Fatalf("iter %d frame %d: DrawTime %v, want now-lag %v", iter, i, dt, now-fr.Lag)
			}
			if i >= warmup && fr.Ticks != k {
				nonK++
			}
			_ = gr
		}
		drift := int(time.Duration(frames)*abs/tick) + 1
		if allowed := 2*drift + 3*outliers; nonK > allowed {
			t.Fatalf("iter %d (tick %v, k %d, spread %v, mismatch %v, window %v, kind %d): %d frames after warm-up ran other than %d ticks, allowed %d",
				iter, tick, k, spread, mismatch, window, kind, nonK, k, allowed)
		}
	}
}

// TestStabilizeNoDrift30Days: 30 simulated days of 60 FPS frames with
// ±1 ms of jitter on the equal-rates phase, stabilised with a 4 ms window:
// the total is the classic count for the elapsed time less the lag (so
// within one tick, and MaxLoops, of elapsed/tick), and all but the first
// frames run exactly one tick.
func TestStabilizeNoDrift30Days(t *testing.T) {
	if testing.Short() {
		t.Skip("155 million frames; skipped with -short")
	}
	const frames = 30 * 24 * 3600 * 60
	tick := time.Second / 60
	f := mustFixed(t, FixedConfig{Tick: tick, Stabilize: 4 * ms}, 0)
	var ones, sum int64
	now := time.Duration(0)
	x := uint64(30)
	for i := int64(1); i <= frames; i++ {
		x = x*6364136223846793005 + 1442695040888963407 // an LCG: fast, and enough here
		now = time.Duration(i*1e9/60) + time.Duration((x>>32)%uint64(2*ms+1)) - ms
		fr := f.Step(now)
		if fr.Ticks == 1 {
			ones++
		}
		sum += int64(fr.Ticks)
	}
	e := time.Duration(frames * 1e9 / 60)
	if e != 30*24*time.Hour {
		t.Fatalf("the schedule covers %v, not 30 days", e)
	}
	if want := wantTicks(now-f.Lag(), tick); f.TotalTicks() != want || sum != want {
		t.Fatalf("after %v: %d ticks (frames say %d), want %d for now-lag", e, f.TotalTicks(), sum, want)
	}
	if d := wantTicks(e, tick) - f.TotalTicks(); d < 0 || d > 1 {
		t.Fatalf("after %v: %d ticks, elapsed/tick gives %d", e, f.TotalTicks(), wantTicks(e, tick))
	}
	// The frames come 2/3 ns a frame slower than the ticks: over 30 days
	// that drift adds up to a few ticks, each of which a frame must run
	// as a second tick of its own. Every other frame runs one.
	drift := e - frames*tick
	if allowed := 2 + 2*int64(ceilDiv(drift, tick)); frames-ones > allowed {
		t.Fatalf("%d of %d frames ran one tick; %v of drift allows %d others", ones, frames, drift, allowed)
	}
}

// TestStabilizeOffIsClassic: with a zero window, and after SetStabilize(0)
// on a loop that never held a tick back, the loop is the article's, frame
// for frame.
func TestStabilizeOffIsClassic(t *testing.T) {
	for _, set := range []bool{false, true} {
		r := rand.New(rand.NewPCG(9, 10))
		cfg := FixedConfig{Tick: time.Second / 60, Stabilize: 0}
		f := mustFixed(t, cfg, origin)
		if set {
			if err := f.SetStabilize(0); err != nil {
				t.Fatal(err)
			}
		}
		m := &articleLoop{tick: cfg.Tick, maxLoops: DefaultMaxLoops, time0: origin, last: origin}
		for i, now := range equalRates(4, ms, 3000) {
			now += origin + time.Duration(r.Int64N(int64(3*ms)))
			fr := f.Step(now)
			ticks, disc, pct := m.frame(now)
			if fr.Ticks != ticks || fr.Discarded != disc || fr.Percent != pct || f.Time0() != m.time0 || fr.Lag != 0 {
				t.Fatalf("frame %d: %+v, article loop %d %v %v", i, fr, ticks, disc, pct)
			}
		}
	}
}

// TestStabilizeLeavesMidTickFramesAlone: frames that fall mid-tick run
// their k ticks without help; the lag stays 0 and the loop is the
// classic one.
func TestStabilizeLeavesMidTickFramesAlone(t *testing.T) {
	tick := 20 * ms
	f := mustFixed(t, FixedConfig{Tick: tick, Stabilize: 3 * ms}, 0)
	g := mustFixed(t, FixedConfig{Tick: tick}, 0)
	r := rand.New(rand.NewPCG(11, 12))
	for i := 1; i <= 2000; i++ {
		now := time.Duration(i)*tick + tick/2 + time.Duration(r.Int64N(int64(2*ms)))
		a, b := f.Step(now), g.Step(now)
		a.Lag = 0
		if a != b {
			t.Fatalf("frame %d: stabilised %+v, classic %+v", i, a, b)
		}
	}
	if f.Lag() != 0 {
		t.Fatalf("lag %v, want 0", f.Lag())
	}
}

// TestStabilizeSetters: SetStabilize validates, lowers the lag to a
// narrower window (the held-back ticks then run at the next frame, at most
// MaxLoops), and Config reports the window; Reset and SetTick keep the lag
// and the progress on the delayed clock.
func TestStabilizeSetters(t *testing.T) {
	if _, err := NewFixed(FixedConfig{Stabilize: -1}, 0); !errors.Is(err, ErrInvalid) {
		t.Fatalf("NewFixed with Stabilize -1: %v, want ErrInvalid", err)
	}
	tick := time.Second / 60
	f := mustFixed(t, FixedConfig{Tick: tick, Stabilize: 4 * ms}, 0)
	if err := f.SetStabilize(-ms); !errors.Is(err, ErrInvalid) || f.Config().Stabilize != 4*ms {
		t.Fatalf("SetStabilize(-1ms): %v, window now %v", err, f.Config().Stabilize)
	}
	var last FixedFrame
	for _, now := range equalRates(5, 2*ms, 600) {
		last = f.Step(now)
	}
	if f.Lag() == 0 {
		t.Fatal("no lag after 600 jittered frames on the boundaries")
	}
	lag := f.Lag()
	now := last.Now
	pct := f.Percent()
	f.Reset(now + time.Second)
	if f.Lag() != lag || f.Percent() != pct {
		t.Fatalf("Reset: lag %v percent %v, was %v %v", f.Lag(), f.Percent(), lag, pct)
	}
	now += time.Second
	if err := f.SetTick(now, tick/2); err != nil {
		t.Fatal(err)
	}
	if f.Lag() != lag || f.Percent()-pct > 1e-6 || pct-f.Percent() > 1e-6 {
		t.Fatalf("SetTick: lag %v percent %v, was %v %v", f.Lag(), f.Percent(), lag, pct)
	}
	if err := f.SetStabilize(lag / 2); err != nil || f.Lag() != lag/2 || f.Config().Stabilize != lag/2 {
		t.Fatalf("SetStabilize(%v): %v, lag %v", lag/2, err, f.Lag())
	}
	if fr := f.Step(now); fr.Ticks > 1 || fr.Lag != lag/2 {
		t.Fatalf("after narrowing the window: %+v", fr)
	}
	if err := f.SetStabilize(0); err != nil || f.Lag() != 0 {
		t.Fatalf("SetStabilize(0): %v, lag %v", err, f.Lag())
	}
}

// TestDrawTime: DrawTime is time0 + percentWithinTick × Tick, exactly,
// whatever happened (stalls, caps, lockstep debt, clocks going back).
func TestDrawTime(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for iter := 0; iter < 200; iter++ {
		cfg := FixedConfig{
			Tick:      time.Duration(1+r.IntN(50)) * ms,
			MaxLoops:  1 + r.IntN(5),
			Lockstep:  r.IntN(2) == 0,
			Stabilize: time.Duration(r.IntN(3)) * ms,
		}
		f := mustFixed(t, cfg, 0)
		now := time.Duration(0)
		for i := 0; i < 500; i++ {
			switch x := r.IntN(50); {
			case x == 0:
				now += time.Duration(r.Int64N(int64(time.Second)))
			case x == 1:
				now -= time.Duration(r.Int64N(int64(50 * ms)))
			default:
				now += time.Duration(r.Int64N(int64(2 * cfg.Tick)))
			}
			fr := f.Step(now)
			want := float64(f.Time0()) + fr.Percent*float64(cfg.Tick)
			if d := float64(fr.DrawTime()) - want; d > 1 || d < -1 {
				t.Fatalf("iter %d frame %d: DrawTime %v, time0 %v + %v × %v = %v", iter, i, fr.DrawTime(), f.Time0(), fr.Percent, cfg.Tick, want)
			}
		}
	}
}

func TestStabilizeAllocs(t *testing.T) {
	f := mustFixed(t, FixedConfig{Tick: time.Second / 60, Stabilize: 4 * ms}, 0)
	ts := equalRates(6, ms, 1000)
	i := 0
	allocs := testing.AllocsPerRun(999, func() {
		fr := f.Step(ts[i])
		_ = fr.DrawTime()
		i++
	})
	if allocs != 0 {
		t.Fatalf("a stabilised Step allocates %v times per frame", allocs)
	}
}

// stabilizeRun runs a stabilised loop (10 ms tick, 2 ms window) through
// frames that leave it 1.9 ms behind the clock with 1 ms of a tick
// pending, then one frame d later, and returns that frame's ticks and the
// lag after it. d = 28 ms is 3 ticks less the window: a steady interval
// at which the frame would run 2 ticks, so the loop catches up and runs 3.
func stabilizeRun(t *testing.T, maxLoops int, d time.Duration) (ticks int, lag time.Duration) {
	t.Helper()
	const tick, window = 10 * time.Millisecond, 2 * time.Millisecond
	f := mustFixed(t, FixedConfig{Tick: tick, MaxLoops: maxLoops, Stabilize: window}, 0)
	now := 19900 * time.Microsecond
	f.Step(now) // 1 tick, 9.9 ms pending
	now += tick + window
	if fr := f.Step(now); fr.Ticks != 1 || f.Lag() != 1900*time.Microsecond {
		t.Fatalf("setup: a frame a tick and the window after: %d ticks, lag %v; want 1 tick, lag 1.9ms", fr.Ticks, f.Lag())
	}
	now += time.Millisecond
	f.Step(now) // no whole tick apart: 1 tick, 1 ms pending
	fr := f.Step(now + d)
	return fr.Ticks, f.Lag()
}

// TestStabilizeBounds pins the stabiliser's rules: a frame is steadied
// only when its interval is within the window of a whole number k of
// ticks, bounds included (the frame that sets the lag up is exactly the
// window long, and the last frame exactly the window short), and k is at
// most MaxLoops, a frame of exactly MaxLoops ticks included. A
// nanosecond past the window, or a frame of MaxLoops+1 ticks, is left to
// the classic loop (its lag unchanged).
func TestStabilizeBounds(t *testing.T) {
	for _, c := range []struct {
		name      string
		maxLoops  int
		d         time.Duration
		wantTicks int
		wantLag   time.Duration
	}{
		{"3 ticks less the window, MaxLoops 3", 3, 28 * ms, 3, 900*time.Microsecond - 1},
		{"3 ticks less the window and 1 ns", 3, 28*ms - 1, 2, 1900 * time.Microsecond},
		{"3 ticks less the window, MaxLoops 2", 2, 28 * ms, 2, 1900 * time.Microsecond},
	} {
		ticks, lag := stabilizeRun(t, c.maxLoops, c.d)
		if ticks != c.wantTicks || lag != c.wantLag {
			t.Errorf("%s: %d ticks, lag %v; want %d, %v", c.name, ticks, lag, c.wantTicks, c.wantLag)
		}
	}
	// The window's upper bound: a frame a tick and the window after the
	// last one, which would run 2 ticks, is held back to 1 (stabilizeRun's
	// setup checks it); a nanosecond longer runs its 2 ticks at lag 0.
	f := mustFixed(t, FixedConfig{Tick: 10 * ms, MaxLoops: 3, Stabilize: 2 * ms}, 0)
	f.Step(19900 * time.Microsecond)
	if fr := f.Step(19900*time.Microsecond + 12*ms + 1); fr.Ticks != 2 || f.Lag() != 0 {
		t.Errorf("a frame a tick, the window and 1 ns after the last: %d ticks, lag %v; want 2, 0", fr.Ticks, f.Lag())
	}
}
