package netplay

import (
	"errors"
	"fmt"
	"time"
)

// ErrInvalid is wrapped by every error this package returns for a bad
// argument or setting (a Config out of range, an input for the wrong tick):
// test for it with errors.Is.
var ErrInvalid = errors.New("netplay: invalid argument")

// ErrWindowFull is returned by AddLocalInput when the local player is more
// than Window ticks of input ahead of what every peer has acknowledged:
// the local player stalls until acknowledgements arrive.
var ErrWindowFull = errors.New("netplay: input window full")

// ErrOver is returned by AddLocalInput and Advance once the game is over
// for this session, and wrapped by the error of NewRunner on such a
// session.
var ErrOver = errors.New("netplay: game over")

// A DesyncError reports that two peers reached different states after the
// same ticks with the same inputs: the simulation is not deterministic, or
// a peer is broken. Tick counts the ticks run (the hash is the state after
// tick Tick, counted from 1).
type DesyncError struct {
	Tick   uint64
	Local  uint64 // this peer's state hash
	Player int    // the player whose hash differs
	Remote uint64 // that player's state hash
}

func (e *DesyncError) Error() string {
	return fmt.Sprintf("desync at tick %d: local %016x, player %d %016x", e.Tick, e.Local, e.Player, e.Remote)
}

// A SilenceError reports that no packet came from Player for the silence
// timeout (or, at a joiner, that the host reported it so).
type SilenceError struct {
	Player int
	// For is how long the peer that found the silence had heard
	// nothing from Player when it found it: the silence timeout or a
	// little more (a frame's time; at a peer the host told, the
	// timeout).
	For time.Duration
}

func (e *SilenceError) Error() string {
	return fmt.Sprintf("player %d silent for %v", e.Player, e.For.Round(time.Millisecond))
}

// A LeftError reports that Player ended its game with an error and left
// (a joiner that lost the host, for example) while KickAfter was off.
type LeftError struct{ Player int }

func (e *LeftError) Error() string { return fmt.Sprintf("player %d left the game", e.Player) }

// A KickedError is the end of a player the host kicked.
type KickedError struct {
	// Why is why the host kicked this player.
	Why DisconnectReason
	// HeldBack is the time this player held the game back in the 10 s
	// before the kick (for "too slow").
	HeldBack time.Duration
	// From is the first tick at which the others run without this
	// player's input.
	From uint64
}

func (e *KickedError) Error() string {
	switch e.Why {
	case DisconnectKicked:
		return "kicked by the host"
	case DisconnectSlow:
		return fmt.Sprintf("kicked: too slow (held the game back %d ms in 10 s)", e.HeldBack.Milliseconds())
	}
	return "kicked: " + e.Why.String()
}

// A DropReason is why a host turned a spectator away or dropped it
// (DroppedError).
type DropReason uint8

const (
	// DropFull: every spectator slot of the host is taken.
	DropFull DropReason = 1 + iota
	// DropBehind: the spectator fell too far behind the game.
	DropBehind
	// DropNoSpectators: the host serves no spectators.
	DropNoSpectators
)

func (r DropReason) String() string {
	switch r {
	case DropFull:
		return "the host has no room for another spectator"
	case DropBehind:
		return "dropped by the host: too far behind the game"
	case DropNoSpectators:
		return "the host takes no spectators"
	}
	return fmt.Sprintf("DropReason(%d)", uint8(r))
}

// A MismatchError is the end of a joiner whose game does not match the
// host's (a different InputSize: another game, or another version of it).
type MismatchError struct {
	What        string // "input size"
	Host, Local int
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("the host's game has another %s: %d, this one %d", e.What, e.Host, e.Local)
}

// A SettingsTooLargeError is the end of a joiner whose host sent more
// settings than Config.MaxSettings allows: they are refused, not held.
type SettingsTooLargeError struct{ Size, Max int }

func (e *SettingsTooLargeError) Error() string {
	return fmt.Sprintf("the host's settings are %d bytes, more than the %d this game accepts", e.Size, e.Max)
}

// A RejectedError is the end of a joiner whose Hello the host rejected:
// the host speaks another protocol version, or its game takes no more
// players (Full).
type RejectedError struct {
	HostVersion int  // the host's protocol version
	Full        bool // every player's slot is taken, or the game has started
}

func (e *RejectedError) Error() string {
	if e.Full {
		return "host rejected the join: its game has all its players"
	}
	return fmt.Sprintf("host rejected the join: it speaks protocol version %d, this is version %d", e.HostVersion, ProtocolVersion)
}

// A JoinTimeoutError is the end of a joiner that got no Welcome in time:
// the host is not running or unreachable (or speaks a protocol too old to
// say that its game is full).
type JoinTimeoutError struct {
	Host string
	For  time.Duration
}

func (e *JoinTimeoutError) Error() string {
	return fmt.Sprintf("no answer from host %v in %v (not running, or unreachable)", e.Host, e.For)
}

// An UnreachableError is the end of a joiner or a spectator whose host's
// address answered that nothing listens there (the transport's word:
// Session.Unreachable, Spectator.Unreachable), before any Welcome.
type UnreachableError struct{ Host string }

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("nothing listens at %v: no game hosted there", e.Host)
}
