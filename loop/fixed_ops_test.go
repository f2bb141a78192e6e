package loop

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// owedTicks is the number of ticks a frame at the same now would still run
// (before the cap) after a frame that left debt d: ceil(d/tick).
func owedTicks(d, tick time.Duration) int {
	return int(min(owedTicks64(d, tick), math.MaxInt32)) // an int is 32 bits on 386
}

// owedTicks64 is owedTicks in an int64, which never saturates.
func owedTicks64(d, tick time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64(ceilDiv(d, tick))
}

// TestFixedOpsNoBurstNoJump runs the loop on a Virtual (speed 1, no
// clamp, so game time is the raw time while running), applies every
// mid-run operation at the time of the frame just planned and checks,
// against that frame, that percentWithinTick does not move and that a
// frame at the same game time runs no ticks but the debt a lockstep loop
// still owes. The pause is the Virtual's: while paused, raw time passes
// and game time does not.
func TestFixedOpsNoBurstNoJump(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	ops := []string{"SetTick", "SetMaxLoops", "Pause", "Reset", "SetLockstep"}
	for iter := 0; iter < 3000; iter++ {
		cfg := FixedConfig{
			Tick:     time.Duration(1 + r.Int64N(int64(100*ms))),
			MaxLoops: 1 + r.IntN(6),
			Lockstep: r.IntN(2) == 0,
		}
		v := mustVirtual(t, VirtualConfig{MaxDelta: NoLimit}, 0)
		f := mustFixed(t, cfg, v.Now())
		raw := time.Duration(0)
		for i, n := 0, r.IntN(20); i < n; i++ {
			raw += time.Duration(r.Int64N(int64(4 * cfg.Tick)))
			v.Advance(raw)
			f.Step(v.Now())
		}
		raw += time.Duration(r.Int64N(int64(20 * cfg.Tick)))
		v.Advance(raw)
		now := v.Now()
		before := f.Step(now)
		op := ops[r.IntN(len(ops))]
		newTick, newMax := f.Config().Tick, f.Config().MaxLoops
		wantOwed := owedTicks(before.Debt, before.Tick)
		switch op {
		case "SetTick":
			newTick = time.Duration(1 + r.Int64N(int64(200*ms)))
			if r.IntN(2) == 0 {
				newTick = before.Tick * time.Duration(1+r.IntN(4)) / time.Duration(1+r.IntN(4))
			}
			if err := f.SetTick(now, newTick); err != nil {
				t.Fatal(err)
			}
		case "SetMaxLoops":
			newMax = 1 + r.IntN(10)
			if err := f.SetMaxLoops(newMax); err != nil {
				t.Fatal(err)
			}
		case "Pause":
			// Up to 20 ticks of raw time pass while paused: no game time.
			v.SetPaused(true)
			raw += time.Duration(r.Int64N(int64(20 * cfg.Tick)))
			if d := v.Advance(raw); d.Scaled != 0 || v.Now() != now {
				t.Fatalf("paused Virtual moved: %+v, now %v -> %v", d, now, v.Now())
			}
		case "Reset":
			f.Reset(now)
			wantOwed = 0
		case "SetLockstep":
			f.SetLockstep(!f.Config().Lockstep)
		}
		// Percent at the same now: unchanged; SetTick rescales the pending
		// time, rounded up to the nanosecond, so it may move by < 1ns/tick.
		got := f.Percent()
		tol := 0.0
		if op == "SetTick" {
			tol = 1/float64(newTick) + 1e-15
		}
		if math.Abs(got-before.Percent) > tol {
			t.Fatalf("%s: percent %v -> %v (tol %v), cfg %+v new tick %v", op, before.Percent, got, tol, cfg, newTick)
		}
		if op == "SetTick" && before.Percent < 1 {
			p := before.Percent * float64(before.Tick) // the pending time, exact: it is an integer < 2^53
			if math.Mod(p*float64(newTick), float64(before.Tick)) == 0 && got != before.Percent {
				t.Fatalf("SetTick %v -> %v: exact rescale moved percent %v -> %v", before.Tick, newTick, before.Percent, got)
			}
		}
		after := f.Step(now)
		want := 0
		if f.Config().Lockstep {
			want = min(newMax, wantOwed)
		}
		if after.Ticks != want {
			t.Fatalf("%s: a frame at the same now ran %d ticks, want %d (before %+v, cfg %+v, new tick %v)",
				op, after.Ticks, want, before, cfg, newTick)
		}
		if want == 0 && math.Abs(after.Percent-before.Percent) > tol {
			t.Fatalf("%s: a frame at the same now drew at %v, before %v", op, after.Percent, before.Percent)
		}
		if op == "Pause" {
			// Resumed, the next frame runs on from the frozen state: less
			// than a tick of game time gives at most one tick (plus what a
			// lockstep loop still owes).
			v.SetPaused(false)
			d := time.Duration(r.Int64N(int64(f.Config().Tick)))
			raw += d
			v.Advance(raw)
			fr := f.Step(v.Now())
			if v.Now() != now+d || fr.Ticks > 1+owedTicks(after.Debt, after.Tick) {
				t.Fatalf("resume: game time %v -> %v after %v, frame %+v after %+v", now, v.Now(), d, fr, after)
			}
		}
	}
}

// TestFixedOnPausedVirtual: a Fixed loop on a Virtual stops ticking while
// the Virtual is paused, the drawing freezes, and after the resume the
// loop goes on as if the paused time had not passed: no burst.
func TestFixedOnPausedVirtual(t *testing.T) {
	const pause = 10 * time.Second
	for _, lockstep := range []bool{false, true} {
		v := mustVirtual(t, VirtualConfig{MaxDelta: NoLimit}, origin)
		f := mustFixed(t, FixedConfig{Lockstep: lockstep}, v.Now())
		frame := func(raw time.Duration) FixedFrame {
			v.Advance(raw)
			return f.Step(v.Now())
		}
		ts := jittery(7, origin, 16*ms, 5*ms, 600)
		for _, now := range ts[:300] {
			frame(now)
		}
		pausedAt := ts[299] + 3*ms
		frame(pausedAt)
		v.SetPaused(true)
		frozen, frozenAt := f.Percent(), v.Now()
		for i, now := range steady(pausedAt, 16*ms, int(pause/(16*ms))) {
			fr := frame(now)
			if fr.Ticks != 0 || fr.Percent != frozen || fr.Elapsed != 0 || !v.Paused() || v.Now() != frozenAt {
				t.Fatalf("paused frame %d: %+v, want no ticks at %v", i, fr, frozen)
			}
		}
		v.SetPaused(false) // the last paused frame was at pausedAt + pause
		if v.Paused() {
			t.Fatal("still paused after SetPaused(false)")
		}
		for i, now := range ts[300:] {
			fr := frame(now + pause)
			checkFrame(t, i, f, fr)
			if fr.Ticks > 1 {
				t.Fatalf("burst after resume: frame %d ran %d ticks", i, fr.Ticks)
			}
		}
		// The paused interval does not count; everything else does.
		fwd := forward(origin, ts)
		if want := wantTicks(fwd, DefaultTick); f.TotalTicks() != want {
			t.Fatalf("%d ticks, want %d for %v of unpaused time", f.TotalTicks(), want, fwd)
		}
		if v.Now() != origin+fwd {
			t.Fatalf("game time %v, want %v", v.Now()-origin, fwd)
		}
		// Pausing twice, resuming twice: harmless.
		end := ts[599] + pause
		v.SetPaused(true)
		frame(end + pause)
		v.SetPaused(true)
		frame(end + 2*pause)
		v.SetPaused(false)
		v.SetPaused(false)
		if fr := frame(end + 2*pause + 5*ms); fr.Ticks > 1 {
			t.Fatalf("after double pause: %+v", fr)
		}
	}
}

// TestFixedOnPausedVirtualDriver: the same through a Driver on a
// VirtualClock: no Tick call while paused, Draw at a frozen
// percentWithinTick, and the ticks' spans go on without a gap.
func TestFixedOnPausedVirtualDriver(t *testing.T) {
	raw := NewManualClock(origin)
	v := mustVirtual(t, VirtualConfig{MaxDelta: NoLimit}, raw.Now())
	g := &spanGame{}
	d := &Driver{Clock: VirtualClock{Raw: raw, Virtual: v}, Loop: new(Fixed), Game: g}
	frames := func(n int) {
		for i := 0; i < n; i++ {
			raw.Advance(16 * ms)
			if _, err := d.Frame(); err != nil {
				t.Fatal(err)
			}
		}
	}
	frames(100)
	ticks, draws := len(g.spans), len(g.draws)
	v.SetPaused(true)
	frames(1000)
	if len(g.spans) != ticks {
		t.Fatalf("%d ticks while paused", len(g.spans)-ticks)
	}
	for _, p := range g.draws[draws:] {
		if p != g.draws[draws-1] {
			t.Fatalf("paused draw at %v, frozen at %v", p, g.draws[draws-1])
		}
	}
	v.SetPaused(false)
	frames(100)
	// 199 running frame intervals of 16 ms after the first frame (which
	// reset the loop): ceil(3.184 s/40 ms)-1.
	if want := wantTicks(199*16*ms, DefaultTick); int64(len(g.spans)) != want {
		t.Fatalf("%d ticks, want %d", len(g.spans), want)
	}
	for k := 1; k < len(g.spans); k++ {
		if g.spans[k].Start != g.spans[k-1].End {
			t.Fatalf("tick %d: span %+v after %+v", k, g.spans[k], g.spans[k-1])
		}
	}
}

// spanGame records the spans of the ticks and the percent of the draws.
type spanGame struct {
	spans []TickSpan
	draws []float64
}

func (g *spanGame) Tick(s TickSpan)        { g.spans = append(g.spans, s) }
func (g *spanGame) Independent(FixedFrame) {}
func (g *spanGame) Draw(p float64)         { g.draws = append(g.draws, p) }

// TestFixedResetAfterLoading: loading a level for 5 s, then Reset: no burst,
// the drawing does not jump, and the ticks go on from the tick in progress.
func TestFixedResetAfterLoading(t *testing.T) {
	f := mustFixed(t, FixedConfig{}, origin)
	ts := steady(origin, 15*ms, 100) // last frame at 1.5 s: 37 ticks, 20 ms into the next
	var last FixedFrame
	for _, now := range ts {
		last = f.Step(now)
	}
	loaded := ts[99] + 5*time.Second
	f.Reset(loaded)
	fr := f.Step(loaded)
	if fr.Ticks != 0 || fr.Percent != last.Percent || fr.Percent != 0.5 {
		t.Fatalf("after loading: %+v, want no ticks at percent %v (= 0.5)", fr, last.Percent)
	}
	// 20 ms pending + 1 s: ceil(1.02 s / 40 ms) - 1 = 25 more ticks.
	for _, now := range steady(loaded, 10*ms, 100) {
		f.Step(now)
	}
	if want := wantTicks(1500*ms, DefaultTick) + wantTicks(20*ms+time.Second, DefaultTick); f.TotalTicks() != want {
		t.Fatalf("%d ticks, want %d", f.TotalTicks(), want)
	}
	if f.TotalDiscarded() != 0 {
		t.Fatalf("Reset counted %v as discarded", f.TotalDiscarded())
	}
}

// TestFixedSetTickMidRun: changing the tick from 40 to 20 ms halfway
// through a tick keeps the drawing where it was and doubles the tick rate.
func TestFixedSetTickMidRun(t *testing.T) {
	f := mustFixed(t, FixedConfig{}, 0)
	for _, now := range steady(0, 10*ms, 101) { // 1.01 s: 25 ticks, 10 ms pending
		f.Step(now)
	}
	now := 1010 * ms
	before := f.Percent()
	if err := f.SetTick(now, 20*ms); err != nil {
		t.Fatal(err)
	}
	if f.Percent() != before || before != 0.25 {
		t.Fatalf("percent %v -> %v, want 0.25 both", before, f.Percent())
	}
	// 5 ms pending at the new tick; one more second gives ceil(1.005/0.02)-1 = 50 ticks.
	for _, now := range steady(now, 10*ms, 100) {
		if fr := f.Step(now); fr.Ticks > 1 {
			t.Fatalf("burst: %+v", fr)
		}
	}
	if want := int64(25 + 50); f.TotalTicks() != want {
		t.Fatalf("%d ticks, want %d", f.TotalTicks(), want)
	}
}

// TestMulDiv checks the 128-bit rescale against exact arithmetic on
// values near the edges.
func TestMulDiv(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 7))
	vals := func() time.Duration {
		switch r.IntN(3) {
		case 0:
			return time.Duration(r.Int64N(1000))
		case 1:
			return time.Duration(r.Int64N(math.MaxInt64))
		}
		return math.MaxInt64 - time.Duration(r.Int64N(1000))
	}
	for i := 0; i < 100000; i++ {
		a, b, c := vals(), vals(), vals()+1
		if c <= 0 {
			c = 1
		}
		for _, ceil := range []bool{false, true} {
			got := mulDiv(a, b, c, ceil)
			want := bigMulDiv(a, b, c, ceil)
			if got != want {
				t.Fatalf("mulDiv(%d, %d, %d, %v) = %d, want %d", a, b, c, ceil, got, want)
			}
		}
	}
}

// TestFixedSetTickKeepsOwedTicks: the rescale rounds up, so a pending time
// just past a whole number of ticks stays past it: a lockstep loop still
// owes the same number of ticks after the change.
func TestFixedSetTickKeepsOwedTicks(t *testing.T) {
	for _, d := range []time.Duration{20 * ms, 13 * ms, 39999999, 40000001, 3 * DefaultTick} {
		f := mustFixed(t, FixedConfig{Lockstep: true, MaxLoops: 1}, 0)
		now := 200*ms + 1
		fr := f.Step(now) // 1 tick of the 5 owed; 160 ms + 1 ns pending
		owed := owedTicks(fr.Debt, DefaultTick)
		if fr.Ticks != 1 || owed != 4 {
			t.Fatalf("setup: %+v, %d owed", fr, owed)
		}
		if err := f.SetTick(now, d); err != nil {
			t.Fatal(err)
		}
		if err := f.SetMaxLoops(100); err != nil {
			t.Fatal(err)
		}
		if got := f.Step(now).Ticks; got != owed {
			t.Fatalf("tick %v: %d ticks owed after the change, want %d", d, got, owed)
		}
	}
}
