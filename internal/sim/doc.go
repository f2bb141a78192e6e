// Package sim is the demo's simulation, apart from its SDL shell: the
// deterministic world, the five timing modes behind one interface, the
// virtual clock (speed factor and pause), the per-tick input sampler, the
// world commands applied at tick boundaries, recording and replay with
// their hash checks, and the exact -ticks limit.
//
// It is given the time and the timestamped key events of a frame and
// returns what the frame's logic did; the shell draws the world it
// exposes. It imports no SDL and no GL and reads no clock but the one it
// is given (the shell's real clock, or a loop.ManualClock in tests), so
// anything can drive it: the SDL loop, a test, a network session.
//
// A frame, from the shell's side:
//
//	info := s.Frame(now, events) // logic: 0..MaxLoops ticks, or one variable step
//	if t, ok := s.PresentAt(); ok {
//		limiter.WaitUntil(clock, t) // adaptive mode paces its presents
//	}
//	s.BeginDraw(clock.Now())
//	draw(s.World(), info.Percent)
//	s.EndDraw(clock.Now())
//	if s.Finished() { quit }
//
// Work that the shell wants done while the simulation burns its logic
// load (pumping the window system's events, so key presses are stamped
// when they happen) goes in Config.Load.
package sim
