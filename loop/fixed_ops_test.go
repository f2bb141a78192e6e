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
	if d <= 0 {
		return 0
	}
	return int(ceilDiv(d, tick))
}

// TestFixedOpsNoBurstNoJump applies every mid-run operation at the time of
// the frame just planned and checks, against that frame, that
// percentWithinTick does not move and that a frame at the same time runs
// no ticks but the debt a lockstep loop still owes.
func TestFixedOpsNoBurstNoJump(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	ops := []string{"SetTick", "SetMaxLoops", "Pause+Resume", "Reset", "SetLockstep"}
	for iter := 0; iter < 3000; iter++ {
		cfg := FixedConfig{
			Tick:     time.Duration(1 + r.Int64N(int64(100*ms))),
			MaxLoops: 1 + r.IntN(6),
			Lockstep: r.IntN(2) == 0,
		}
		f := mustFixed(t, cfg, 0)
		now := time.Duration(0)
		for i, n := 0, r.IntN(20); i < n; i++ {
			now += time.Duration(r.Int64N(int64(4 * cfg.Tick)))
			f.Step(now)
		}
		now += time.Duration(r.Int64N(int64(20 * cfg.Tick)))
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
		case "Pause+Resume":
			f.Pause(now)
			if f.Percent() != before.Percent {
				t.Fatalf("Pause moved percent %v -> %v", before.Percent, f.Percent())
			}
			fr := f.Step(now)
			if fr.Ticks != 0 || !fr.Paused || fr.Percent != before.Percent {
				t.Fatalf("paused frame: %+v, before %+v", fr, before)
			}
			f.Resume(now)
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
	}
}

// TestFixedPauseResume: ticks stop while paused, the drawing freezes, and
// after Resume the loop goes on as if the paused time had not passed.
func TestFixedPauseResume(t *testing.T) {
	const pause = 10 * time.Second
	for _, lockstep := range []bool{false, true} {
		f := mustFixed(t, FixedConfig{Lockstep: lockstep}, origin)
		ts := jittery(7, origin, 16*ms, 5*ms, 600)
		for _, now := range ts[:300] {
			f.Step(now)
		}
		pausedAt := ts[299] + 3*ms
		f.Pause(pausedAt)
		frozen := f.Percent()
		for i, now := range steady(pausedAt, 16*ms, int(pause/(16*ms))) {
			fr := f.Step(now)
			if fr.Ticks != 0 || fr.Percent != frozen || !fr.Paused || !f.Paused() {
				t.Fatalf("paused frame %d: %+v, want no ticks at %v", i, fr, frozen)
			}
		}
		f.Resume(pausedAt + pause)
		if f.Paused() {
			t.Fatal("still paused after Resume")
		}
		for i, now := range ts[300:] {
			fr := f.Step(now + pause)
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
		// Pausing twice, resuming twice: harmless.
		f.Pause(ts[599] + pause)
		f.Pause(ts[599] + 2*pause)
		f.Resume(ts[599] + 3*pause)
		f.Resume(ts[599] + 3*pause)
		if fr := f.Step(ts[599] + 3*pause + 5*ms); fr.Ticks > 1 {
			t.Fatalf("after double pause: %+v", fr)
		}
	}
}

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
	if tps := f.TPS(2010 * ms); math.Abs(tps-50) > 1 {
		t.Fatalf("TPS %v after the change, want 50", tps)
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
