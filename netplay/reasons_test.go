package netplay

import (
	"testing"
	"time"
)

// The typed reasons of KickedError and DroppedError keep the messages
// the string reasons had, word for word.
func TestReasonMessages(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&KickedError{Why: DisconnectSlow, HeldBack: 1500 * time.Millisecond}, "kicked: too slow (held the game back 1500 ms in 10 s)"},
		{&KickedError{Why: DisconnectSilent}, "kicked: silent"},
		{&KickedError{Why: DisconnectLeft}, "kicked: left"},
		{&KickedError{Why: DisconnectKicked}, "kicked by the host"},
		{&DroppedError{Why: DropFull}, "spectator: the host has no room for another spectator"},
		{&DroppedError{Why: DropBehind}, "spectator: dropped by the host: too far behind the game"},
		{&DroppedError{Why: DropNoSpectators}, "spectator: the host takes no spectators"},
		{&DroppedError{Why: 0}, "spectator: DropReason(0)"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%#v: %q, want %q", c.err, got, c.want)
		}
	}
}
