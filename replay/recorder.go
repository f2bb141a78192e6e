package replay

import (
	"fmt"
	"slices"

	"github.com/interpdemo/interpdemo/input"
)

// DefaultCheckpointEvery is the checkpoint interval NewRecorder uses when
// given 0: every 100 ticks, 4 s at 25 ticks a second.
const DefaultCheckpointEvery = 100

// A Recorder builds a Recording while the game runs. Per tick, after the
// simulation stepped:
//
//	rec.Tick(in, world.Hash)
//
// and, for anything that changes the simulation other than input, before
// the tick it comes before:
//
//	rec.Command(replay.Command{Kind: replay.CmdReset})
//
// Tick does not allocate while the input stays the same (it extends the
// current run); new runs, commands and checkpoints append to slices that
// grow by doubling.
type Recorder struct {
	rec   Recording
	ticks uint64
	every uint64
}

// NewRecorder starts a recording of a simulation set up with s, with a
// state-hash checkpoint every checkpointEvery ticks
// (DefaultCheckpointEvery if 0).
func NewRecorder(s Settings, checkpointEvery uint32) *Recorder {
	every := uint64(checkpointEvery)
	if every == 0 {
		every = DefaultCheckpointEvery
	}
	return &Recorder{rec: Recording{Settings: s}, every: every}
}

// SetInitialHeld records the buttons held before the first tick, for a
// recording started while the game was already running (the Held of the
// last input.Record before it). Call it before the first Tick.
func (r *Recorder) SetInitialHeld(held input.Buttons) {
	if r.ticks > 0 {
		panic("replay: SetInitialHeld after the first tick")
	}
	r.rec.InitialHeld = held
}

// Command records c, to be applied before the next tick (or, if no tick
// follows, before the final hash). It panics if c.Kind is not valid: that
// is a bug in the caller, and a recording holding it could not be decoded.
func (r *Recorder) Command(c Command) {
	if !c.Kind.Valid() {
		panic(fmt.Sprintf("replay: Command with unknown kind %d", c.Kind))
	}
	r.rec.Commands = append(r.rec.Commands, TimedCommand{At: r.ticks, Command: c})
}

// Tick records one tick with input in. Call it after the tick ran: when
// the tick is a checkpoint, Tick calls hashAfter for the state hash, and
// only then (hashing a big world is not free). It panics past MaxTicks.
func (r *Recorder) Tick(in input.Record, hashAfter func() uint64) {
	if r.ticks >= MaxTicks {
		panic("replay: recording longer than MaxTicks")
	}
	r.add(Run{Count: 1, Record: in})
	r.checkpoint(hashAfter)
}

// TickPlayers records a tick of a network game: ins[i] is player i's
// record, one per player of the Settings (missing ones are zero records,
// extra ones are ignored). Call it after the tick ran, as Tick.
func (r *Recorder) TickPlayers(ins []input.Record, hashAfter func() uint64) {
	if r.ticks >= MaxTicks {
		panic("replay: recording longer than MaxTicks")
	}
	run := Run{Count: 1}
	players := r.rec.Settings.players()
	for i := 0; i < min(players, len(ins)); i++ {
		if i == 0 {
			run.Record = ins[0]
		} else {
			run.Others[i-1] = ins[i]
		}
	}
	r.add(run)
	r.checkpoint(hashAfter)
}

// add appends one tick's run, merging it with the last one when equal.
func (r *Recorder) add(run Run) {
	r.ticks++
	if n := len(r.rec.Inputs); n > 0 && r.rec.Inputs[n-1].same(&run) {
		r.rec.Inputs[n-1].Count++
	} else {
		r.rec.Inputs = append(r.rec.Inputs, run)
	}
}

// checkpoint takes a hash every so many ticks.
func (r *Recorder) checkpoint(hashAfter func() uint64) {
	if r.ticks%r.every == 0 {
		r.rec.Checkpoints = append(r.rec.Checkpoints, Checkpoint{Tick: r.ticks, Hash: hashAfter()})
	}
}

// Ticks returns the number of ticks recorded so far.
func (r *Recorder) Ticks() uint64 { return r.ticks }

// Finish returns the recording so far, ending with finalHash: the state
// hash now, after the last tick and any commands recorded since. The
// Recording is a copy: the Recorder may go on recording, and Finish again.
func (r *Recorder) Finish(finalHash uint64) *Recording {
	rec := r.rec
	rec.Inputs = slices.Clone(rec.Inputs)
	rec.Commands = slices.Clone(rec.Commands)
	rec.Checkpoints = slices.Clone(rec.Checkpoints)
	rec.FinalHash = finalHash
	return &rec
}
