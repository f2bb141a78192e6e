package render

import (
	"github.com/go-gl/gl/v3.3-core/gl"
)

// Drawing offscreen (Config.Offscreen). Headless, SDL's offscreen driver
// gives the context an EGL pbuffer as its drawable, and a pbuffer is
// whatever the driver makes it: NVIDIA's (driver 580, headless, no
// display) draws as if over the bus, not at the speed of the GPU's own
// memory. Measured on an H200 on 2026-11-27 (4222101's build, one ball,
// every frame painted whole): 19 µs a frame at 320x240, 52 at 640x480,
// 183 at 1280x960 and 709 at 2560x1920, about 7 gigapixels a second for
// two clears and a blended ball, at full clocks; and the ball draw's own
// GPU time (a timer query) grew with the pixels it blends at the same
// rate: 27 µs for 1,000 balls of 16 px, 27 ms for 1,000,000. A
// framebuffer object is the GPU's own memory on every driver: headless,
// where nothing is ever shown, the renderer draws into one, and the
// pbuffer is left alone. ReadPixels reads the framebuffer object.

// target is the framebuffer object drawn into instead of the drawable: a
// colour renderbuffer of the drawable's size (8-bit RGBA, as the drawable:
// every draw blends premultiplied over an opaque background, so alpha
// stays 1 and the pixels read back are the drawable's).
type target struct {
	fbo, rb uint32
	w, h    int
	ok      bool // complete and bound: drawing goes into it
}

// init makes the framebuffer object; resize gives it storage.
func (t *target) init() {
	gl.GenFramebuffers(1, &t.fbo)
	gl.GenRenderbuffers(1, &t.rb)
}

// resize gives the renderbuffer w x h pixels and binds the framebuffer
// object for drawing and reading. Where the driver cannot (a size beyond
// GL_MAX_RENDERBUFFER_SIZE, no memory), it binds the drawable instead,
// and drawing goes on there as without Config.Offscreen.
func (t *target) resize(w, h int) {
	if t.fbo == 0 || (t.ok && w == t.w && h == t.h) {
		return
	}
	t.w, t.h, t.ok = w, h, false
	var most int32
	gl.GetIntegerv(gl.MAX_RENDERBUFFER_SIZE, &most)
	if w <= 0 || h <= 0 || w > int(most) || h > int(most) {
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		return
	}
	gl.BindRenderbuffer(gl.RENDERBUFFER, t.rb)
	gl.RenderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, int32(w), int32(h))
	gl.BindRenderbuffer(gl.RENDERBUFFER, 0)
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fbo)
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, t.rb)
	if gl.CheckFramebufferStatus(gl.FRAMEBUFFER) != gl.FRAMEBUFFER_COMPLETE {
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		return
	}
	t.ok = true
}

// delete frees the framebuffer object and binds the drawable.
func (t *target) delete() {
	if t.fbo == 0 {
		return
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.DeleteFramebuffers(1, &t.fbo)
	gl.DeleteRenderbuffers(1, &t.rb)
	*t = target{}
}

// Offscreen reports whether the renderer draws into a framebuffer object
// of its own (Config.Offscreen, where the driver could make one of the
// drawable's size), not into the drawable.
func (r *Renderer) Offscreen() bool { return r.off.ok }
