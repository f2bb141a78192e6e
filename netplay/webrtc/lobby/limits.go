package lobby

import (
	"fmt"
	"time"
)

// Limits bound what one lobby holds and what one connection may do. A
// zero field means its default (DefaultLimits); Validate gives each
// field's range. Every limit is enforced: a connection past one gets an
// error message saying which and is closed, and the server logs the
// refusal and counts it in Stats.Refused.
type Limits struct {
	// Rooms is the most rooms open at once.
	Rooms int
	// Spectators is the most spectators in one room. (A room's players
	// are bounded by its ?players, MinPlayers to MaxPlayers.)
	Spectators int
	// Conns is the most WebSocket connections open at once, peers and
	// connections being refused alike. Past twice Conns, a request is
	// answered 503 without an upgrade, the error message and all.
	Conns int
	// MessageSize is the most bytes in one message from a client.
	MessageSize int
	// Rate is how many messages a second a connection may send, on
	// average, and Burst how many at once: a token bucket per
	// connection.
	Rate, Burst int
	// Queue is the most messages waiting to be written to one peer; a
	// peer that falls that far behind is dropped ("slow").
	Queue int
	// Handshake is the longest from a request's upgrade to its welcome
	// being written (an http.Server's ReadHeaderTimeout bounds what comes
	// before). A refusal gets the same time to be written and closed.
	Handshake time.Duration
	// Idle is the longest a peer may stay silent: the server pings every
	// peer every Idle/3 and drops one that has not answered within
	// 2*Idle/3, so a dead peer is gone within Idle.
	Idle time.Duration
}

// DefaultLimits returns the limits a zero Limits stands for.
func DefaultLimits() Limits {
	return Limits{
		Rooms:       1000,
		Spectators:  8,
		Conns:       4096,
		MessageSize: MaxMessage,
		Rate:        50,
		Burst:       200,
		Queue:       32,
		Handshake:   10 * time.Second,
		Idle:        30 * time.Second,
	}
}

// LimitError says which field of a Limits is out of its range.
type LimitError struct {
	// Field is the field's name, as in Limits ("Rooms").
	Field string
	// Value is what it held, and Min and Max its range (durations in
	// nanoseconds; Value printed as a duration for those).
	Value, Min, Max int64
	// Duration says that the field is a time.Duration.
	Duration bool
}

// Error says which field and its range, on one line.
func (e *LimitError) Error() string {
	return fmt.Sprintf("lobby: Limits.%s is %s: %s", e.Field, e.value(), e.Want())
}

// Want says what the field may hold: "want 1 to 100000 (0 for the
// default)".
func (e *LimitError) Want() string {
	f := func(v int64) string {
		if e.Duration {
			return time.Duration(v).String()
		}
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("want %s to %s (0 for the default)", f(e.Min), f(e.Max))
}

func (e *LimitError) value() string {
	if e.Duration {
		return time.Duration(e.Value).String()
	}
	return fmt.Sprint(e.Value)
}

// Validate returns a *LimitError for the first field out of its range,
// or nil. Zero fields are in range: they mean the default.
func (l Limits) Validate() error {
	for _, f := range l.fields() {
		if f.value != 0 && (f.value < f.min || f.value > f.max) {
			return &LimitError{Field: f.name, Value: f.value, Min: f.min, Max: f.max, Duration: f.duration}
		}
	}
	return nil
}

// limitField is one field of a Limits with its range.
type limitField struct {
	name     string
	value    int64
	min, max int64
	duration bool
}

// fields lists l's fields with their ranges: the one place the ranges
// are written.
func (l Limits) fields() []limitField {
	n := func(name string, v int, lo, hi int64) limitField {
		return limitField{name: name, value: int64(v), min: lo, max: hi}
	}
	d := func(name string, v, lo, hi time.Duration) limitField {
		return limitField{name: name, value: int64(v), min: int64(lo), max: int64(hi), duration: true}
	}
	return []limitField{
		n("Rooms", l.Rooms, 1, 1_000_000),
		n("Spectators", l.Spectators, 1, 1000),
		n("Conns", l.Conns, 1, 1_000_000),
		n("MessageSize", l.MessageSize, 256, MaxMessage),
		n("Rate", l.Rate, 1, 1_000_000),
		n("Burst", l.Burst, 1, 1_000_000),
		n("Queue", l.Queue, 4, 10_000),
		d("Handshake", l.Handshake, 10*time.Millisecond, time.Hour),
		d("Idle", l.Idle, 30*time.Millisecond, 24*time.Hour),
	}
}
