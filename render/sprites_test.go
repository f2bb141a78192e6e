package render

import (
	"fmt"
	"image"
	"image/color"
	"testing"
)

// TestFewBallsRepaintTheirSprites: at one ball, between the overlays'
// updates, a frame repaints one rectangle holding the sprite where the
// last frame drew it and where this one draws it, in two passes (the
// background and the ball), and a third only where the ball is under a
// layer.
func TestFewBallsRepaintTheirSprites(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Retained: true})
	hud := r.NewOverlay(300, 70)
	f := Frame{Layers: []Layer{{Overlay: hud, W: 300, H: 70}}}
	side := int(r.pointSize) + 2*spritePad + 1 // the sprite's rectangle, at most
	for k, c := range []struct {
		name   string
		y      float64
		passes int
	}{{"in the open", 200, 2}, {"under the HUD", 30, 3}} {
		// 4 units a tick: under a pixel a frame at ten frames a tick.
		last := []int32{q8(100), q8(c.y)}
		next := []int32{q8(104), q8(c.y)}
		r.Sync(last, next, 1, uint64(k+1)) // moved: both positions anew
		f.Alpha = 0
		r.Draw(&f) // whole, or repainting where the ball was before
		win.Swap()
		for i := 1; i < 10; i++ {
			f.Alpha = float32(i) / 10
			r.Draw(&f)
			win.Swap()
			if px, max := r.RepaintedPixels(), (side+1)*side; px == 0 || px > max {
				t.Errorf("%s, frame %d: repainted %d pixels, want 1 to %d", c.name, i, px, max)
			}
			if p := r.Passes(); p != c.passes {
				t.Errorf("%s, frame %d: %d passes, want %d", c.name, i, p, c.passes)
			}
		}
	}
}

// TestBallsStayInTheirRectangle: a ball drawn into part of its sprite
// changes no pixel outside that part, on any side. (Mesa's llvmpipe lets
// a point sprite through one row below the scissor: the ball shaders clip
// too.)
func TestBallsStayInTheirRectangle(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits})
	for _, y := range []float64{200, 200.3, 200.5} {
		pos := []int32{q8(300), q8(y)}
		r.Sync(pos, pos, 1, 1)
		r.Clear()
		bg := r.ReadPixels()
		for _, part := range []Rect{{280, 190, 40, 10}, {280, 200, 40, 20}, {280, 180, 20, 40}, {300, 180, 20, 40}} {
			r.Clear()
			r.drawBalls(1, []Rect{part}, false)
			img := r.ReadPixels()
			inside := 0
			for py := 170; py < 230; py++ {
				for px := 270; px < 330; px++ {
					changed := img.RGBAAt(px, py) != bg.RGBAAt(px, py)
					in := image.Pt(px, py).In(image.Rect(part.X, part.Y, part.X+part.W, part.Y+part.H))
					if changed && !in {
						t.Fatalf("ball at y %v drawn into %v: pixel %d,%d outside changed", y, part, px, py)
					}
					if changed {
						inside++
					}
				}
			}
			if inside == 0 {
				t.Fatalf("ball at y %v drawn into %v: no pixel changed", y, part)
			}
		}
	}
}

// TestWholeFramesKeepTheBars: a frame painted whole draws its balls
// without the shaders' clip test (the scissor alone), so a ball past the
// world's edges (extrapolation overshoots there) must still leave every
// letterbox bar pixel in the bars' colour, on every side, both by Draw
// and by Clear and DrawBalls.
func TestWholeFramesKeepTheBars(t *testing.T) {
	for _, size := range [][2]int{{640, 560}, {760, 480}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) { wholeFrameKeepsTheBars(t, size) })
	}
}

func wholeFrameKeepsTheBars(t *testing.T, size [2]int) {
	{
		win := withGL(t, size[0], size[1])
		r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits})
		view, _ := r.View()
		if view.X == 0 && view.Y == 0 {
			t.Fatalf("%v: no bars around the view %+v", size, view)
		}
		// Four balls moving out through the walls, drawn as far past
		// their next positions as extrapolation goes.
		last := []int32{q8(320), q8(470.3), q8(320), q8(9.6), q8(9.4), q8(240), q8(630.7), q8(240)}
		next := []int32{q8(320), q8(478.6), q8(320), q8(1.2), q8(1.5), q8(240), q8(638.4), q8(240)}
		r.Sync(last, next, 1, 1)
		want := color.RGBA{uint8(barColor[0]*255 + 0.5), uint8(barColor[1]*255 + 0.5), uint8(barColor[2]*255 + 0.5), 255}
		for _, how := range []string{"Draw", "DrawBalls"} {
			for _, alpha := range []float32{1, 1.5, 2} {
				if how == "Draw" {
					r.Draw(&Frame{Alpha: alpha})
				} else {
					r.Clear()
					r.DrawBalls(alpha)
				}
				img := r.ReadPixels()
				inside := image.Rect(view.X, view.Y, view.X+view.W, view.Y+view.H)
				for y := 0; y < size[1]; y++ {
					for x := 0; x < size[0]; x++ {
						if !image.Pt(x, y).In(inside) && !near(img.RGBAAt(x, y), want) {
							t.Fatalf("%v, %s at %v: bar pixel %d,%d is %v, want %v (view %+v)", size, how, alpha, x, y, img.RGBAAt(x, y), want, view)
						}
					}
				}
			}
		}
	}
}
