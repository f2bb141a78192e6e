package input

import "time"

// FromMillis converts an event timestamp in milliseconds on a 32-bit
// wrapping clock (SDL2's SDL_GetTicks, which stamps SDL_KeyboardEvent) to
// the loop's clock, given a reading of both clocks taken together: nowMillis
// on the millisecond clock and now on the loop's clock.
//
// It measures the event's age on the millisecond clock and subtracts it from
// now, so the two clocks never need a common origin and cannot drift apart:
// take a fresh pair of readings every frame, after polling the events. The
// age is computed modulo 2^32, so the 49-day wrap of a uint32 millisecond
// counter does no harm. A stamp later than nowMillis (the clock was read
// before the event was stamped) counts as age zero: the event happened now.
//
// The result is accurate to about a millisecond (the resolution of the
// stamps), which is plenty for ticks of tens of milliseconds. Two events
// converted in different frames may come out a millisecond out of order;
// Sampler.Push treats such an event as simultaneous with the later one.
func FromMillis(stamp, nowMillis uint32, now time.Duration) time.Duration {
	age := nowMillis - stamp // wraps correctly across the 2^32 boundary
	if age > 1<<31 {
		age = 0 // stamped after the clock was read
	}
	return now - time.Duration(age)*time.Millisecond
}
