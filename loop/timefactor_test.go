package loop

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func mustTimeFactor(t testing.TB, cfg TimeFactorConfig, now time.Duration) *TimeFactor {
	t.Helper()
	tf, err := NewTimeFactor(cfg, now)
	if err != nil {
		t.Fatal(err)
	}
	return tf
}

// postGame is the DarkBASIC timer-based movement post's game_update
// written out literally, in integer milliseconds like the DarkBASIC
// original (timer() is in ms).
type postGame struct {
	starttime, runtime, actualRuntime, timedif int64
	nextFullUpdate, fullUpdates, fullUpdateSum int64
	timeFactor                                 float64
}

const (
	msPerFullUpdate = 20
	maxTimeDif      = 100
)

func (g *postGame) update(timer int64) {
	tprev := g.actualRuntime
	g.actualRuntime = timer - g.starttime
	g.timedif = g.actualRuntime - tprev
	if g.timedif > maxTimeDif {
		g.timedif = maxTimeDif
	}
	g.runtime += g.timedif
	g.timeFactor = float64(g.timedif) / (1.0 * msPerFullUpdate)
	g.fullUpdates = 0
	if g.runtime >= g.nextFullUpdate {
		dif := g.runtime - g.nextFullUpdate
		updates := 1 + dif/msPerFullUpdate
		if updates > 10 {
			g.fullUpdates = 10
			g.nextFullUpdate = g.runtime + msPerFullUpdate
		} else {
			g.nextFullUpdate += updates * msPerFullUpdate
			g.fullUpdates = updates
		}
	}
	g.fullUpdateSum += g.fullUpdates
}

// TestTimeFactorMatchesPost: on millisecond timestamps (which the post
// works in), every frame equals the post's game_update.
func TestTimeFactorMatchesPost(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 19))
	for iter := 0; iter < 100; iter++ {
		start := r.Int64N(1 << 30)
		tf := mustTimeFactor(t, TimeFactorConfig{}, time.Duration(start)*ms)
		g := &postGame{starttime: start}
		now := start
		for i := 0; i < 2000; i++ {
			switch k := r.IntN(100); {
			case k < 3:
				now += r.Int64N(5000) // long frames: clamp and catch-up
			default:
				now += r.Int64N(60)
			}
			fr := tf.Step(time.Duration(now) * ms)
			g.update(now)
			if fr.Delta != time.Duration(g.timedif)*ms || fr.TimeFactor != g.timeFactor ||
				int64(fr.FullUpdates) != g.fullUpdates || fr.FullUpdateSum != g.fullUpdateSum ||
				fr.Runtime != time.Duration(g.runtime)*ms {
				t.Fatalf("frame %d at %d ms: %+v; post %+v", i, now-start, fr, *g)
			}
		}
	}
}

// TestTimeFactorFiftyPerSecond: whatever the frame schedule, as long as
// frames are shorter than MaxDelta and no resync happens, the full updates
// add up to exactly one per 20 ms of runtime: floor(runtime/20ms) + 1 (one
// is due at runtime 0), so 50 per second.
func TestTimeFactorFiftyPerSecond(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		r := rand.New(rand.NewPCG(seed, 20))
		tf := mustTimeFactor(t, TimeFactorConfig{}, 0)
		now := time.Duration(0)
		var lastSum int64
		var lastRuntime time.Duration
		for i := 0; i < 20000; i++ {
			now += time.Duration(r.Int64N(int64(100*ms) + 1)) // up to MaxDelta, ns-jittered
			fr := tf.Step(now)
			if fr.Resynced || fr.Delta != fr.RawDelta {
				t.Fatalf("frame %d: %+v", i, fr)
			}
			if want := int64(fr.Runtime/(20*ms)) + 1; fr.FullUpdateSum != want {
				t.Fatalf("seed %d frame %d: %d full updates after %v, want %d", seed, i, fr.FullUpdateSum, fr.Runtime, want)
			}
			if fr.Runtime-lastRuntime >= time.Second {
				// Over any whole second of runtime: 50, give or take the
				// one at the edge.
				if n := fr.FullUpdateSum - lastSum; n < 50 || n > 56 {
					t.Fatalf("%d full updates in %v", n, fr.Runtime-lastRuntime)
				}
				lastSum, lastRuntime = fr.FullUpdateSum, fr.Runtime
			}
		}
	}
}

func TestTimeFactorScenarios(t *testing.T) {
	for _, sc := range classicScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			tf := mustTimeFactor(t, TimeFactorConfig{}, origin)
			prev := origin
			var last TimeFactorFrame
			var runtime time.Duration
			for i, now := range sc.times {
				fr := tf.Step(now)
				raw := max(0, now-prev)
				prev = now
				delta := min(raw, DefaultMaxDelta)
				runtime += delta
				if fr.RawDelta != raw || fr.Delta != delta || fr.Runtime != runtime ||
					fr.TimeFactor != float64(delta)/float64(20*ms) || fr.FullUpdates < 0 || fr.FullUpdates > 10 {
					t.Fatalf("frame %d: %+v", i, fr)
				}
				if fr.FullUpdateSum != last.FullUpdateSum+int64(fr.FullUpdates) {
					t.Fatalf("frame %d: sum %d after %d + %d", i, fr.FullUpdateSum, last.FullUpdateSum, fr.FullUpdates)
				}
				last = fr
			}
			// No resync with the defaults (100 ms clamp = 5 updates < 10):
			// one update per 20 ms of runtime, one at 0.
			if want := int64(last.Runtime/(20*ms)) + 1; last.FullUpdateSum != want {
				t.Fatalf("%d full updates after %v, want %d", last.FullUpdateSum, last.Runtime, want)
			}
			switch sc.name {
			case "slow 200ms":
				if last.Delta != 100*ms || last.TimeFactor != 5 || last.FullUpdates != 5 {
					t.Fatalf("slow: %+v", last)
				}
			case "exactly one tick":
				if last.FullUpdates != 2 || last.TimeFactor != 2 {
					t.Fatalf("40 ms frames: %+v", last)
				}
			}
		})
	}
}

// TestTimeFactorResync: when more than MaxFullUpdates are due, that many
// run and the schedule restarts from the runtime.
func TestTimeFactorResync(t *testing.T) {
	tf := mustTimeFactor(t, TimeFactorConfig{FullUpdate: 5 * ms, MaxFullUpdates: 10}, 0)
	tf.Step(0) // the update at runtime 0
	fr := tf.Step(time.Second)
	// 100 ms clamped: updates at 5..100 ms are due, 20 > 10.
	if fr.FullUpdates != 10 || !fr.Resynced || fr.Runtime != 100*ms {
		t.Fatalf("%+v", fr)
	}
	// The next is due 5 ms of runtime later.
	if fr := tf.Step(time.Second + 4*ms); fr.FullUpdates != 0 {
		t.Fatalf("%+v", fr)
	}
	if fr := tf.Step(time.Second + 5*ms); fr.FullUpdates != 1 || fr.Resynced {
		t.Fatalf("%+v", fr)
	}
}

func TestTimeFactorResetAndErrors(t *testing.T) {
	for _, cfg := range []TimeFactorConfig{{FullUpdate: -1}, {FullUpdate: NoLimit}, {MaxDelta: -2}, {MaxFullUpdates: -1}} {
		if tf, err := NewTimeFactor(cfg, 0); !errors.Is(err, ErrInvalid) || tf != nil {
			t.Errorf("NewTimeFactor(%+v) = %v, %v", cfg, tf, err)
		}
	}
	tf := mustTimeFactor(t, TimeFactorConfig{}, 0)
	if tf.Config() != (TimeFactorConfig{FullUpdate: 20 * ms, MaxDelta: 100 * ms, MaxFullUpdates: 10}) {
		t.Fatalf("defaults %+v", tf.Config())
	}
	for i := 1; i <= 100; i++ {
		tf.Step(time.Duration(i) * 10 * ms)
	}
	tf.Reset(time.Hour)
	fr := tf.Step(time.Hour + 30*ms)
	if fr.Runtime != 30*ms || fr.FullUpdates != 2 || fr.FullUpdateSum != 2 || fr.RawDelta != 30*ms {
		t.Fatalf("after Reset: %+v", fr)
	}
	// Backwards: no time, no negative anything.
	for _, now := range []time.Duration{0, -time.Hour, math.MinInt64} {
		if fr := tf.Step(now); fr.RawDelta != 0 || fr.Delta != 0 || fr.FullUpdates != 0 || fr.Runtime != 30*ms {
			t.Fatalf("back to %v: %+v", now, fr)
		}
	}
	if fr := tf.Step(math.MaxInt64); fr.Delta != 100*ms || fr.FullUpdates != 5 {
		t.Fatalf("extreme jump: %+v", fr)
	}
}

func TestTimeFactorAllocs(t *testing.T) {
	tf := mustTimeFactor(t, TimeFactorConfig{}, 0)
	now := time.Duration(0)
	if a := testing.AllocsPerRun(10000, func() {
		now += 7 * ms
		tf.Step(now)
	}); a != 0 {
		t.Fatalf("%v allocs", a)
	}
}

// TestTimeFactorNoLimit: with MaxDelta NoLimit a frame's delta is never
// clamped: a 2 s stall gives a time factor of 100, and the full updates
// due beyond MaxFullUpdates resync.
func TestTimeFactorNoLimit(t *testing.T) {
	tf := mustTimeFactor(t, TimeFactorConfig{MaxDelta: NoLimit}, 0)
	if tf.Config().MaxDelta != NoLimit {
		t.Fatalf("config %+v", tf.Config())
	}
	tf.Step(0)
	fr := tf.Step(2 * time.Second)
	if fr.Delta != 2*time.Second || fr.TimeFactor != 100 || fr.FullUpdates != DefaultMaxFullUpdates || !fr.Resynced || fr.Runtime != 2*time.Second {
		t.Fatalf("unclamped stall: %+v", fr)
	}
	if fr := tf.Step(math.MaxInt64); fr.Delta != math.MaxInt64-2*time.Second || fr.Runtime != math.MaxInt64 {
		t.Fatalf("extreme: %+v", fr)
	}
}

// TestTimeFactorZeroValue: a zero TimeFactor behaves exactly like
// NewTimeFactor with the default config at its first Step (or Reset).
func TestTimeFactorZeroValue(t *testing.T) {
	var z TimeFactor
	if z.Config() != (TimeFactorConfig{FullUpdate: DefaultFullUpdate, MaxDelta: DefaultMaxDelta, MaxFullUpdates: DefaultMaxFullUpdates}) {
		t.Fatalf("zero config %+v", z.Config())
	}
	r := rand.New(rand.NewPCG(50, 51))
	for iter := 0; iter < 20; iter++ {
		start := time.Duration(r.Int64N(1 << 40))
		var zero TimeFactor
		if iter%2 == 1 {
			zero.Reset(start)
		}
		ref := mustTimeFactor(t, TimeFactorConfig{}, start)
		now := start
		for i := 0; i < 500; i++ {
			if i > 0 {
				now += time.Duration(r.Int64N(int64(150 * ms)))
			}
			if got, want := zero.Step(now), ref.Step(now); got != want {
				t.Fatalf("iter %d frame %d: zero %+v, NewTimeFactor %+v", iter, i, got, want)
			}
		}
	}
}

// TestTimeFactorOnPausedVirtual: given a paused Virtual's time, every
// frame has a zero delta and no full update; after the resume the count
// goes on at one per 20 ms of game time.
func TestTimeFactorOnPausedVirtual(t *testing.T) {
	v := mustVirtual(t, VirtualConfig{}, origin)
	tf := mustTimeFactor(t, TimeFactorConfig{}, v.Now())
	raw := origin
	frame := func() TimeFactorFrame {
		raw += 16 * ms
		v.Advance(raw)
		return tf.Step(v.Now())
	}
	for i := 0; i < 100; i++ {
		frame()
	}
	v.SetPaused(true)
	for i := 0; i < 100; i++ {
		if fr := frame(); fr.Delta != 0 || fr.TimeFactor != 0 || fr.FullUpdates != 0 || fr.Runtime != 1600*ms {
			t.Fatalf("paused frame %d: %+v", i, fr)
		}
	}
	v.SetPaused(false)
	var fr TimeFactorFrame
	for i := 0; i < 100; i++ {
		fr = frame()
	}
	if fr.Runtime != 3200*ms || fr.FullUpdateSum != int64(3200*ms/(20*ms))+1 {
		t.Fatalf("after the resume: %+v", fr)
	}
}
