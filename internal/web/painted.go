//go:build js && wasm

package web

import (
	"syscall/js"
	"unsafe"

	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/render/adaptive"
	"github.com/interpdemo/interpdemo/render/occlusion"
	"github.com/interpdemo/interpdemo/render/paint"
	"github.com/interpdemo/interpdemo/shaders"
)

// The painted option (options.go): package render/paint paints the balls
// on the CPU, front to back, into an image of the view; the page uploads
// it into one texture and draws it as the canvas's one rectangle, with
// the overlays' shaders (one texel a pixel).
//
// Where WebGL runs on the CPU (SwiftShader), drawing the balls shades
// every fragment of every sprite, most of them painted over: at 10,000
// balls painting costs the CPU a fraction of that, the image's upload
// included. On a GPU drawing is nearly free and painting is not. So the
// painted image is one more option of the balls' choice, listed last
// (it spends CPU work to save the GPU's): taken up only where it
// measures adaptive.Margin cheaper than the option in force, twice.
// ?paint=on forces it, ?paint=off never paints.
//
// A frame's cost is measured as culling's is: the painting is the
// strategy's time, the upload and the rectangle's draw the GPU time.

// The WebGL2 constants of the painted image.
const (
	glRGBA8         = 0x8058
	glRGBA          = 0x1908
	glUnsignedByte  = 0x1401
	glTriangleStrip = 0x0005
	// MAX_TEXTURE_SIZE: a view wider or taller than it is not painted.
	glMaxTextureSize = 0x0D33
)

// painter is the page's painted option: the painter, and the texture,
// program and copy buffer of its image.
type painter struct {
	paint.Painter
	mode   adaptive.Mode // ?paint=
	prog   js.Value      // the overlays' shaders; null where nothing paints
	rect   js.Value      // its uniforms
	window js.Value
	tex    js.Value
	bytes  js.Value // a Uint8Array the image is copied through
	maxTex int      // the largest texture's side the browser makes
	fits   bool     // the view's image fits in a texture
	fresh  bool     // bytes holds an image the texture does not yet
	on     bool     // the last frame that drew balls painted them
}

// initPaint makes the image's program and texture, for mode (nothing
// where it is off, or where no GPU timer measures auto against the
// other options and painting is not forced).
func (r *glRenderer) initPaint(mode adaptive.Mode) error {
	p := &r.paint
	p.Painter = *paint.New(worldColor)
	p.mode = mode
	if mode == adaptive.Off || (mode == adaptive.Auto && !r.cells.hasTimer()) {
		return nil
	}
	prog, err := r.program("painted", shaders.OverlayVert, shaders.OverlayFrag)
	if err != nil {
		return err
	}
	g := r.gl
	p.prog, p.rect, p.window = prog, r.uniform(prog, "rect"), r.uniform(prog, "window")
	p.maxTex = g.Call("getParameter", glMaxTextureSize).Int()
	g.Call("useProgram", prog)
	g.Call("uniform1i", r.uniform(prog, "tex"), 0)
	p.tex = g.Call("createTexture")
	g.Call("bindTexture", glTexture2D, p.tex)
	for _, q := range [][2]int{
		{glTextureMinFilter, glNearest}, {glTextureMagFilter, glNearest},
		{glTextureWrapS, glClampToEdge}, {glTextureWrapT, glClampToEdge},
	} {
		g.Call("texParameteri", glTexture2D, q[0], q[1])
	}
	g.Call("bindTexture", glTexture2D, nil)
	return nil
}

// paintUsable says the balls can be painted now: the program is made,
// the view suits the painter and its image a texture, and the painter
// holds the balls drawn.
func (r *glRenderer) paintUsable() bool {
	p := &r.paint
	return p.prog.Truthy() && p.Usable() && p.fits && p.Balls() == r.pos.N() && p.Balls() > 0
}

// resizePaint sizes the painter and the image's texture for view v.
func (r *glRenderer) resizePaint(v occlusion.View) {
	p := &r.paint
	if !p.prog.Truthy() {
		return
	}
	p.Resize(v)
	w, h := p.Size()
	if p.fits = p.Usable() && w <= p.maxTex && h <= p.maxTex; !p.fits {
		return
	}
	g := r.gl
	g.Call("bindTexture", glTexture2D, p.tex)
	g.Call("texImage2D", glTexture2D, 0, glRGBA8, w, h, 0, glRGBA, glUnsignedByte, nil)
	g.Call("bindTexture", glTexture2D, nil)
	p.fresh = false // the painter paints anew after Resize
	if p.bytes.IsUndefined() || p.bytes.Length() < 4*w*h {
		p.bytes = js.Global().Get("Uint8Array").New(4 * w * h)
	}
	g.Call("useProgram", p.prog)
	g.Call("uniform4f", p.rect, 0, 0, w, h)
	g.Call("uniform2f", p.window, w, h)
}

// syncPaint keeps the painter's copy of the positions sync uploaded.
func (r *glRenderer) syncPaint(last, next []int32) {
	p := &r.paint
	if !p.prog.Truthy() {
		return
	}
	p.Sync(last, next)
}

// paintBalls paints the balls at mix factor alpha, ball hl (-1 for none)
// in the player's colour, and copies the image to JavaScript, where it
// changed (p.fresh: the texture's upload is due).
func (r *glRenderer) paintBalls(alpha float32, hl int) {
	p := &r.paint
	p.SetHighlight(hl)
	img, fresh := p.Paint(alpha)
	if fresh {
		js.CopyBytesToJS(p.bytes, unsafe.Slice((*byte)(unsafe.Pointer(&img[0])), 4*len(img)))
	}
	p.fresh = p.fresh || fresh
}

// drawPainted uploads the painted image, where it changed since the last
// upload, and draws it over the whole canvas.
func (r *glRenderer) drawPainted() {
	p := &r.paint
	w, h := p.Size()
	g := r.gl
	g.Call("viewport", 0, 0, r.winW, r.winH)
	g.Call("bindTexture", glTexture2D, p.tex)
	if p.fresh {
		g.Call("texSubImage2D", glTexture2D, 0, 0, 0, w, h, glRGBA, glUnsignedByte, p.bytes)
		p.fresh = false
	}
	g.Call("useProgram", p.prog)
	g.Call("bindVertexArray", nil) // no attributes: the corners come from gl_VertexID
	g.Call("disable", glBlend)     // the image is opaque: no pixel to read
	g.Call("drawArrays", glTriangleStrip, 0, 4)
	g.Call("enable", glBlend)
	g.Call("bindTexture", glTexture2D, nil)
}

// painted reports whether the balls of the last Sync are painted: the
// option in force.
func (r *glRenderer) painted() bool { return r.option() == optPainted }

// paintStats is the painted option's part of the choice and its costs.
func (r *glRenderer) paintStats() paintStats {
	return newPaintStats(r.paint.mode, r.painted(), r.cells.choice)
}

// spritesHUD is the HUD's line of the balls' form: as sprites, or
// painted.
func (r *glRenderer) spritesHUD() hud.Sprites {
	h := r.spriteStats().hud()
	s := r.paintStats()
	h.Painted, h.PaintMode, h.CostPainted = s.On, s.Mode.String(), s.costHUD()
	return h
}
