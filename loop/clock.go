package loop

import (
	"math"
	"time"
)

// Clock reads monotonic time: the time elapsed since an origin of the
// clock's own choosing, in integer nanoseconds. Everything in this package
// is given such readings; only RealClock reads the operating system.
type Clock interface {
	Now() time.Duration
}

// Sleeper is a Clock that can also block the calling goroutine for a while.
// The Limiter needs one.
type Sleeper interface {
	Clock
	Sleep(d time.Duration)
}

// ManualClock is a Clock and Sleeper whose time moves only when told to:
// the clock of tests and simulations. Sleep advances it instead of
// blocking. The zero ManualClock reads 0. It is not safe for concurrent
// use.
type ManualClock struct {
	now time.Duration
}

var _ Sleeper = (*ManualClock)(nil)

// NewManualClock returns a ManualClock that reads start.
func NewManualClock(start time.Duration) *ManualClock {
	return &ManualClock{now: start}
}

// Now returns the clock's time.
func (c *ManualClock) Now() time.Duration { return c.now }

// Set moves the clock to t, forwards or backwards (a broken time source
// can be simulated by setting an earlier time).
func (c *ManualClock) Set(t time.Duration) { c.now = t }

// Advance moves the clock by d, which may be negative. The time saturates
// at the limits of time.Duration instead of wrapping.
func (c *ManualClock) Advance(d time.Duration) { c.now = addSat(c.now, d) }

// Sleep advances the clock by d; like time.Sleep, a d <= 0 does nothing.
func (c *ManualClock) Sleep(d time.Duration) {
	if d > 0 {
		c.Advance(d)
	}
}

// addSat returns a+b, saturated to the range of time.Duration.
func addSat(a, b time.Duration) time.Duration {
	s := a + b
	if (s > a) != (b > 0) {
		if b > 0 {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return s
}

// subSat returns a-b, saturated to the range of time.Duration.
func subSat(a, b time.Duration) time.Duration {
	s := a - b
	if (s < a) != (b > 0) {
		if b > 0 {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	return s
}
