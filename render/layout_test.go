package render

import (
	"math"
	"testing"
)

func TestLetterbox(t *testing.T) {
	cases := []struct {
		winW, winH int
		want       Rect
	}{
		{640, 480, Rect{0, 0, 640, 480}},
		{1280, 960, Rect{0, 0, 1280, 960}},
		{1000, 400, Rect{233, 0, 533, 400}}, // bars left and right
		{640, 1000, Rect{0, 260, 640, 480}}, // bars above and below
		{17, 1000, Rect{0, 493, 17, 13}},    // (1000-13)/2 rounds down
	}
	for _, c := range cases {
		got, scale := Letterbox(c.winW, c.winH, 640, 480)
		if got != c.want {
			t.Errorf("Letterbox(%d, %d) = %+v, want %+v", c.winW, c.winH, got, c.want)
		}
		// The world is fully visible and keeps its aspect ratio.
		if float64(got.W) > float64(c.winW) || float64(got.H) > float64(c.winH) {
			t.Errorf("%dx%d: view %+v exceeds the window", c.winW, c.winH, got)
		}
		if math.Abs(640*scale-float64(got.W)) > 1 || math.Abs(480*scale-float64(got.H)) > 1 {
			t.Errorf("%dx%d: view %+v does not match scale %v", c.winW, c.winH, got, scale)
		}
	}
	if r, s := Letterbox(0, 480, 640, 480); r != (Rect{}) || s != 0 {
		t.Errorf("zero-width window gave %+v, %v", r, s)
	}
}
