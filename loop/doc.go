// Package loop schedules a game's logic and drawing in time: the classic
// fixed-tick loop with interpolation of the interp_demo game-loop article,
// and the other timing strategies a game may pick, as plain Go that reads
// no clock of its own. Every decision is given the time (a time.Duration
// since some origin, integer nanoseconds, from a Clock) and returns what to
// do; only RealClock reads the operating system. Nothing allocates per
// frame and nothing starts a goroutine, so the loop runs on the caller's
// main thread, as SDL and OpenGL require.
//
// # The fixed-tick loop
//
// The logic runs in fixed ticks of Tick (40 ms: 25 ticks per second); the
// drawing runs as often as the machine allows and interpolates between the
// last two logic states. Fixed keeps time0, the time the tick in progress
// started. At each frame, given time1 = now:
//
//	for now-time0 > Tick && ticks < MaxLoops { tick(); ticks++; time0 += Tick }
//	if !Lockstep && now-time0 > Tick { time0 = now - Tick } // discard the debt
//	independent(ticks * Tick)                               // UI (the article: input too)
//	percentWithinTick := min(1, (now-time0)/Tick)
//	draw(percentWithinTick) // at last + percentWithinTick*(next-last)
//
// now-time0 is the pending time: how far into the tick in progress the
// frame is, plus any debt. percentWithinTick in [0, 1] says how far the
// drawing is between each object's last and next state; on a fast machine
// time0 stays put for several frames while percentWithinTick grows toward
// 1. Note the strict >: frames exactly one tick apart each run one tick
// and draw at exactly 1, and after an elapsed time e (no cap, no discard)
// the loop has run ceil(e/Tick)-1 ticks.
//
// The debt is the time owed beyond the tick in progress after the ticks of
// a frame. MaxLoops caps the ticks per frame: without it, a machine too
// slow for its logic would fall further behind at every frame, each frame
// running more ticks than the last (the spiral of death) until it locks
// up. With it, the frame ends after MaxLoops ticks and the debt is either
// discarded (solo mode: the game quietly falls behind real time, which a
// single player never notices, and is back on real time at the next frame)
// or kept (Lockstep, a network game whose machines must stay in step: no
// tick is ever lost, the following frames repay the debt, MaxLoops at a
// time).
//
// Fixed.Step plans one frame and leaves the calls to the caller; a Driver
// makes them, in the classic order Tick(span) × n, Independent(frame),
// Draw(percentWithinTick), and first GatherInput(frame) where the game is
// an InputGatherer. The article gathers input in independent(), after the
// ticks: an event that happened before a frame's ticks then reaches a later
// tick, one that depends on the frame rate. Gather it before the ticks. Each tick j of a frame stands for the span
// FixedFrame.Span(j) = [SpanStart+j×Tick, SpanStart+(j+1)×Tick) of the
// loop's clock, which input code uses to give each tick the events that
// happened before its end. The per-frame work gets FixedFrame.LogicTime,
// the logic time the frame's ticks stood for (the article's
// IndependentTickRun(frametime)), and FixedFrame.Elapsed, the clock time
// since the last frame, for animating UI smoothly. A runnable sketch of a
// ball moving 16 units a tick, which starts one step apart (last 0, next
// 16) so that it moves from the first frame on:
//
//	clock := loop.NewRealClock()
//	fixed, err := loop.NewFixed(loop.FixedConfig{}, clock.Now()) // 40 ms, MaxLoops 5, solo
//	if err != nil {
//		return err
//	}
//	last, next := 0.0, 16.0
//	for !quit {
//		fr := fixed.Step(clock.Now()) // the frame's one clock read
//		pollInput()                   // events stamped on clock, queued
//		for j := 0; j < fr.Ticks; j++ {
//			// One logic tick, fed the input events stamped before fr.Span(j).End.
//			last, next = next, next+16
//		}
//		hud(fr.LogicTime, fr.Elapsed)       // IndependentTickRun
//		draw(last + fr.Percent*(next-last)) // interpolated
//	}
//
// Driver runs the same loop with callbacks; ExampleDriver shows it whole.
//
// Fixed also resets after a level load and changes its tick and cap while
// running, all without a burst of ticks or a jump in percentWithinTick. A
// clock that goes backwards counts as standing still: no panic, no
// negative tick count, no jump in percentWithinTick. Fixed keeps totals
// (TotalTicks, TotalFrames, TotalDiscarded) but no rates: a game counts
// ticks and frames per second with RateCounters of its own.
//
// # Frame pacing on real displays
//
// The fixed-tick loop is right about how many ticks run; on a vsynced
// display two more things decide whether motion looks smooth, and neither
// shows without vsync.
//
// The first is the tick count. With 60 ticks per second on a 60 Hz
// display each frame should run one tick, but the frames' measured times
// wobble around the tick boundaries by the timer's and the compositor's
// jitter, and since the two rates are equal they stay there: a frame a
// little early runs no tick, the next one two. On frames at i/60 s with
// ±0.3 ms of jitter, half the frames run 0 or 2 ticks (and the same at ±1
// and ±2 ms). FixedConfig.Stabilize turns on tick-count stabilisation (as
// Ebitengine's clock and Godot's physics_jitter_fix do): the loop may run
// up to that window behind the clock, and moves its lag only when a frame
// at a steady interval would otherwise run a different number of ticks
// than the interval holds. Ticks are neither lost nor invented, none runs
// before its span ends, and none more than the window after (but for the
// MaxLoops cap).
//
// The second is delta jitter. The frame's time is read when the loop
// wakes up, but the picture is shown at the next vblank, so a ball drawn
// by the wake-up time steps unevenly while the display's steps are even
// (Alen Ladavac's GDC 2019 talk "The Elusive Frame Timing"; Godot 4's
// delta smoothing; Unity's smoothDeltaTime). A Pacer snaps each frame's
// time to the grid of vblanks, steps by whole intervals when a frame
// misses one, and is never ahead of the clock nor behind it by three
// quarters of an interval:
//
//	pacer, _ := loop.NewPacer(loop.PacerConfig{Refresh: time.Second / 60}) // the display mode's rate
//	cfg := loop.FixedConfig{Tick: time.Second / 60, Stabilize: 4 * time.Millisecond}
//	fixed, _ := loop.NewFixed(cfg, clock.Now()) // valid settings: no error
//	for !quit {
//		fr := fixed.Step(pacer.Step(clock.Now()).Time) // the vblank the frame follows
//		// … fr.Ticks ticks (one each frame), then draw at fr.Percent: the
//		// drawn time, fr.DrawTime(), moves by one refresh interval a frame.
//		swap() // waits for the vblank
//	}
//
// # Pause, slow motion, fast forward
//
// Game time is a Virtual: raw time, clamped per frame, times a speed
// factor, stopped while paused (Virtual.SetPaused). Every strategy runs on
// it by being given Virtual.Now instead of the raw time (a Driver is given
// a VirtualClock), so there is one way to pause whatever the strategy: a
// Fixed loop on a paused Virtual runs no ticks and draws at a frozen
// percentWithinTick, and resumes without a burst. Input events, stamped on
// the raw clock, are mapped to game time with Virtual.Map.
//
// # Strategies
//
//	strategy     when to use it                                    what it costs
//	-----------  ------------------------------------------------  ----------------------------------------------
//	Fixed        deterministic logic at a fixed rate, smooth        last+next state per object; one tick of input
//	             drawing by interpolation; replays, lockstep        lag; ticks of a slow machine come in bursts
//	             network games (the interp_demo game-loop           (at most MaxLoops, then discarded in solo mode)
//	             article; the default of the demo)
//	Virtual      a speed factor (slow motion, fast forward) and     nothing per frame; the delta is clamped, so a
//	             pause over any strategy; variable delta with a     stall slows the game (a long frame is cut to
//	             clamp; Fixed on Virtual keeps fixed ticks          MaxDelta); input must be mapped with Map
//	Substep      variable-step physics that must never see a        logic runs 1..MaxCycles times per frame; not
//	             step of MaxT or more: sub-stepping, as in          deterministic across machines; drops time
//	             BeautifulTimer                                     beyond MaxCycles (the game slows down)
//	TimeFactor   scaling continuous values by a float factor,       two code paths (scaled and counted); float
//	             counting discrete events at exactly N per          rounding in the scaled values; resyncs (loses
//	             second: time factor with full updates (the         updates) beyond MaxFullUpdates
//	             DarkBASIC timer-based movement post)
//	Adaptive     logic as often as fits between paced presents      relies on the last frame's timings; reacts
//	             (the clsGameClock post's adaptive split): high     late to load spikes unless SingleCycleOnce
//	             logic rate, steady frame rate
//	Limiter      a frame cap without vsync (BeautifulTimer's MinT,  up to MaxSpin (2 ms) of spinning per frame,
//	             the clsGameClock post's MinimumDelta); pacing      learned down to what the sleeper needs
//	             any of the above
//	Pacer        a vsynced display: the time of the vblank each     the time given to the game lags the clock (by
//	             frame follows instead of its wake-up time, so      the wake-up delay, under 3/4 of an interval);
//	             motion steps by exactly one refresh per frame;     measures the interval over its first 32
//	             feeds any of the above                             frames when the display mode does not give it
//
// RateCounter counts events (frames, ticks) per second over a rolling
// window in fixed memory.
//
// # Settings and errors
//
// One policy holds everywhere. Constructors (NewFixed, NewVirtual,
// NewSubstep, NewTimeFactor, NewAdaptive, NewLimiter, NewRateCounter,
// NewPacer) validate their settings and return an error wrapping
// ErrInvalid; setters (SetTick, SetMaxLoops, SetStabilize, SetSpeed,
// SetMaxDelta, SetInterval, SetRefresh) validate and return such an
// error, changing nothing. Nothing is clamped silently. In a config
// (FixedConfig, VirtualConfig, ...), zero means the default; the setters
// of a limit or a window (SetStabilize, SetMaxDelta, SetInterval,
// SetRefresh) read zero as their config field does, while SetTick,
// SetMaxLoops and SetSpeed, where zero would stop the game, take only
// positive values (SetPaused pauses). A duration limit that can be off (a
// clamp, a minimum frame, a frame cap) is turned off with NoLimit; any
// other negative value is an error. Driver.Frame and Driver.Run return
// ErrIncompleteDriver (which wraps ErrInvalid) when a field is missing (a
// nil pointer in a field of interface type, a (*RealClock)(nil) Clock, is
// not missing: the Driver calls its methods, as Go code would).
// The per-frame calls (Step, Advance, Map, Wait, Add, Rate) take any value
// and have no error to check: times saturate at the ends of time.Duration
// instead of wrapping, a clock going backwards counts as standing still (a
// Pacer starts over there and passes the time on, for the strategy it
// feeds to treat so), and nothing panics.
//
// # Zero values
//
// The zero value of every strategy is ready to use, with the default
// settings: a zero Fixed, Virtual, Substep, TimeFactor or Adaptive behaves
// like its constructor with a zero config called at the first time it is
// given, so its schedule starts there. A zero Pacer has no hint and
// vsync on: it measures the interval. A zero Limiter is off, a zero
// RateCounter counts over DefaultRateWindow (making its memory at its
// first Add), a zero ManualClock reads 0 and a zero RealClock starts at
// its first reading. A zero Driver, or one missing a field, runs nothing
// and returns ErrIncompleteDriver.
package loop
