package loop

import (
	"errors"
	"time"
)

// Game is what a Driver runs: the three parts of the classic loop.
type Game interface {
	// Tick advances the game logic by one fixed tick.
	Tick()
	// Independent does the per-frame work that must not change the logic
	// (IndependentTickRun in the seed): input gathering, UI, HUD clocks.
	// frameTime is the logic time the frame's ticks stood for.
	Independent(frameTime time.Duration)
	// Draw draws the world at percentWithinTick between the last tick's
	// state and the next's.
	Draw(percentWithinTick float64)
}

// ErrIncompleteDriver is returned by Driver.Run when a field it needs is
// nil.
var ErrIncompleteDriver = errors.New("loop: Driver needs a Clock, a Loop, a Game and a stop function (and a Sleeper clock when it has a Limiter)")

// Driver runs a Fixed loop on a clock and calls a Game in the classic order,
// on the caller's goroutine (SDL and OpenGL need the main thread): Tick()
// n times, then Independent(frameTime), then Draw(percentWithinTick).
type Driver struct {
	Clock Clock
	Loop  *Fixed
	Game  Game
	// Limiter, when not nil, caps the frame rate: Run waits on it after
	// each frame. Clock must then be a Sleeper.
	Limiter *Limiter

	cur  FixedFrame
	tick int
}

// Frame runs one frame: it reads the clock once, plans the frame with
// Loop.Step and calls the Game. It returns the plan. A Driver missing its
// Clock, Loop or Game does nothing and returns the zero FixedFrame.
func (d *Driver) Frame() FixedFrame {
	if d.Clock == nil || d.Loop == nil || d.Game == nil {
		return FixedFrame{}
	}
	fr := d.Loop.Step(d.Clock.Now())
	d.cur = fr
	for d.tick = 0; d.tick < fr.Ticks; d.tick++ {
		d.Game.Tick()
	}
	d.Game.Independent(fr.FrameTime)
	d.Game.Draw(fr.Percent)
	return fr
}

// Current returns the frame being run and the index of the tick running
// now: inside Game.Tick, tick j of the frame, whose span ends at
// fr.TickEnd(j); inside Independent and Draw, fr.Ticks.
func (d *Driver) Current() (fr FixedFrame, tick int) { return d.cur, d.tick }

// Run runs frames until stop returns true; stop is asked before each
// frame. It first calls Loop.Reset(Clock.Now()), so that the time spent
// between NewFixed and Run (loading) does not come out as a burst of
// ticks. With a Limiter, it waits on it after each frame.
func (d *Driver) Run(stop func() bool) error {
	if d.Clock == nil || d.Loop == nil || d.Game == nil || stop == nil {
		return ErrIncompleteDriver
	}
	var sleeper Sleeper
	if d.Limiter != nil {
		s, ok := d.Clock.(Sleeper)
		if !ok {
			return ErrIncompleteDriver
		}
		sleeper = s
	}
	d.Loop.Reset(d.Clock.Now())
	for !stop() {
		d.Frame()
		if sleeper != nil {
			d.Limiter.Wait(sleeper)
		}
	}
	return nil
}
