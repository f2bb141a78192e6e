package netplay

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// Every reason's Error says what happened in the words the separate
// error types had, word for word; errors.Is finds the reason through
// wrapping, and only that reason.
func TestErrorMessages(t *testing.T) {
	for _, c := range []struct {
		err  *Error
		want string
	}{
		{&Error{Reason: ErrKicked, Why: ErrSlow, For: 1500 * time.Millisecond}, "kicked: too slow (held the game back 1500 ms in 10 s)"},
		{&Error{Reason: ErrKicked, Why: ErrSilent}, "kicked: silent"},
		{&Error{Reason: ErrKicked, Why: ErrLeft}, "kicked: left"},
		{&Error{Reason: ErrKicked, Why: ErrKicked}, "kicked by the host"},
		{&Error{Reason: ErrFull, What: "spectators"}, "spectator: the host has no room for another spectator"},
		{&Error{Reason: ErrBehind}, "spectator: dropped by the host: too far behind the game"},
		{&Error{Reason: ErrFull, What: "no spectators"}, "spectator: the host takes no spectators"},
		{&Error{Reason: ErrFull, What: "players"}, "host rejected the join: its game has all its players"},
		{&Error{Reason: ErrDesync, Tick: 50, Local: 1, Player: 2, Remote: 0xab}, "desync at tick 50: local 0000000000000001, player 2 00000000000000ab"},
		{&Error{Reason: ErrDesync, Tick: 7, Local: 1, Remote: 2, Rollback: 3}, "synctest: tick 7 simulates to 0000000000000002 the second time, 0000000000000001 the first (rolled back 3 ticks)"},
		{&Error{Reason: ErrSilent, Player: 1, For: 2001 * time.Millisecond}, "player 1 silent for 2.001s"},
		{&Error{Reason: ErrLeft, Player: 3}, "player 3 left the game"},
		{&Error{Reason: ErrMismatch, What: "input size", Remote: 4, Local: 5}, "the host's game has another input size: 4, this one 5"},
		{&Error{Reason: ErrMismatch, What: "snapshot", Local: 1, Remote: 2}, "the snapshot hashes to 0000000000000001, the host announced 0000000000000002"},
		{rejected(3, false), fmt.Sprintf("host rejected the join: it speaks protocol version 3, this is version %d", protocolVersion)},
		{&Error{Reason: ErrTooLarge, What: "settings", Size: 900, Limit: 800}, "the host's settings are 900 bytes, more than the 800 this game accepts"},
		{&Error{Reason: ErrTooLarge, What: "snapshot", Size: 900, Limit: 800}, "the game's snapshot is 900 bytes, more than the 800 this spectator accepts"},
		{&Error{Reason: ErrTimeout, Host: "h:1", For: time.Second}, "no answer from host h:1 in 1s (not running, or unreachable)"},
		{&Error{Reason: ErrUnreachable, Host: "h:1"}, "nothing listens at h:1: no game hosted there"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%#v: %q, want %q", c.err, got, c.want)
		}
		wrapped := fmt.Errorf("game: %w", c.err)
		if !errors.Is(wrapped, c.err.Reason) {
			t.Errorf("%q: errors.Is(%v) false", c.want, c.err.Reason)
		}
		for r := ErrSlow; r <= ErrTimeout; r++ {
			if r != c.err.Reason && errors.Is(wrapped, r) {
				t.Errorf("%q: errors.Is(%v) true", c.want, r)
			}
		}
	}
	if got := fmt.Errorf("%w: players 9", ErrInvalid).Error(); got != "invalid argument: players 9" {
		t.Errorf("an invalid argument: %q", got)
	}
	if b, _ := ErrSilent.MarshalText(); string(b) != "silent" {
		t.Errorf("ErrSilent as text: %q", b)
	}
}
