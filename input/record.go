package input

import (
	"strconv"
	"time"
)

// An Event is one press or release of a button, stamped on the loop's clock
// (the same time.Duration clock the fixed-tick loop measures its tick
// spans with).
type Event struct {
	Time   time.Duration // when it happened, on the loop's clock
	Button Button        // which button
	Down   bool          // true for a press, false for a release
}

// String formats e as "12ms +Left" (press) or "52ms -Left" (release).
func (e Event) String() string {
	sign := "-"
	if e.Down {
		sign = "+"
	}
	return e.Time.String() + " " + sign + e.Button.String()
}

// A Record is the input of one logic tick, as a Sampler builds it from the
// events in the tick's time span [S, E).
//
//   - Pressed: the buttons pressed during the span (at S <= t < E).
//   - Released: the buttons released during the span (at S < t <= E; a key
//     released exactly at E was not down at any moment after E).
//   - Held: the buttons down at the end of the span: pressed before E and
//     not released by E.
//
// A tick acts on Down(prev), where prev is the previous tick's record.
type Record struct {
	Held, Pressed, Released Buttons
}

// Down returns the buttons that were down at some moment of r's tick span:
// those held when the span began (prev.Held) and those pressed during it.
// This is what a tick should act on. A tap shorter than a tick is in
// Pressed (and Released) of its tick, so it acts on exactly that tick; a key
// held across k tick spans acts on exactly k ticks, whatever the frame
// rate.
//
// prev is the record of the previous tick; before the first tick use the
// zero Record (nothing held).
func (r Record) Down(prev Record) Buttons { return prev.Held | r.Pressed }

// JustPressed reports whether b went down during this tick. It comes from
// the events, not from comparing two samples, so a tap that is over before
// the tick runs is still seen.
func (r Record) JustPressed(b Button) bool { return r.Pressed.Has(b) }

// JustReleased reports whether b went up during this tick.
func (r Record) JustReleased(b Button) bool { return r.Released.Has(b) }

// IsZero reports whether r is the record of a tick with nothing held and
// nothing happening.
func (r Record) IsZero() bool { return r == Record{} }

// String formats r as "held=Left pressed=Left released=-".
func (r Record) String() string {
	return "held=" + r.Held.String() + " pressed=" + r.Pressed.String() +
		" released=" + r.Released.String()
}

// GoString formats r as Go syntax, for test failures.
func (r Record) GoString() string {
	return "input.Record{Held: 0x" + strconv.FormatUint(uint64(r.Held), 16) +
		", Pressed: 0x" + strconv.FormatUint(uint64(r.Pressed), 16) +
		", Released: 0x" + strconv.FormatUint(uint64(r.Released), 16) + "}"
}
