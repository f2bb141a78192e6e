package render

// Where the world is drawn: the window's size, the letterboxed view in
// it, and the viewports and scissor of the balls and the overlays.

import (
	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"
)

// marginPx is how far beyond the world's edges, in pixels, the viewport
// reaches. GL drops a point sprite whose centre leaves the viewport, so a
// ball drawn slightly past a wall (extrapolation overshoots there) would
// blink out; with the margin it is drawn and the scissor trims it.
const marginPx = 64

// Resize adapts the viewport and projection to a drawable of w x h pixels,
// the world filling it. Call it once at start and on every window size
// change, not every frame.
func (r *Renderer) Resize(w, h int) { r.ResizeArea(w, h, Rect{0, 0, w, h}) }

// ResizeArea is Resize with the world letterboxed into area, a part of
// the window (pixels, origin top left): the rest of the window is the
// bars' colour, for overlays beside the world rather than over it. It
// does nothing when neither the size nor the area changed.
func (r *Renderer) ResizeArea(w, h int, area Rect) {
	if w == r.winW && h == r.winH && area == r.area {
		return // every frame, as a rule: inlined
	}
	r.resizeArea(w, h, area)
}

func (r *Renderer) resizeArea(w, h int, area Rect) {
	area = area.Intersect(Rect{0, 0, w, h})
	if w <= 0 || h <= 0 || area.Empty() || (w == r.winW && h == r.winH && area == r.area) {
		return
	}
	r.winW, r.winH, r.area = w, h, area
	r.view, r.scale = Letterbox(area.W, area.H, r.cfg.WorldW, r.cfg.WorldH)
	r.view.X += area.X
	r.view.Y += area.Y
	r.ret.valid = false

	// The viewport is the letterboxed world plus a margin on every side;
	// the projection maps world units onto it accordingly. GL's window
	// origin is the bottom left; Rect's is the top left.
	r.vp = vpOther
	r.setWorldViewport()

	one := float32(int32(1) << r.cfg.FracBits)
	mx := float32(float64(marginPx)/r.scale) * one
	my := mx
	ww := float32(r.cfg.WorldW) * one
	wh := float32(r.cfg.WorldH) * one
	// y grows downwards in the world, as on screen.
	r.proj = mgl32.Ortho(-mx, ww+mx, wh+my, -my, -1, 1)

	rad := float64(r.cfg.Radius) * r.scale
	// The edge is anti-aliased from radius-0.5 to radius+0.5 pixels: the
	// sprite is just wide enough for it. Every pixel more is a fragment per
	// ball that a software rasterizer pays for.
	r.pointSize = float32(2*rad + 1)
	if r.maxPoint > 0 && r.pointSize > r.maxPoint {
		r.pointSize = r.maxPoint
	}
	r.resizeCells()
	for _, p := range r.programs() {
		r.viewTo(p)
	}
}

// viewport is what the GL viewport is set to, so that it is set only
// when it changes.
type viewport int

const (
	vpOther viewport = iota // not known (set by someone else)
	vpWorld                 // the letterboxed world and its margin (balls)
	vpFull                  // the whole window (overlays)
)

// setWorldViewport points the viewport at the letterboxed world (see
// marginPx).
func (r *Renderer) setWorldViewport() {
	if r.vp == vpWorld {
		return
	}
	r.vp = vpWorld
	vx := r.view.X - marginPx
	vy := r.winH - (r.view.Y + r.view.H) - marginPx
	gl.Viewport(int32(vx), int32(vy), int32(r.view.W+2*marginPx), int32(r.view.H+2*marginPx))
}

// setFullViewport points the viewport at the whole window (overlays).
func (r *Renderer) setFullViewport() {
	if r.vp == vpFull {
		return
	}
	r.vp = vpFull
	gl.Viewport(0, 0, int32(r.winW), int32(r.winH))
}

// scissor limits drawing to rect (window pixels, origin top left).
func (r *Renderer) scissor(rect Rect) {
	gl.Scissor(int32(rect.X), int32(r.winH-(rect.Y+rect.H)), int32(rect.W), int32(rect.H))
}

// WindowSize is the drawable size given to the last Resize.
func (r *Renderer) WindowSize() (w, h int) { return r.winW, r.winH }

// View returns the window rectangle the world is drawn into and the scale
// in pixels per world unit.
func (r *Renderer) View() (Rect, float64) { return r.view, r.scale }

// WorldToPixel maps a world position in units to window pixel coordinates
// (origin top left, pixel centres at .5).
func (r *Renderer) WorldToPixel(x, y float64) (float64, float64) {
	return float64(r.view.X) + x*r.scale, float64(r.view.Y) + y*r.scale
}
