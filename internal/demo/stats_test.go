package demo

import (
	"testing"
	"time"
)

// TestCapErrorAfterWarmup: the frame-cap error counts the frames that
// start after the warm-up, as the allocation counts do: a run whose first
// second is 5 frames of 200 ms (a window opening, shaders compiling) and
// whose frames then keep the cap exactly reports no cap error, although
// its frame intervals show the start-up; nor does its last frame, which
// the run's end closes, not a frame paced by the cap. A run shorter than
// the warm-up reports none at all.
func TestCapErrorAfterWarmup(t *testing.T) {
	f := newFront(t, nil, nil, "-fps-cap", "60", "-ticks", "30", "-stats")
	f.frame = Warmup / 5
	for range 5 {
		f.step()
	}
	f.frame = time.Millisecond // the cap sets the pace: intervals of 1/60 s
	f.run(1000)
	f.clock.Advance(time.Millisecond) // the end, 1 ms into the last frame
	if _, err := f.finish(); err != nil {
		t.Fatal(err)
	}
	r := f.d.Report()
	if r.FrameMsMax < 200 {
		t.Fatalf("frame_ms_max %v: the start-up frames of 200 ms did not happen", r.FrameMsMax)
	}
	if r.CapErrorMsP99 == nil || *r.CapErrorMsP99 > 0.001 {
		t.Errorf("cap_error_ms_p99 %v over %d frames; want 0: the start-up frames or the run's end counted", fmtPtr(r.CapErrorMsP99), r.Frames)
	}

	f = newFront(t, nil, nil, "-fps-cap", "60", "-ticks", "10", "-stats")
	f.run(1000)
	if r := f.d.Report(); r.CapErrorMsP99 != nil {
		t.Errorf("a run of %v, shorter than the warm-up: cap_error_ms_p99 %v, want none", f.d.Wall(), *r.CapErrorMsP99)
	}
}

func fmtPtr(v *float64) any {
	if v == nil {
		return "none"
	}
	return *v
}
