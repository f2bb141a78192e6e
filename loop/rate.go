package loop

import (
	"fmt"
	"time"
)

// Defaults of NewRateCounter: rates per second over the last second, exact
// up to 1024 distinct event times in the window (frames per second on any
// display there is).
const (
	DefaultRateWindow   = time.Second
	DefaultRateCapacity = 1024
)

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
// A RateCounter has one owner: a game counting frames and ticks per second
// keeps one counter for each (Add(now, 1) per frame, Add(now, fr.Ticks)
// per frame of a Fixed loop); no strategy keeps counters of its own.
//
// A RateCounter is not safe for concurrent use. The zero RateCounter is
// ready to use: it behaves like NewRateCounter(0, 0) (DefaultRateWindow,
// DefaultRateCapacity), and makes its memory at its first Add.
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
// capacity entries. A window of 0 means DefaultRateWindow and a capacity
// of 0 DefaultRateCapacity; a negative window, and a capacity that is
// negative or above MaxRateCapacity, are errors wrapping ErrInvalid. Pick
// a capacity above the highest rate you expect times the window (e.g.
// 1024 for frames per second) to keep Rate exact.
func NewRateCounter(window time.Duration, capacity int) (*RateCounter, error) {
	if err := checkDuration("RateCounter window", window); err != nil {
		return nil, err
	}
	if capacity < 0 || capacity > MaxRateCapacity {
		return nil, fmt.Errorf("%w: RateCounter capacity %d is not in [0, %d] (0 means the default)", ErrInvalid, capacity, MaxRateCapacity)
	}
	r := &RateCounter{window: window}
	r.ready(capacity)
	return r, nil
}

// ready gives the counter its defaults and its memory, once.
func (r *RateCounter) ready(capacity int) {
	if r.window == 0 {
		r.window = DefaultRateWindow
	}
	if r.ring == nil {
		if capacity == 0 {
			capacity = DefaultRateCapacity
		}
		r.ring = make([]rateEntry, capacity)
	}
}

// Window returns the counter's window.
func (r *RateCounter) Window() time.Duration {
	if r.window == 0 {
		return DefaultRateWindow
	}
	return r.window
}

// Capacity returns the most entries the counter keeps: Rate is exact while
// the events in the window have at most that many distinct times.
func (r *RateCounter) Capacity() int {
	if r.ring == nil {
		return DefaultRateCapacity
	}
	return len(r.ring)
}

// Add records n events at time now. Like every per-frame call of this
// package it takes any value: n <= 0 records nothing, and a count
// saturates (at 2^31-1 events per call) instead of overflowing.
func (r *RateCounter) Add(now time.Duration, n int) {
	if n <= 0 {
		return
	}
	r.ready(0)
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

// Reset forgets every event; the window and the memory are kept.
func (r *RateCounter) Reset() {
	*r = RateCounter{window: r.window, ring: r.ring}
}
