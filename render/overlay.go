package render

import (
	"fmt"
	"image"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/shaders"
)

// Overlay is a texture holding an RGBA image (premultiplied, as Go's
// image.RGBA) drawn as a rectangle in window pixels: the HUD's text and the
// frame-time graph. Its uploads are counted apart from the balls', since
// they do not depend on the world.
type Overlay struct {
	tex  uint32
	w, h int // the most texels it holds: NewOverlay's size
	// The texture's storage, tw x th texels: none until an upload or a
	// draw needs it, then what they reach, grown as they reach further
	// (reserve).
	tw, th   int
	src      *image.RGBA // the image of the last upload, which fills storage grown for a draw
	uploaded int64
	version  uint64 // counts uploads: a retained layer is repainted when it changes
	defined  bool   // the texels have values (define): an upload or a draw came
	// What the uploads changed since the overlay was last drawn, in
	// texels: at most maxDamage rectangles (more are merged), so that a
	// retained frame repaints only those parts of the layer.
	damage  [maxDamage]Rect
	nDamage int
}

// maxDamage is how many separate changed rectangles an overlay keeps
// between two frames (a sweeping graph changes two where it wraps).
const maxDamage = 2

// damaged adds rect (texels) to what changed since the overlay was drawn.
func (o *Overlay) damaged(rect Rect) {
	for i := range o.damage[:o.nDamage] {
		if d := o.damage[i]; !d.Intersect(Rect{rect.X - 1, rect.Y - 1, rect.W + 2, rect.H + 2}).Empty() {
			o.damage[i] = d.Union(rect) // overlapping or touching
			return
		}
	}
	if o.nDamage < maxDamage {
		o.damage[o.nDamage] = rect
		o.nDamage++
		return
	}
	// Merged into the rectangle it grows least.
	best, cost := 0, -1
	for i, d := range o.damage {
		if c := d.Union(rect).area() - d.area(); cost < 0 || c < cost {
			best, cost = i, c
		}
	}
	o.damage[best] = o.damage[best].Union(rect)
}

// overlays is the shared program of all overlays.
type overlays struct {
	prog               *Program
	uRect, uWindow, uT int32
	vao                uint32
}

func newOverlays() (*overlays, error) {
	p, err := NewProgram("overlay", shaders.OverlayVert, shaders.OverlayFrag)
	if err != nil {
		return nil, err
	}
	o := &overlays{prog: p}
	if err := p.uniforms(uniform{&o.uRect, "rect"}, uniform{&o.uWindow, "window"}, uniform{&o.uT, "tex"}); err != nil {
		p.Delete()
		return nil, fmt.Errorf("overlay program: %w", err)
	}
	gl.GenVertexArrays(1, &o.vao) // core profile draws need a VAO, even an empty one
	p.Use()
	gl.Uniform1i(o.uT, 0)
	return o, nil
}

func (o *overlays) delete() {
	if o == nil {
		return
	}
	gl.DeleteVertexArrays(1, &o.vao)
	o.prog.Delete()
}

// NewOverlay makes an empty (transparent) overlay of up to w x h texels.
// Sizes below 1 pixel are taken as 1. Its texture holds only what the
// uploads and draws reach (see reserve): a panel sized for its largest
// form (the HUD's long text, the graph's widest window) costs what it
// shows.
func (r *Renderer) NewOverlay(w, h int) *Overlay {
	w, h = max(w, 1), max(h, 1)
	o := &Overlay{w: w, h: h}
	gl.GenTextures(1, &o.tex)
	gl.BindTexture(gl.TEXTURE_2D, o.tex)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	r.overlayList = append(r.overlayList, o)
	return o
}

// storageStep is the multiple of texels the storage grows by, so that a
// panel growing a little at a time (a window widened by the pointer) does
// not reallocate it at each step.
const storageStep = 64

// reserve makes the texture's storage hold at least the top-left w x h
// texels (at most the overlay's size); new storage's texels are undefined
// until define. Storage is
// allocated as needed, not in NewOverlay: the demo's two panels, sized
// for their largest forms (420x520 and 2048x108 texels), cost the demo's
// start-up 6 ms on llvmpipe allocated whole (2026-11-27), where their
// first frame shows 271x110 and 640x108.
func (o *Overlay) reserve(w, h int) {
	up := func(n, have, most int) int {
		return min(max(have, (n+storageStep-1)/storageStep*storageStep), most)
	}
	w, h = up(w, o.tw, o.w), up(h, o.th, o.h)
	if w <= o.tw && h <= o.th {
		return
	}
	o.tw, o.th = w, h
	gl.BindTexture(gl.TEXTURE_2D, o.tex)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, int32(w), int32(h), 0, gl.RGBA, gl.UNSIGNED_BYTE, nil)
	o.defined = false
}

// define gives every texel of the storage, undefined since reserve
// allocated it, a value: img's, where it has them (the demo's panels
// cover the whole overlay), else transparent. Not at allocation: a blank
// upload there, from a fresh buffer into fresh texture memory, cost 15 ms
// of the demo's start-up for its two overlays on llvmpipe, for texels
// the first picture then wrote again (DESIGN.md, "Where start-up goes",
// says what else the start leaves to later).
func (o *Overlay) define(img *image.RGBA) {
	o.defined = true
	gl.BindTexture(gl.TEXTURE_2D, o.tex)
	all := image.Rect(0, 0, o.tw, o.th)
	var has image.Rectangle
	if img != nil {
		has = img.Rect.Intersect(all)
	}
	if has != all {
		blank := make([]byte, o.tw*o.th*4)
		gl.TexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, int32(o.tw), int32(o.th), gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&blank[0]))
	}
	if !has.Empty() {
		o.upload(img, has)
	}
}

// Size is the overlay's size in texels.
func (o *Overlay) Size() (w, h int) { return o.w, o.h }

// Upload copies the part rect of img (which has the overlay's size) into
// the texture. The first upload, and the first after the texture's
// storage grew to hold rect, copies all of img that the storage holds:
// the storage has no picture before it (see define).
func (o *Overlay) Upload(img *image.RGBA, rect image.Rectangle) {
	rect = rect.Intersect(image.Rect(0, 0, o.w, o.h)).Intersect(img.Bounds())
	if rect.Empty() {
		return
	}
	o.src = img
	if o.reserve(rect.Max.X, rect.Max.Y); !o.defined {
		o.define(img) // rect included
		return
	}
	gl.BindTexture(gl.TEXTURE_2D, o.tex)
	o.upload(img, rect)
}

// upload copies the part rect of img into the bound texture.
func (o *Overlay) upload(img *image.RGBA, rect image.Rectangle) {
	gl.PixelStorei(gl.UNPACK_ROW_LENGTH, int32(img.Stride/4))
	gl.TexSubImage2D(gl.TEXTURE_2D, 0, int32(rect.Min.X), int32(rect.Min.Y), int32(rect.Dx()), int32(rect.Dy()),
		gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&img.Pix[img.PixOffset(rect.Min.X, rect.Min.Y)]))
	gl.PixelStorei(gl.UNPACK_ROW_LENGTH, 0)
	o.uploaded += int64(rect.Dx() * rect.Dy() * 4)
	o.version++
	o.damaged(Rect{rect.Min.X, rect.Min.Y, rect.Dx(), rect.Dy()})
}

// UploadedBytes is the total of texture bytes sent by Upload.
func (o *Overlay) UploadedBytes() int64 { return o.uploaded }

// DrawOverlay draws the top-left w x h pixels of o at window pixel (x, y),
// one texel per pixel, over whatever is drawn. (Draw draws a frame's
// overlays as its layers.)
func (r *Renderer) DrawOverlay(o *Overlay, x, y, w, h int) {
	r.drawnOutside()
	l := Layer{Overlay: o, X: x, Y: y, W: w, H: h}
	r.drawLayer(l, l.rect().Intersect(Rect{0, 0, r.winW, r.winH}))
}

// drawLayer draws the part clip of layer l.
func (r *Renderer) drawLayer(l Layer, clip Rect) {
	if l.W <= 0 || l.H <= 0 || l.Overlay == nil || clip.Empty() || r.winW == 0 {
		return
	}
	ov := r.ov
	o := l.Overlay
	gl.Enable(gl.SCISSOR_TEST)
	r.scissor(clip)
	r.setFullViewport()
	ov.prog.Use()
	gl.BindVertexArray(ov.vao)
	gl.ActiveTexture(gl.TEXTURE0)
	if o.reserve(l.W, l.H); !o.defined {
		o.define(o.src) // the last upload's image, or transparent before any
	}
	gl.BindTexture(gl.TEXTURE_2D, o.tex)
	gl.Uniform4f(ov.uRect, float32(l.X), float32(l.Y), float32(l.W), float32(l.H))
	gl.Uniform2f(ov.uWindow, float32(r.winW), float32(r.winH))
	if l.Opaque {
		gl.Disable(gl.BLEND) // the same pixels, with less to do
	}
	gl.DrawArrays(gl.TRIANGLE_STRIP, 0, 4)
	if l.Opaque {
		gl.Enable(gl.BLEND)
	}
	r.draws++
}

func (o *Overlay) delete() {
	if o.tex != 0 {
		gl.DeleteTextures(1, &o.tex)
		o.tex = 0
	}
}
