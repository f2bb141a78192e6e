package input

import (
	"slices"
	"testing"
	"time"
)

// FuzzSampler decodes the fuzzer's bytes into an event stream, a loop model
// and a frame schedule, and checks the properties of
// TestRecordsIndependentOfFrames on them: live feeding equals feeding up
// front, and every press and release is accounted for.
//
// Each event takes 3 bytes (time step in ms, signed so that stamps can go
// backwards; button; press or release), each frame 1 byte (frame step in
// units of 4 ms; 255 is a 3 s stall).
func FuzzSampler(f *testing.F) {
	f.Add([]byte{10, 0, 1, 5, 0, 0}, []byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, uint8(40), uint8(10), false)
	f.Add([]byte{10, 0, 1, 0, 0, 0, 0, 0, 1, 5, 0, 0, 255, 1, 1}, []byte{50, 255, 1, 1}, uint8(40), uint8(5), false)
	f.Add([]byte{1, 2, 1, 1, 3, 1, 1, 2, 0, 200, 3, 0}, []byte{10, 10, 255, 10}, uint8(25), uint8(2), true)
	f.Fuzz(func(t *testing.T, evb, frb []byte, tickMs, maxLoops uint8, lockstep bool) {
		// Small inputs keep the fuzzer fast: it minimizes every input it
		// keeps, in time quadratic in the length.
		if tickMs == 0 || maxLoops == 0 || len(evb) > 3*100 || len(frb) > 100 {
			return
		}
		var events []Event
		var at time.Duration
		for i := 0; i+2 < len(evb); i += 3 {
			at += time.Duration(int8(evb[i])) * ms
			events = append(events, Event{Time: at, Button: Button(evb[i+1] % 40), Down: evb[i+2]&1 == 1})
		}
		var frames []time.Duration
		var now time.Duration
		for _, b := range frb {
			step := time.Duration(b) * 4 * ms
			if b == 255 {
				step = 3 * time.Second
			}
			now += step
			frames = append(frames, now)
		}
		m := loopModel{tick: time.Duration(tickMs) * ms, maxLoops: int(maxLoops), lockstep: lockstep}
		run := m.run(NewSampler(), events, frames)
		if up := tickAll(events, run.ends); !slices.Equal(run.recs, up) {
			i := firstDiff(run.recs, up)
			t.Fatalf("tick %d (end %v): live %v, up front %v", i, run.ends[i], run.recs[i], up[i])
		}
		checkRecords(t, events, run.recs)
	})
}
