package input

import "time"

// This file holds the test's own model of the fixed-tick loop of the
// original interp_demo, written from the interp_demo game-loop article, so that
// the tests can drive a Sampler the way the demo does without importing
// package loop:
//
//	while (now - time0 > tick && n < maxLoops) { tick; time0 += tick; n++ }
//	if (solo && now - time0 > tick) time0 = now - tick   // discard the debt
//
// Tick j of a frame covers [time0, time0+tick) and runs only once that span
// is in the past.

type loopModel struct {
	tick     time.Duration
	maxLoops int
	lockstep bool // keep the time debt (network game) instead of discarding it
}

// liveRun is what a run of the model loop produced.
type liveRun struct {
	ends []time.Duration // the span end of every tick run, in order
	recs []Record        // the record each tick got
}

// run drives s through the frames. At each frame time now, the platform
// delivers the events that happened up to now (in stream order: an event
// is delivered once it and all events before it have happened), then the
// loop runs its ticks. After the last frame it keeps running frames, one
// tick apart, until every event is delivered and consumed, so that a test
// can count every press.
func (m loopModel) run(s *Sampler, events []Event, frames []time.Duration) liveRun {
	var out liveRun
	var time0 time.Duration
	next := 0
	frame := func(now time.Duration) {
		for next < len(events) && events[next].Time <= now {
			s.Push(events[next])
			next++
		}
		for n := 0; now-time0 > m.tick && n < m.maxLoops; n++ {
			end := time0 + m.tick
			out.ends = append(out.ends, end)
			out.recs = append(out.recs, s.Tick(end))
			time0 = end
		}
		if !m.lockstep && now-time0 > m.tick {
			time0 = now - m.tick
		}
	}
	var now time.Duration
	for _, f := range frames {
		now = f
		frame(now)
	}
	// Drain: the last events may lie after the last frame, and deferred
	// presses need ticks of their own.
	for guard := 0; (next < len(events) || s.Pending() > 0) && guard < 1_000_000; guard++ {
		now += m.tick
		if next < len(events) && events[next].Time > now {
			now = events[next].Time
		}
		frame(now)
	}
	return out
}

// framesEvery returns frame times every step, up to and including until.
func framesEvery(step, until time.Duration) []time.Duration {
	var fs []time.Duration
	for t := step; t <= until; t += step {
		fs = append(fs, t)
	}
	return fs
}

// tickAll feeds all events to a fresh Sampler up front, then ticks it with
// the given span ends one by one.
func tickAll(events []Event, ends []time.Duration) []Record {
	s := NewSampler()
	for _, e := range events {
		s.Push(e)
	}
	recs := make([]Record, len(ends))
	for i, end := range ends {
		recs[i] = s.Tick(end)
	}
	return recs
}
