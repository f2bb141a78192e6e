package loop

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestRateSteady: at steady 25 and 60 events per second the counter says
// 25 and 60, exactly at event times (the window (now-1s, now] holds exactly
// rate events) and within 1 between them.
func TestRateSteady(t *testing.T) {
	for _, hz := range []int64{25, 60, 144, 1000} {
		r := mustRate(t, time.Second, 2048)
		for i := int64(1); i <= hz*5; i++ {
			now := origin + time.Duration(i*1e9/hz)
			r.Add(now, 1)
			if i < hz {
				// The first window is still filling: i events so far.
				if got := r.Rate(now); got != float64(i) {
					t.Fatalf("%d Hz, event %d: rate %v, want %d", hz, i, got, i)
				}
				continue
			}
			if got := r.Rate(now); got != float64(hz) {
				t.Fatalf("%d Hz at event %d: rate %v", hz, i, got)
			}
			mid := now + time.Duration(1e9/hz/2)
			if got := r.Rate(mid); math.Abs(got-float64(hz)) > 1 {
				t.Fatalf("%d Hz between events: rate %v", hz, got)
			}
		}
	}
}

// TestRateWindowSlides: after a rate change the old events leave the
// window exactly one window later.
func TestRateWindowSlides(t *testing.T) {
	r := mustRate(t, time.Second, 512)
	now := time.Duration(0)
	for i := 0; i < 200; i++ { // 100 Hz for 2 s
		now += 10 * ms
		r.Add(now, 1)
	}
	for i := 0; i < 20; i++ { // 10 Hz for 2 s
		now += 100 * ms
		r.Add(now, 1)
		switch got := r.Rate(now); {
		case i >= 9 && got != 10:
			t.Fatalf("%v after the change: rate %v, want 10", time.Duration(i+1)*100*ms, got)
		case i < 9 && got != float64(100-10*(i+1)+(i+1)):
			t.Fatalf("%v after the change: rate %v, want %d", time.Duration(i+1)*100*ms, got, 100-10*(i+1)+(i+1))
		}
	}
	if got := r.Rate(now + 5*time.Second); got != 0 {
		t.Fatalf("5 s of silence: rate %v", got)
	}
}

// TestRateOverCapacity: with more entries in the window than the capacity,
// the rate is estimated from the span the ring covers: exact at a steady
// rate, following the recent rate when it changes.
func TestRateOverCapacity(t *testing.T) {
	r := mustRate(t, time.Second, 16)
	now := time.Duration(0)
	for i := int64(1); i <= 600; i++ {
		now = time.Duration(i * 1e9 / 60)
		r.Add(now, 1)
	}
	if got := r.Rate(now); math.Abs(got-60) > 1e-3 {
		t.Fatalf("60 Hz in a 16-entry ring: %v", got)
	}
	// 200 Hz, then 50 Hz: once 16 events at 50 Hz are in, the estimate is 50.
	for i := 0; i < 400; i++ {
		now += 5 * ms
		r.Add(now, 1)
	}
	if got := r.Rate(now); math.Abs(got-200) > 1e-6 {
		t.Fatalf("200 Hz: %v", got)
	}
	for i := 0; i < 16; i++ {
		now += 20 * ms
		r.Add(now, 1)
	}
	if got := r.Rate(now); math.Abs(got-50) > 1e-6 {
		t.Fatalf("50 Hz after 200 Hz: %v", got)
	}
}

// TestRateAgainstBruteForce: random event streams; whenever the window's
// entries fit in the ring, Rate equals the brute-force count.
func TestRateAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	for iter := 0; iter < 200; iter++ {
		window := time.Duration(1+rng.Int64N(2000)) * ms
		capacity := 1 + rng.IntN(65)
		r := mustRate(t, window, capacity)
		type ev struct {
			t time.Duration
			n int
		}
		var evs []ev
		now := time.Duration(rng.Int64N(1 << 40))
		for i := 0; i < 500; i++ {
			if rng.IntN(10) > 0 {
				now += time.Duration(rng.Int64N(int64(window / 8)))
			}
			n := rng.IntN(4)
			r.Add(now, n)
			if n > 0 {
				evs = append(evs, ev{now, n})
			}
			q := now + time.Duration(rng.Int64N(int64(window)))
			count, entries := 0, 0
			lastT := time.Duration(math.MinInt64)
			for _, e := range evs {
				if e.t > q-window {
					count += e.n
					if e.t != lastT {
						entries++
					}
				}
				lastT = e.t
			}
			got := r.Rate(q)
			// Entries at or before the horizon that were never evicted still
			// count only if inside; evictions only happen past capacity.
			if entries < capacity {
				if want := float64(count) * 1e9 / float64(window); math.Abs(got-want) > 1e-9*want {
					t.Fatalf("window %v cap %d: rate %v, want %v (%d events in %d entries)", window, capacity, got, want, count, entries)
				}
			} else if !(got >= 0) || math.IsInf(got, 0) {
				t.Fatalf("estimate %v", got)
			}
			now = q
		}
	}
}

func mustRate(t testing.TB, window time.Duration, capacity int) *RateCounter {
	t.Helper()
	r, err := NewRateCounter(window, capacity)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRateSettings(t *testing.T) {
	for _, c := range []struct {
		window   time.Duration
		capacity int
	}{{-time.Second, 8}, {NoLimit, 8}, {time.Second, -5}, {time.Second, MaxRateCapacity + 1}, {time.Second, math.MaxInt}} {
		if r, err := NewRateCounter(c.window, c.capacity); !errors.Is(err, ErrInvalid) || r != nil {
			t.Errorf("NewRateCounter(%v, %d) = %v, %v; want ErrInvalid", c.window, c.capacity, r, err)
		}
	}
	r := mustRate(t, 0, 0)
	if r.Window() != DefaultRateWindow || r.Capacity() != DefaultRateCapacity {
		t.Fatalf("defaults: window %v capacity %d", r.Window(), r.Capacity())
	}
	if r := mustRate(t, 3*time.Second, MaxRateCapacity); r.Window() != 3*time.Second || r.Capacity() != MaxRateCapacity {
		t.Fatalf("window %v capacity %d", r.Window(), r.Capacity())
	}
	// A one-entry ring estimates from the gap between the last two event
	// times: at a steady 60 Hz, 60.
	one := mustRate(t, time.Second, 1)
	for i := int64(1); i <= 120; i++ {
		one.Add(time.Duration(i*1e9/60), 1)
	}
	if got := one.Rate(2 * time.Second); math.Abs(got-60) > 0.01 {
		t.Fatalf("one entry at 60 Hz: %v", got)
	}
}

// TestRateZeroValue: a zero RateCounter counts like NewRateCounter(0, 0).
func TestRateZeroValue(t *testing.T) {
	var zero RateCounter
	if zero.Rate(time.Second) != 0 || zero.Window() != DefaultRateWindow || zero.Capacity() != DefaultRateCapacity {
		t.Fatal("the zero RateCounter before any event")
	}
	zero.Reset()
	ref := mustRate(t, 0, 0)
	r := rand.New(rand.NewPCG(44, 45))
	now := time.Duration(0)
	for i := 0; i < 5000; i++ {
		now += time.Duration(r.Int64N(int64(5 * ms)))
		n := r.IntN(3)
		zero.Add(now, n)
		ref.Add(now, n)
		if got, want := zero.Rate(now), ref.Rate(now); got != want {
			t.Fatalf("event %d: zero counter %v, NewRateCounter(0, 0) %v", i, got, want)
		}
	}
}

func TestRateOddInput(t *testing.T) {
	r := mustRate(t, time.Second, 8)
	r.Add(time.Second, 0)
	r.Add(time.Second, -7)
	if r.Rate(time.Second) != 0 {
		t.Fatal("n <= 0 counted")
	}
	r.Add(time.Second, math.MaxInt)
	r.Add(time.Second, math.MaxInt)
	if got := r.Rate(time.Second); got != 2*float64(maxRateAdd) {
		t.Fatalf("huge n: %v", got)
	}
	// Adds at the same time share one entry: a tiny ring holds a burst.
	tiny := mustRate(t, time.Second, 2)
	for i := 0; i < 10; i++ {
		tiny.Add(time.Second, 1)
	}
	if got := tiny.Rate(time.Second); got != 10 {
		t.Fatalf("10 events at one time in a 2-entry ring: %v", got)
	}
	// Backwards timestamps count at the latest time seen.
	r.Reset()
	r.Add(10*time.Second, 1)
	r.Add(9*time.Second, 1)
	r.Add(-time.Hour, 1)
	if got := r.Rate(10*time.Second + 999*ms); got != 3 {
		t.Fatalf("backwards adds: %v, want 3 (all at 10 s)", got)
	}
	if got := r.Rate(0); got != 3 {
		t.Fatalf("Rate at an earlier time: %v, want 3", got)
	}
	if got := r.Rate(11 * time.Second); got != 0 {
		t.Fatalf("a window later: %v", got)
	}
}

func TestRateAllocs(t *testing.T) {
	r := mustRate(t, time.Second, 64)
	now := time.Duration(0)
	if a := testing.AllocsPerRun(10000, func() {
		now += ms
		r.Add(now, 1)
		_ = r.Rate(now)
	}); a != 0 {
		t.Fatalf("%v allocs", a)
	}
	var zero RateCounter
	zero.Add(now, 1) // makes its memory, once
	if a := testing.AllocsPerRun(10000, func() {
		now += ms
		zero.Add(now, 1)
		_ = zero.Rate(now)
	}); a != 0 {
		t.Fatalf("a zero RateCounter: %v allocs", a)
	}
}
