package loop

import (
	"fmt"
	"time"
)

// Tick-count stabilisation.
//
// With 60 ticks per second on a 60 Hz display, every frame should run one
// tick. But a frame's time is read when the loop wakes up after the
// vblank, late by the timer's and the compositor's jitter, and while the
// two rates are equal the tick boundaries can sit right where the frames
// fall: a frame a little early runs no tick, the next one a little late
// runs two. Measured on frames at i/60 s with ±0.3 ms of jitter and the
// loop started at 0, half the frames run 0 or 2 ticks. Without
// interpolation that is visible stutter; with it, the input latency and
// the work per frame jump every other frame. (Ebitengine stabilises the
// count in its clock; Godot has physics_jitter_fix.)
//
// The cure here is a small, bounded delay. The loop runs on its clock
// minus a lag L in [0, window]. At each frame whose interval d since the
// last one lies within the window of a whole number k >= 1 of ticks (and
// k <= MaxLoops), it looks at the number of ticks n the frame would run at
// the current lag. If n == k nothing changes. If n > k it raises L just
// enough that the frame runs k ticks; if n < k it lowers L just enough.
// When the window cannot hold the change (L would leave [0, window]), L
// stays and the frame runs n ticks: the delay is never more than the
// window. Every other frame (an irregular interval, a stall, a pause) runs
// at the lag it finds.
//
// Why this is safe: the tick grid itself never moves (ticks still tile
// time, Tick after Tick from the start), only the moment each tick runs,
// at most window after the first frame it could have run at. A tick never
// runs before its span has ended on the clock, so input stamped before
// the span's end has always arrived. After an elapsed time e the loop has
// run the classic count for e-L: at most ceil(window/Tick) fewer, never
// more. Why it works: the lag only moves when a frame is about to run a
// different count, and then only as far as that frame needs, so it settles
// where the jittered frames all fall on the same side of the tick
// boundaries (it needs a window at least as wide as the spread of the
// frames around their steady grid), and stays there; a slow drift between
// the display's rate and the tick rate is followed by the lag until the
// window is used up, and then gives one frame of k±1 ticks, as it must.

// checkWindow validates a window: zero (off) or positive.
func checkWindow(name string, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("%w: %s %v is negative (0 turns it off)", ErrInvalid, name, d)
	}
	return nil
}

// stabilize adjusts the lag for a frame that came d after the last one.
// It is called before the frame's ticks, with pending already including
// the frame's forward time.
func (f *Fixed) stabilize(d time.Duration) {
	t := f.tick
	if d <= 0 {
		return // a paused or repeated time: nothing to steady
	}
	k := addSat(d, t/2) / t // the nearest whole number of ticks
	if k < 1 || k > time.Duration(f.maxLoops) {
		return
	}
	if dev := d - k*t; dev > f.window || -dev > f.window {
		return // not a steady interval near a multiple of the tick
	}
	n := f.owed(f.pending - f.lag)
	switch {
	case n > k:
		// Hold back: the least lag at which the frame runs k ticks
		// (pending - lag = (k+1) Tick, k ticks run, one tick's progress
		// left: percentWithinTick 1).
		if l := subSat(f.pending, mulSat(t, int64(k)+1)); l <= f.window {
			f.lag = l
		}
	case n < k:
		// Catch up: the greatest lag at which the frame runs k ticks
		// (pending - lag = k Tick + 1ns).
		if l := subSat(f.pending, mulSat(t, int64(k))) - 1; l >= 0 {
			f.lag = l
		}
	}
}

// owed is the number of ticks a frame with pending time p runs: the
// article's loop, ceil(p/Tick)-1, capped at MaxLoops.
func (f *Fixed) owed(p time.Duration) time.Duration {
	if p <= f.tick {
		return 0
	}
	return min((p-1)/f.tick, time.Duration(f.maxLoops))
}

// SetStabilize changes the stabilisation window, from the next Step: 0
// turns stabilisation off. A lag above the new window drops to it at once,
// so the ticks it held back run at the next Step (never more than
// MaxLoops); turning stabilisation off this way leaves the classic loop,
// its schedule where the lag had moved it. A negative d is an error
// wrapping ErrInvalid and changes nothing.
func (f *Fixed) SetStabilize(d time.Duration) error {
	if err := checkWindow("Stabilize", d); err != nil {
		return err
	}
	f.ready()
	f.window = d
	f.lag = min(f.lag, d)
	return nil
}

// Lag returns how far behind the clock the stabilised loop runs: 0 to the
// window, always 0 without stabilisation.
func (f *Fixed) Lag() time.Duration { return f.lag }
