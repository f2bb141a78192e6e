package loop

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func mustAdaptive(t testing.TB, cfg AdaptiveConfig, now time.Duration) *Adaptive {
	t.Helper()
	a, err := NewAdaptive(cfg, now)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// adaptiveFrame runs one frame of the documented usage on a manual clock,
// with the given cost per logic cycle and per draw, and returns the number
// of cycles and when the draw started.
func adaptiveFrame(a *Adaptive, clock *ManualClock, cycle, draw func() time.Duration) (cycles int, drawAt time.Duration) {
	now := clock.Now()
	for a.NextCycle(now) {
		cycles++
		clock.Advance(cycle())
		now = clock.Now()
	}
	if wait := a.PresentAt() - now; wait > 0 {
		clock.Sleep(wait)
		now = clock.Now()
	}
	a.BeginDraw(now)
	clock.Advance(draw())
	a.EndDraw(clock.Now())
	return cycles, now
}

func constant(d time.Duration) func() time.Duration { return func() time.Duration { return d } }

// wantAdaptiveCycles derives the steady cycle count from the clsGameClock post's test:
// after k cycles of c following a draw of d that started the frame, another
// cycle runs while d + k×c + c < target. The count is the first k where
// that fails: max(1, ceil((target-d-c)/c)).
func wantAdaptiveCycles(target, c, d time.Duration) int {
	if c == 0 {
		return math.MaxInt
	}
	k := target - d - c
	if k <= 0 {
		return 1
	}
	return int(ceilDiv(k, c))
}

func TestAdaptiveSteady(t *testing.T) {
	for _, c := range []struct{ cycle, draw time.Duration }{
		{2 * ms, 5 * ms},
		{ms, 1 * ms},       // fast machine: 23 cycles
		{3 * ms, 20 * ms},  // heavy draw: room for one
		{25 * ms, 5 * ms},  // a cycle as long as the target
		{200 * ms, 5 * ms}, // slow machine: 1 cycle, late presents
		{7 * ms, 0},
	} {
		clock := NewManualClock(origin)
		a := mustAdaptive(t, AdaptiveConfig{}, clock.Now())
		first, _ := adaptiveFrame(a, clock, constant(c.cycle), constant(c.draw))
		if first != 1 {
			t.Fatalf("%+v: first frame ran %d cycles, want 1 (the post: single cycle first)", c, first)
		}
		want := min(wantAdaptiveCycles(DefaultTarget, c.cycle, c.draw), DefaultAdaptiveMaxCycles)
		var draws []time.Duration
		for i := 0; i < 50; i++ {
			n, at := adaptiveFrame(a, clock, constant(c.cycle), constant(c.draw))
			draws = append(draws, at)
			if n != want || a.CyclesLastFrame() != n {
				t.Fatalf("%+v frame %d: %d cycles (last frame %d), want %d", c, i, n, a.CyclesLastFrame(), want)
			}
			if a.LastCycle() != c.cycle || a.LastDraw() != c.draw {
				t.Fatalf("measured cycle %v draw %v", a.LastCycle(), a.LastDraw())
			}
		}
		// Frame pacing: when a frame fits in the target, draws are exactly
		// Target apart; otherwise as soon as possible, one frame's work apart.
		period := DefaultTarget
		if work := c.draw + time.Duration(want)*c.cycle; work > DefaultTarget {
			period = work
		}
		for i := 1; i < len(draws); i++ {
			if draws[i]-draws[i-1] != period {
				t.Fatalf("%+v: draws %v apart, want %v", c, draws[i]-draws[i-1], period)
			}
		}
	}
}

// TestAdaptiveSingleCycleOnce: the trigger ends the frame in progress after
// its current cycle, or, set between frames, makes the next frame single.
func TestAdaptiveSingleCycleOnce(t *testing.T) {
	clock := NewManualClock(0)
	a := mustAdaptive(t, AdaptiveConfig{}, 0)
	for i := 0; i < 3; i++ {
		adaptiveFrame(a, clock, constant(ms), constant(ms))
	}
	a.SingleCycleOnce()
	if n, _ := adaptiveFrame(a, clock, constant(ms), constant(ms)); n != 1 {
		t.Fatalf("after the trigger: %d cycles", n)
	}
	if n, _ := adaptiveFrame(a, clock, constant(ms), constant(ms)); n != 23 {
		t.Fatalf("the trigger stuck: %d cycles, want 23", n)
	}
	// Mid-frame: an explosion in the 4th cycle.
	k := 0
	n, _ := adaptiveFrame(a, clock, func() time.Duration {
		if k++; k == 4 {
			a.SingleCycleOnce()
		}
		return ms
	}, constant(ms))
	if n != 4 {
		t.Fatalf("trigger in cycle 4: %d cycles", n)
	}
}

// TestAdaptiveScenarios: the classic schedules as the durations of the
// logic cycles (a frame's cycles take the gaps of the schedule in turn);
// checks the post's decision rule at every call and the safety cap.
func TestAdaptiveScenarios(t *testing.T) {
	for _, sc := range classicScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			clock := NewManualClock(origin)
			a := mustAdaptive(t, AdaptiveConfig{}, origin)
			i := 1
			var counts []int
			for i < len(sc.times) {
				now := clock.Now()
				cycles := 0
				for {
					more := a.NextCycle(now)
					if cycles > 0 {
						// The post's rule, from the outside (the first frame
						// is single, as in the post).
						lastDraw := a.PresentAt() - DefaultTarget
						fits := (now-lastDraw)+a.LastCycle() < DefaultTarget
						rule := fits && cycles < DefaultAdaptiveMaxCycles && a.CyclesLastFrame() > 0
						if a.LastCycle() < 0 || more != rule {
							t.Fatalf("cycle %d: NextCycle %v, rule says %v (last cycle %v)", cycles, more, rule, a.LastCycle())
						}
					}
					if !more || i >= len(sc.times) {
						break
					}
					cycles++
					clock.Advance(sc.times[i] - sc.times[i-1]) // the cycle's cost
					i++
					now = clock.Now()
				}
				if cycles < 1 || cycles > DefaultAdaptiveMaxCycles {
					t.Fatalf("%d cycles", cycles)
				}
				if wait := a.PresentAt() - now; wait > 0 {
					clock.Advance(wait)
					now = clock.Now()
				}
				a.BeginDraw(now)
				a.EndDraw(now)
				counts = append(counts, cycles)
			}
			// Steady frames (the first is single; the last may be cut short
			// by the end of the schedule).
			steady := counts[1 : len(counts)-1]
			switch sc.name {
			case "fast 1ms":
				for _, n := range steady {
					if n != wantAdaptiveCycles(DefaultTarget, ms, 0) {
						t.Fatalf("1 ms cycles: %v", counts)
					}
				}
			case "exactly one tick", "slow 200ms":
				for _, n := range steady {
					if n != 1 {
						t.Fatalf("cycles longer than the target: %v", counts)
					}
				}
			}
		})
	}
}

// TestAdaptiveCapAndBackwards: a clock that does not move would fit
// endless cycles: MaxCycles stops them. A clock that goes back counts as
// standing still.
func TestAdaptiveCapAndBackwards(t *testing.T) {
	a := mustAdaptive(t, AdaptiveConfig{MaxCycles: 7}, 0)
	clock := NewManualClock(0)
	adaptiveFrame(a, clock, constant(0), constant(0))
	if n, _ := adaptiveFrame(a, clock, constant(0), constant(0)); n != 7 {
		t.Fatalf("frozen clock: %d cycles, want the cap 7", n)
	}
	// Backwards during the cycles.
	clock.Set(time.Hour)
	a = mustAdaptive(t, AdaptiveConfig{}, clock.Now())
	adaptiveFrame(a, clock, constant(ms), constant(ms))
	step := 0
	n, _ := adaptiveFrame(a, clock, func() time.Duration {
		step++
		if step == 3 {
			return -30 * time.Minute
		}
		return 2 * ms
	}, constant(ms))
	// The jump back counts as no time: the frame goes on as if the third
	// cycle had taken 0: 1 ms draw + 2+2+0+2... ms.
	if n < 1 || n > DefaultAdaptiveMaxCycles || a.LastCycle() < 0 {
		t.Fatalf("backwards: %d cycles, last cycle %v", n, a.LastCycle())
	}
	if want := wantAdaptiveCycles(DefaultTarget, 2*ms, ms) + 1; n != want {
		t.Fatalf("backwards: %d cycles, want %d", n, want)
	}
	if a.PresentAt() > clock.Now()+DefaultTarget {
		t.Fatalf("present at %v, now %v", a.PresentAt(), clock.Now())
	}
}

// TestAdaptiveProperties: random targets, caps, cycle and draw costs;
// never fewer than one cycle nor more than MaxCycles; BeginDraw without the
// final NextCycle still measures.
func TestAdaptiveProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for iter := 0; iter < 200; iter++ {
		cfg := AdaptiveConfig{Target: time.Duration(1 + r.Int64N(int64(50*ms))), MaxCycles: 1 + r.IntN(50)}
		clock := NewManualClock(time.Duration(r.Int64N(1 << 40)))
		a := mustAdaptive(t, cfg, clock.Now())
		cost := func() time.Duration { return time.Duration(r.Int64N(int64(cfg.Target / 3))) }
		for f := 0; f < 100; f++ {
			n, _ := adaptiveFrame(a, clock, cost, cost)
			if n < 1 || n > cfg.MaxCycles {
				t.Fatalf("%d cycles, cap %d", n, cfg.MaxCycles)
			}
		}
		// Breaking out of the loop early: BeginDraw measures the cycle.
		now := clock.Now()
		a.NextCycle(now)
		clock.Advance(3 * ms)
		a.BeginDraw(clock.Now())
		if a.LastCycle() != 3*ms || a.CyclesLastFrame() != 1 {
			t.Fatalf("early BeginDraw: cycle %v, %d cycles", a.LastCycle(), a.CyclesLastFrame())
		}
	}
}

func TestAdaptiveErrors(t *testing.T) {
	for _, cfg := range []AdaptiveConfig{{Target: -1}, {Target: NoLimit}, {MaxCycles: -1}} {
		if a, err := NewAdaptive(cfg, 0); !errors.Is(err, ErrInvalid) || a != nil {
			t.Errorf("NewAdaptive(%+v) = %v, %v", cfg, a, err)
		}
	}
	a := mustAdaptive(t, AdaptiveConfig{}, 0)
	if a.Config() != (AdaptiveConfig{Target: 25 * ms, MaxCycles: 100}) {
		t.Fatalf("defaults %+v", a.Config())
	}
	if !a.NextCycle(0) || a.NextCycle(ms) || a.NextCycle(2*ms) {
		t.Fatal("after a no, NextCycle must keep saying no until BeginDraw")
	}
}

func TestAdaptiveAllocs(t *testing.T) {
	a := mustAdaptive(t, AdaptiveConfig{}, 0)
	now := time.Duration(0)
	if n := testing.AllocsPerRun(10000, func() {
		for a.NextCycle(now) {
			now += 2 * ms
		}
		now = max(now, a.PresentAt())
		a.BeginDraw(now)
		now += 3 * ms
		a.EndDraw(now)
	}); n != 0 {
		t.Fatalf("%v allocs", n)
	}
}

// TestAdaptiveZeroValue: a zero Adaptive behaves exactly like NewAdaptive
// with the default config at the first time it is given.
func TestAdaptiveZeroValue(t *testing.T) {
	var z Adaptive
	if z.Config() != (AdaptiveConfig{Target: DefaultTarget, MaxCycles: DefaultAdaptiveMaxCycles}) || z.PresentAt() != DefaultTarget {
		t.Fatalf("zero config %+v, present at %v", z.Config(), z.PresentAt())
	}
	r := rand.New(rand.NewPCG(52, 53))
	for iter := 0; iter < 20; iter++ {
		c1, c2 := NewManualClock(origin), NewManualClock(origin)
		var zero Adaptive
		ref := mustAdaptive(t, AdaptiveConfig{}, origin)
		for f := 0; f < 50; f++ {
			costs := make([]time.Duration, 64)
			for i := range costs {
				costs[i] = time.Duration(r.Int64N(int64(6 * ms)))
			}
			next := func(k *int) func() time.Duration {
				return func() time.Duration { *k++; return costs[*k%len(costs)] }
			}
			var k1, k2 int
			n1, at1 := adaptiveFrame(&zero, c1, next(&k1), next(&k1))
			n2, at2 := adaptiveFrame(ref, c2, next(&k2), next(&k2))
			if n1 != n2 || at1 != at2 || zero.LastCycle() != ref.LastCycle() || zero.LastDraw() != ref.LastDraw() {
				t.Fatalf("iter %d frame %d: zero %d cycles drawn at %v; NewAdaptive %d at %v", iter, f, n1, at1, n2, at2)
			}
		}
	}
}
