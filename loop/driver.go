package loop

import "fmt"

// Game is what a Driver runs: the three parts of the classic loop.
type Game interface {
	// Tick advances the game logic by one fixed tick, the one that stands
	// for span of the Driver's clock. Input code gives the tick the events
	// stamped before span.End (mapped with Virtual.Map when the clock is a
	// VirtualClock); the game gets everything it needs here and must not
	// call back into the Driver.
	Tick(span TickSpan)
	// Independent does the per-frame work that must not change the logic
	// (IndependentTickRun in the interp_demo game-loop article): UI, HUD
	// clocks, and keys that change only how the game is shown. It runs
	// after the frame's ticks, so input the logic needs is gathered
	// before them, in GatherInput (see InputGatherer): gathered here, an
	// event that happened before this frame's ticks ran would reach a
	// later tick, one that depends on the frame rate. fr is the frame's
	// plan: fr.LogicTime is the logic time the frame's ticks stood for
	// (the article's frametime, for clocks that follow the game logic),
	// fr.Elapsed the clock time since the last frame (for animating UI
	// smoothly).
	Independent(fr FixedFrame)
	// Draw draws the world at percentWithinTick between the last tick's
	// state and the next's.
	Draw(percentWithinTick float64)
}

// InputGatherer is a Game that gathers its input before the frame's
// ticks: a Driver calls GatherInput once a frame, after reading the clock
// and planning the frame, before Tick. There the game polls its platform's
// events and queues them, stamped with when they happened on the Driver's
// clock (an input.Sampler, say); each Tick then takes the events stamped
// before its span's end. So an event acts on the tick whose span it
// happened in, at 5 frames a second as at 1000, and a recording of the
// ticks' input replays the same game whatever the frame rate was.
type InputGatherer interface {
	Game
	// GatherInput gathers the input of the frame planned by fr, whose
	// ticks (fr.Ticks of them, fr.Span(j) each) run next.
	GatherInput(fr FixedFrame)
}

// ErrIncompleteDriver is returned by Driver.Frame and Driver.Run when a
// field the Driver needs is missing; it wraps ErrInvalid.
var ErrIncompleteDriver = fmt.Errorf("%w: incomplete Driver", ErrInvalid)

// Driver runs a Fixed loop on a clock and calls a Game in the classic order,
// on the caller's goroutine (SDL and OpenGL need the main thread): Tick(span)
// n times, then Independent(frame), then Draw(percentWithinTick), then, with
// a Limiter, the wait for the next frame. A Game that is an InputGatherer
// gathers its input first, GatherInput(frame) before the ticks.
//
// A Driver needs Clock, Loop and Game (and, with a Limiter, a Clock that is
// a Sleeper); one that lacks any of them runs nothing and returns
// ErrIncompleteDriver, so the zero Driver is harmless but useless. A Driver
// resets its Loop (and starts its Limiter) at its first frame, the first
// Frame call or the first frame of each Run, with the same clock reading
// the frame is planned with: the time spent between making the loop and
// the first frame (loading) is not a burst of ticks, and the first frame
// is paced like the others.
type Driver struct {
	Clock Clock  // read once a frame
	Loop  *Fixed // plans each frame
	Game  Game   // called in the frame's order
	// Limiter, when not nil, caps the frame rate: each frame ends with a
	// Wait on it. Clock must then be a Sleeper.
	Limiter *Limiter

	started bool // the first frame has reset the loop
}

// check returns the Sleeper the Limiter waits on (nil without a Limiter),
// or an error wrapping ErrIncompleteDriver that names what is missing.
func (d *Driver) check() (Sleeper, error) {
	switch {
	case d.Clock == nil:
		return nil, fmt.Errorf("%w: no Clock", ErrIncompleteDriver)
	case d.Loop == nil:
		return nil, fmt.Errorf("%w: no Loop", ErrIncompleteDriver)
	case d.Game == nil:
		return nil, fmt.Errorf("%w: no Game", ErrIncompleteDriver)
	}
	switch c := d.Clock.(type) {
	case VirtualClock:
		if c.Raw == nil || c.Virtual == nil {
			return nil, fmt.Errorf("%w: its VirtualClock lacks Raw or Virtual", ErrIncompleteDriver)
		}
	case *VirtualClock:
		if c == nil || c.Raw == nil || c.Virtual == nil {
			return nil, fmt.Errorf("%w: its VirtualClock lacks Raw or Virtual", ErrIncompleteDriver)
		}
	}
	if d.Limiter == nil {
		return nil, nil
	}
	s, ok := d.Clock.(Sleeper)
	if !ok {
		return nil, fmt.Errorf("%w: it has a Limiter, and its Clock (%T) is not a Sleeper", ErrIncompleteDriver, d.Clock)
	}
	return s, nil
}

// Frame runs one frame: it reads the clock once, plans the frame with
// Loop.Step, calls the Game and, with a Limiter, waits for the next
// frame's start. It returns the plan. The first frame of a Driver first
// resets the Loop (and starts the Limiter) at the clock's time, as Run
// does. A Driver missing a field runs nothing and returns an error
// wrapping ErrIncompleteDriver.
func (d *Driver) Frame() (FixedFrame, error) {
	sleeper, err := d.check()
	if err != nil {
		return FixedFrame{}, err
	}
	now := d.Clock.Now()
	if !d.started {
		d.started = true
		d.Loop.Reset(now)
		if d.Limiter != nil {
			d.Limiter.Start(now)
		}
	}
	fr := d.Loop.Step(now)
	if g, ok := d.Game.(InputGatherer); ok {
		g.GatherInput(fr)
	}
	for j := 0; j < fr.Ticks; j++ {
		d.Game.Tick(fr.Span(j))
	}
	d.Game.Independent(fr)
	d.Game.Draw(fr.Percent)
	if sleeper != nil {
		d.Limiter.Wait(sleeper)
	}
	return fr, nil
}

// Run runs frames until stop returns true; stop is asked before each
// frame. Its first frame resets the Loop (and starts the Limiter) at the
// clock's time, as a Driver's first Frame does, so that the time before
// Run (loading, or a menu between two Runs) is not a burst of ticks. A
// Driver missing a field, or a nil stop, is an error wrapping
// ErrIncompleteDriver, returned before anything runs.
func (d *Driver) Run(stop func() bool) error {
	if stop == nil {
		return fmt.Errorf("%w: Run needs a stop function", ErrIncompleteDriver)
	}
	if _, err := d.check(); err != nil {
		return err
	}
	d.started = false
	for !stop() {
		if _, err := d.Frame(); err != nil {
			return err
		}
	}
	return nil
}
