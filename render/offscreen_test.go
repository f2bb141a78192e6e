package render

import (
	"image"
	"testing"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// readDrawable reads the drawable itself (the pbuffer), whatever the
// renderer draws into, and binds the framebuffer before back.
func readDrawable(r *Renderer) *image.RGBA {
	var was int32
	gl.GetIntegerv(gl.FRAMEBUFFER_BINDING, &was)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	img := r.ReadPixels()
	gl.BindFramebuffer(gl.FRAMEBUFFER, uint32(was))
	return img
}

// oneColour reports whether every pixel of img is c's.
func oneColour(img *image.RGBA, r, g, b uint8) bool {
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] != r || img.Pix[i+1] != g || img.Pix[i+2] != b {
			return false
		}
	}
	return true
}

// ballsOf draws the scene of these tests: 200 balls over the world.
func ballsOf(r *Renderer) *image.RGBA {
	const n = 200
	last := make([]int32, 2*n)
	next := make([]int32, 2*n)
	for i := 0; i < n; i++ {
		last[2*i], last[2*i+1] = q8(float64(20+(i*37)%600)), q8(float64(20+(i*53)%440))
		next[2*i], next[2*i+1] = last[2*i]+q8(4), last[2*i+1]-q8(3)
	}
	r.Sync(last, next, 1, 1)
	return drawFrame(r, 0.5)
}

// TestOffscreenLeavesTheDrawable draws with Config.Offscreen: the frame
// is in the renderer's framebuffer object, and the drawable keeps the red
// it was cleared to. The same frame drawn into the drawable, by a
// renderer without it, is the same picture but for rounding: llvmpipe
// draws a window system's buffer upside down and rounds the edges of a
// few sprites the other way (236 of 307,200 pixels, each by 1, in a
// headless run of 3,000 balls; 2026-11-27).
func TestOffscreenLeavesTheDrawable(t *testing.T) {
	win := withGL(t, 640, 480)
	if err := gl.Init(); err != nil {
		t.Fatal(err)
	}
	gl.Disable(gl.SCISSOR_TEST)
	gl.ClearColor(1, 0, 0, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT)

	off := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Offscreen: true})
	if !off.Offscreen() {
		t.Fatal("Offscreen() = false with Config.Offscreen, at 640x480")
	}
	got := ballsOf(off)
	if !oneColour(readDrawable(off), 255, 0, 0) {
		t.Error("drawing offscreen changed the drawable")
	}
	if oneColour(got, 255, 0, 0) {
		t.Fatal("ReadPixels read the drawable, not the framebuffer object")
	}
	off.Delete()
	var bound int32
	if gl.GetIntegerv(gl.FRAMEBUFFER_BINDING, &bound); bound != 0 {
		t.Errorf("after Delete the framebuffer %d is bound, want the drawable (0)", bound)
	}

	on := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits})
	if on.Offscreen() {
		t.Fatal("Offscreen() = true without Config.Offscreen")
	}
	want := ballsOf(on)
	if oneColour(readDrawable(on), 255, 0, 0) {
		t.Fatal("drawing without Config.Offscreen left the drawable as it was")
	}
	if d, n := diff(got, want); d > 1 || n > len(got.Pix)/4/100 {
		t.Errorf("offscreen, %d pixels differ from the frame drawn into the drawable, by up to %d", n, d)
	}
}

// TestOffscreenFollowsTheSize resizes an offscreen renderer: the
// framebuffer object takes each new size; one beyond what the driver's
// renderbuffers can hold draws into the drawable instead, and the next
// size it can hold is offscreen again.
func TestOffscreenFollowsTheSize(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Offscreen: true})
	var most int32
	gl.GetIntegerv(gl.MAX_RENDERBUFFER_SIZE, &most)
	for _, s := range []struct {
		w, h int
		off  bool
	}{
		{320, 240, true},
		{int(most) + 1, 8, false},
		{200, 150, true},
		{640, 480, true},
	} {
		r.Resize(s.w, s.h)
		var bound int32
		gl.GetIntegerv(gl.FRAMEBUFFER_BINDING, &bound)
		if r.Offscreen() != s.off || (bound != 0) != s.off {
			t.Fatalf("at %dx%d: Offscreen() = %v, framebuffer %d bound; want offscreen %v", s.w, s.h, r.Offscreen(), bound, s.off)
		}
		if !s.off {
			continue
		}
		img := ballsOf(r)
		if img.Rect.Dx() != s.w || img.Rect.Dy() != s.h {
			t.Fatalf("at %dx%d: read back %v", s.w, s.h, img.Rect)
		}
		// The world fills the framebuffer object, letterboxed: its
		// background at the centre of the top, balls somewhere.
		bg := img.RGBAAt(s.w/2, 1)
		want := worldColor
		if abs(int(bg.R)-int(want[0]*255+0.5)) > 1 || abs(int(bg.B)-int(want[2]*255+0.5)) > 1 {
			t.Errorf("at %dx%d: the world's background reads %v", s.w, s.h, bg)
		}
		if _, _, n := centroid(img, Rect{0, 0, s.w, s.h}); n < 100 {
			t.Errorf("at %dx%d: %d pixels of balls, want many", s.w, s.h, n)
		}
	}
}
