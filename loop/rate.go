package loop

import "time"

// DefaultRateWindow is the window of the rates Fixed reports.
const DefaultRateWindow = time.Second

// MaxRateCapacity is the largest number of entries a RateCounter keeps.
const MaxRateCapacity = 1 << 20

// maxRateAdd bounds the count of one Add, and maxRateEntry the count one
// entry accumulates, so that the running sum (at most MaxRateCapacity
// entries) can never overflow an int64.
const (
	maxRateAdd   = 1<<31 - 1
	maxRateEntry = 1 << 40
)

// RateCounter counts events over a rolling window of time and reports
// their rate in events per second: frames per second, ticks per second.
// Its memory is fixed when it is made; Add and Rate never allocate.
//
// It keeps one entry per distinct timestamp (Adds at the same time share
// one), up to its capacity. While the entries in the window fit, Rate is
// exact: the events with a time t in (now-window, now], divided by the
// window. When more entries than the capacity fall in the window, the
// oldest are evicted and Rate becomes an estimate: the exact count of the
// events it still holds divided by the shorter span they cover, from the
// newest evicted entry's time to now. At a steady rate the estimate is the
// true rate; when the rate changes it reflects the recent part of the
// window.
//
// Before a whole window has passed since the first event, Rate still
// divides by the whole window, so it rises from 0 during the first window.
// Timestamps that go backwards count as the latest timestamp seen.
//
// A RateCounter is not safe for concurrent use. Its zero value counts
// nothing; make one with NewRateCounter.
type RateCounter struct {
	window  time.Duration
	ring    []rateEntry
	head    int // index of the oldest entry
	size    int
	sum     int64         // events in the ring
	last    time.Duration // newest timestamp seen
	dropped time.Duration // newest timestamp evicted to make room
	started bool
	evicted bool
}

type rateEntry struct {
	t time.Duration
	n int64
}

// NewRateCounter returns a counter over the given window that keeps up to
// capacity entries. Invalid settings do not fail: a window <= 0 means
// DefaultRateWindow, and capacity is clamped to [2, MaxRateCapacity].
// Pick a capacity above the highest rate you expect times the window
// (e.g. 1024 for frames per second) to keep Rate exact.
func NewRateCounter(window time.Duration, capacity int) *RateCounter {
	r := new(RateCounter)
	r.init(window, capacity)
	return r
}

func (r *RateCounter) init(window time.Duration, capacity int) {
	if window <= 0 {
		window = DefaultRateWindow
	}
	capacity = min(max(capacity, 2), MaxRateCapacity)
	*r = RateCounter{window: window, ring: make([]rateEntry, capacity)}
}

// Window returns the counter's window.
func (r *RateCounter) Window() time.Duration { return r.window }

// Add records n events at time now. n <= 0 records nothing; n is capped
// at 2^31-1 per call.
func (r *RateCounter) Add(now time.Duration, n int) {
	if n <= 0 || len(r.ring) == 0 {
		return
	}
	k := int64(min(n, maxRateAdd))
	if r.started && now < r.last {
		now = r.last
	}
	r.started = true
	r.last = now
	if r.size > 0 {
		newest := &r.ring[r.wrap(r.head+r.size-1)]
		if newest.t == now {
			k = min(k, maxRateEntry-newest.n)
			newest.n += k
			r.sum += k
			return
		}
	}
	if r.size == len(r.ring) {
		old := r.ring[r.head]
		r.sum -= old.n
		r.dropped, r.evicted = old.t, true
		r.head = r.wrap(r.head + 1)
		r.size--
	}
	r.ring[r.wrap(r.head+r.size)] = rateEntry{t: now, n: k}
	r.size++
	r.sum += k
}

// wrap maps an index in [0, 2*len) into the ring.
func (r *RateCounter) wrap(i int) int {
	if i >= len(r.ring) {
		i -= len(r.ring)
	}
	return i
}

// Rate returns the events per second over the window ending at now.
func (r *RateCounter) Rate(now time.Duration) float64 {
	if !r.started {
		return 0
	}
	if now < r.last {
		now = r.last
	}
	horizon := subSat(now, r.window) // entries at or before it are out
	for r.size > 0 && r.ring[r.head].t <= horizon {
		r.sum -= r.ring[r.head].n
		r.head = r.wrap(r.head + 1)
		r.size--
	}
	if r.evicted && r.dropped > horizon {
		// The window holds more entries than the ring: estimate from the
		// span the ring still covers.
		return float64(r.sum) * 1e9 / float64(now-r.dropped)
	}
	return float64(r.sum) * 1e9 / float64(r.window)
}

// Reset forgets every event.
func (r *RateCounter) Reset() {
	if len(r.ring) == 0 {
		return
	}
	*r = RateCounter{window: r.window, ring: r.ring}
}
