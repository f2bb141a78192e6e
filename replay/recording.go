package replay

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/interpdemo/interpdemo/input"
)

// Settings are the world and loop settings a replay starts from. They are
// plain values so that this package needs neither the physics nor the
// loop: the game copies its settings in when it records and out when it
// replays.
type Settings struct {
	Seed                         uint64 // the world's random seed
	Balls                        uint32 // number of balls
	Width, Height, Radius, Speed int32  // world units
	Tick                         time.Duration
	MaxLoops                     uint32 // catch-up cap of the fixed loop
	Lockstep                     bool   // keep time debt instead of discarding it
	// Players is the number of players of a network game, 2 to
	// MaxPlayers, each with an input record per tick (player i drives
	// ball i). 0 and 1 both mean one player, the format of version 1.
	Players uint32
}

// MaxPlayers is the most players a recording holds.
const MaxPlayers = 8

// players is the number of input records per tick.
func (s Settings) players() int { return max(1, int(s.Players)) }

// A CommandKind says what a Command does to the simulation.
type CommandKind uint8

// The commands the demo records. The zero CommandKind is invalid, so that a
// forgotten Kind is caught.
const (
	CmdReset    CommandKind = 1 // reset the world to its initial state
	CmdSetBalls CommandKind = 2 // Arg: the new number of balls
	CmdSetTick  CommandKind = 3 // Arg: the new tick length in nanoseconds
	CmdRelease  CommandKind = 4 // Arg: a player who left; their ball is autonomous again (network games)
)

// Valid reports whether k is one of the defined kinds.
func (k CommandKind) Valid() bool { return k >= CmdReset && k <= CmdRelease }

// String returns the kind's name ("SetBalls").
func (k CommandKind) String() string {
	switch k {
	case CmdReset:
		return "Reset"
	case CmdSetBalls:
		return "SetBalls"
	case CmdSetTick:
		return "SetTick"
	case CmdRelease:
		return "Release"
	}
	return "CommandKind(" + strconv.Itoa(int(k)) + ")"
}

// A Command is something other than input that changes the simulation:
// a key that resets the world, a setting changed at run time. Commands are
// recorded with the tick they come before and replayed at the same point.
type Command struct {
	Kind CommandKind
	Arg  int64
}

// String formats c as "SetBalls(1000)" or "Reset".
func (c Command) String() string {
	if c.Kind == CmdReset && c.Arg == 0 {
		return c.Kind.String()
	}
	return c.Kind.String() + "(" + strconv.FormatInt(c.Arg, 10) + ")"
}

// A TimedCommand is a Command and the point where it applies: At is the
// number of ticks run before it, so it applies after tick At (ticks are
// counted from 1) and before tick At+1. At = 0 is before the first tick;
// At = Ticks() is after the last one.
type TimedCommand struct {
	At uint64
	Command
}

// A Run is Count consecutive ticks with the same input records: Record
// is player 0's, Others[i-1] player i's (zero beyond Settings.Players).
type Run struct {
	Count  uint64
	Record input.Record
	Others [MaxPlayers - 1]input.Record
}

// same says whether two runs hold the same records.
func (r *Run) same(o *Run) bool { return r.Record == o.Record && r.Others == o.Others }

// A Checkpoint is the state hash after tick Tick (ticks are counted from 1).
type Checkpoint struct {
	Tick uint64
	Hash uint64
}

// MaxTicks is the most ticks a recording may hold: over 80 years at 25
// ticks a second. Decoding rejects recordings that claim more.
const MaxTicks = 1 << 36

// A Recording is a deterministic simulation's complete input: the settings
// it started from, the input record of every tick, the commands and where
// they apply, and state hashes to check a replay against.
//
// Recorder builds one, Decode and ReadFile read one; Player replays one.
// A Recording built by hand must satisfy Validate to be encoded. Do not
// change a Recording while a Player is using it.
type Recording struct {
	Settings Settings

	// InitialHeld is the buttons held before the first tick: the Held of
	// the record preceding the first one (zero when recording started
	// with a fresh input.Sampler).
	InitialHeld input.Buttons

	// Inputs is the per-tick input, run-length encoded: the first
	// Inputs[0].Count ticks have Inputs[0].Record, and so on. Counts are
	// at least 1, and neighbouring runs hold different records.
	Inputs []Run

	// Commands, in order of At (at most Ticks()).
	Commands []TimedCommand

	// Checkpoints, in increasing order of Tick (1 to Ticks()).
	Checkpoints []Checkpoint

	// FinalHash is the state hash at the end: after the last tick and the
	// commands that follow it.
	FinalHash uint64
}

// Ticks returns the number of ticks in the recording.
func (rec *Recording) Ticks() uint64 {
	var n uint64
	for _, r := range rec.Inputs {
		n += r.Count
	}
	return n
}

// Validate reports the first way rec breaks the rules documented on its
// fields, or nil.
func (rec *Recording) Validate() error {
	if rec.Settings.Players > MaxPlayers {
		return fmt.Errorf("%d players, more than %d", rec.Settings.Players, MaxPlayers)
	}
	players := rec.Settings.players()
	var ticks uint64
	for i, r := range rec.Inputs {
		if r.Count == 0 {
			return fmt.Errorf("input run %d is empty", i)
		}
		if r.Count > MaxTicks-ticks {
			return fmt.Errorf("input runs exceed %d ticks", uint64(MaxTicks))
		}
		if i > 0 && r.same(&rec.Inputs[i-1]) {
			return fmt.Errorf("input runs %d and %d hold the same record", i-1, i)
		}
		for j := players - 1; j < len(r.Others); j++ {
			if r.Others[j] != (input.Record{}) {
				return fmt.Errorf("input run %d has a record for player %d of %d", i, j+1, players)
			}
		}
		ticks += r.Count
	}
	var at uint64
	for i, c := range rec.Commands {
		if !c.Kind.Valid() {
			return fmt.Errorf("command %d: unknown kind %d", i, c.Kind)
		}
		if c.Kind == CmdRelease && (players < 2 || c.Arg < 0 || c.Arg >= int64(players)) {
			return fmt.Errorf("command %d: %v in a game of %d players", i, c.Command, players)
		}
		if c.At < at {
			return fmt.Errorf("command %d: at tick %d, before command %d at %d", i, c.At, i-1, at)
		}
		if c.At > ticks {
			return fmt.Errorf("command %d: at tick %d, after the last tick %d", i, c.At, ticks)
		}
		at = c.At
	}
	var last uint64
	for i, c := range rec.Checkpoints {
		if c.Tick <= last {
			if c.Tick == 0 {
				return fmt.Errorf("checkpoint %d: at tick 0 (ticks count from 1)", i)
			}
			return fmt.Errorf("checkpoint %d: at tick %d, not after checkpoint %d at %d", i, c.Tick, i-1, last)
		}
		if c.Tick > ticks {
			return fmt.Errorf("checkpoint %d: at tick %d, after the last tick %d", i, c.Tick, ticks)
		}
		last = c.Tick
	}
	return nil
}

// errInvalid wraps Validate's error for encoding.
func errInvalid(err error) error {
	return errors.New("replay: invalid recording: " + err.Error())
}
