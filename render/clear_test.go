package render

import (
	"image/color"
	"testing"
)

// TestClearPaintsEachPixelOnce clears windows of several shapes: every
// pixel of the world's view must be the world's colour and every other
// the bars'. The clears: one where the world fills the window; the whole
// window in the world's colour, then each bar, where the bars are the
// smaller part; the whole window in the bars' colour, then the world,
// where the world is. Clearing the window in the bars' colour and the
// world over it whatever the shape (as before) fails the first case.
func TestClearPaintsEachPixelOnce(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRenderer(t, win, 8)
	for _, c := range []struct {
		name   string
		w, h   int
		area   Rect
		clears int
	}{
		{"the world fills the window", 640, 480, Rect{0, 0, 640, 480}, 1},
		{"bars left and right", 640, 360, Rect{0, 0, 640, 360}, 3},
		{"bars above and below", 400, 480, Rect{0, 0, 400, 480}, 3},
		{"a column beside the world", 640, 480, Rect{160, 0, 480, 360}, 3},
		{"bars larger than the world", 640, 480, Rect{600, 440, 40, 40}, 2},
	} {
		r.ResizeArea(c.w, c.h, c.area)
		if n := r.clear(); n != c.clears {
			t.Errorf("%s: %d clears, want %d", c.name, n, c.clears)
		}
		img := r.ReadPixels()
		view, _ := r.View()
		world, bars := rgba(worldColor), rgba(barColor)
		wrong := 0
		for y := 0; y < c.h; y++ {
			for x := 0; x < c.w; x++ {
				want := bars
				if x >= view.X && x < view.X+view.W && y >= view.Y && y < view.Y+view.H {
					want = world
				}
				if got := img.RGBAAt(x, y); abs(int(got.R)-int(want.R)) > 1 || abs(int(got.G)-int(want.G)) > 1 || abs(int(got.B)-int(want.B)) > 1 {
					if wrong == 0 {
						t.Errorf("%s (view %v): pixel (%d, %d) is %v, want %v", c.name, view, x, y, got, want)
					}
					wrong++
				}
			}
		}
		if wrong > 0 {
			t.Errorf("%s: %d pixels wrong", c.name, wrong)
		}
	}
}

// rgba is a colour of the renderer's as 8-bit RGBA.
func rgba(c [4]float32) color.RGBA {
	return color.RGBA{uint8(c[0]*255 + 0.5), uint8(c[1]*255 + 0.5), uint8(c[2]*255 + 0.5), uint8(c[3]*255 + 0.5)}
}
