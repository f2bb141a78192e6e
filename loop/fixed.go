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

// FixedConfig sets up a Fixed loop.
type FixedConfig struct {
	// Tick is the logic time one tick stands for (tick_time in the
	// interp_demo game-loop article). Zero means DefaultTick; negative is
	// an error.
	Tick time.Duration
	// MaxLoops is the most ticks one frame runs (MAX_LOOPS). Zero means
	// DefaultMaxLoops; negative is an error.
	MaxLoops int
	// Lockstep keeps the time debt that MaxLoops leaves instead of
	// discarding it (the article's bNetworkGame): no tick is ever lost,
	// the loop catches up over the next frames.
	Lockstep bool
	// Stabilize is the window of tick-count stabilisation; zero turns it
	// off (the classic loop, bit for bit). When a frame comes within
	// Stabilize of a whole number k >= 1 of ticks after the last one
	// (frames at a steady interval near a multiple of the tick, as on a
	// vsynced display whose rate equals the tick rate), the loop may hold
	// its ticks back by up to Stabilize so that the frame runs exactly k
	// ticks: frame-time jitter whose spread is within the window no
	// longer turns 1, 1, 1 into 0, 2, 0, 2. No tick is lost or invented
	// and none runs before its span has ended; see Fixed. Negative is an
	// error.
	Stabilize time.Duration
}

func (c FixedConfig) normalize() (FixedConfig, error) {
	if err := checkDuration("FixedConfig.Tick", c.Tick); err != nil {
		return c, err
	}
	if err := checkCount("FixedConfig.MaxLoops", c.MaxLoops); err != nil {
		return c, err
	}
	if err := checkWindow("FixedConfig.Stabilize", c.Stabilize); err != nil {
		return c, err
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
//
// Fixed does not pause: run it on the game time of a Virtual
// (VirtualClock, or Step(virtual.Now())) and pause the Virtual. Game time
// then stands still, and a loop given the same time again runs no tick
// (but the debt a lockstep loop owed before the pause) and draws at the
// same percentWithinTick.
//
// With FixedConfig.Stabilize the loop stabilises its tick counts (see
// Stabilize and the package documentation): it runs the classic loop on
// its clock delayed by a lag of 0 to Stabilize, which it changes only
// when a frame at a steady interval would otherwise run a different
// number of ticks than that interval holds.
//
// The zero Fixed is ready to use: it behaves like NewFixed(FixedConfig{},
// t), where t is the first time it is given (its first Step, Reset or
// SetTick), so its schedule starts there.
type Fixed struct {
	tick     time.Duration // 0 only in the zero Fixed, until ready
	maxLoops int
	lockstep bool
	started  bool // the loop has been given a time

	// window is the stabilisation window (0: off) and lag, in [0,
	// window], how far behind the clock the loop runs: ticks run and the
	// drawing is placed as if the time were now - lag. pending >= lag
	// always.
	window time.Duration
	lag    time.Duration

	// last is the latest now seen and pending the time since time0 at
	// last: the progress into the tick in progress plus any debt. time0 is
	// last - pending; keeping pending rather than time0 means no time is
	// lost to saturation at the ends of time.Duration.
	last    time.Duration
	pending time.Duration
	// elapsed is the forward time seen since the last Step (or Reset).
	elapsed time.Duration

	totalTicks     int64
	totalFrames    int64
	totalDiscarded time.Duration
}

// FixedFrame is one frame's plan: run Ticks logic ticks (tick j over the
// span Span(j)), then the per-frame work, then draw at Percent.
type FixedFrame struct {
	// Now is the time the frame was planned for.
	Now time.Duration
	// SpanStart is time0 before this frame's ticks: tick j (0-based) of
	// this frame covers [SpanStart+j*Tick, SpanStart+(j+1)*Tick); see
	// Span.
	SpanStart time.Duration
	// Tick is the tick length used this frame.
	Tick time.Duration
	// Ticks is the number of logic ticks to run, 0 to MaxLoops.
	Ticks int
	// LogicTime is Ticks*Tick, the logic time this frame's ticks stand
	// for: what the interp_demo game-loop article passes to
	// IndependentTickRun(frametime), for clocks and timers that follow
	// the game logic. It comes in steps of Tick (0 on most frames of a
	// fast machine), so it is not for smooth animation: use Elapsed.
	LogicTime time.Duration
	// Elapsed is the clock time since the previous Step (the time between
	// two frames), for animating what is not game logic (UI, menus, a
	// blinking cursor) smoothly. It is 0 on the first Step; after a Reset
	// it counts from the Reset (the forgotten time is not in it); time the
	// clock went backwards counts as none. On a
	// VirtualClock it is game time, which stops while the Virtual is
	// paused; UI that must move during a pause uses the raw clock.
	Elapsed time.Duration
	// Percent is percentWithinTick = min(1, (now-time0)/Tick), in [0, 1]:
	// how far the drawing is from the last tick's state to the next's.
	// (With stabilisation, now-Lag stands for now.)
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
	// Lag is how far behind Now the stabilised loop ran this frame: its
	// ticks and its drawing are those of the time Now-Lag. Always 0
	// without FixedConfig.Stabilize, and never more than it.
	Lag time.Duration
}

// DrawTime is the time on the loop's clock that the frame's drawing shows:
// time0 + percentWithinTick × Tick, computed exactly in nanoseconds (the
// drawn state moves in step with it). It is Now-Lag while the loop keeps
// up, and stops one tick after time0 while a lockstep loop owes ticks.
// Comparing its steps from frame to frame with the steps of the times the
// frames are shown measures how evenly motion is drawn.
func (f FixedFrame) DrawTime() time.Duration {
	time0 := addSat(addSat(f.SpanStart, f.LogicTime), f.Discarded)
	return min(subSat(f.Now, f.Lag), addSat(time0, f.Tick))
}

// TickSpan is the stretch of the loop's clock that one logic tick stands
// for, [Start, End): input code gives the tick the events stamped before
// End that no earlier tick took, so that each tick sees the input of its
// own time (the Allegro FAQ answer in Pixelate #11: at 5 frames per second
// a quick tap belongs to one of the frame's ticks, not to all of them).
type TickSpan struct {
	Start, End time.Duration // on the loop's clock; End - Start is one tick
}

// Span returns the span of tick j of this frame: [SpanStart+j*Tick,
// SpanStart+(j+1)*Tick). j is meant to be in [0, Ticks); any other j gives
// what the formula gives, saturated at the ends of time.Duration (spans
// never wrap around, and a later j never gives an earlier span).
func (f FixedFrame) Span(j int) TickSpan {
	k := int64(j)
	k1 := k + 1
	if k1 < k {
		k1 = k
	}
	return TickSpan{
		Start: addSat(f.SpanStart, mulSat(f.Tick, k)),
		End:   addSat(f.SpanStart, mulSat(f.Tick, k1)),
	}
}

// NewFixed returns a Fixed loop whose first tick starts at now (time0 =
// now). A negative Tick or MaxLoops is an error wrapping ErrInvalid.
func NewFixed(cfg FixedConfig, now time.Duration) (*Fixed, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	return &Fixed{
		tick:     cfg.Tick,
		maxLoops: cfg.MaxLoops,
		lockstep: cfg.Lockstep,
		window:   cfg.Stabilize,
		started:  true,
		last:     now,
	}, nil
}

// ready gives a zero Fixed its default settings.
func (f *Fixed) ready() {
	if f.tick == 0 {
		f.tick = DefaultTick
	}
	if f.maxLoops == 0 {
		f.maxLoops = DefaultMaxLoops
	}
}

// observe moves the loop's idea of the time to now. Only forward time adds
// to the pending time; a backwards jump of the clock counts as no time at
// all (time0 moves back with the clock). The first time a zero Fixed is
// given starts its schedule.
func (f *Fixed) observe(now time.Duration) {
	f.ready()
	if !f.started {
		f.started, f.last = true, now
		return
	}
	if now > f.last {
		d := subSat(now, f.last)
		f.pending = addSat(f.pending, d)
		f.elapsed = addSat(f.elapsed, d)
	}
	f.last = now
}

// Step plans the frame at time now: it runs the article's loop
//
//	while now - time0 > Tick && ticks < MaxLoops { ticks++; time0 += Tick }
//	if !Lockstep && now - time0 > Tick { time0 = now - Tick } // discard the debt
//	percentWithinTick = min(1, (now - time0) / Tick)
//
// in constant time, whatever the number of ticks, and returns the plan.
// A now earlier than the last one seen counts as no time at all: no tick,
// no change in percentWithinTick; the loop goes on from there.
//
// With stabilisation, the loop first adjusts its lag (see
// FixedConfig.Stabilize), then runs the same loop on now-lag.
func (f *Fixed) Step(now time.Duration) (fr FixedFrame) {
	f.observe(now)
	fr.Now, fr.SpanStart, fr.Tick = now, f.Time0(), f.tick
	if f.totalFrames > 0 {
		fr.Elapsed = f.elapsed
	}
	if f.window > 0 {
		f.stabilize(f.elapsed)
	}
	f.elapsed = 0
	f.totalFrames++
	// p is the pending time on the delayed clock: now - lag - time0.
	// Without stabilisation lag is 0 and this is the classic loop.
	p := f.pending - f.lag
	if p > f.tick {
		// The loop runs while p - n*Tick > Tick: n = ceil(p/Tick) - 1.
		n := min((p-1)/f.tick, time.Duration(f.maxLoops))
		f.pending -= n * f.tick
		p -= n * f.tick
		fr.Ticks = int(n)
		fr.LogicTime = n * f.tick
		if p > f.tick {
			fr.Capped = true
			if !f.lockstep {
				fr.Discarded = p - f.tick
				f.pending = f.lag + f.tick // time0 = now - lag - Tick
				p = f.tick
				f.totalDiscarded = addSat(f.totalDiscarded, fr.Discarded)
			}
		}
		f.totalTicks += int64(n)
	}
	fr.Percent = f.Percent()
	fr.Debt = max(0, p-f.tick)
	fr.Lag = f.lag
	return fr
}

// Percent returns percentWithinTick at the latest time the loop was given,
// without planning a frame.
func (f *Fixed) Percent() float64 {
	f.ready()
	p := f.pending - f.lag
	if p >= f.tick {
		return 1
	}
	if p <= 0 {
		return 0
	}
	return float64(p) / float64(f.tick)
}

// Time0 returns the start of the tick in progress, on the clock the loop
// is given (time0 in the interp_demo game-loop article). A clock going
// backwards moves it back with the clock; Reset moves it forward by the
// forgotten time; a discard sets it to now - Tick.
func (f *Fixed) Time0() time.Duration { return subSat(f.last, f.pending) }

// Reset restarts the schedule at now, after loading a level or any long
// stop the game wants forgotten: the time since the loop last saw the
// clock does not turn into a burst of ticks, and any lockstep debt is
// forgiven. The tick in progress keeps its progress, so percentWithinTick
// at now is what it was at the last frame and the drawing does not jump.
// The next Step's Elapsed counts from now. The forgotten time is not
// counted in TotalDiscarded. The stabilisation lag is kept. On a zero
// Fixed, Reset starts the schedule at now.
func (f *Fixed) Reset(now time.Duration) {
	f.ready()
	f.started = true
	f.pending = f.lag + min(f.pending-f.lag, f.tick)
	f.last = now
	f.elapsed = 0
}

// SetTick changes the tick length at now. The pending time since time0 is
// rescaled by d/old exactly (rounded up to the nanosecond), so the count of
// ticks owed is unchanged and percentWithinTick moves by less than 1ns/d:
// no burst, no jump. A d <= 0 is an error wrapping ErrInvalid and changes
// nothing.
func (f *Fixed) SetTick(now, d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("%w: tick %v is not positive", ErrInvalid, d)
	}
	f.observe(now)
	// The progress on the delayed clock is rescaled; the lag is kept.
	f.pending = addSat(f.lag, mulDiv(f.pending-f.lag, d, f.tick, true))
	f.tick = d
	return nil
}

// SetMaxLoops changes the most ticks one frame runs, from the next Step.
// An n < 1 is an error wrapping ErrInvalid and changes nothing. It moves
// no time: in solo mode no debt exists between frames, so nothing bursts;
// in lockstep mode a higher cap repays existing debt faster, never more
// than n ticks a frame.
func (f *Fixed) SetMaxLoops(n int) error {
	if n < 1 {
		return fmt.Errorf("%w: MaxLoops %d is less than 1", ErrInvalid, n)
	}
	f.ready()
	f.maxLoops = n
	return nil
}

// SetLockstep switches lockstep mode. Leaving it discards any debt at once
// (counted in TotalDiscarded), as a solo frame would: no burst follows.
func (f *Fixed) SetLockstep(on bool) {
	f.ready()
	f.lockstep = on
	if p := f.pending - f.lag; !on && p > f.tick {
		f.totalDiscarded = addSat(f.totalDiscarded, p-f.tick)
		f.pending = f.lag + f.tick
	}
}

// Config returns the loop's current settings (the defaults, for a zero
// Fixed).
func (f *Fixed) Config() FixedConfig {
	f.ready()
	return FixedConfig{Tick: f.tick, MaxLoops: f.maxLoops, Lockstep: f.lockstep, Stabilize: f.window}
}

// TotalTicks returns the number of ticks planned since the loop was made.
func (f *Fixed) TotalTicks() int64 { return f.totalTicks }

// TotalFrames returns the number of Step calls since the loop was made.
func (f *Fixed) TotalFrames() int64 { return f.totalFrames }

// TotalDiscarded returns the time debt discarded since the loop was made
// (solo mode, and leaving lockstep mode).
func (f *Fixed) TotalDiscarded() time.Duration { return f.totalDiscarded }
