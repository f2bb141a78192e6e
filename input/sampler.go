package input

import "time"

// minQueue is the initial capacity of a Sampler's event queue. It is a
// power of two; the queue doubles when a burst of events outgrows it.
const minQueue = 64

// A Sampler turns a stream of timestamped button events into one Record
// per logic tick. Push events as the platform delivers them; call Tick once
// per logic tick with the end of the tick's time span.
//
// The zero value is ready to use. A Sampler is not safe for concurrent use:
// push and tick from the same goroutine (the main loop).
//
// Push and Tick do not allocate once the queue is big enough for the
// largest burst of events that piles up between ticks; it starts at 64
// events and only ever grows, so no event is ever dropped.
type Sampler struct {
	q      []Event // ring buffer; len(q) is zero or a power of two
	head   int     // index of the oldest pending event
	n      int     // number of pending events
	latest time.Duration
	seen   bool          // whether latest is set
	end    time.Duration // span end of the last tick
	ticked bool          // whether end is set
	pushed Buttons       // buttons down after every pushed event
	held   Buttons       // buttons down at the end of the last tick
}

// NewSampler returns an empty Sampler with its queue allocated.
func NewSampler() *Sampler {
	return &Sampler{q: make([]Event, minQueue)}
}

// Push queues one event for the ticks to come.
//
// Events must be pushed in the order they happened. An event stamped
// earlier than the latest event pushed so far (clocks that disagree by a
// millisecond, for example) is treated as happening at that latest time, so
// time never runs backwards inside the Sampler.
//
// A press of a button that is already down, or a release of one that is
// already up, is ignored: that is key repeat, or a release whose press
// happened before the Sampler was created or Reset. Events for buttons
// above MaxButton are ignored. Ignored events still count as the latest
// time seen.
//
// An event pushed after the tick whose span contains it has already run is
// not lost: it goes to the next tick.
func (s *Sampler) Push(e Event) {
	if s.seen && e.Time < s.latest {
		e.Time = s.latest
	}
	s.latest, s.seen = e.Time, true
	m := bit(e.Button)
	if m == 0 || e.Down == (s.pushed&m != 0) {
		return // invalid button, key repeat, or release of a button that is up
	}
	s.pushed ^= m
	if s.n == len(s.q) {
		s.grow()
	}
	s.q[(s.head+s.n)&(len(s.q)-1)] = e
	s.n++
}

// grow doubles the queue, keeping the pending events in order.
func (s *Sampler) grow() {
	size := 2 * len(s.q)
	if size < minQueue {
		size = minQueue
	}
	q := make([]Event, size)
	for i := 0; i < s.n; i++ {
		q[i] = s.q[(s.head+i)&(len(s.q)-1)]
	}
	s.q, s.head = q, 0
}

// Tick consumes the pending events that belong to the tick whose time span
// ends at spanEnd and returns the tick's Record. Call it once per logic
// tick, in order, with increasing span ends.
//
// A tick takes, in the order they were pushed, the presses stamped before
// spanEnd and the releases stamped at or before spanEnd (a key released
// exactly at the boundary was not down during the next span). It takes
// every such event that an earlier tick did not, so events in time that
// the loop discarded after a stall go to the first tick that runs after
// it, and a tap made while frames were slow lands in its own tick.
//
// A tick takes at most one press of each button: a second press of a button
// within one span (two quick taps, or taps piled up during a stall) ends
// the tick's share of the queue, and it and every later event go to the
// next tick. So every press shows up as Pressed in exactly one tick; none
// is merged with another.
//
// A span end earlier than the previous tick's (a loop clock that stepped
// back, or a caller's off-by-one) is treated as the previous tick's end, as
// Push treats an event stamped out of order: time never runs backwards
// inside the Sampler. Taken literally, such an end would hold back events
// that were already due, such as a late event whose tick had run, which
// belongs to the next tick. After a Reset any span end is accepted again;
// call Reset when the loop's clock restarts.
func (s *Sampler) Tick(spanEnd time.Duration) Record {
	if s.ticked && spanEnd < s.end {
		spanEnd = s.end
	}
	s.end, s.ticked = spanEnd, true
	r := Record{}
	held := s.held
	mask := len(s.q) - 1
	for s.n > 0 {
		e := s.q[s.head]
		m := bit(e.Button)
		if e.Down {
			if e.Time >= spanEnd || r.Pressed&m != 0 {
				break
			}
			held |= m
			r.Pressed |= m
		} else {
			if e.Time > spanEnd {
				break
			}
			held &^= m
			r.Released |= m
		}
		s.head = (s.head + 1) & mask
		s.n--
	}
	r.Held = held
	s.held = held
	return r
}

// ReleaseAll pushes a release at time t for every button that is down
// after the events pushed so far. Call it when the window loses keyboard
// focus: the platform will not report the releases that happen elsewhere.
func (s *Sampler) ReleaseAll(t time.Duration) {
	for b := Button(0); b <= MaxButton && s.pushed != 0; b++ {
		if s.pushed.Has(b) {
			s.Push(Event{Time: t, Button: b, Down: false})
		}
	}
}

// Held returns the buttons down at the end of the last tick (the Held of
// the last Record returned).
func (s *Sampler) Held() Buttons { return s.held }

// Pending returns the number of events pushed but not yet consumed by a
// tick.
func (s *Sampler) Pending() int { return s.n }

// Reset forgets every pending event and every held button, as if the
// Sampler were new, keeping its queue's memory. A button held across a
// Reset must be pressed again to count; its release is ignored.
func (s *Sampler) Reset() {
	s.head, s.n = 0, 0
	s.latest, s.seen = 0, false
	s.end, s.ticked = 0, false
	s.pushed, s.held = 0, 0
}
