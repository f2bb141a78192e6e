package loop

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// fakeSleeper is a Sleeper whose clock advances by step on every read (so
// that spinning ends) and whose Sleep overshoots by programmed amounts.
type fakeSleeper struct {
	now    time.Duration
	step   time.Duration
	over   func(req time.Duration) time.Duration
	reads  int
	sleeps int
}

func (s *fakeSleeper) Now() time.Duration {
	s.reads++
	s.now += s.step
	return s.now
}

func (s *fakeSleeper) Sleep(d time.Duration) {
	s.sleeps++
	if d > 0 {
		s.now += d
		if s.over != nil {
			s.now += s.over(d)
		}
	}
}

func mustLimiter(t testing.TB, d time.Duration) *Limiter {
	t.Helper()
	l, err := NewLimiter(d)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// checkWait checks what every Wait must give: never before the deadline;
// at most one clock step late once the spin phase is reached; deadlines
// exactly one interval apart unless rebased.
func checkWait(t *testing.T, i int, s *fakeSleeper, r, prev LimiterResult, interval time.Duration) {
	t.Helper()
	switch {
	case r.Woke < r.Deadline:
		t.Fatalf("wait %d: woke at %v, before the deadline %v", i, r.Woke, r.Deadline)
	case r.Spun > 0 && r.Woke-r.Deadline > s.step:
		t.Fatalf("wait %d: spun and still woke %v late (clock step %v)", i, r.Woke-r.Deadline, s.step)
	case !r.Rebased && i > 0 && r.Deadline-prev.Deadline != interval:
		t.Fatalf("wait %d: deadline moved %v, want %v", i, r.Deadline-prev.Deadline, interval)
	case r.Slept < 0 || r.Spun < 0:
		t.Fatalf("wait %d: %+v", i, r)
	}
}

// TestLimiterAdapts: a sleeper that overshoots by 100-150 µs. The limiter
// starts spinning MaxSpin (2 ms) before each deadline and learns to spin
// only a little more than the overshoot, without ever returning early.
func TestLimiterAdapts(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	s := &fakeSleeper{now: origin, step: 500, over: func(time.Duration) time.Duration {
		return 100*time.Microsecond + time.Duration(r.Int64N(int64(50*time.Microsecond)))
	}}
	const interval = time.Second / 60
	l := mustLimiter(t, interval)
	if l.SpinThreshold() != MaxSpin {
		t.Fatalf("initial threshold %v, want %v", l.SpinThreshold(), MaxSpin)
	}
	var prev LimiterResult
	var early, late time.Duration
	for i := 0; i < 300; i++ {
		s.now += time.Duration(r.Int64N(int64(8 * ms))) // the frame's work
		res := l.Wait(s)
		if i > 0 {
			checkWait(t, i, s, res, prev, interval)
		}
		if i >= 1 && i <= 10 {
			early += res.Spun
		}
		if i > 290 {
			late += res.Spun
		}
		prev = res
	}
	th := l.SpinThreshold()
	if th > 300*time.Microsecond || th < 150*time.Microsecond {
		t.Fatalf("learned threshold %v, want just above the 100-150 us overshoot", th)
	}
	if late >= early/4 {
		t.Fatalf("spinning did not drop: %v in the first waits, %v in the last", early, late)
	}
}

// TestLimiterBigOvershoot: a sleeper that overshoots 0-1 ms (Go on Linux):
// the threshold grows to cover it, and the waits stay on time.
func TestLimiterBigOvershoot(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	s := &fakeSleeper{step: 300, over: func(time.Duration) time.Duration {
		return time.Duration(r.Int64N(int64(ms)))
	}}
	l := mustLimiter(t, 10*ms)
	var prev LimiterResult
	late := 0
	for i := 0; i < 500; i++ {
		s.now += 2 * ms
		res := l.Wait(s)
		if i > 0 {
			checkWait(t, i, s, res, prev, 10*ms)
			if res.Woke-res.Deadline > s.step {
				late++
			}
		}
		prev = res
	}
	if th := l.SpinThreshold(); th < ms || th > MaxSpin {
		t.Fatalf("threshold %v for 0-1 ms overshoots", th)
	}
	if late > 5 {
		t.Fatalf("%d of 500 waits late", late)
	}
}

// TestLimiterRebase: a caller more than one interval behind gets a new
// schedule from now instead of a burst of short frames; one less than an
// interval behind keeps the schedule (the next frame is shorter).
func TestLimiterRebase(t *testing.T) {
	s := &fakeSleeper{step: 100}
	l := mustLimiter(t, 10*ms)
	l.Start(s.now)
	first := LimiterResult{Deadline: s.now}
	s.now += 15 * ms // 5 ms behind the next deadline
	r := l.Wait(s)
	if r.Rebased || r.Deadline != first.Deadline+10*ms || r.Slept != 0 || r.Spun != 0 {
		t.Fatalf("5 ms behind: %+v", r)
	}
	r2 := l.Wait(s) // on schedule again: deadline + 10 ms, 5 ms from now
	if r2.Deadline != first.Deadline+20*ms || r2.Woke < r2.Deadline {
		t.Fatalf("catching up: %+v", r2)
	}
	// Exactly one interval behind: no rebase, the schedule holds.
	s.now = r2.Deadline + 20*ms - s.step // the read adds the step
	if r := l.Wait(s); r.Rebased || r.Deadline != r2.Deadline+10*ms {
		t.Fatalf("one interval behind: %+v", r)
	}
	// One and a half intervals behind: rebased.
	s.now += 25 * ms
	if r := l.Wait(s); !r.Rebased || r.Deadline != r.Woke {
		t.Fatalf("1.5 intervals behind: %+v", r)
	}
	s.now += time.Second // a stall
	r3 := l.Wait(s)
	if !r3.Rebased || r3.Deadline != r3.Woke {
		t.Fatalf("after a stall: %+v", r3)
	}
	r4 := l.Wait(s)
	if r4.Deadline != r3.Deadline+10*ms {
		t.Fatalf("after rebasing: %+v", r4)
	}
}

// TestLimiterNoDrift: with any frame work below the interval, the
// deadlines are exactly k intervals from the first.
func TestLimiterNoDrift(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	s := &fakeSleeper{step: 40, over: func(time.Duration) time.Duration { return time.Duration(r.Int64N(int64(300 * time.Microsecond))) }}
	const interval time.Duration = 16666667
	l := mustLimiter(t, interval)
	first := l.Wait(s)
	var res LimiterResult
	for i := 1; i <= 10000; i++ {
		s.now += time.Duration(r.Int64N(int64(12 * ms)))
		res = l.Wait(s)
		if res.Rebased {
			t.Fatalf("wait %d rebased", i)
		}
	}
	if res.Deadline != first.Deadline+10000*interval {
		t.Fatalf("deadline %v after 10000 waits, want %v", res.Deadline-first.Deadline, 10000*interval)
	}
}

// TestLimiterOddSleepers: a sleeper that never sleeps, a clock that does
// not move on its own (ManualClock), a clock that goes back, nil.
func TestLimiterOddSleepers(t *testing.T) {
	// Sleep does nothing: the limiter gives up sleeping and spins.
	s := &fakeSleeper{step: 10 * time.Microsecond, over: func(req time.Duration) time.Duration { return -req }}
	l := mustLimiter(t, 5*ms)
	l.Wait(s)
	before := s.sleeps
	r := l.Wait(s)
	if r.Woke < r.Deadline || s.sleeps-before > maxSleeps+1 {
		t.Fatalf("non-sleeping sleeper: %+v after %d sleeps", r, s.sleeps-before)
	}
	// A ManualClock only moves when slept: spinning sleeps the rest.
	c := NewManualClock(0)
	l = mustLimiter(t, 5*ms)
	l.Start(c.Now())
	for i := 1; i <= 10; i++ {
		c.Advance(time.Duration(i) * 100 * time.Microsecond)
		r := l.Wait(c)
		if r.Woke != r.Deadline || r.Deadline != time.Duration(i)*5*ms {
			t.Fatalf("manual clock wait %d: %+v", i, r)
		}
	}
	// A clock that went back an hour: never wait more than an interval.
	back := &fakeSleeper{now: time.Hour, step: 100}
	l = mustLimiter(t, 5*ms)
	l.Wait(back)
	back.now = 0
	start := back.now
	r = l.Wait(back)
	if r.Woke-start > 5*ms+2*back.step || r.Woke < r.Deadline { // a step to read now, one past the deadline
		t.Fatalf("clock went back: waited %v (%+v)", r.Woke-start, r)
	}
	if (l.Wait(nil) != LimiterResult{}) {
		t.Fatal("nil sleeper")
	}
}

func TestLimiterOffAndErrors(t *testing.T) {
	for _, bad := range []time.Duration{-ms, -2, math.MinInt64} {
		if l, err := NewLimiter(bad); !errors.Is(err, ErrInvalid) || l != nil {
			t.Fatalf("NewLimiter(%v) = %v, %v", bad, l, err)
		}
	}
	s := &fakeSleeper{step: 100}
	var zero Limiter
	for _, l := range []*Limiter{mustLimiter(t, 0), mustLimiter(t, NoLimit), &zero} {
		if l.Interval() != 0 {
			t.Fatalf("off limiter: interval %v", l.Interval())
		}
		for i := 0; i < 3; i++ {
			before := s.now
			r := l.Wait(s)
			if r.Slept != 0 || r.Spun != 0 || s.now-before > s.step {
				t.Fatalf("off limiter waited: %+v", r)
			}
		}
	}
	l := mustLimiter(t, 10*ms)
	if err := l.SetInterval(-2); !errors.Is(err, ErrInvalid) || l.Interval() != 10*ms {
		t.Fatalf("SetInterval(-2) = %v, interval %v", err, l.Interval())
	}
	a := l.Wait(s)
	if err := l.SetInterval(20 * ms); err != nil {
		t.Fatal(err)
	}
	if b := l.Wait(s); b.Deadline != a.Deadline+20*ms {
		t.Fatalf("new interval: %v", b.Deadline-a.Deadline)
	}
	// A new schedule after a stop that was not a frame (a level load).
	s.now += time.Minute
	start := s.now
	l.Start(start)
	if c := l.Wait(s); c.Rebased || c.Deadline != start+20*ms || c.Woke < c.Deadline {
		t.Fatalf("after Start: %+v", c)
	}
	if err := l.SetInterval(NoLimit); err != nil || l.Interval() != 0 {
		t.Fatalf("SetInterval(NoLimit) = %v, interval %v", err, l.Interval())
	}
	if c := l.Wait(s); c.Slept != 0 || c.Spun != 0 || c.Woke != c.Deadline {
		t.Fatalf("turned off: %+v", c)
	}
}

// TestLimiterFirstWait: the schedule starts at the start of the first
// frame (Start), so the first Wait waits until one interval after it, like
// every later one; without Start, the first Wait waits a whole interval
// from its own reading of the clock; a limiter turned on after running
// off counts from the last Wait.
func TestLimiterFirstWait(t *testing.T) {
	c := NewManualClock(5 * time.Second)
	l := mustLimiter(t, 10*ms)
	l.Start(c.Now())
	for i, work := range []time.Duration{3 * ms, 9 * ms, 0, 1 * ms} {
		c.Advance(work)
		r := l.Wait(c)
		if want := 5*time.Second + time.Duration(i+1)*10*ms; r.Woke != want || r.Deadline != want || r.Rebased {
			t.Fatalf("frame %d with Start: %+v, want to wake at %v", i, r, want)
		}
	}

	c = NewManualClock(5 * time.Second)
	l = mustLimiter(t, 10*ms)
	c.Advance(3 * ms) // the first frame's work, unseen
	if r := l.Wait(c); r.Woke != 5*time.Second+13*ms || r.Deadline != r.Woke {
		t.Fatalf("first Wait without Start: %+v, want a whole interval from 5.003s", r)
	}
	c.Advance(2 * ms)
	if r := l.Wait(c); r.Woke != 5*time.Second+23*ms {
		t.Fatalf("second Wait without Start: %+v", r)
	}

	c = NewManualClock(time.Second)
	l = mustLimiter(t, 0)
	if r := l.Wait(c); r.Woke != time.Second || r.Slept != 0 {
		t.Fatalf("off: %+v", r)
	}
	if err := l.SetInterval(10 * ms); err != nil {
		t.Fatal(err)
	}
	c.Advance(2 * ms)
	if r := l.Wait(c); r.Woke != time.Second+10*ms || r.Rebased {
		t.Fatalf("turned on: %+v, want to wake one interval after the last Wait", r)
	}

	// The zero Limiter is off until given an interval.
	var z Limiter
	c = NewManualClock(0)
	if r := z.Wait(c); r.Woke != 0 {
		t.Fatalf("zero limiter waited: %+v", r)
	}
	if err := z.SetInterval(4 * ms); err != nil {
		t.Fatal(err)
	}
	if r := z.Wait(c); r.Woke != 4*ms {
		t.Fatalf("zero limiter given 4 ms: %+v", r)
	}
}

func TestLimiterAllocs(t *testing.T) {
	c := NewManualClock(0)
	l := mustLimiter(t, 10*ms)
	if a := testing.AllocsPerRun(1000, func() {
		c.Advance(3 * ms)
		l.Wait(c)
		l.WaitUntil(c, c.Now()+ms)
		l.Start(c.Now())
	}); a != 0 {
		t.Fatalf("%v allocs", a)
	}
}

// TestLimiterScenarios: the classic schedules read as the work of each
// frame (the gaps between the times, negative when the clock jumps back),
// with a 60 FPS cap and a sleeper that overshoots 0-300 us.
func TestLimiterScenarios(t *testing.T) {
	const interval = time.Second / 60
	for _, sc := range classicScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(29, 30))
			s := &fakeSleeper{now: origin, step: 200, over: func(time.Duration) time.Duration {
				return time.Duration(r.Int64N(int64(300 * time.Microsecond)))
			}}
			l := mustLimiter(t, interval)
			prev := l.Wait(s)
			rebased := 0
			for i := 1; i < len(sc.times); i++ {
				work := sc.times[i] - sc.times[i-1]
				s.now += work
				start := s.now
				res := l.Wait(s)
				if work < 0 {
					// The clock went back: at most one interval of waiting.
					if res.Woke-start > interval+2*s.step || res.Woke < res.Deadline {
						t.Fatalf("frame %d after a jump back: %+v", i, res)
					}
					prev = res
					continue
				}
				checkWait(t, i, s, res, prev, interval)
				// The cap: frames never start closer than one interval on
				// average; the deadlines are at least an interval apart.
				if res.Deadline-prev.Deadline < interval {
					t.Fatalf("frame %d: deadlines %v apart", i, res.Deadline-prev.Deadline)
				}
				if res.Rebased {
					rebased++
				}
				prev = res
			}
			frames := len(sc.times) - 1
			switch sc.name {
			case "fast 1ms":
				if rebased != 0 {
					t.Fatalf("%d rebases with 1 ms of work", rebased)
				}
			case "exactly one tick", "slow 200ms":
				// 40 or 200 ms of work is more than an interval behind
				// every time: each wait rebases and returns at once.
				if rebased != frames {
					t.Fatalf("%d rebases in %d frames", rebased, frames)
				}
			case "stall 10s":
				if rebased != 1 {
					t.Fatalf("%d rebases, want the stall's", rebased)
				}
			}
		})
	}
}

// TestLimiterWaitUntil: waits to arbitrary deadlines (the adaptive split's
// PresentAt) never return early, return at most one clock step late once
// spinning, leave Wait's schedule alone, and return at once for a deadline
// already past.
func TestLimiterWaitUntil(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	s := &fakeSleeper{now: origin, step: 300, over: func(time.Duration) time.Duration {
		return time.Duration(r.Int64N(int64(400 * time.Microsecond)))
	}}
	const interval = time.Second / 30
	l := mustLimiter(t, interval)
	first := l.Wait(s)
	for i := 0; i < 200; i++ {
		dl := s.now + time.Duration(r.Int64N(int64(30*ms)))
		res := l.WaitUntil(s, dl)
		if res.Woke < dl {
			t.Fatalf("wait %d: woke at %v, before %v", i, res.Woke, dl)
		}
		if res.Spun > 0 && res.Woke-dl > s.step {
			t.Fatalf("wait %d: spun and woke %v late", i, res.Woke-dl)
		}
		if res.Deadline != dl {
			t.Fatalf("wait %d: deadline %v, want %v", i, res.Deadline, dl)
		}
	}
	if th := l.SpinThreshold(); th >= MaxSpin {
		t.Errorf("WaitUntil did not teach the limiter: threshold %v", th)
	}
	// Wait's own schedule is untouched: the next deadline is still a whole
	// number of intervals after the first (rebased, since 200 waits passed).
	if w := l.Wait(s); !w.Rebased && (w.Deadline-first.Deadline)%interval != 0 {
		t.Errorf("Wait's schedule moved: %v after %v", w.Deadline, first.Deadline)
	}
	before := s.sleeps
	past := l.WaitUntil(s, s.now-time.Second)
	if s.sleeps != before || past.Slept != 0 || past.Spun != 0 {
		t.Errorf("a past deadline waited: %+v", past)
	}
	if got := l.WaitUntil(nil, 0); got != (LimiterResult{}) {
		t.Errorf("nil sleeper: %+v", got)
	}
}
