package scene

import (
	"io"
	"math"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/physics"
)

// The scene runs 25 ticks a second on its clock, draws each ball at
// percentWithinTick between its last and next positions (y down), ends
// at its duration and counts its frame rate as the demo's -stats does.
func TestFrameInterpolatesAndEnds(t *testing.T) {
	clock := loop.NewManualClock(time.Second)
	s, err := New(Options{Balls: 5, Duration: time.Second}, clock)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := physics.New(physics.Config{Balls: 5})
	if err != nil {
		t.Fatal(err)
	}
	check := func(alpha float64) {
		t.Helper()
		for i := 0; i < 10; i += 2 {
			x := (float64(ref.Last[i]) + alpha*float64(ref.Next[i]-ref.Last[i])) / physics.One
			y := 480 - (float64(ref.Last[i+1])+alpha*float64(ref.Next[i+1]-ref.Last[i+1]))/physics.One
			if math.Abs(float64(s.Pos[i])-x) > 1e-3 || math.Abs(float64(s.Pos[i+1])-y) > 1e-3 {
				t.Fatalf("ball %d at alpha %v: drawn at (%v, %v), want (%v, %v)", i/2, alpha, s.Pos[i], s.Pos[i+1], x, y)
			}
		}
	}
	if !s.Frame() {
		t.Fatal("the first frame ended the run")
	}
	check(0)
	frames := 1
	for _, step := range []time.Duration{10, 20, 30, 40, 100, 150, 150} { // ms, each under MaxLoops' 200
		clock.Advance(step * time.Millisecond)
		if !s.Frame() {
			t.Fatalf("ended after %d frames, before its second", frames)
		}
		frames++
	}
	// 500 ms since the first frame: 12 ticks and half a tick.
	for range 12 {
		ref.Tick(physics.Control{})
	}
	check(0.5)
	for _, step := range []time.Duration{150, 150, 150, 49} { // to 1 ms before its duration
		clock.Advance(step * time.Millisecond)
		if !s.Frame() {
			t.Fatalf("ended %v before its duration", s.dur-(clock.Now()-time.Second))
		}
		frames++
	}
	clock.Advance(time.Millisecond)
	if s.Frame() {
		t.Fatal("a frame at its duration was run")
	}
	r, err := s.Result("x")
	if err != nil {
		t.Fatal(err)
	}
	if r.Frames != int64(frames) || r.Ticks != 24 || math.Abs(r.FPS-float64(frames-1)/0.999) > 1e-9 || r.Balls != 5 {
		t.Errorf("result %+v; want %d frames over 0.999 s, 24 ticks, 5 balls", r, frames)
	}
}

func TestResultNeedsTwoFrames(t *testing.T) {
	s, err := New(Options{Balls: 1, Duration: time.Second}, loop.NewManualClock(0))
	if err != nil {
		t.Fatal(err)
	}
	s.Frame()
	if _, err := s.Result("x"); err != ErrNoFrames {
		t.Errorf("one frame: %v, want ErrNoFrames", err)
	}
}

func TestParse(t *testing.T) {
	o, err := Parse("x", []string{"-balls", "1000", "-duration", "3s"}, io.Discard)
	if err != nil || o.Balls != 1000 || o.Duration != 3*time.Second {
		t.Errorf("%+v, %v", o, err)
	}
	for _, bad := range [][]string{{"-balls", "0"}, {"-balls", "2000000"}, {"-duration", "0s"}, {"extra"}, {"-nope"}} {
		if _, err := Parse("x", bad, io.Discard); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// Color is the shader's palette: ball 0's hue is t = 0.
func TestColor(t *testing.T) {
	r, g, b := Color(0)
	want := func(p float64) uint8 { return uint8(255 * (0.55 + 0.4*math.Cos(2*math.Pi*p))) }
	if r != want(0) || g != want(0.33) || b != want(0.67) {
		t.Errorf("Color(0) = %d, %d, %d", r, g, b)
	}
}
