package loop

import (
	"fmt"
	"time"
)

// Defaults of FixedConfig: 25 ticks per second, at most 5 per frame.
const (
	DefaultTick     = 40 * time.Millisecond
	DefaultMaxLoops = 5
)

// Capacities of the rate counters Fixed keeps: exact up to 2048 frames and
// 512 ticking frames per second, estimated above (see RateCounter).
const (
	fixedFPSCapacity = 2048
	fixedTPSCapacity = 512
)

// FixedConfig sets up a Fixed loop.
type FixedConfig struct {
	// Tick is the logic time one tick stands for (tick_time in the seed).
	// Zero means DefaultTick; negative is an error.
	Tick time.Duration
	// MaxLoops is the most ticks one frame runs (MAX_LOOPS). Zero means
	// DefaultMaxLoops; negative is an error.
	MaxLoops int
	// Lockstep keeps the time debt that MaxLoops leaves instead of
	// discarding it (bNetworkGame in the seed): no tick is ever lost, the
	// loop catches up over the next frames.
	Lockstep bool
}

func (c FixedConfig) normalize() (FixedConfig, error) {
	if c.Tick < 0 {
		return c, fmt.Errorf("%w: FixedConfig.Tick %v is negative", ErrInvalid, c.Tick)
	}
	if c.MaxLoops < 0 {
		return c, fmt.Errorf("%w: FixedConfig.MaxLoops %d is negative", ErrInvalid, c.MaxLoops)
	}
	if c.Tick == 0 {
		c.Tick = DefaultTick
	}
	if c.MaxLoops == 0 {
		c.MaxLoops = DefaultMaxLoops
	}
	return c, nil
}

// Fixed is the classic fixed-tick loop: given the time of each frame it
// says how many logic ticks to run and how far into the next tick to draw.
// See the package documentation for the algorithm. It reads no clock, does
// not allocate in Step and is not safe for concurrent use.
type Fixed struct {
	tick     time.Duration
	maxLoops int
	lockstep bool
	paused   bool

	// last is the latest now seen and pending the time since time0 at
	// last: the progress into the tick in progress plus any debt. time0 is
	// last - pending; keeping pending rather than time0 means no time is
	// lost to saturation at the ends of time.Duration.
	last    time.Duration
	pending time.Duration

	totalTicks     int64
	totalFrames    int64
	totalDiscarded time.Duration

	tps, fps RateCounter
}

// FixedFrame is one frame's plan: run Ticks logic ticks, then pass
// FrameTime to the per-frame work, then draw at Percent.
type FixedFrame struct {
	// Now is the time the frame was planned for.
	Now time.Duration
	// SpanStart is time0 before this frame's ticks: tick j (0-based) of
	// this frame covers [SpanStart+j*Tick, SpanStart+(j+1)*Tick).
	SpanStart time.Duration
	// Tick is the tick length used this frame.
	Tick time.Duration
	// Ticks is the number of logic ticks to run, 0 to MaxLoops.
	Ticks int
	// FrameTime is Ticks*Tick: what IndependentTickRun(frameTime) receives.
	FrameTime time.Duration
	// Percent is percentWithinTick = min(1, (now-time0)/Tick), in [0, 1]:
	// how far the drawing is from the last tick's state to the next's.
	Percent float64
	// Discarded is the time debt thrown away this frame (solo mode only):
	// after MaxLoops ticks, more than one tick was still owed.
	Discarded time.Duration
	// Capped says that the MaxLoops cap stopped the catch-up with more
	// than one tick still owed (then discarded in solo mode, kept as Debt
	// in lockstep mode).
	Capped bool
	// Debt is the time still owed after this frame beyond the tick in
	// progress: max(0, now - time0 - Tick). It is always 0 in solo mode,
	// which discards it; in lockstep mode the next frames repay it, and
	// a frame at the same now would run ceil(Debt/Tick) more ticks (up
	// to MaxLoops).
	Debt time.Duration
	// Paused says the loop was paused: no ticks, Percent frozen.
	Paused bool
}

// TickEnd returns the end of the span of tick j of this frame,
// SpanStart+(j+1)*Tick: input code gives tick j the events stamped before
// it. j is meant to be in [0, Ticks).
func (f FixedFrame) TickEnd(j int) time.Duration {
	return addSat(f.SpanStart, time.Duration(j+1)*f.Tick)
}

// NewFixed returns a Fixed loop whose first tick starts at now (time0 = now).
func NewFixed(cfg FixedConfig, now time.Duration) (*Fixed, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	f := &Fixed{
		tick:     cfg.Tick,
		maxLoops: cfg.MaxLoops,
		lockstep: cfg.Lockstep,
		last:     now,
	}
	f.tps.init(DefaultRateWindow, fixedTPSCapacity)
	f.fps.init(DefaultRateWindow, fixedFPSCapacity)
	return f, nil
}

// observe moves the loop's idea of the time to now. Only forward time
// while running adds to the pending time: time that must not count (the
// clock went backwards, or the loop is paused) moves time0 along with now.
// A backwards jump of the clock counts as no time at all.
func (f *Fixed) observe(now time.Duration) {
	if now > f.last && !f.paused {
		f.pending = addSat(f.pending, subSat(now, f.last))
	}
	f.last = now
}

// Step plans the frame at time now: it runs the seed's loop
//
//	while now - time0 > Tick && ticks < MaxLoops { ticks++; time0 += Tick }
//	if !Lockstep && now - time0 > Tick { time0 = now - Tick } // discard the debt
//	percentWithinTick = min(1, (now - time0) / Tick)
//
// in constant time, whatever the number of ticks, and returns the plan.
// A now earlier than the last one seen counts as no time at all: no tick,
// no change in percentWithinTick; the loop goes on from there.
func (f *Fixed) Step(now time.Duration) (fr FixedFrame) {
	f.observe(now)
	fr.Now, fr.SpanStart, fr.Tick, fr.Paused = now, f.Time0(), f.tick, f.paused
	f.totalFrames++
	f.fps.Add(now, 1)
	if !f.paused && f.pending > f.tick {
		// The loop runs while pending - n*Tick > Tick: n = ceil(pending/Tick) - 1.
		n := min((f.pending-1)/f.tick, time.Duration(f.maxLoops))
		f.pending -= n * f.tick
		fr.Ticks = int(n)
		fr.FrameTime = n * f.tick
		if f.pending > f.tick {
			fr.Capped = true
			if !f.lockstep {
				fr.Discarded = f.pending - f.tick
				f.pending = f.tick // time0 = now - Tick
				f.totalDiscarded = addSat(f.totalDiscarded, fr.Discarded)
			}
		}
		f.totalTicks += int64(n)
		f.tps.Add(now, fr.Ticks)
	}
	fr.Percent = f.Percent()
	fr.Debt = max(0, f.pending-f.tick)
	return fr
}

// Percent returns percentWithinTick at the latest time the loop was given,
// without planning a frame.
func (f *Fixed) Percent() float64 {
	if f.pending >= f.tick {
		return 1
	}
	return float64(f.pending) / float64(f.tick)
}

// Time0 returns the start of the tick in progress, on the clock the loop
// is given (time0 in the seed). Pauses and a clock going backwards move it
// forward; a discard sets it to now - Tick.
func (f *Fixed) Time0() time.Duration { return subSat(f.last, f.pending) }

// Reset restarts the schedule at now, after loading a level or any long
// pause the game wants forgotten: the time since the loop last saw the
// clock does not turn into a burst of ticks, and any lockstep debt is
// forgiven. The tick in progress keeps its progress, so percentWithinTick
// at now is what it was at the last frame and the drawing does not jump.
// The forgotten time is not counted in TotalDiscarded.
func (f *Fixed) Reset(now time.Duration) {
	f.pending = min(f.pending, f.tick)
	f.last = now
}

// Pause stops the ticks at now: Step runs none and reports the
// percentWithinTick of the moment of the pause. Pausing a paused loop does
// nothing.
func (f *Fixed) Pause(now time.Duration) {
	f.observe(now)
	f.paused = true
}

// Resume restarts the ticks at now, as if the time between Pause and
// Resume had not passed: no burst of ticks, no jump in percentWithinTick.
// Resuming a running loop only observes now.
func (f *Fixed) Resume(now time.Duration) {
	f.observe(now)
	f.paused = false
}

// Paused reports whether the loop is paused.
func (f *Fixed) Paused() bool { return f.paused }

// SetTick changes the tick length at now. The pending time since time0 is
// rescaled by d/old exactly (rounded up to the nanosecond), so the count of
// ticks owed is unchanged and percentWithinTick moves by less than 1ns/d:
// no burst, no jump. d <= 0 is an error and changes nothing.
func (f *Fixed) SetTick(now, d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("%w: tick %v is not positive", ErrInvalid, d)
	}
	f.observe(now)
	f.pending = mulDiv(f.pending, d, f.tick, true)
	f.tick = d
	return nil
}

// SetMaxLoops changes the most ticks one frame runs, from the next Step.
// n < 1 is an error and changes nothing. It moves no time: in solo mode no
// debt exists between frames, so nothing bursts; in lockstep mode a
// higher cap repays existing debt faster, never more than n ticks a frame.
func (f *Fixed) SetMaxLoops(n int) error {
	if n < 1 {
		return fmt.Errorf("%w: MaxLoops %d is less than 1", ErrInvalid, n)
	}
	f.maxLoops = n
	return nil
}

// SetLockstep switches lockstep mode. Leaving it discards any debt at once
// (counted in TotalDiscarded), as a solo frame would: no burst follows.
func (f *Fixed) SetLockstep(on bool) {
	f.lockstep = on
	if !on && f.pending > f.tick {
		f.totalDiscarded = addSat(f.totalDiscarded, f.pending-f.tick)
		f.pending = f.tick
	}
}

// Config returns the loop's current settings.
func (f *Fixed) Config() FixedConfig {
	return FixedConfig{Tick: f.tick, MaxLoops: f.maxLoops, Lockstep: f.lockstep}
}

// TotalTicks returns the number of ticks planned since NewFixed.
func (f *Fixed) TotalTicks() int64 { return f.totalTicks }

// TotalFrames returns the number of Step calls since NewFixed.
func (f *Fixed) TotalFrames() int64 { return f.totalFrames }

// TotalDiscarded returns the time debt discarded since NewFixed (solo
// mode).
func (f *Fixed) TotalDiscarded() time.Duration { return f.totalDiscarded }

// TPS returns the ticks per second over the second before now.
func (f *Fixed) TPS(now time.Duration) float64 { return f.tps.Rate(now) }

// FPS returns the frames (Step calls) per second over the second before
// now, counted apart from the ticks.
func (f *Fixed) FPS(now time.Duration) float64 { return f.fps.Rate(now) }
