package loop

import "time"

// RealClock is the operating system's monotonic clock, read as the time
// since the clock's origin. It is the only thing in this package that reads
// the real time.
//
// Make one with NewRealClock; its origin is the moment it was made, and it
// is then safe for concurrent use. A zero RealClock sets its origin at its
// first Now, which must then not race with another call.
type RealClock struct {
	origin time.Time
}

var _ Sleeper = (*RealClock)(nil)

// NewRealClock returns a RealClock whose origin is now.
func NewRealClock() *RealClock {
	return &RealClock{origin: time.Now()}
}

// Now returns the monotonic time elapsed since the clock's origin.
func (c *RealClock) Now() time.Duration {
	if c.origin.IsZero() {
		c.origin = time.Now()
	}
	return time.Since(c.origin)
}

// Sleep blocks the calling goroutine for at least d (time.Sleep). It can
// overshoot by a millisecond or more; the Limiter corrects for that.
func (c *RealClock) Sleep(d time.Duration) { time.Sleep(d) }
