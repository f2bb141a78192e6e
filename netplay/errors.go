package netplay

import (
	"errors"
	"fmt"
	"time"
)

// A Reason is why a game ended, or why a player is out of it: the
// Reason of an *Error, and the target of errors.Is:
//
//	if errors.Is(err, netplay.ErrSilent) { ... }
//
// ErrInvalid is wrapped by every error for a bad argument or setting.
type Reason uint8

// The reasons. The first four are also why a player is out of a game
// that goes on (Event.Why, PeerStats.KickWhy).
const (
	// ErrSlow: kicked for holding the game back more than
	// Config.KickAfter within 10 s.
	ErrSlow Reason = kickSlow
	// ErrSilent: nothing came from a peer for Config.Silence.
	ErrSilent Reason = kickSilent
	// ErrLeft: a player's game ended with an error (it lost the host,
	// for example) and it left.
	ErrLeft Reason = kickLeft
	// ErrKicked: the host kicked this player (Error.Why says what for).
	ErrKicked Reason = kickManual
	// ErrInvalid: a bad argument or setting.
	ErrInvalid Reason = iota + 1
	// ErrDesync: two peers' states differ after the same ticks, or a
	// sync test's state differs when a tick runs again.
	ErrDesync
	// ErrMismatch: the host's game is not this one's (another input
	// size), or a snapshot does not hash to what the host announced.
	ErrMismatch
	// ErrVersion: the host speaks another protocol version.
	ErrVersion
	// ErrTooLarge: the host's settings or snapshot are larger than
	// this peer accepts (Config.MaxSettings, Config.MaxSnapshot).
	ErrTooLarge
	// ErrFull: the host's game has all its players, or no place for a
	// spectator.
	ErrFull
	// ErrBehind: the host dropped a spectator too far behind the game.
	ErrBehind
	// ErrUnreachable: nothing listens at the host's address.
	ErrUnreachable
	// ErrTimeout: no answer from the host within Config.JoinTimeout.
	ErrTimeout
)

var reasonNames = [...]string{
	ErrSlow: "too slow", ErrSilent: "silent", ErrLeft: "left", ErrKicked: "kicked by the host",
	ErrInvalid: "invalid argument", ErrDesync: "desync", ErrMismatch: "mismatch", ErrVersion: "protocol version",
	ErrTooLarge: "too large", ErrFull: "full", ErrBehind: "too far behind", ErrUnreachable: "unreachable",
	ErrTimeout: "timeout",
}

// name is the reason in a few words ("silent").
func (r Reason) name() string {
	if int(r) < len(reasonNames) && reasonNames[r] != "" {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// Error is the reason in a few words ("silent").
func (r Reason) Error() string { return r.name() }

// MarshalText makes a Reason a JSON string ("silent").
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.name()), nil }

// An Error is why a game ended for this peer. Reason says what
// happened; the other fields are those the reason needs (the rest are
// zero). Test it with errors.Is against a Reason, or errors.As for the
// fields.
type Error struct {
	Reason Reason
	// Player is the player it is about (ErrSilent, ErrLeft, ErrDesync
	// between peers).
	Player int
	// Why is what the host kicked this player for (ErrKicked): ErrSlow,
	// ErrSilent, ErrLeft, or ErrKicked by hand.
	Why Reason
	// Tick: ErrDesync, the ticks run (the state after tick Tick,
	// counted from 1); ErrKicked, the first tick the others run without
	// this player.
	Tick uint64
	// Local and Remote are this peer's and the other's values:
	// ErrDesync, the state hashes (a sync test: the first run's and the
	// run again's); ErrMismatch, the input sizes or the snapshot's hash
	// and the host's; ErrVersion, the protocol versions.
	Local, Remote uint64
	// Rollback is how many ticks a sync test rolled back (ErrDesync in
	// a sync test; 0 between peers).
	Rollback int
	// For: ErrSilent, how long nothing had been heard; ErrTimeout, the
	// wait; ErrKicked for ErrSlow, the time this player held the game
	// back in the 10 s before the kick.
	For time.Duration
	// Host is the host's address (ErrUnreachable, ErrTimeout).
	Host string
	// What it is about: "input size" or "snapshot" (ErrMismatch),
	// "settings" or "snapshot" (ErrTooLarge), "players", "spectators"
	// or "no spectators" (ErrFull).
	What string
	// Size and Limit: ErrTooLarge, the size and what this peer accepts.
	Size, Limit int
	// Report (ErrDesync, with Config.Report) says where the states
	// differ: the first tick whose hashes differ, and the fields (a
	// Describer's) or bytes that differ, a line each. Empty without it,
	// or until the peers have exchanged their states.
	Report string
}

// Is reports whether target is e's Reason.
func (e *Error) Is(target error) bool {
	r, ok := target.(Reason)
	return ok && r == e.Reason
}

func (e *Error) Error() string {
	switch e.Reason {
	case ErrDesync:
		if e.Rollback > 0 {
			return fmt.Sprintf("synctest: tick %d simulates to %016x the second time, %016x the first (rolled back %d ticks)",
				e.Tick, e.Remote, e.Local, e.Rollback)
		}
		return fmt.Sprintf("desync at tick %d: local %016x, player %d %016x", e.Tick, e.Local, e.Player, e.Remote)
	case ErrSilent:
		return fmt.Sprintf("player %d silent for %v", e.Player, e.For.Round(time.Millisecond))
	case ErrLeft:
		return fmt.Sprintf("player %d left the game", e.Player)
	case ErrKicked:
		if e.Why == ErrSlow {
			return fmt.Sprintf("kicked: too slow (held the game back %d ms in 10 s)", e.For.Milliseconds())
		}
		if e.Why == ErrKicked {
			return "kicked by the host"
		}
		return "kicked: " + e.Why.name()
	case ErrMismatch:
		switch e.What {
		case "snapshot":
			return fmt.Sprintf("the snapshot hashes to %016x, the host announced %016x", e.Local, e.Remote)
		case "tick":
			return fmt.Sprintf("the host's game has another tick: %v, this one %v", time.Duration(e.Remote), time.Duration(e.Local))
		}
		return fmt.Sprintf("the host's game has another %s: %d, this one %d", e.What, e.Remote, e.Local)
	case ErrVersion:
		return fmt.Sprintf("host rejected the join: it speaks protocol version %d, this is version %d", e.Remote, e.Local)
	case ErrTooLarge:
		if e.What == "snapshot" {
			return fmt.Sprintf("the game's snapshot is %d bytes, more than the %d this spectator accepts", e.Size, e.Limit)
		}
		return fmt.Sprintf("the host's %s are %d bytes, more than the %d this game accepts", e.What, e.Size, e.Limit)
	}
	return e.errorSpectatorOrHost()
}

func (e *Error) errorSpectatorOrHost() string {
	switch e.Reason {
	case ErrFull:
		switch e.What {
		case "spectators":
			return "spectator: the host has no room for another spectator"
		case "no spectators":
			return "spectator: the host takes no spectators"
		}
		return "host rejected the join: its game has all its players"
	case ErrBehind:
		return "spectator: dropped by the host: too far behind the game"
	case ErrTimeout:
		return fmt.Sprintf("no answer from host %v in %v (not running, or unreachable)", e.Host, e.For)
	case ErrUnreachable:
		return fmt.Sprintf("nothing listens at %v: no game hosted there", e.Host)
	}
	return "netplay: " + e.Reason.name()
}

// rejected is the end of a joiner whose Hello the host rejected.
func rejected(hostVersion uint8, full bool) *Error {
	if full {
		return &Error{Reason: ErrFull, What: "players"}
	}
	return &Error{Reason: ErrVersion, Local: protocolVersion, Remote: uint64(hostVersion)}
}

// errWindowFull is returned by addLocalInput when the local player is
// more than inputWindow ticks of input ahead of what every peer has
// acknowledged: the local player stalls until acknowledgements arrive.
var errWindowFull = errors.New("netplay: input window full")

// errOver is returned by addLocalInput and advance once the game is over
// for this session.
var errOver = errors.New("netplay: game over")
