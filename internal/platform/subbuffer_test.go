package platform

import (
	"image"
	"testing"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/internal/x11test"
)

// A window that presents parts of its back buffer (no swap) keeps the
// back buffer's pixels from one frame to the next, and the window shows
// the back buffer's pixels in the parts presented: what a renderer needs
// to repaint only what changed in a window. Checked on Xvfb (Mesa's GLX,
// which has GLX_MESA_copy_sub_buffer), reading both buffers back.
func TestPresentPartsKeepsTheBackBuffer(t *testing.T) {
	const w, h = 64, 48
	win, display := openOnXvfb(t, w, h)
	if win.Driver() != "x11" || !win.CanPresentParts() {
		t.Fatalf("driver %s, parts %v: Xvfb's GLX has GLX_MESA_copy_sub_buffer", win.Driver(), win.CanPresentParts())
	}
	fill := func(r image.Rectangle, red, green, blue float32) {
		gl.Enable(gl.SCISSOR_TEST)
		gl.Scissor(int32(r.Min.X), int32(h-r.Max.Y), int32(r.Dx()), int32(r.Dy()))
		gl.ClearColor(red, green, blue, 1)
		gl.Clear(gl.COLOR_BUFFER_BIT)
		gl.Disable(gl.SCISSOR_TEST)
	}
	read := func(buf uint32) []byte {
		gl.Finish()
		gl.ReadBuffer(buf)
		px := make([]byte, w*h*4)
		gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
		gl.ReadPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&px[0]))
		gl.ReadBuffer(gl.BACK)
		return px
	}
	// at is the colour of window pixel (px, py), from the top left.
	at := func(b []byte, px, py int) [3]byte {
		i := ((h-1-py)*w + px) * 4
		return [3]byte{b[i], b[i+1], b[i+2]}
	}
	whole := image.Rect(0, 0, w, h)
	square := image.Rect(8, 8, 24, 24)
	red, green, blue := [3]byte{255, 0, 0}, [3]byte{0, 255, 0}, [3]byte{0, 0, 255}

	fill(whole, 1, 0, 0)
	win.PresentParts([]image.Rectangle{whole})
	for frame := range 3 {
		// Each frame paints only the square, and presents only it.
		c, want := float32(frame%2), green
		if frame%2 == 1 {
			want = blue
		}
		fill(square, 0, 1-c, c)
		win.PresentParts([]image.Rectangle{square})
		back := read(gl.BACK)
		shown, err := x11test.Pixels(display, win.XWindow(), w, h)
		if err != nil {
			t.Fatal(err)
		}
		front := make([]byte, w*h*4) // as read, rows from the bottom
		for py := range h {
			for px := range w {
				v, i := shown[py*w+px], ((h-1-py)*w+px)*4
				front[i], front[i+1], front[i+2] = byte(v>>16), byte(v>>8), byte(v)
			}
		}
		for _, p := range []struct {
			x, y int
			want [3]byte
		}{{0, 0, red}, {63, 47, red}, {30, 30, red}, {7, 8, red}, {8, 8, want}, {23, 23, want}, {24, 23, red}} {
			if got := at(back, p.x, p.y); got != p.want {
				t.Errorf("frame %d: back buffer at (%d,%d) is %v, want %v (not kept)", frame, p.x, p.y, got, p.want)
			}
			if got := at(front, p.x, p.y); got != p.want {
				t.Errorf("frame %d: window at (%d,%d) shows %v, want %v", frame, p.x, p.y, got, p.want)
			}
		}
	}
}
