package loop

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
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

// TestVirtualScenarios: the classic schedules at speeds 1, 0.5, 2 and 1/3,
// and paused at speed 2. Each frame's raw delta is clamped to 100 ms, then
// scaled; the virtual time elapsed is floor(sum of clamped deltas × speed),
// exactly, or none while paused.
func TestVirtualScenarios(t *testing.T) {
	for _, sc := range classicScenarios() {
		for _, speed := range []float64{1, 0.5, 2, 1.0 / 3, -2} {
			v := mustVirtual(t, VirtualConfig{}, origin)
			paused := speed < 0
			if paused {
				speed = -speed
				v.SetPaused(true)
			}
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
			want := origin + exactScaled(clamped, speed)
			if paused {
				want = origin
			}
			if v.Now() != want || v.Speed() != speed {
				t.Fatalf("%s x%v paused %v: virtual now %v, want %v", sc.name, speed, paused, v.Now(), want)
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
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -0.5, MaxSpeed * 2, 0, math.Copysign(0, -1)} {
		if err := v.SetSpeed(bad); !errors.Is(err, ErrInvalid) || v.Speed() != 1 {
			t.Fatalf("SetSpeed(%v) = %v, speed now %v", bad, err, v.Speed())
		}
	}
	if err := v.SetSpeed(0); err == nil || !strings.Contains(err.Error(), "SetPaused") {
		t.Fatalf("SetSpeed(0) = %v: the message should point to SetPaused", err)
	}
	// Paused at half speed: no virtual time passes, the speed is kept; a
	// Fixed loop on it runs no ticks and keeps its percent. Resumed, time
	// runs at half speed again.
	if err := v.SetSpeed(0.5); err != nil {
		t.Fatal(err)
	}
	f := mustFixed(t, FixedConfig{}, v.Now())
	v.Advance(50 * ms)
	fr := f.Step(v.Now())
	v.SetPaused(true)
	for i := 1; i <= 100; i++ {
		d := v.Advance(50*ms + time.Duration(i)*16*ms)
		g := f.Step(v.Now())
		if d.Scaled != 0 || d.Raw != 16*ms || g.Ticks != 0 || g.Percent != fr.Percent || v.Speed() != 0.5 || !v.Paused() {
			t.Fatalf("paused frame %d: %+v %+v", i, d, g)
		}
	}
	v.SetPaused(false)
	if d := v.Advance(50*ms + 101*16*ms); d.Scaled != 8*ms || v.Now() != 25*ms+8*ms {
		t.Fatalf("resumed at half speed: %+v, now %v", d, v.Now())
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
}

// TestVirtualSlowMotionFixed: a Fixed loop on half-speed virtual time runs
// its ticks at half the rate: 12.5 per second of raw time, still fixed.
func TestVirtualSlowMotionFixed(t *testing.T) {
	v := mustVirtual(t, VirtualConfig{MaxDelta: NoLimit}, origin)
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
	// No clamp with NoLimit: a 10 s stall is 5 s of virtual time.
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
	v2 := mustVirtual(t, VirtualConfig{MaxDelta: NoLimit}, math.MinInt64)
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
	v := mustVirtual(t, VirtualConfig{MaxDelta: NoLimit}, raw.Now())
	if err := v.SetSpeed(0.25); err != nil {
		t.Fatal(err)
	}
	vc := VirtualClock{Raw: raw, Virtual: v}
	g := &nopGame{}
	d := &Driver{Clock: vc, Loop: mustFixed(t, FixedConfig{}, vc.Now()), Game: g}
	for i := 0; i < 1001; i++ {
		if _, err := d.Frame(); err != nil {
			t.Fatal(err)
		}
		raw.Advance(10 * ms)
	}
	// 10 s of raw time after the first frame at x0.25: 2.5 s of logic,
	// ceil(2.5/0.04)-1 = 62 ticks.
	if want := wantTicks(2500*ms, DefaultTick); int64(g.ticks) != want {
		t.Fatalf("%d ticks, want %d", g.ticks, want)
	}
	if (VirtualClock{}).Now() != 0 {
		t.Fatal("an empty VirtualClock does not read 0")
	}
}

// TestVirtualProperties: random raw schedules, speed changes, pauses and
// resets; virtual time never goes back, Scaled = floor-consistent with
// the clamped time run (not paused) since the last speed change, and the
// deltas add up to the virtual time.
func TestVirtualProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 15))
	for iter := 0; iter < 200; iter++ {
		maxDelta := time.Duration(r.Int64N(int64(200 * ms)))
		if iter%4 == 0 {
			maxDelta = NoLimit
		}
		v := mustVirtual(t, VirtualConfig{MaxDelta: maxDelta}, 0)
		if maxDelta == 0 {
			maxDelta = DefaultMaxDelta
		}
		raw, sum, segClamped := time.Duration(0), time.Duration(0), time.Duration(0)
		segStart := v.Now()
		for i := 0; i < 500; i++ {
			switch k := r.IntN(50); {
			case k == 0:
				s := r.Float64()*4 + 1e-9
				if err := v.SetSpeed(s); err != nil {
					t.Fatal(err)
				}
				segStart, segClamped = v.Now(), 0
			case k == 3:
				v.SetPaused(!v.Paused())
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
			if maxDelta > 0 && d.Clamped > maxDelta || maxDelta == NoLimit && d.Cut != 0 {
				t.Fatalf("clamp %v: %+v", maxDelta, d)
			}
			if !v.Paused() {
				segClamped += d.Clamped
			} else if d.Scaled != 0 {
				t.Fatalf("paused, and %v of virtual time passed", d.Scaled)
			}
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
	i := 0
	if a := testing.AllocsPerRun(10000, func() {
		raw += 16 * ms
		if i++; i%50 == 0 {
			v.SetPaused(!v.Paused())
			_ = v.SetSpeed(0.5)
			_ = v.SetMaxDelta(NoLimit)
		}
		v.Advance(raw)
		_ = v.Map(raw - ms)
	}); a != 0 {
		t.Fatalf("%v allocs", a)
	}
	var zero Virtual
	if a := testing.AllocsPerRun(1000, func() { raw += 16 * ms; zero.Advance(raw) }); a != 0 {
		t.Fatalf("a zero Virtual: %v allocs", a)
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
	for _, bad := range []time.Duration{-2, -ms, math.MinInt64} {
		if v, err := NewVirtual(VirtualConfig{MaxDelta: bad}, 0); !errors.Is(err, ErrInvalid) || v != nil {
			t.Fatalf("NewVirtual(MaxDelta %v) = %v, %v", bad, v, err)
		}
	}
	v, err := NewVirtual(VirtualConfig{MaxDelta: NoLimit}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if v.MaxDelta() != NoLimit {
		t.Fatalf("MaxDelta = %v, want NoLimit", v.MaxDelta())
	}
	if d := v.Advance(500 * ms); d.Scaled != 500*ms || d.Cut != 0 {
		t.Fatalf("unclamped: %+v", d)
	}
	if err := v.SetMaxDelta(0); err != nil { // the default, 100 ms
		t.Fatal(err)
	}
	if v.MaxDelta() != DefaultMaxDelta {
		t.Fatalf("MaxDelta = %v", v.MaxDelta())
	}
	if err := v.SetMaxDelta(-2); !errors.Is(err, ErrInvalid) || v.MaxDelta() != DefaultMaxDelta {
		t.Fatalf("SetMaxDelta(-2) = %v, MaxDelta now %v", err, v.MaxDelta())
	}
	if d := v.Advance(800 * ms); d.Scaled != 100*ms || d.Cut != 200*ms {
		t.Fatalf("clamped to the default: %+v", d)
	}
	if err := v.SetMaxDelta(NoLimit); err != nil {
		t.Fatal(err)
	}
	if d := v.Advance(1800 * ms); d.Scaled != time.Second || d.Cut != 0 {
		t.Fatalf("unclamped again: %+v", d)
	}
	// Virtual time went on without a jump: 500 + 100 + 1000 ms.
	if v.Now() != 1600*ms {
		t.Fatalf("virtual now %v, want 1.6s", v.Now())
	}
}

// TestVirtualZeroValue: a zero Virtual behaves exactly like NewVirtual with
// the default config at the raw time of its first Advance (or Reset), and
// settings made before that are kept.
func TestVirtualZeroValue(t *testing.T) {
	var z Virtual
	if z.Now() != 0 || z.Speed() != 1 || z.MaxDelta() != DefaultMaxDelta || z.Paused() || z.Map(time.Hour) != 0 {
		t.Fatalf("zero Virtual: now %v speed %v max delta %v", z.Now(), z.Speed(), z.MaxDelta())
	}
	r := rand.New(rand.NewPCG(42, 43))
	for iter := 0; iter < 50; iter++ {
		start := time.Duration(r.Int64N(1 << 40))
		var zero Virtual
		ref := mustVirtual(t, VirtualConfig{}, start)
		if iter%2 == 1 {
			// Set up before the start, as a game would.
			if err := zero.SetSpeed(0.75); err != nil {
				t.Fatal(err)
			}
			if err := zero.SetMaxDelta(NoLimit); err != nil {
				t.Fatal(err)
			}
			if err := ref.SetSpeed(0.75); err != nil {
				t.Fatal(err)
			}
			if err := ref.SetMaxDelta(NoLimit); err != nil {
				t.Fatal(err)
			}
			zero.Reset(start)
		} else if d := zero.Advance(start); d != (VirtualDelta{}) || zero.Now() != start {
			t.Fatalf("first Advance of a zero Virtual: %+v, now %v", d, zero.Now())
		}
		raw := start
		for i := 0; i < 200; i++ {
			raw += time.Duration(r.Int64N(int64(150 * ms)))
			if got, want := zero.Advance(raw), ref.Advance(raw); got != want || zero.Now() != ref.Now() {
				t.Fatalf("iter %d frame %d: zero %+v now %v; NewVirtual %+v now %v", iter, i, got, zero.Now(), want, ref.Now())
			}
			if m := raw - time.Duration(r.Int64N(int64(150*ms))); zero.Map(m) != ref.Map(m) {
				t.Fatalf("Map(%v): %v, want %v", m, zero.Map(m), ref.Map(m))
			}
		}
	}
}

// TestVirtualMapPause: events stamped on the raw clock during a pause all
// map to the frozen virtual time, and over the whole run (before, during
// and after the pause) the mapping never goes back and never leaves the
// interval of its frame.
func TestVirtualMapPause(t *testing.T) {
	v := mustVirtual(t, VirtualConfig{}, origin)
	raw := origin
	prev := time.Duration(math.MinInt64)
	frame := func(pausedNow bool) {
		t.Helper()
		start := raw
		before := v.Now()
		raw += 16 * ms
		v.Advance(raw)
		for ev := start + ms; ev <= raw; ev += 3 * ms {
			m := v.Map(ev)
			if m < prev || m < before || m > v.Now() {
				t.Fatalf("Map(%v) = %v: back from %v or out of [%v, %v]", ev, m, prev, before, v.Now())
			}
			if pausedNow && m != before {
				t.Fatalf("paused: Map(%v) = %v, want the frozen %v", ev, m, before)
			}
			prev = m
		}
	}
	for i := 0; i < 10; i++ {
		frame(false)
	}
	v.SetPaused(true)
	frozen := v.Now()
	for i := 0; i < 50; i++ {
		frame(true)
	}
	if v.Now() != frozen {
		t.Fatalf("paused Virtual moved %v", v.Now()-frozen)
	}
	v.SetPaused(false)
	for i := 0; i < 10; i++ {
		frame(false)
	}
	if v.Now() != frozen+10*16*ms {
		t.Fatalf("after the resume: %v, want %v", v.Now()-frozen, 10*16*ms)
	}
}
