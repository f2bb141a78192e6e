package main

import (
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/replay"
)

// autosave is how often a recording is written while it runs, so that a
// crash or a kill loses at most this much of it. Each save replaces the
// file atomically.
const autosave = 10 * time.Second

// recorder writes -record: the settings, every tick's input record, the
// world commands, and state-hash checkpoints.
type recorder struct {
	r        *replay.Recorder
	hash     func() uint64 // the world's Hash, bound once
	path     string
	nextSave time.Duration
}

func newRecorder(cfg config, w *physics.World) *recorder {
	wc := w.Config()
	s := replay.Settings{
		Seed: wc.Seed, Balls: uint32(w.N()),
		Width: wc.Width, Height: wc.Height, Radius: wc.Radius, Speed: wc.Speed,
		Tick: wc.Tick, MaxLoops: uint32(cfg.maxLoops), Lockstep: cfg.lockstep,
	}
	return &recorder{r: replay.NewRecorder(s, 0), hash: w.Hash, path: cfg.recordFile, nextSave: autosave}
}

func (r *recorder) tick(rec input.Record) { r.r.Tick(rec, r.hash) }

func (r *recorder) command(c command) {
	r.r.Command(replay.Command{Kind: replay.CommandKind(c.kind), Arg: c.arg})
}

// maybeSave writes the recording so far when an autosave is due.
func (r *recorder) maybeSave(now time.Duration) error {
	if now < r.nextSave {
		return nil
	}
	r.nextSave = now + autosave
	return r.save()
}

func (r *recorder) save() error {
	return r.r.Finish(r.hash()).WriteFile(r.path)
}

// replayer plays -replay back: the recording's input and commands instead
// of the keyboard, checking the state hashes as it goes.
type replayer struct {
	rec  *replay.Recording
	p    *replay.Player
	hash func() uint64
	path string
	err  error // the first divergence or bad command: the run fails
	done bool  // the recording ran to its end and the final hash matched
}

func openReplay(path string) (*replayer, error) {
	rec, err := replay.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &replayer{rec: rec, p: rec.Player(), path: path}, nil
}

// apply takes the world and loop settings from the recording. Values the
// demo cannot run (a file can claim anything its format allows) are an
// error naming the file.
func (r *replayer) apply(c config) (config, error) {
	s := r.rec.Settings
	c.seed = s.Seed
	c.balls = int(s.Balls)
	c.tick = s.Tick
	c.maxLoops = int(s.MaxLoops)
	c.lockstep = s.Lockstep
	c.radius = int(s.Radius)
	c.worldW, c.worldH, c.ballSpeed = s.Width, s.Height, s.Speed
	if err := c.checkWorld(); err != nil {
		return c, fmt.Errorf("%s: the recording's settings: %v", r.path, err)
	}
	return c, nil
}

// bind makes the player check against w.
func (r *replayer) bind(w *physics.World) { r.hash = w.Hash }

// next returns the next tick's input record, first applying the commands
// recorded before it. At the end it applies the last commands, checks the
// final hash and stops the run.
func (r *replayer) next(a *app) (input.Record, bool) {
	cmds, in, ok := r.p.Next()
	for _, c := range cmds {
		if err := a.checkCommand(command{kind: cmdKind(c.Kind), arg: c.Arg}); err != nil {
			r.fail(a, fmt.Errorf("%s: tick %d: %v", r.path, r.p.Tick(), err))
			return in, false
		}
		a.exec(command{kind: cmdKind(c.Kind), arg: c.Arg})
	}
	if !ok {
		if err := r.p.CheckFinal(r.hash()); err != nil {
			r.fail(a, fmt.Errorf("%s: %v", r.path, err))
		} else {
			r.done = true
		}
		a.quit = true
	}
	return in, ok
}

// check verifies the state after a tick against the recording.
func (r *replayer) check(a *app) {
	if err := r.p.Check(r.hash); err != nil {
		r.fail(a, fmt.Errorf("%s: %v", r.path, err))
	}
}

func (r *replayer) fail(a *app, err error) {
	if r.err == nil {
		r.err = err
	}
	a.quit = true
}
