package loop

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// articleLoop is the loop of the interp_demo game-loop article written out
// literally, tick by tick, in integer nanoseconds: the reference Fixed is
// checked against. The one addition is the documented policy for a clock
// going backwards: such a jump counts as no time (time0 moves back with
// the clock).
type articleLoop struct {
	tick     time.Duration
	maxLoops int
	lockstep bool
	time0    time.Duration
	last     time.Duration
}

func (m *articleLoop) frame(time1 time.Duration) (ticks int, discarded time.Duration, percent float64) {
	if time1 < m.last {
		m.time0 -= m.last - time1
	}
	m.last = time1
	for time1-m.time0 > m.tick && ticks < m.maxLoops {
		ticks++
		m.time0 += m.tick
	}
	if !m.lockstep && time1-m.time0 > m.tick {
		discarded = time1 - m.time0 - m.tick
		m.time0 = time1 - m.tick
	}
	return ticks, discarded, math.Min(1, float64(time1-m.time0)/float64(m.tick))
}

// checkFrame checks what must hold of every frame, whatever happened.
func checkFrame(t *testing.T, i int, f *Fixed, fr FixedFrame) {
	t.Helper()
	cfg := f.Config()
	switch {
	case fr.Ticks < 0 || fr.Ticks > cfg.MaxLoops:
		t.Fatalf("frame %d: %d ticks, want 0..%d", i, fr.Ticks, cfg.MaxLoops)
	case !(fr.Percent >= 0 && fr.Percent <= 1):
		t.Fatalf("frame %d: percent %v out of [0,1]", i, fr.Percent)
	case fr.LogicTime != time.Duration(fr.Ticks)*fr.Tick:
		t.Fatalf("frame %d: LogicTime %v != %d x %v", i, fr.LogicTime, fr.Ticks, fr.Tick)
	case fr.Elapsed < 0:
		t.Fatalf("frame %d: Elapsed %v", i, fr.Elapsed)
	case fr.Capped && fr.Ticks != cfg.MaxLoops:
		t.Fatalf("frame %d: capped after %d ticks, MaxLoops %d", i, fr.Ticks, cfg.MaxLoops)
	case fr.Debt < 0 || fr.Discarded < 0:
		t.Fatalf("frame %d: negative debt %v or discard %v", i, fr.Debt, fr.Discarded)
	case !cfg.Lockstep && fr.Debt != 0:
		t.Fatalf("frame %d: solo mode kept debt %v", i, fr.Debt)
	case cfg.Lockstep && fr.Discarded != 0:
		t.Fatalf("frame %d: lockstep discarded %v", i, fr.Discarded)
	case fr.Discarded > 0 && !fr.Capped:
		t.Fatalf("frame %d: discarded %v without hitting the cap", i, fr.Discarded)
	case f.Time0() > fr.Now:
		t.Fatalf("frame %d: time0 %v after now %v", i, f.Time0(), fr.Now)
	case fr.Lag < 0 || fr.Lag > cfg.Stabilize:
		t.Fatalf("frame %d: lag %v outside [0, %v]", i, fr.Lag, cfg.Stabilize)
	}
	if fr.Ticks > 0 && fr.SpanStart != math.MinInt64 {
		// The spans tile [SpanStart, SpanStart+LogicTime), one tick each,
		// and the last ends no later than now, at the new time0. (A span
		// start that would lie before the first representable instant
		// saturates there; only then can the spans look late. Only the
		// first and last few spans of a huge frame are checked.)
		for j := 0; j < fr.Ticks; j++ {
			if j == 8 && fr.Ticks > 16 {
				j = fr.Ticks - 8
			}
			sp := fr.Span(j)
			if sp.Start != fr.SpanStart+time.Duration(j)*fr.Tick || sp.End != sp.Start+fr.Tick {
				t.Fatalf("frame %d: span %d is %+v, start %v tick %v", i, j, sp, fr.SpanStart, fr.Tick)
			}
		}
		if end := fr.Span(fr.Ticks - 1).End; end != fr.SpanStart+fr.LogicTime || end > fr.Now {
			t.Fatalf("frame %d: last tick ends at %v, start+logic %v, now %v", i, end, fr.SpanStart+fr.LogicTime, fr.Now)
		}
	}
}

func mustFixed(t testing.TB, cfg FixedConfig, now time.Duration) *Fixed {
	t.Helper()
	f, err := NewFixed(cfg, now)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFixedScenarios runs the classic schedules through the loop in solo
// and lockstep mode, compares every frame with the article's literal loop
// and checks the totals against closed formulas.
func TestFixedScenarios(t *testing.T) {
	const tick = DefaultTick
	for _, sc := range classicScenarios() {
		for _, lockstep := range []bool{false, true} {
			name := sc.name + map[bool]string{false: "/solo", true: "/lockstep"}[lockstep]
			t.Run(name, func(t *testing.T) {
				f := mustFixed(t, FixedConfig{Lockstep: lockstep}, origin)
				m := &articleLoop{tick: tick, maxLoops: DefaultMaxLoops, lockstep: lockstep, time0: origin, last: origin}
				frames := make([]FixedFrame, len(sc.times))
				var discarded time.Duration
				for i, now := range sc.times {
					fr := f.Step(now)
					checkFrame(t, i, f, fr)
					ticks, disc, pct := m.frame(now)
					if fr.Ticks != ticks || fr.Discarded != disc || fr.Percent != pct {
						t.Fatalf("frame %d at %v: got ticks %d discarded %v percent %v; article loop %d %v %v",
							i, now, fr.Ticks, fr.Discarded, fr.Percent, ticks, disc, pct)
					}
					if f.Time0() != m.time0 {
						t.Fatalf("frame %d: time0 %v, article loop %v", i, f.Time0(), m.time0)
					}
					frames[i] = fr
					discarded += disc
				}
				if f.TotalDiscarded() != discarded || f.TotalFrames() != int64(len(sc.times)) {
					t.Fatalf("totals: discarded %v frames %d", f.TotalDiscarded(), f.TotalFrames())
				}
				checkScenario(t, sc, lockstep, f, frames)
			})
		}
	}
}

// checkScenario checks each schedule's totals from first principles.
func checkScenario(t *testing.T, sc scenario, lockstep bool, f *Fixed, frames []FixedFrame) {
	t.Helper()
	const tick = DefaultTick
	total := f.TotalTicks()
	var sum int64
	maxPer := 0
	for _, fr := range frames {
		sum += int64(fr.Ticks)
		maxPer = max(maxPer, fr.Ticks)
	}
	if sum != total {
		t.Fatalf("TotalTicks %d, frames add up to %d", total, sum)
	}
	fwd := forward(origin, sc.times)
	switch sc.name {
	case "fast 1ms", "jitter", "backwards":
		// No frame is longer than a tick: at most one tick a frame, and
		// the total is ceil(e/Tick)-1 over the forward time.
		if want := wantTicks(fwd, tick); total != want {
			t.Fatalf("%d ticks after %v, want %d", total, fwd, want)
		}
		if maxPer > 1 {
			t.Fatalf("a frame ran %d ticks", maxPer)
		}
		if sc.name == "jitter" {
			// Counted by the caller, as a game does: 25 ticks a second.
			tps := mustRate(t, time.Second, 64)
			for _, fr := range frames {
				tps.Add(fr.Now, fr.Ticks)
			}
			if got := tps.Rate(sc.times[len(sc.times)-1]); math.Abs(got-25) > 1 {
				t.Fatalf("jitter: %v ticks per second, want 25", got)
			}
		}
	case "exactly one tick":
		// Frame i (0-based) is at (i+1) ticks: the first runs none (the
		// pending time equals the tick, and the test is strict), every
		// later one exactly one, and every frame draws at exactly 1.
		for i, fr := range frames {
			want := 1
			if i == 0 {
				want = 0
			}
			if fr.Ticks != want || fr.Percent != 1 {
				t.Fatalf("frame %d: %d ticks at percent %v, want %d at 1", i, fr.Ticks, fr.Percent, want)
			}
		}
	case "slow 200ms":
		// 5 FPS, 5 ticks owed per frame = MaxLoops: the cap is reached but
		// never leaves debt, so nothing is lost in either mode.
		if want := wantTicks(fwd, tick); total != want {
			t.Fatalf("%d ticks after %v, want %d", total, fwd, want)
		}
		for i, fr := range frames[1:] {
			if fr.Ticks != 5 || fr.Capped || fr.Percent != 1 {
				t.Fatalf("frame %d: %+v", i+1, fr)
			}
		}
	case "stall 10s":
		stall := 1000 // the frame after the gap
		before := wantTicks(sc.times[stall-1]-origin, tick)
		fr := frames[stall]
		if fr.Ticks != DefaultMaxLoops || !fr.Capped {
			t.Fatalf("stall frame: %+v, want %d capped ticks", fr, DefaultMaxLoops)
		}
		if lockstep {
			// Nothing is lost: once the frames are short again the debt is
			// repaid at MaxLoops a frame, and the total is ceil(e/Tick)-1.
			if want := wantTicks(fwd, tick); total != want {
				t.Fatalf("lockstep lost ticks: %d, want %d", total, want)
			}
			return
		}
		// Solo: the stall costs one frame of MaxLoops ticks, the rest is
		// discarded, and the loop is back on real time: time0 = now - Tick.
		pendingBefore := sc.times[stall-1] - origin - time.Duration(before)*tick
		gap := sc.times[stall] - sc.times[stall-1]
		if want := pendingBefore + gap - time.Duration(DefaultMaxLoops+1)*tick; fr.Discarded != want {
			t.Fatalf("discarded %v, want %v", fr.Discarded, want)
		}
		if frames[stall+1].Ticks > 1 || frames[stall+1].Capped {
			t.Fatalf("frame after the stall: %+v", frames[stall+1])
		}
		after := wantTicks(tick+(sc.times[len(sc.times)-1]-sc.times[stall]), tick)
		if want := before + DefaultMaxLoops + after; total != want {
			t.Fatalf("%d ticks, want %d + %d + %d", total, before, DefaultMaxLoops, after)
		}
	default:
		t.Fatalf("no expectations for %q", sc.name)
	}
}

// TestFixedStallTime0 checks the solo-mode recovery exactly: after a stall
// frame time0 == now - Tick, and the next frame behaves as if the stall
// never happened.
func TestFixedStallTime0(t *testing.T) {
	for _, stall := range []time.Duration{241 * ms, time.Second, 10 * time.Second, 30 * 24 * time.Hour} {
		f := mustFixed(t, FixedConfig{}, origin)
		now := origin + 17*ms
		f.Step(now)
		now += stall
		fr := f.Step(now)
		if fr.Ticks != DefaultMaxLoops || !fr.Capped || f.Time0() != now-DefaultTick || fr.Percent != 1 {
			t.Fatalf("stall %v: %+v time0 %v", stall, fr, f.Time0())
		}
		next := f.Step(now + 10*ms)
		if next.Ticks != 1 || next.Capped || next.Discarded != 0 {
			t.Fatalf("after stall %v: %+v", stall, next)
		}
		// 10 ms into the tick that followed the stall frame's last one.
		if want := 10.0 / 40.0; math.Abs(next.Percent-want) > 1e-12 {
			t.Fatalf("after stall %v: percent %v, want %v", stall, next.Percent, want)
		}
	}
}

// TestFixedPercentFormula checks percentWithinTick against the formula at
// every nanosecond-level position inside a tick.
func TestFixedPercentFormula(t *testing.T) {
	f := mustFixed(t, FixedConfig{Tick: 1000}, 0)
	for now := time.Duration(0); now <= 5000; now += 7 {
		fr := f.Step(now)
		time0 := fr.SpanStart + time.Duration(fr.Ticks)*fr.Tick
		if want := math.Min(1, float64(now-time0)/1000); fr.Percent != want {
			t.Fatalf("now %d: percent %v, want %v", now, fr.Percent, want)
		}
		if now > 1000 && fr.Percent == 0 {
			t.Fatalf("now %d: percent 0, but the strict test leaves a full tick pending", now)
		}
	}
}

func TestFixedConfigErrors(t *testing.T) {
	for _, cfg := range []FixedConfig{{Tick: -1}, {MaxLoops: -1}, {Tick: -time.Hour, MaxLoops: 3}} {
		if f, err := NewFixed(cfg, 0); err == nil || f != nil || !errors.Is(err, ErrInvalid) {
			t.Errorf("NewFixed(%+v) = %v, %v; want ErrInvalid", cfg, f, err)
		}
	}
	f := mustFixed(t, FixedConfig{}, 0)
	if got := f.Config(); got != (FixedConfig{Tick: DefaultTick, MaxLoops: DefaultMaxLoops}) {
		t.Fatalf("defaults: %+v", got)
	}
	if err := f.SetTick(0, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetTick(0) = %v", err)
	}
	if err := f.SetTick(0, -ms); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetTick(-1ms) = %v", err)
	}
	if err := f.SetMaxLoops(0); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetMaxLoops(0) = %v", err)
	}
	if got := f.Config(); got != (FixedConfig{Tick: DefaultTick, MaxLoops: DefaultMaxLoops}) {
		t.Fatalf("a refused setting changed the config: %+v", got)
	}
	f.SetLockstep(true)
	if err := f.SetMaxLoops(7); err != nil {
		t.Fatal(err)
	}
	if err := f.SetTick(0, 10*ms); err != nil {
		t.Fatal(err)
	}
	if got := f.Config(); got != (FixedConfig{Tick: 10 * ms, MaxLoops: 7, Lockstep: true}) {
		t.Fatalf("after setters: %+v", got)
	}
}

// TestFixedBackwards: a clock that jumps back counts as standing still.
func TestFixedBackwards(t *testing.T) {
	for _, lockstep := range []bool{false, true} {
		f := mustFixed(t, FixedConfig{Lockstep: lockstep}, origin)
		before := f.Step(origin + 130*ms)
		for i, back := range []time.Duration{origin + 129*ms, origin, 0, -time.Hour, math.MinInt64} {
			fr := f.Step(back)
			checkFrame(t, i, f, fr)
			if fr.Ticks != 0 || fr.Percent != before.Percent {
				t.Fatalf("back to %v: %+v, want no ticks at percent %v", back, fr, before.Percent)
			}
		}
		// From the bottom, the clock moves forward again: ticks resume at
		// the usual rate from the pending 10 ms.
		fr := f.Step(math.MinInt64 + 35*ms)
		if fr.Ticks != 1 || math.Abs(fr.Percent-5.0/40) > 1e-12 {
			t.Fatalf("forward again: %+v", fr)
		}
	}
}

// TestFixedExtremeTimes: no wrap-around at the ends of time.Duration.
func TestFixedExtremeTimes(t *testing.T) {
	for _, lockstep := range []bool{false, true} {
		f := mustFixed(t, FixedConfig{Lockstep: lockstep, MaxLoops: 1 << 30}, math.MinInt64)
		for i, now := range []time.Duration{math.MaxInt64, math.MaxInt64, 0, math.MaxInt64 - 1, math.MinInt64, math.MaxInt64} {
			fr := f.Step(now)
			checkFrame(t, i, f, fr)
		}
	}
}

// TestFixedLockstepRepays: after a stall a lockstep loop repays its debt at
// MaxLoops ticks per frame, then runs on time; the total is ceil(e/Tick)-1.
func TestFixedLockstepRepays(t *testing.T) {
	f := mustFixed(t, FixedConfig{Lockstep: true}, 0)
	now := time.Second
	fr := f.Step(now)
	// 1 s owes 24 ticks: 5 now, debt 19 ticks' worth.
	if fr.Ticks != 5 || !fr.Capped || fr.Debt != time.Second-6*DefaultTick {
		t.Fatalf("first frame: %+v", fr)
	}
	owed := int(ceilDiv(fr.Debt, DefaultTick))
	for owed > 0 {
		now += 10 * ms
		prev := fr
		fr = f.Step(now)
		if fr.Ticks != min(DefaultMaxLoops, owed+1) && fr.Ticks != min(DefaultMaxLoops, owed) {
			t.Fatalf("repaying %d owed: %+v after %+v", owed, fr, prev)
		}
		owed = int(ceilDiv(fr.Debt, DefaultTick))
	}
	if want := wantTicks(now, DefaultTick); f.TotalTicks() != want {
		t.Fatalf("%d ticks after %v, want %d", f.TotalTicks(), now, want)
	}
}

// TestFixedProperties drives random schedules (short frames, long ones,
// stalls, clock jumps back) through both modes and random settings, checks
// each frame against the article's loop and the invariants, and checks the
// documented guarantees of each mode.
func TestFixedProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	for iter := 0; iter < 300; iter++ {
		cfg := FixedConfig{
			Tick:     time.Duration(1+r.IntN(100)) * ms / time.Duration(1+r.IntN(3)),
			MaxLoops: 1 + r.IntN(8),
			Lockstep: r.IntN(2) == 0,
		}
		start := time.Duration(r.Int64N(1<<40)) - 1<<39
		f := mustFixed(t, cfg, start)
		m := &articleLoop{tick: cfg.Tick, maxLoops: cfg.MaxLoops, lockstep: cfg.Lockstep, time0: start, last: start}
		now := start
		fwd := time.Duration(0)
		for i := 0; i < 2000; i++ {
			prev := now
			switch k := r.IntN(100); {
			case k < 2:
				now += time.Duration(r.Int64N(int64(20 * time.Second))) // stall
			case k < 4:
				now -= time.Duration(r.Int64N(int64(time.Second))) // clock jumps back
			default:
				now += time.Duration(r.Int64N(int64(3 * cfg.Tick)))
			}
			if now > prev {
				fwd += now - prev
			}
			fr := f.Step(now)
			checkFrame(t, i, f, fr)
			if want := max(0, now-prev); i > 0 && fr.Elapsed != want || i == 0 && fr.Elapsed != 0 {
				t.Fatalf("frame %d: Elapsed %v for a move of %v", i, fr.Elapsed, now-prev)
			}
			ticks, disc, pct := m.frame(now)
			if fr.Ticks != ticks || fr.Discarded != disc || fr.Percent != pct || f.Time0() != m.time0 {
				t.Fatalf("cfg %+v frame %d: got %+v time0 %v; article loop %d %v %v %v", cfg, i, fr, f.Time0(), ticks, disc, pct, m.time0)
			}
			if !cfg.Lockstep && fr.Capped && (f.Time0() != now-cfg.Tick || fr.Percent != 1) {
				t.Fatalf("solo: not back on real time after a capped frame: time0 %v now %v", f.Time0(), now)
			}
			if cfg.Lockstep {
				// No tick is ever lost: ticks run plus ticks owed is the
				// full count for the forward time.
				owed := int64(0)
				if fr.Debt > 0 {
					owed = int64(ceilDiv(fr.Debt, cfg.Tick))
				}
				if got, want := f.TotalTicks()+owed, wantTicks(fwd, cfg.Tick); got != want {
					t.Fatalf("lockstep: %d run + %d owed = %d, want %d", f.TotalTicks(), owed, got, want)
				}
			}
		}
	}
}

// TestFixedNoDrift30Days: 30 simulated days of 60 FPS frames, frame i at
// i*1e9/60 ns exactly, give exactly ceil(e/Tick)-1 ticks, at most one a
// frame (~155 million frames).
func TestFixedNoDrift30Days(t *testing.T) {
	if testing.Short() {
		t.Skip("155 million frames; skipped with -short")
	}
	const frames = 30 * 24 * 3600 * 60
	f := mustFixed(t, FixedConfig{}, 0)
	var sum int64
	for i := int64(1); i <= frames; i++ {
		fr := f.Step(time.Duration(i * 1e9 / 60))
		if fr.Ticks > 1 || fr.Percent < 0 || fr.Percent > 1 {
			t.Fatalf("frame %d: %+v", i, fr)
		}
		sum += int64(fr.Ticks)
	}
	e := time.Duration(frames * 1e9 / 60)
	if want := wantTicks(e, DefaultTick); f.TotalTicks() != want || sum != want {
		t.Fatalf("after %v: %d ticks (frames say %d), want %d", e, f.TotalTicks(), sum, want)
	}
	if e != 30*24*time.Hour {
		t.Fatalf("the schedule covers %v, not 30 days", e)
	}
}

// TestFixedCountedRates: a game counts ticks and frames per second with
// RateCounters of its own: 25 and 60 on generated 60 FPS timestamps, and,
// with the loop on a paused Virtual, frames go on and ticks stop.
func TestFixedCountedRates(t *testing.T) {
	v := mustVirtual(t, VirtualConfig{MaxDelta: NoLimit}, 0)
	f := mustFixed(t, FixedConfig{}, v.Now())
	tps, fps := mustRate(t, time.Second, 512), mustRate(t, time.Second, 2048)
	frame := func(raw time.Duration) {
		v.Advance(raw)
		fr := f.Step(v.Now())
		tps.Add(raw, fr.Ticks)
		fps.Add(raw, 1)
	}
	for i := int64(1); i <= 60*30; i++ {
		now := time.Duration(i * 1e9 / 60)
		frame(now)
		if now >= 2*time.Second && i%7 == 0 {
			if tr, fr := tps.Rate(now), fps.Rate(now); math.Abs(tr-25) > 1 || math.Abs(fr-60) > 1 {
				t.Fatalf("at %v: TPS %v FPS %v, want 25 and 60", now, tr, fr)
			}
		}
	}
	now := 30 * time.Second
	v.SetPaused(true)
	for i := int64(1); i <= 90; i++ {
		frame(now + time.Duration(i*1e9/60))
	}
	now += 1500 * ms
	if tr, fr := tps.Rate(now), fps.Rate(now); tr != 0 || math.Abs(fr-60) > 1 {
		t.Fatalf("paused: TPS %v FPS %v, want 0 and 60", tr, fr)
	}
}

// TestFixedZeroValue: a zero Fixed behaves exactly like NewFixed with the
// default config at the time of its first Step, Reset or SetTick; before
// that every method answers without a panic.
func TestFixedZeroValue(t *testing.T) {
	var z Fixed
	if z.Config() != (FixedConfig{Tick: DefaultTick, MaxLoops: DefaultMaxLoops}) || z.Percent() != 0 || z.Time0() != 0 {
		t.Fatalf("zero Fixed: config %+v percent %v time0 %v", z.Config(), z.Percent(), z.Time0())
	}
	r := rand.New(rand.NewPCG(40, 41))
	for iter := 0; iter < 100; iter++ {
		start := time.Duration(r.Int64N(1<<40)) - 1<<39
		var zero Fixed
		var ref *Fixed
		switch iter % 3 {
		case 0: // the first Step starts it
			ref = mustFixed(t, FixedConfig{}, start)
		case 1: // Reset starts it
			zero.Reset(start)
			ref = mustFixed(t, FixedConfig{}, start)
		case 2: // SetTick starts it, with the new tick
			if err := zero.SetTick(start, 25*ms); err != nil {
				t.Fatal(err)
			}
			ref = mustFixed(t, FixedConfig{Tick: 25 * ms}, start)
		}
		now := start
		for i := 0; i < 300; i++ {
			if i > 0 {
				now += time.Duration(r.Int64N(int64(100 * ms)))
			}
			got, want := zero.Step(now), ref.Step(now)
			if got != want {
				t.Fatalf("iter %d frame %d: zero Fixed %+v, NewFixed %+v", iter, i, got, want)
			}
		}
	}
}

// TestFixedElapsed: Elapsed is the clock time since the previous Step, 0
// on the first, 0 when the clock went back, and counted from a Reset.
func TestFixedElapsed(t *testing.T) {
	f := mustFixed(t, FixedConfig{}, origin)
	for _, c := range []struct {
		op   string
		at   time.Duration
		want time.Duration
	}{
		{"step", origin + 5*ms, 0}, // the first Step
		{"step", origin + 21*ms, 16 * ms},
		{"step", origin + 21*ms, 0},
		{"step", origin + 10*ms, 0}, // back
		{"step", origin + 30*ms, 20 * ms},
		{"reset", origin + 5*time.Second, 0},
		{"step", origin + 5*time.Second + 7*ms, 7 * ms},
		{"settick", origin + 5*time.Second + 10*ms, 0},
		{"step", origin + 5*time.Second + 17*ms, 10 * ms}, // SetTick does not cut the frame
	} {
		switch c.op {
		case "reset":
			f.Reset(c.at)
		case "settick":
			if err := f.SetTick(c.at, 20*ms); err != nil {
				t.Fatal(err)
			}
		default:
			if fr := f.Step(c.at); fr.Elapsed != c.want {
				t.Fatalf("Step(origin+%v): Elapsed %v, want %v", c.at-origin, fr.Elapsed, c.want)
			}
		}
	}
}

// TestFrameSpan: Span saturates at the ends of time.Duration instead of
// wrapping, and a later tick never has an earlier span.
func TestFrameSpan(t *testing.T) {
	fr := FixedFrame{SpanStart: 100 * ms, Tick: 40 * ms, Ticks: 3}
	if got := fr.Span(1); got != (TickSpan{140 * ms, 180 * ms}) {
		t.Fatalf("Span(1) = %+v", got)
	}
	for _, fr := range []FixedFrame{
		{SpanStart: math.MaxInt64 - 50*ms, Tick: 40 * ms},
		{SpanStart: math.MinInt64 + 50*ms, Tick: 40 * ms},
		{SpanStart: 0, Tick: math.MaxInt64},
		{SpanStart: -time.Hour, Tick: 1},
	} {
		prev := TickSpan{Start: math.MinInt64, End: math.MinInt64}
		js := []int{math.MinInt, math.MinInt + 1, -3, -1, 0, 1, 2, 3, math.MaxInt32 - 1, math.MaxInt32, math.MaxInt - 1, math.MaxInt}
		slices.Sort(js) // on 386, math.MaxInt is math.MaxInt32
		for _, j := range slices.Compact(js) {
			sp := fr.Span(j)
			want := func(k int64) time.Duration {
				x := new(big.Int).Mul(big.NewInt(k), big.NewInt(int64(fr.Tick)))
				return clampBig(x.Add(x, big.NewInt(int64(fr.SpanStart))))
			}
			if sp.End < sp.Start || sp.Start < prev.Start || sp.End < prev.End {
				t.Fatalf("%+v: Span(%d) = %+v after %+v", fr, j, sp, prev)
			}
			// Exact where the product fits; saturated where the sum does not.
			if k := int64(j); mulSat(fr.Tick, k) != math.MaxInt64 && mulSat(fr.Tick, k) != math.MinInt64 && sp.Start != want(k) {
				t.Fatalf("%+v: Span(%d).Start = %v, want %v", fr, j, sp.Start, want(k))
			}
			prev = sp
		}
	}
}

func TestFixedAllocs(t *testing.T) {
	f := mustFixed(t, FixedConfig{}, 0)
	now := time.Duration(0)
	allocs := testing.AllocsPerRun(10000, func() {
		now += 16 * ms
		fr := f.Step(now)
		_ = fr.Span(0)
	})
	if allocs != 0 {
		t.Fatalf("Step allocates %v times per frame", allocs)
	}
	allocs = testing.AllocsPerRun(1000, func() {
		now += 16 * ms
		_ = f.SetTick(now+ms, 20*ms)
		_ = f.SetTick(now+ms, 40*ms)
		_ = f.SetMaxLoops(5)
		f.SetLockstep(true)
		f.SetLockstep(false)
		f.Reset(now + ms)
	})
	if allocs != 0 {
		t.Fatalf("the setters allocate %v times", allocs)
	}
	var zero Fixed
	if a := testing.AllocsPerRun(1000, func() { now += 16 * ms; zero.Step(now) }); a != 0 {
		t.Fatalf("a zero Fixed's Step allocates %v times", a)
	}
}
