package loop

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func mustSubstep(t testing.TB, cfg SubstepConfig, now time.Duration) *Substep {
	t.Helper()
	s, err := NewSubstep(cfg, now)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// substepAccount replays frames and checks each against BeautifulTimer's
// formulas, and that the time is conserved: what the sub-steps ran, plus
// what was dropped, plus the few nanoseconds carried, is exactly the
// forward time of the clock up to the last frame that ran.
type substepAccount struct {
	cfg       SubstepConfig
	prev      time.Duration // time of the last Step
	fwd       time.Duration // forward time up to the last frame that ran
	fwdSince  time.Duration // forward time since then
	carry     time.Duration
	ran       time.Duration // sum of Cycles × CycleT
	dropped   time.Duration
	runFrames int
}

func (a *substepAccount) check(t *testing.T, i int, now time.Duration, fr SubstepFrame) {
	t.Helper()
	if now > a.prev {
		a.fwdSince += now - a.prev
	}
	a.prev = now
	if fr.Wait > 0 {
		if fr.Cycles != 0 || fr.T >= a.cfg.MinT || fr.Wait != a.cfg.MinT-fr.T || fr.T != a.fwdSince+a.carry {
			t.Fatalf("frame %d: bad wait %+v", i, fr)
		}
		return
	}
	if want := a.fwdSince + a.carry; fr.T != want {
		t.Fatalf("frame %d: T %v, want %v elapsed + %v carried", i, fr.T, a.fwdSince, a.carry)
	}
	cycles0 := 1 + fr.T/a.cfg.MaxT
	switch {
	case fr.T < a.cfg.MinT:
		t.Fatalf("frame %d ran with T %v < MinT", i, fr.T)
	case fr.CycleT != fr.T/cycles0:
		t.Fatalf("frame %d: CycleT %v, want T/%d = %v", i, fr.CycleT, cycles0, fr.T/cycles0)
	case fr.CycleT >= a.cfg.MaxT:
		t.Fatalf("frame %d: a sub-step of %v, MaxT %v", i, fr.CycleT, a.cfg.MaxT)
	case time.Duration(fr.Cycles) != min(cycles0, time.Duration(a.cfg.MaxCycles)) || fr.Cycles < 1:
		t.Fatalf("frame %d: %d cycles for T %v", i, fr.Cycles, fr.T)
	case fr.Dropped != (cycles0-time.Duration(fr.Cycles))*fr.CycleT:
		t.Fatalf("frame %d: dropped %v", i, fr.Dropped)
	}
	a.carry = fr.T - cycles0*fr.CycleT
	if a.carry < 0 || a.carry >= cycles0 {
		t.Fatalf("frame %d: carry %v", i, a.carry)
	}
	a.fwd += a.fwdSince
	a.fwdSince = 0
	a.ran += time.Duration(fr.Cycles) * fr.CycleT
	a.dropped += fr.Dropped
	a.runFrames++
	if a.ran+a.dropped+a.carry != a.fwd {
		t.Fatalf("frame %d: ran %v + dropped %v + carry %v != %v elapsed", i, a.ran, a.dropped, a.carry, a.fwd)
	}
}

func TestSubstepScenarios(t *testing.T) {
	cfg := SubstepConfig{MinT: DefaultMinT, MaxT: DefaultMaxT, MaxCycles: DefaultMaxCycles}
	for _, sc := range classicScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			s := mustSubstep(t, SubstepConfig{}, origin)
			if s.Config() != cfg {
				t.Fatalf("defaults %+v", s.Config())
			}
			a := &substepAccount{cfg: cfg, prev: origin}
			frames := make([]SubstepFrame, len(sc.times))
			for i, now := range sc.times {
				frames[i] = s.Step(now)
				a.check(t, i, now, frames[i])
			}
			switch sc.name {
			case "fast 1ms":
				// Frames run once 17 ms have passed (MinT = 16.67 ms), one
				// cycle each: floor(10 s / 17 ms) of them.
				if a.runFrames != 10000/17 || a.dropped != 0 || a.ran != time.Duration(10000/17)*17*ms {
					t.Fatalf("%d frames ran %v", a.runFrames, a.ran)
				}
			case "exactly one tick":
				for i, fr := range frames {
					if fr.Cycles != 1 || fr.CycleT != 40*ms {
						t.Fatalf("frame %d: %+v", i, fr)
					}
				}
			case "slow 200ms":
				// 200 ms: 1 + 2 = 3 sub-steps of 66.67 ms, nothing dropped.
				for i, fr := range frames {
					if fr.Cycles != 3 || fr.CycleT/ms != 66 || fr.Dropped != 0 {
						t.Fatalf("frame %d: %+v", i, fr)
					}
				}
			case "stall 10s":
				fr := frames[1000]
				if fr.Cycles != DefaultMaxCycles || fr.CycleT != fr.T/101 || fr.Dropped != 96*fr.CycleT {
					t.Fatalf("stall frame: %+v", fr)
				}
			case "jitter":
				if a.dropped != 0 {
					t.Fatalf("dropped %v", a.dropped)
				}
			case "backwards":
				if fr := frames[1000]; fr.Wait != DefaultMinT || fr.Cycles != 0 {
					t.Fatalf("backwards frame: %+v", fr)
				}
			}
		})
	}
}

// TestSubstepFormula: the edges of BeautifulTimer's formula.
func TestSubstepFormula(t *testing.T) {
	for _, c := range []struct {
		t            time.Duration
		cycles       int
		cycleT, drop time.Duration
	}{
		{DefaultMinT, 1, DefaultMinT, 0},
		{99 * ms, 1, 99 * ms, 0},
		{100 * ms, 2, 50 * ms, 0}, // T = MaxT already splits: 1 + floor(1) = 2
		{250 * ms, 3, 250 * ms / 3, 0},
		{500 * ms, 5, 500 * ms / 6, 500 * ms / 6}, // 6 cycles due, 5 run
		{time.Hour, 5, time.Hour / 36001, 35996 * (time.Hour / 36001)},
	} {
		s := mustSubstep(t, SubstepConfig{}, 0)
		fr := s.Step(c.t)
		if fr.Cycles != c.cycles || fr.CycleT != c.cycleT || fr.Dropped != c.drop || fr.T != c.t {
			t.Errorf("T %v: %+v, want %d x %v, dropped %v", c.t, fr, c.cycles, c.cycleT, c.drop)
		}
	}
}

// TestSubstepMinT: a caller that waits as told runs frames exactly MinT
// apart on a fast machine.
func TestSubstepMinT(t *testing.T) {
	clock := NewManualClock(origin)
	s := mustSubstep(t, SubstepConfig{MinT: 10 * ms}, clock.Now())
	var runs []time.Duration
	for len(runs) < 100 {
		fr := s.Step(clock.Now())
		if fr.Wait > 0 {
			clock.Sleep(fr.Wait)
			continue
		}
		runs = append(runs, clock.Now())
		if fr.T != 10*ms || fr.Cycles != 1 || fr.CycleT != 10*ms {
			t.Fatalf("frame %d: %+v", len(runs), fr)
		}
		clock.Advance(300 * time.Microsecond) // the work of a fast frame
	}
	for i := 1; i < len(runs); i++ {
		if runs[i]-runs[i-1] != 10*ms {
			t.Fatalf("frames %v apart", runs[i]-runs[i-1])
		}
	}
}

// TestSubstepProperties: random schedules and settings; every frame obeys
// the formulas and the time is conserved exactly over a million frames.
func TestSubstepProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 17))
	for iter := 0; iter < 40; iter++ {
		cfg := SubstepConfig{
			MinT:      time.Duration(1 + r.Int64N(int64(20*ms))),
			MaxT:      time.Duration(1 + r.Int64N(int64(150*ms))),
			MaxCycles: 1 + r.IntN(20),
		}
		if iter == 0 {
			cfg.MaxCycles = math.MaxInt32 // nothing ever dropped
		}
		s := mustSubstep(t, cfg, 0)
		a := &substepAccount{cfg: cfg}
		now := time.Duration(0)
		n := 25000
		if iter == 0 {
			n = 1_000_000
		}
		for i := 0; i < n; i++ {
			switch k := r.IntN(1000); {
			case k == 0:
				now -= time.Duration(r.Int64N(int64(time.Second)))
			case k == 1:
				now += time.Duration(r.Int64N(int64(20 * time.Second)))
			default:
				now += time.Duration(r.Int64N(int64(3 * cfg.MaxT)))
			}
			a.check(t, i, now, s.Step(now))
		}
		if iter == 0 && a.dropped != 0 {
			t.Fatalf("dropped %v with no cycle cap", a.dropped)
		}
	}
}

func TestSubstepConfigAndReset(t *testing.T) {
	for _, cfg := range []SubstepConfig{{MinT: -2}, {MinT: -time.Hour}, {MaxT: -1}, {MaxT: NoLimit}, {MaxCycles: -1}} {
		if s, err := NewSubstep(cfg, 0); !errors.Is(err, ErrInvalid) || s != nil {
			t.Errorf("NewSubstep(%+v) = %v, %v", cfg, s, err)
		}
	}
	s := mustSubstep(t, SubstepConfig{}, 0)
	s.Step(10 * ms) // waits: the frame start stays at 0
	s.Reset(5 * time.Second)
	if fr := s.Step(5*time.Second + 20*ms); fr.T != 20*ms || fr.Cycles != 1 {
		t.Fatalf("after Reset: %+v", fr)
	}
	s.Step(math.MaxInt64)
	s.Step(math.MinInt64)
	if fr := s.Step(math.MaxInt64); fr.Cycles != DefaultMaxCycles || fr.CycleT >= DefaultMaxT {
		t.Fatalf("extreme: %+v", fr)
	}
}

func TestSubstepAllocs(t *testing.T) {
	s := mustSubstep(t, SubstepConfig{}, 0)
	now := time.Duration(0)
	if a := testing.AllocsPerRun(10000, func() {
		now += 7 * ms
		s.Step(now)
	}); a != 0 {
		t.Fatalf("%v allocs", a)
	}
}

// TestSubstepNoMinimum: with MinT NoLimit no frame waits; every Step runs,
// even one with no time passed (one sub-step of 0), and the formulas and
// the account of time hold.
func TestSubstepNoMinimum(t *testing.T) {
	s := mustSubstep(t, SubstepConfig{MinT: NoLimit}, origin)
	if s.Config().MinT != NoLimit {
		t.Fatalf("config %+v", s.Config())
	}
	a := &substepAccount{cfg: s.Config(), prev: origin}
	r := rand.New(rand.NewPCG(46, 47))
	now := origin
	for i := 0; i < 10000; i++ {
		if r.IntN(4) > 0 {
			now += time.Duration(r.Int64N(int64(30 * ms)))
		}
		fr := s.Step(now)
		a.check(t, i, now, fr)
		if fr.Wait != 0 || fr.Cycles < 1 {
			t.Fatalf("frame %d: %+v", i, fr)
		}
	}
	if fr := s.Step(now); fr.Wait != 0 || fr.Cycles != 1 || fr.CycleT != 0 || fr.T != 0 {
		t.Fatalf("a Step with no time passed: %+v", fr)
	}
}

// TestSubstepZeroValue: a zero Substep behaves exactly like NewSubstep
// with the default config at its first Step (or Reset).
func TestSubstepZeroValue(t *testing.T) {
	var z Substep
	if z.Config() != (SubstepConfig{MinT: DefaultMinT, MaxT: DefaultMaxT, MaxCycles: DefaultMaxCycles}) {
		t.Fatalf("zero config %+v", z.Config())
	}
	r := rand.New(rand.NewPCG(48, 49))
	for iter := 0; iter < 20; iter++ {
		start := time.Duration(r.Int64N(1 << 40))
		var zero Substep
		if iter%2 == 1 {
			zero.Reset(start)
		}
		ref := mustSubstep(t, SubstepConfig{}, start)
		now := start
		for i := 0; i < 500; i++ {
			if i > 0 {
				now += time.Duration(r.Int64N(int64(300 * ms)))
			}
			if got, want := zero.Step(now), ref.Step(now); got != want {
				t.Fatalf("iter %d frame %d: zero %+v, NewSubstep %+v", iter, i, got, want)
			}
		}
	}
}

// TestSubstepOnPausedVirtual: given a paused Virtual's time, Substep sees
// no time pass: it only says Wait, and after the resume it runs on from
// where it was.
func TestSubstepOnPausedVirtual(t *testing.T) {
	v := mustVirtual(t, VirtualConfig{}, origin)
	s := mustSubstep(t, SubstepConfig{}, v.Now())
	raw := origin
	var ran time.Duration
	for i := 0; i < 100; i++ {
		raw += 20 * ms
		v.Advance(raw)
		fr := s.Step(v.Now())
		ran += time.Duration(fr.Cycles) * fr.CycleT
	}
	v.SetPaused(true)
	for i := 0; i < 100; i++ {
		raw += 20 * ms
		v.Advance(raw)
		if fr := s.Step(v.Now()); fr.Cycles != 0 || fr.Wait != DefaultMinT-fr.T {
			t.Fatalf("paused frame %d: %+v", i, fr)
		}
	}
	v.SetPaused(false)
	for i := 0; i < 100; i++ {
		raw += 20 * ms
		v.Advance(raw)
		fr := s.Step(v.Now())
		ran += time.Duration(fr.Cycles) * fr.CycleT
	}
	// 200 running frames of 20 ms, nothing dropped; at most the carried
	// nanoseconds are missing.
	if d := 200*20*ms - ran; d < 0 || d > 5 {
		t.Fatalf("ran %v of 4s", ran)
	}
}
