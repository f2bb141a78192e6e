package loop

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

func mustVirtual(t testing.TB, cfg VirtualConfig, raw time.Duration) *Virtual {
	t.Helper()
	v, err := NewVirtual(cfg, raw)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// exactScaled is floor(d × s) for the exact binary value of the float64 s.
func exactScaled(d time.Duration, s float64) time.Duration {
	x := new(big.Rat).SetFloat64(s)
	x.Mul(x, new(big.Rat).SetInt64(int64(d)))
	q := new(big.Int).Quo(x.Num(), x.Denom())
	return time.Duration(q.Int64())
}

// TestVirtualScenarios: the classic schedules at speeds 1, 0.5, 2 and 0.
// Each frame's raw delta is clamped to 100 ms, then scaled; the virtual time
// elapsed is floor(sum of clamped deltas × speed), exactly.
func TestVirtualScenarios(t *testing.T) {
	for _, sc := range classicScenarios() {
		for _, speed := range []float64{1, 0.5, 2, 0, 1.0 / 3} {
			v := mustVirtual(t, VirtualConfig{}, origin)
			if err := v.SetSpeed(speed); err != nil {
				t.Fatal(err)
			}
			var clamped, cut time.Duration
			prev := origin
			for i, raw := range sc.times {
				before := v.Now()
				d := v.Advance(raw)
				wantRaw := max(0, raw-prev)
				prev = raw
				wantClamped := min(wantRaw, DefaultMaxDelta)
				if d.Raw != wantRaw || d.Clamped != wantClamped || d.Cut != wantRaw-wantClamped || d.Scaled < 0 {
					t.Fatalf("%s x%v frame %d: %+v, want raw %v clamped %v", sc.name, speed, i, d, wantRaw, wantClamped)
				}
				if v.Now()-before != d.Scaled {
					t.Fatalf("%s frame %d: Now moved %v, Scaled %v", sc.name, i, v.Now()-before, d.Scaled)
				}
				clamped += d.Clamped
				cut += d.Cut
			}
			if want := origin + exactScaled(clamped, speed); v.Now() != want {
				t.Fatalf("%s x%v: virtual now %v, want %v", sc.name, speed, v.Now(), want)
			}
			switch sc.name {
			case "stall 10s":
				if cut != 10*time.Second+ms-DefaultMaxDelta {
					t.Fatalf("stall: cut %v", cut)
				}
			case "slow 200ms":
				if cut != time.Duration(len(sc.times))*100*ms {
					t.Fatalf("slow: cut %v", cut)
				}
			case "fast 1ms", "exactly one tick", "jitter":
				if cut != 0 {
					t.Fatalf("%s: cut %v", sc.name, cut)
				}
			}
		}
	}
}

// TestVirtualNoDrift: a million jittery frames at half speed give exactly
// half the elapsed time (floor), and at other speeds exactly the floor of
// elapsed × speed; at speed 1/3 that is within 1 ns of a true third.
func TestVirtualNoDrift(t *testing.T) {
	ts := jittery(12, 0, 16666667, 5*ms, 1_000_000)
	e := ts[len(ts)-1]
	for _, speed := range []float64{0.5, 1.0 / 3, 0.1, 1.7} {
		v := mustVirtual(t, VirtualConfig{}, 0)
		if err := v.SetSpeed(speed); err != nil {
			t.Fatal(err)
		}
		var sum time.Duration
		for _, raw := range ts {
			sum += v.Advance(raw).Scaled
		}
		if sum != v.Now() || sum != exactScaled(e, speed) {
			t.Fatalf("speed %v: %v of virtual time (deltas add to %v), want %v", speed, v.Now(), sum, exactScaled(e, speed))
		}
		switch speed {
		case 0.5:
			if v.Now() != e/2 {
				t.Fatalf("half speed: %v, want %v", v.Now(), e/2)
			}
		case 1.0 / 3:
			if d := v.Now() - e/3; d < -1 || d > 1 {
				t.Fatalf("speed 1/3: %v, want %v +-1ns", v.Now(), e/3)
			}
		}
	}
}

func TestVirtualSpeed(t *testing.T) {
	v := mustVirtual(t, VirtualConfig{}, 0)
	if v.Speed() != 1 {
		t.Fatalf("initial speed %v", v.Speed())
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -0.5, MaxSpeed * 2} {
		if err := v.SetSpeed(bad); !errors.Is(err, ErrInvalid) || v.Speed() != 1 {
			t.Fatalf("SetSpeed(%v) = %v, speed now %v", bad, err, v.Speed())
		}
	}
	// Paused: no virtual time passes; a Fixed loop on it runs no ticks
	// and keeps its percent.
	f := mustFixed(t, FixedConfig{}, v.Now())
	v.Advance(50 * ms)
	fr := f.Step(v.Now())
	if err := v.SetSpeed(0); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 100; i++ {
		d := v.Advance(50*ms + time.Duration(i)*16*ms)
		g := f.Step(v.Now())
		if d.Scaled != 0 || g.Ticks != 0 || g.Percent != fr.Percent {
			t.Fatalf("paused frame %d: %+v %+v", i, d, g)
		}
	}
	// Tiny and huge speeds do not break anything.
	for _, s := range []float64{math.SmallestNonzeroFloat64, 1e-300, MaxSpeed} {
		if err := v.SetSpeed(s); err != nil {
			t.Fatal(err)
		}
		before := v.Now()
		d := v.Advance(time.Hour)
		if d.Scaled != exactScaled(d.Clamped, s) || v.Now() != before+d.Scaled {
			t.Fatalf("speed %v: %+v", s, d)
		}
	}
	if err := v.SetSpeed(math.Copysign(0, -1)); err != nil || v.Speed() != 0 {
		t.Fatalf("-0: %v %v", err, v.Speed())
	}
}

// TestVirtualSlowMotionFixed: a Fixed loop on half-speed virtual time runs
// its ticks at half the rate: 12.5 per second of raw time, still fixed.
func TestVirtualSlowMotionFixed(t *testing.T) {
	v := mustVirtual(t, VirtualConfig{MaxDelta: -1}, origin)
	if err := v.SetSpeed(0.5); err != nil {
		t.Fatal(err)
	}
	f := mustFixed(t, FixedConfig{}, v.Now())
	ts := jittery(13, origin, 16*ms, 4*ms, 60*20)
	for _, raw := range ts {
		v.Advance(raw)
		if fr := f.Step(v.Now()); fr.Ticks > 1 {
			t.Fatalf("burst: %+v", fr)
		}
	}
	e := ts[len(ts)-1] - origin
	if want := wantTicks(e/2, DefaultTick); f.TotalTicks() != want {
		t.Fatalf("%d ticks in %v of raw time at half speed, want %d", f.TotalTicks(), e, want)
	}
	// No clamp with MaxDelta < 0: a 10 s stall is 5 s of virtual time.
	before := v.Now()
	if d := v.Advance(ts[len(ts)-1] + 10*time.Second); d.Cut != 0 || v.Now()-before != 5*time.Second {
		t.Fatalf("unclamped stall: %+v", d)
	}
}

// TestVirtualMap: raw timestamps in the last interval map linearly and
// monotonically onto the virtual interval; outside it they are clamped.
func TestVirtualMap(t *testing.T) {
	v := mustVirtual(t, VirtualConfig{}, origin)
	if v.Map(origin-time.Hour) != origin || v.Map(origin+time.Hour) != origin {
		t.Fatal("before any Advance, everything maps to the start")
	}
	if err := v.SetSpeed(0.5); err != nil {
		t.Fatal(err)
	}
	v.Advance(origin + 20*ms)
	start := v.Now()
	v.Advance(origin + 60*ms) // 40 ms raw -> 20 ms virtual
	if v.Now()-start != 20*ms {
		t.Fatalf("interval %v", v.Now()-start)
	}
	for _, c := range []struct{ raw, want time.Duration }{
		{origin, start},
		{origin + 20*ms, start},
		{origin + 30*ms, start + 5*ms},
		{origin + 59*ms, start + 19500*time.Microsecond},
		{origin + 60*ms, start + 20*ms},
		{origin + time.Hour, start + 20*ms},
	} {
		if got := v.Map(c.raw); got != c.want {
			t.Errorf("Map(%v) = %v, want %v", c.raw-origin, got-start, c.want-start)
		}
	}
	// A stall: 10 s of events squeezed into 50 ms (100 ms clamped, x0.5),
	// in order, from one end to the other.
	s0 := v.Now()
	v.Advance(origin + 60*ms + 10*time.Second)
	prev := time.Duration(math.MinInt64)
	for raw := origin + 60*ms; raw <= origin+60*ms+10*time.Second; raw += 7 * ms {
		m := v.Map(raw)
		if m < prev || m < s0 || m > v.Now() {
			t.Fatalf("Map(%v) = %v: not monotone in [%v, %v]", raw, m, s0, v.Now())
		}
		prev = m
	}
	if v.Now()-s0 != 50*ms {
		t.Fatalf("stall interval %v", v.Now()-s0)
	}
}

// TestVirtualBackwardsAndReset: a raw clock going back counts as standing
// still; Reset forgets the raw time (loading) without moving virtual time.
func TestVirtualBackwardsAndReset(t *testing.T) {
	v := mustVirtual(t, VirtualConfig{}, origin)
	v.Advance(origin + 30*ms)
	at := v.Now()
	for _, raw := range []time.Duration{origin, origin - time.Hour, math.MinInt64} {
		if d := v.Advance(raw); d != (VirtualDelta{}) || v.Now() != at {
			t.Fatalf("back to %v: %+v, now %v", raw, d, v.Now())
		}
	}
	// From the bottom, forward again at the usual rate.
	if d := v.Advance(math.MinInt64 + 16*ms); d.Scaled != 16*ms {
		t.Fatalf("forward again: %+v", d)
	}
	v.Reset(5 * time.Second)
	if v.Now() != at+16*ms {
		t.Fatalf("Reset moved virtual time to %v", v.Now())
	}
	if d := v.Advance(5*time.Second + 10*ms); d.Raw != 10*ms || d.Scaled != 10*ms {
		t.Fatalf("after Reset: %+v", d)
	}
	// Extreme raw jumps saturate instead of wrapping.
	v2 := mustVirtual(t, VirtualConfig{MaxDelta: -1}, math.MinInt64)
	if err := v2.SetSpeed(MaxSpeed); err != nil {
		t.Fatal(err)
	}
	d := v2.Advance(math.MaxInt64)
	if d.Raw != math.MaxInt64 || v2.Now() < math.MinInt64+d.Raw/2 {
		t.Fatalf("extreme jump: %+v, now %v", d, v2.Now())
	}
}

// TestVirtualClockDriver: a Driver on a VirtualClock runs fixed ticks in
// slow motion.
func TestVirtualClockDriver(t *testing.T) {
	raw := NewManualClock(origin)
	v := mustVirtual(t, VirtualConfig{MaxDelta: -1}, raw.Now())
	if err := v.SetSpeed(0.25); err != nil {
		t.Fatal(err)
	}
	vc := VirtualClock{Raw: raw, Virtual: v}
	g := &nopGame{}
	d := &Driver{Clock: vc, Loop: mustFixed(t, FixedConfig{}, vc.Now()), Game: g}
	for i := 0; i < 1000; i++ {
		raw.Advance(10 * ms)
		d.Frame()
	}
	// 10 s of raw time at x0.25: 2.5 s of logic, ceil(2.5/0.04)-1 = 62 ticks.
	if want := wantTicks(2500*ms, DefaultTick); int64(g.ticks) != want {
		t.Fatalf("%d ticks, want %d", g.ticks, want)
	}
	if (VirtualClock{}).Now() != 0 {
		t.Fatal("an empty VirtualClock does not read 0")
	}
}

// TestVirtualProperties: random raw schedules, speed changes and resets;
// virtual time never goes back, Scaled = floor-consistent with Clamped,
// and the deltas add up to the virtual time.
func TestVirtualProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 15))
	for iter := 0; iter < 200; iter++ {
		maxDelta := time.Duration(r.Int64N(int64(200*ms))) - 20*ms
		v := mustVirtual(t, VirtualConfig{MaxDelta: maxDelta}, 0)
		raw, sum, segClamped := time.Duration(0), time.Duration(0), time.Duration(0)
		segStart := v.Now()
		for i := 0; i < 500; i++ {
			switch k := r.IntN(50); {
			case k == 0:
				s := r.Float64() * 4
				if err := v.SetSpeed(s); err != nil {
					t.Fatal(err)
				}
				segStart, segClamped = v.Now(), 0
			case k == 1:
				raw -= time.Duration(r.Int64N(int64(time.Second)))
			case k == 2:
				raw += time.Duration(r.Int64N(int64(30 * time.Second)))
			default:
				raw += time.Duration(r.Int64N(int64(50 * ms)))
			}
			before := v.Now()
			d := v.Advance(raw)
			if d.Raw < 0 || d.Clamped < 0 || d.Scaled < 0 || d.Cut < 0 || d.Raw != d.Clamped+d.Cut {
				t.Fatalf("bad delta %+v", d)
			}
			if maxDelta > 0 && d.Clamped > maxDelta || maxDelta < 0 && d.Cut != 0 {
				t.Fatalf("clamp %v: %+v", maxDelta, d)
			}
			segClamped += d.Clamped
			if v.Now() != segStart+exactScaled(segClamped, v.Speed()) || v.Now() != before+d.Scaled {
				t.Fatalf("virtual now %v, want %v", v.Now(), segStart+exactScaled(segClamped, v.Speed()))
			}
			sum += d.Scaled
		}
		if sum != v.Now() {
			t.Fatalf("deltas add to %v, virtual now %v", sum, v.Now())
		}
	}
}

func TestVirtualAllocs(t *testing.T) {
	v := mustVirtual(t, VirtualConfig{}, 0)
	_ = v.SetSpeed(0.5)
	raw := time.Duration(0)
	if a := testing.AllocsPerRun(10000, func() {
		raw += 16 * ms
		v.Advance(raw)
		_ = v.Map(raw - ms)
	}); a != 0 {
		t.Fatalf("%v allocs", a)
	}
}

// TestVirtualClampEdge: a frame of exactly MaxDelta passes whole; one
// nanosecond more is cut.
func TestVirtualClampEdge(t *testing.T) {
	v := mustVirtual(t, VirtualConfig{MaxDelta: 50 * ms}, 0)
	if d := v.Advance(50 * ms); d.Clamped != 50*ms || d.Cut != 0 || d.Scaled != 50*ms {
		t.Fatalf("exactly MaxDelta: %+v", d)
	}
	if d := v.Advance(100*ms + 1); d.Raw != 50*ms+1 || d.Clamped != 50*ms || d.Cut != 1 || d.Scaled != 50*ms {
		t.Fatalf("MaxDelta + 1ns: %+v", d)
	}
}

func TestVirtualSetMaxDelta(t *testing.T) {
	v, err := NewVirtual(VirtualConfig{MaxDelta: -1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d := v.Advance(500 * ms); d.Scaled != 500*ms || d.Cut != 0 {
		t.Fatalf("unclamped: %+v", d)
	}
	v.SetMaxDelta(0) // the default, 100 ms
	if v.MaxDelta() != DefaultMaxDelta {
		t.Fatalf("MaxDelta = %v", v.MaxDelta())
	}
	if d := v.Advance(800 * ms); d.Scaled != 100*ms || d.Cut != 200*ms {
		t.Fatalf("clamped to the default: %+v", d)
	}
	v.SetMaxDelta(-1)
	if d := v.Advance(1800 * ms); d.Scaled != time.Second || d.Cut != 0 {
		t.Fatalf("unclamped again: %+v", d)
	}
	// Virtual time went on without a jump: 500 + 100 + 1000 ms.
	if v.Now() != 1600*ms {
		t.Fatalf("virtual now %v, want 1.6s", v.Now())
	}
}
