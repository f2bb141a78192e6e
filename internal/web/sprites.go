//go:build js && wasm

package web

import (
	"syscall/js"

	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/render/adaptive"
	"github.com/interpdemo/interpdemo/shaders"
)

// The balls' form on the page, as in the window (render/quads.go): point
// sprites, or squares of two triangles each, the same disc shaded in
// them; ?sprites=auto (the default) chooses by measurement, with the
// culling's timer and measures, ?sprites=points or quads forces one.
// Points, squares and culled points are the options of one choice
// (cull.go, options.go): every frame that choice measures weighs one of
// the three against another, so the form is compared in frames that
// could cull too, and the culling against either form.
//
// Points come first in the page's list, where the window's form starts
// with squares: each the form measured cheaper on the software
// rasterizer at hand (SwiftShader here, llvmpipe there). The list's
// order is the choice's hysteresis: the squares are taken up over the
// points only where they measure adaptive.Margin cheaper, twice, and
// kept while cheaper at all.
//
// The squares are one draw of six vertices a ball, which read their
// ball's positions from textures. WebGL2 has no buffer textures, which
// the window reads them from: the page keeps two RG32I textures of
// posTexWidth texels a row, each a copy of a position buffer that the GPU
// makes from the buffer itself (bound as PIXEL_UNPACK_BUFFER), so nothing
// more crosses from JavaScript; made in the frame that draws squares
// after the buffer was written, so that a page drawing points copies
// nothing. A draw instanced per ball, tried first, was far slower on
// SwiftShader, which draws instance after instance: 0.5x the points'
// frame rate at 1,000 balls, 0.33x at 10,000 (TestWebSpritesFrameRate
// on that build, 2026-11-29).
//
// Without EXT_disjoint_timer_query_webgl2, nothing measures what either
// form costs the GPU: auto stays with points, the form every browser
// draws natively (their program alone is made), and ?sprites=quads
// forces squares.

// The WebGL2 constants of the squares.
const (
	glPixelUnpackBuffer = 0x88EC
	glRG32I             = 0x823B
	glRGInteger         = 0x8228
	posTexUnitLast      = 3 // ball.vert's lastTex, with TEX2D_POSITIONS
	posTexUnitNext      = 4 // and nextTex
	// posTexWidth is the texels a row of the position textures. WebGL2
	// guarantees textures of 2,048 texels a side: physics.MaxBalls
	// balls fit.
	posTexWidth = 1024
)

// The position textures hold physics.MaxBalls balls within 2,048 rows.
const _ = uint(2048*posTexWidth - physics.MaxBalls)

// spriteChooser is the page's form of the balls: the squares' program,
// vertex array and position textures.
type spriteChooser struct {
	mode  adaptive.Mode // ?sprites=, as demo.SpritesForms names it (On: points; Off: squares)
	prog  ballProgram
	vao   js.Value    // no attributes: the vertices read the textures
	tex   [2]js.Value // tex[i] is a copy of vbo[i], but where stale[i]
	stale [2]bool     // vbo[i] was written since tex[i] was copied
	quads bool        // the last frame that drew balls drew squares
}

// initSprites makes the squares' program, vertex array and textures
// (none where points are forced, or auto has no GPU timer to measure
// them with), for mode. vert is ball.vert as the page's points compile
// it.
func (r *glRenderer) initSprites(mode adaptive.Mode, vert string) error {
	s := &r.sprites
	s.mode = mode
	if mode == adaptive.On || (mode == adaptive.Auto && !r.cells.hasTimer()) {
		return nil // points, forced or never compared: no squares
	}
	v, err := shaders.WithDefine(vert, "QUADS")
	if err == nil {
		v, err = shaders.WithDefine(v, "TEX2D_POSITIONS")
	}
	if err != nil {
		return err
	}
	f, err := discFrag("QUADS")
	if err != nil {
		return err
	}
	if s.prog.prog, err = r.program("squares", v, f); err != nil {
		return err
	}
	r.initBall(&s.prog)
	g := r.gl
	g.Call("uniform1i", r.uniform(s.prog.prog, "lastTex"), posTexUnitLast)
	g.Call("uniform1i", r.uniform(s.prog.prog, "nextTex"), posTexUnitNext)
	g.Call("uniform1i", r.uniform(s.prog.prog, "texWidth"), posTexWidth)
	s.vao = g.Call("createVertexArray")
	for i := range s.tex {
		s.tex[i] = g.Call("createTexture")
		g.Call("bindTexture", glTexture2D, s.tex[i])
		g.Call("texParameteri", glTexture2D, glTextureMinFilter, glNearest)
		g.Call("texParameteri", glTexture2D, glTextureMagFilter, glNearest)
	}
	g.Call("bindTexture", glTexture2D, nil)
	return nil
}

// squaresUsable says the squares can be drawn: their program is made.
func (r *glRenderer) squaresUsable() bool { return r.sprites.prog.prog.Truthy() }

// growSquares sizes the position textures for capacity balls.
func (r *glRenderer) growSquares(capacity int) {
	if !r.squaresUsable() {
		return
	}
	g := r.gl
	rows := (capacity + posTexWidth - 1) / posTexWidth
	for _, t := range r.sprites.tex {
		g.Call("bindTexture", glTexture2D, t)
		g.Call("texImage2D", glTexture2D, 0, glRG32I, posTexWidth, rows, 0, glRGInteger, glInt, nil)
	}
	g.Call("bindTexture", glTexture2D, nil)
}

// copySquares copies the first n balls' positions of vbo[i] into
// tex[i], on the GPU: full rows, then the last row's rest.
func (r *glRenderer) copySquares(i, n int) {
	r.sprites.stale[i] = false
	if n == 0 {
		return
	}
	g := r.gl
	g.Call("bindBuffer", glPixelUnpackBuffer, r.vbo[i])
	g.Call("bindTexture", glTexture2D, r.sprites.tex[i])
	if rows := n / posTexWidth; rows > 0 {
		g.Call("texSubImage2D", glTexture2D, 0, 0, 0, posTexWidth, rows, glRGInteger, glInt, 0)
	}
	if rows, rest := n/posTexWidth, n%posTexWidth; rest > 0 {
		g.Call("texSubImage2D", glTexture2D, 0, 0, rows, rest, 1, glRGInteger, glInt, rows*posTexWidth*8)
	}
	g.Call("bindTexture", glTexture2D, nil)
	g.Call("bindBuffer", glPixelUnpackBuffer, nil) // the culler's uploads read from JavaScript again
}

// drawSquares draws n balls as squares at mix factor alpha, from the
// textures of last, copied first where their buffers were written since.
func (r *glRenderer) drawSquares(alpha float32, last, n int) {
	for i, stale := range r.sprites.stale {
		if stale {
			r.copySquares(i, n)
		}
	}
	g := r.gl
	p := &r.sprites.prog
	g.Call("bindVertexArray", r.sprites.vao)
	g.Call("useProgram", p.prog)
	g.Call("uniform1f", p.alpha, alpha)
	g.Call("activeTexture", glTexture0+posTexUnitLast)
	g.Call("bindTexture", glTexture2D, r.sprites.tex[last])
	g.Call("activeTexture", glTexture0+posTexUnitNext)
	g.Call("bindTexture", glTexture2D, r.sprites.tex[1-last])
	g.Call("activeTexture", glTexture0)
	g.Call("drawArrays", glTriangles, 0, 6*n)
}

// quads reports whether the balls of the last Sync are drawn as
// squares: the option in force.
func (r *glRenderer) quads() bool { return r.option() == optSquares }

// spriteStats is the form's part of the choice and its costs.
func (r *glRenderer) spriteStats() spriteStats {
	return newSpriteStats(r.sprites.mode, r.quads(), r.cells.hasTimer(), r.cells.choice)
}

// programs are the ball programs made, for uniforms set on every one.
func (r *glRenderer) programs() []*ballProgram {
	if r.squaresUsable() {
		return r.progs[:3]
	}
	return r.progs[:2]
}
