package replay

import (
	"fmt"

	"github.com/interpdemo/interpdemo/input"
)

// A Player replays a Recording tick by tick:
//
//	p := rec.Player()
//	prev := p.Initial()
//	for {
//		cmds, in, ok := p.Next()
//		for _, c := range cmds {
//			apply(c)
//		}
//		if !ok {
//			break
//		}
//		world.Step(in.Down(prev))
//		prev = in
//		if err := p.Check(world.Hash); err != nil {
//			return err // state diverges at tick N: ...
//		}
//	}
//	return p.CheckFinal(world.Hash())
//
// The ticks can run at any frame rate, or as fast as possible: the
// recording holds the input of every tick, and none of the timing of the
// frames. Next and Check do not allocate.
type Player struct {
	rec   *Recording
	cmds  []Command // rec.Commands without their ticks, for Next to slice
	run   int       // index of the current run in rec.Inputs
	left  uint64    // ticks left in the current run
	cmd   int       // index of the next command not handed out
	ckpt  int       // index of the first checkpoint not yet passed
	ticks uint64    // ticks handed out by Next
	total uint64
	ended bool // Next returned ok = false
}

// Player returns a Player at the start of rec.
func (rec *Recording) Player() *Player {
	p := &Player{rec: rec, cmds: make([]Command, len(rec.Commands)), run: -1, total: rec.Ticks()}
	for i, c := range rec.Commands {
		p.cmds[i] = c.Command
	}
	return p
}

// Initial returns the record to use as the previous one before the first
// tick (holding the recording's InitialHeld), for Record.Down.
func (p *Player) Initial() input.Record { return input.Record{Held: p.rec.InitialHeld} }

// Next returns the commands to apply before the next tick, and that tick's
// input. At the end it returns ok = false, with the commands recorded after
// the last tick: apply those too before CheckFinal. After that it returns
// nothing. The cmds slice is valid until the next call; do not modify it.
func (p *Player) Next() (cmds []Command, in input.Record, ok bool) {
	var one [1]input.Record
	cmds, ok = p.NextPlayers(one[:])
	return cmds, one[0], ok
}

// NextPlayers is Next for a network game: it fills ins[i] with player i's
// record for the next tick (len(ins) should be Settings.Players; records
// beyond the recording's players are zero).
func (p *Player) NextPlayers(ins []input.Record) (cmds []Command, ok bool) {
	clear(ins)
	if p.ended {
		return nil, false
	}
	start := p.cmd
	for p.cmd < len(p.rec.Commands) && p.rec.Commands[p.cmd].At <= p.ticks {
		p.cmd++
	}
	cmds = p.cmds[start:p.cmd:p.cmd]
	for p.left == 0 {
		p.run++
		if p.run >= len(p.rec.Inputs) {
			p.ended = true
			return cmds, false
		}
		p.left = p.rec.Inputs[p.run].Count
	}
	p.left--
	p.ticks++
	run := &p.rec.Inputs[p.run]
	for i := range ins {
		if i == 0 {
			ins[0] = run.Record
		} else if i-1 < len(run.Others) {
			ins[i] = run.Others[i-1]
		}
	}
	return cmds, true
}

// Tick returns the number of ticks Next has handed out: after running the
// tick Next returned, the number of that tick (counted from 1).
func (p *Player) Tick() uint64 { return p.ticks }

// Ticks returns the number of ticks in the recording.
func (p *Player) Ticks() uint64 { return p.total }

// Check verifies the state after the tick Next returned last. If the
// recording has a checkpoint at that tick, Check calls hashAfter and, if
// the hash differs from the recorded one, returns a *DivergenceError.
// Call it after every tick; the first error it returns names the first
// checkpoint where the replay diverges.
func (p *Player) Check(hashAfter func() uint64) error {
	cps := p.rec.Checkpoints
	for p.ckpt < len(cps) && cps[p.ckpt].Tick < p.ticks {
		p.ckpt++
	}
	if p.ckpt < len(cps) && cps[p.ckpt].Tick == p.ticks {
		if h := hashAfter(); h != cps[p.ckpt].Hash {
			return &DivergenceError{Tick: p.ticks, Recorded: cps[p.ckpt].Hash, Replayed: h}
		}
	}
	return nil
}

// CheckFinal compares the final state hash with the recorded one. Call it
// after Next returned ok = false and its commands were applied; called
// earlier, it reports that the replay stopped short.
func (p *Player) CheckFinal(hash uint64) error {
	if !p.ended {
		return fmt.Errorf("replay stopped after tick %d of %d", p.ticks, p.total)
	}
	if hash != p.rec.FinalHash {
		return &DivergenceError{Tick: p.ticks, Recorded: p.rec.FinalHash, Replayed: hash, Final: true}
	}
	return nil
}

// A DivergenceError reports that a replay's state differs from the
// recorded one.
type DivergenceError struct {
	Tick               uint64 // the tick after which the hashes differ (counted from 1)
	Recorded, Replayed uint64 // the state hashes
	Final              bool   // the final hash, after the last tick and its commands
}

func (e *DivergenceError) Error() string {
	what := "state diverges at tick"
	if e.Final {
		what = "final state diverges after tick"
	}
	return fmt.Sprintf("%s %d: recorded hash 0x%016x, replayed 0x%016x", what, e.Tick, e.Recorded, e.Replayed)
}
