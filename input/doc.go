// Package input gives every logic tick of a fixed-tick loop its own record
// of the buttons, so that input behaves the same at 5 frames per second as
// at 1000.
//
// # The problem
//
// A fixed-tick loop runs its logic at a fixed rate (25 ticks per second in
// the demo) and draws as often as it can. When drawing is slow, say 200 ms
// a frame, each frame runs five logic ticks back to back. If those ticks
// sample the keyboard as it is when the frame starts, a tap made during
// the slow draw is either lost (it was over before the frame started) or
// applied to all five ticks (the key was still down), and the player
// overshoots.
//
// # The technique
//
// Keep the events with their timestamps instead of sampling state. Each
// tick covers a span of time [S, E) on the loop's clock; the tick takes the
// events of its span and gets one Record: the buttons held at the end of
// the span, the buttons pressed during it and the buttons released during
// it. A tick acts on Record.Down(prev), the buttons that were down at any
// moment of its span:
//
//   - a tap shorter than a tick is Pressed (and Released) in its own tick
//     and acts on exactly that tick, even if the frame that delivered it
//     ran ten ticks;
//   - a key held across k tick spans acts on exactly k ticks, whatever the
//     frame rate;
//   - "just pressed" is Record.Pressed: it comes from the events, never
//     from comparing samples taken at frame time.
//
// The records depend only on when the events happened, not on when frames
// ran, so a recording of them replays the game exactly (see package
// replay). When the loop discards time after a stall (solo mode), the
// events of the discarded time go to the next tick that runs: no press is
// lost. A tick takes at most one press of each button; a second quick tap
// of the same button waits for the next tick rather than merging with the
// first.
//
// In a loop (fixed is a loop.Fixed on clock; fr.Span(j) is the span of
// the loop's clock that tick j of the frame stands for):
//
//	s := input.NewSampler()
//	var prev input.Record
//	for running {
//		fr := fixed.Step(clock.Now())
//		for _, e := range platformEvents() { // stamped on clock; before the ticks
//			s.Push(e)
//		}
//		for j := 0; j < fr.Ticks; j++ {
//			rec := s.Tick(fr.Span(j).End)
//			down := rec.Down(prev)
//			world.Step(input.Axis(down, input.Left, input.Right),
//				input.Axis(down, input.Up, input.Down))
//			prev = rec
//		}
//		draw()
//	}
//
// # The platform side
//
// This package does not know SDL. The adapter in package main turns
// keyboard events into Events, and must keep to this contract:
//
//   - Stamp each event with the time it happened, on the loop's clock (the
//     clock whose readings the loop uses for its tick spans). SDL2 stamps
//     keyboard events with SDL_GetTicks milliseconds; FromMillis converts
//     them given one reading of SDL_GetTicks and one of the loop clock,
//     taken together after polling the events each frame. Do not stamp
//     events with the frame time: that is exactly the sampling this package
//     exists to avoid.
//   - Mind what SDL2's stamp means: SDL_GetTicks when SDL_PumpEvents
//     queued the event, not when the key moved. An event that happens
//     during a 200 ms draw is stamped when the next pump runs, so a tap
//     made during it comes out as a zero-length tap (it still acts on
//     one tick: it is not lost) and a 100 ms hold shrinks to one tick. For
//     true times, pump during long work too, as the Allegro FAQ answer in Pixelate #11
//     suggests: call SDL_PumpEvents every few milliseconds from a place the
//     slow code passes regularly (on the main thread), and leave the events
//     queued for the frame's poll; their stamps are then good to a few
//     milliseconds.
//   - Push every event of a frame before running that frame's ticks. A tick
//     whose span ends at E runs only once E is in the past, so every event
//     before E has been delivered by then; an event that arrives later
//     still goes to the next tick.
//   - Push in the order the events were delivered. Key repeat (a press of a
//     key already down) may be pushed: it is ignored. Map several keys to
//     one button (arrows and WASD) only if a release of one key while the
//     other is held is acceptable as a release of the button; otherwise
//     track the keys and push the button's changes.
//   - When the window loses keyboard focus, call ReleaseAll: the releases
//     that happen in another window are never reported.
//   - Call Tick once per logic tick, with the end of that tick's span, in
//     order. An end earlier than the one before it is taken as that one, so
//     a clock that steps back delays no input; call Reset if the loop's
//     clock restarts. In replay mode the simulation takes its records from
//     the recording (package replay) instead, and the keys go nowhere but
//     quit.
package input
