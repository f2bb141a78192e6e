// Package loop schedules a game's logic and drawing in time: the classic
// fixed-tick loop with interpolation of interp_demo, and the other timing
// strategies a game may pick, as plain Go that reads no clock of its own.
// Every decision is given the time (a time.Duration since some origin,
// integer nanoseconds, from a Clock) and returns what to do; only
// RealClock reads the operating system. Nothing allocates per frame and
// nothing starts a goroutine, so the loop runs on the caller's main thread,
// as SDL and OpenGL require.
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
//	independent(ticks * Tick)                               // input, UI: not logic
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
// makes them, in the classic order Tick() × n, Independent(frameTime),
// Draw(percentWithinTick). Each tick j of a frame covers the span
// [SpanStart+j×Tick, SpanStart+(j+1)×Tick) of the loop's clock, which
// input code uses to give each tick the events that happened before its
// end (FixedFrame.TickEnd). A runnable sketch:
//
//	clock := loop.NewRealClock()
//	fixed, err := loop.NewFixed(loop.FixedConfig{}, clock.Now()) // 40 ms, MaxLoops 5, solo
//	if err != nil {
//		return err
//	}
//	for !quit {
//		fr := fixed.Step(clock.Now()) // the frame's one clock read
//		for j := 0; j < fr.Ticks; j++ {
//			// One logic tick, fed the input events stamped before fr.TickEnd(j).
//			ball.last = ball.next
//			ball.next += 16
//		}
//		hud(fr.FrameTime)                                      // IndependentTickRun
//		draw(ball.last + fr.Percent*(ball.next-ball.last)) // interpolated
//	}
//
// Driver runs the same loop with callbacks; ExampleDriver shows it whole.
//
// Fixed also pauses and resumes, resets after a level load, and changes its
// tick and cap while running, all without a burst of ticks or a jump in
// percentWithinTick; it counts ticks per second apart from frames per
// second (RateCounter). A clock that goes backwards counts as standing
// still: no panic, no negative tick count, no jump in percentWithinTick.
//
// # Strategies
//
//	strategy     when to use it                                    what it costs
//	-----------  ------------------------------------------------  ----------------------------------------------
//	Fixed        deterministic logic at a fixed rate, smooth        last+next state per object; one tick of input
//	             drawing by interpolation; replays, lockstep        lag; ticks of a slow machine come in bursts
//	             network games (the default of the demo)            (at most MaxLoops, then discarded in solo mode)
//	Virtual      a speed factor (slow motion, pause, fast           nothing per frame; the delta is clamped, so a
//	             forward) over any strategy; variable delta         stall slows the game (a long frame is cut to
//	             with a clamp; Fixed on Virtual keeps fixed ticks   MaxDelta); input must be mapped with Map
//	Substep      variable-step physics that must never see a        logic runs 1..MaxCycles times per frame; not
//	             step longer than MaxT (seed 001)                   deterministic across machines; drops time
//	                                                                beyond MaxCycles (the game slows down)
//	TimeFactor   scaling continuous values by a float factor,       two code paths (scaled and counted); float
//	             counting discrete events at exactly N per          rounding in the scaled values; resyncs (loses
//	             second (seed 000)                                  updates) beyond MaxFullUpdates
//	Adaptive     logic as often as fits between paced presents      relies on the last frame's timings; reacts
//	             (seed 004): high logic rate, steady frame rate     late to load spikes unless SingleCycleOnce
//	Limiter      a frame cap without vsync (seed 001 MinT, seed     up to MaxSpin (2 ms) of spinning per frame,
//	             004 MinimumDelta); pacing any of the above         learned down to what the sleeper needs
//
// RateCounter counts events (frames, ticks) per second over a rolling
// window in fixed memory.
package loop
