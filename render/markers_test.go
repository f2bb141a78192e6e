package render

import (
	"image/color"
	"math"
	"slices"
	"testing"
)

// TestMarkersAreRingsWhereAsked draws a red and a green marker and a ball,
// in a window wider than the world (letterbox bars left and right), and
// reads the pixels back: each ring is where it was asked, in its colour,
// hollow; a marker in the bar is clipped; the ball drawn after the markers
// is still where the world puts it (the viewport was left as it was).
func TestMarkersAreRingsWhereAsked(t *testing.T) {
	win := withGL(t, 800, 480)
	r := newRenderer(t, win, 8)
	m, err := NewMarkers()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Delete)
	view, _ := r.View()
	if view.X < 40 {
		t.Fatalf("world view %+v: want letterbox bars at least 40 px wide", view)
	}
	pos := []int32{q8(500), q8(400)}
	r.Sync(pos, pos, 1, 1)

	r.Clear()
	bg := r.ReadPixels().RGBAAt(view.X+view.W/2, view.Y+3)
	r.Clear()
	r.DrawBalls(1)
	wantX, wantY, _ := centroid(r.ReadPixels(), view)

	const radius = 12
	rx, ry := r.WorldToPixel(100, 100)
	gx, gy := r.WorldToPixel(300, 200)
	bar := float32(view.X / 2) // the middle of the left bar
	marks := []Marker{
		{X: float32(rx), Y: float32(ry), R: 1, A: 1},
		{X: float32(gx), Y: float32(gy), G: 1, A: 1},
		{X: bar, Y: 240, R: 1, G: 1, B: 1, A: 1},
	}
	r.Clear()
	barBefore := r.ReadPixels().RGBAAt(int(bar)+radius-1, 240) // on the ring, if it were drawn
	m.Draw(r, marks, radius)
	r.DrawBalls(1)
	img := r.ReadPixels()

	for _, c := range []struct {
		name   string
		x, y   float64
		isRing func(r, g, b uint8) bool
	}{
		{"red", rx, ry, func(r, g, b uint8) bool { return r > 200 && g < 60 && b < 60 }},
		{"green", gx, gy, func(r, g, b uint8) bool { return g > 200 && r < 60 && b < 60 }},
	} {
		for a := 0; a < 8; a++ {
			ang := float64(a) * math.Pi / 4
			px, py := c.x+(radius-1)*math.Cos(ang), c.y+(radius-1)*math.Sin(ang)
			if p := img.RGBAAt(int(px), int(py)); !c.isRing(p.R, p.G, p.B) {
				t.Errorf("%s ring at (%.0f, %.0f), angle %d°: pixel %v", c.name, px, py, a*45, p)
			}
		}
		if p := img.RGBAAt(int(c.x), int(c.y)); !near(p, bg) {
			t.Errorf("%s ring's centre painted %v, want the background %v (a ring, not a disc)", c.name, p, bg)
		}
		if p := img.RGBAAt(int(c.x+radius+3), int(c.y)); !near(p, bg) {
			t.Errorf("%s ring reaches 3 px past its radius: %v", c.name, p)
		}
	}
	if p := img.RGBAAt(int(bar)+radius-1, 240); !near(p, barBefore) {
		t.Errorf("a marker in the letterbox bar was drawn: %v, want %v", p, barBefore)
	}
	mask := view
	mask.X, mask.W = view.X+view.W/2, view.W/2 // the ball's half, away from the rings
	gotX, gotY, _ := centroid(img, mask)
	if math.Hypot(gotX-wantX, gotY-wantY) > 0.5 {
		t.Errorf("the ball drawn after the markers is at (%.2f, %.2f), before at (%.2f, %.2f): the markers changed the viewport", gotX, gotY, wantX, wantY)
	}
}

// near: the colours differ by at most 2 in each channel (the clear colour
// is not a whole number of 8-bit steps, and the driver may dither it).
func near(a, b color.RGBA) bool {
	d := func(x, y uint8) bool { return x <= y+2 && y <= x+2 }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

// Rings drawn after a retained frame count as painting the whole window:
// a window that presents only what the frame painted shows them, and the
// next frame repaints whole.
func TestMarkersCountAsPaintedWhole(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Retained: true})
	m, err := NewMarkers()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Delete)
	pos := []int32{q8(100), q8(100)}
	r.Sync(pos, pos, 1, 1)
	whole := []Rect{{0, 0, 640, 480}}
	r.Draw(&Frame{Alpha: 1})
	r.Draw(&Frame{Alpha: 1}) // retained: a part of the window
	if p := r.Painted(); slices.Equal(p, whole) {
		t.Fatalf("a retained frame painted the whole window: the test tests nothing")
	}
	m.Draw(r, []Marker{{X: 300, Y: 200, R: 1, A: 1}}, 10)
	if p := r.Painted(); !slices.Equal(p, whole) {
		t.Errorf("after the rings, painted %v, want the whole window", p)
	}
	r.Draw(&Frame{Alpha: 1})
	if p := r.Painted(); !slices.Equal(p, whole) {
		t.Errorf("the frame after the rings painted %v, want the whole window", p)
	}
}
