package render

// The ball programs: ball.vert with each fragment shader, made on first
// use, and the uniforms they all share (the highlight, the view).

import (
	"fmt"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/render/adaptive"
	"github.com/interpdemo/interpdemo/render/occlusion"
	"github.com/interpdemo/interpdemo/shaders"
)

// initBallPrograms sets out the ball programs' sources and makes the
// first frame's program (the others are made when first drawn with).
func (r *Renderer) initBallPrograms() error {
	r.progs = make([]*ballProgram, 0, 6)
	ballWhole, err := shaders.WithDefine(shaders.BallFrag, "WHOLE_FRAME")
	if err != nil {
		return err
	}
	discWhole, err := shaders.WithDefine(shaders.DiscFrag, "WHOLE_FRAME")
	if err != nil {
		return err
	}
	discQuads, err := shaders.WithDefine(shaders.DiscFrag, "QUADS")
	if err != nil {
		return err
	}
	discWholeQuads, err := shaders.WithDefine(discWhole, "QUADS")
	if err != nil {
		return err
	}
	r.ball.src = ballSource{"ball", shaders.BallFrag, true, true, true, false}
	r.disc.src = ballSource{"disc", shaders.DiscFrag, true, false, true, false}
	r.ballWhole.src = ballSource{"ball (whole frame)", ballWhole, true, true, false, false}
	r.discWhole.src = ballSource{"disc (whole frame)", discWhole, true, false, false, false}
	r.discQuads.src = ballSource{"disc (squares)", discQuads, true, false, true, true}
	r.discWholeQuads.src = ballSource{"disc (squares, whole frame)", discWholeQuads, true, false, false, true}
	// The program of a frame painted whole, as the first is, is made
	// now, and a driver that cannot compile it fails New; the others
	// when first drawn with (ready). Each program but the first that
	// Mesa compiles and links in a process costs about 1.2 ms on
	// llvmpipe, so only what the first frame draws is made before it
	// (docs/DESIGN.md, "Where start-up goes", for why): the demo's first
	// frame draws with one of the six: the squares' unless culling or
	// points are forced (the choices start without culling, and with
	// squares: quads.go).
	first := &r.discWholeQuads
	switch {
	case r.cfg.Painter:
		first = &r.ballWhole
	case r.cfg.Cull == adaptive.On || r.cfg.Sprites == adaptive.On:
		first = &r.discWhole
	}
	if err = r.compile(first); err != nil {
		r.Delete()
		return err
	}
	return nil
}

// SetHighlightFirst gives ball 0 its own colour (the player's ball).
func (r *Renderer) SetHighlightFirst(on bool) {
	if on {
		r.SetHighlight(0)
	} else {
		r.SetHighlight(-1)
	}
}

// SetHighlight gives ball i the player's colour (in a network game, the
// ball this player moves); -1 for none.
func (r *Renderer) SetHighlight(i int) {
	if int32(max(i, -1)) != r.highlight {
		r.setHighlight(max(i, -1))
	}
}

func (r *Renderer) setHighlight(i int) {
	r.highlight = int32(i)
	for _, p := range r.programs() {
		r.highlightTo(p)
	}
	r.ret.valid = false // the ball changes colour wherever it is
}

// highlightTo gives ball program p the highlight's uniforms.
func (r *Renderer) highlightTo(p *ballProgram) {
	p.prog.Use()
	on := int32(0)
	if r.highlight >= 0 {
		on = 1
		gl.Uniform1i(p.highlightBall, r.highlight)
	}
	gl.Uniform1i(p.highlight, on)
}

// compile makes ball program p and gives it what the programs share:
// the highlight and the view (setHighlight, resizeArea).
func (r *Renderer) compile(p *ballProgram) error {
	if err := p.init(); err != nil {
		return err
	}
	r.progs = append(r.progs, p)
	r.highlightTo(p)
	if r.winW > 0 {
		r.viewTo(p) // else the first Resize gives it
	}
	return nil
}

// ready makes ball program p on its first use, and reports whether it
// can draw: where it cannot be made, nothing is drawn with it, and
// DebugErr returns why.
func (r *Renderer) ready(p *ballProgram) bool {
	if p.prog != nil {
		return true
	}
	if r.progErr == nil {
		r.progErr = r.compile(p)
	}
	return r.progErr == nil
}

// viewTo gives ball program p the view's uniforms.
func (r *Renderer) viewTo(p *ballProgram) {
	p.prog.Use()
	gl.UniformMatrix4fv(p.proj, 1, false, &r.proj[0])
	gl.Uniform1f(p.pointSize, r.pointSize)
	if p.radius >= 0 {
		gl.Uniform1f(p.radius, float32(float64(r.cfg.Radius)*r.scale))
	}
	vx := r.view.X - marginPx
	vy := r.winH - (r.view.Y + r.view.H) - marginPx
	gl.Uniform4f(p.viewport, float32(vx), float32(vy), float32(r.view.W+2*marginPx), float32(r.view.H+2*marginPx))
	gl.Uniform2f(p.cellOrigin, float32(r.view.X), float32(r.winH-r.view.Y))
	gl.Uniform1f(p.cellReach, float32(r.cells.Reach()))
	gl.Uniform1i(p.cellWin, int32(r.cells.Win()))
}

// ballProgram is a program made of ball.vert and a fragment shader, with
// its uniforms' locations (-1 for those its fragment shader lacks).
type ballProgram struct {
	src                                              ballSource
	prog                                             *Program // nil until made (Renderer.ready)
	proj, alpha, pointSize, highlight, highlightBall int32
	cellCull, cells, viewport, cellOrigin            int32
	cellReach, cellWin, cellSize                     int32
	radius, ring, opacity, clip                      int32
}

// ballSource is what a ball program is made of: ball.vert and frag, with
// the uniforms disc, ring and clip (see init); with quads, both compiled
// for squares (QUADS, quads.go), frag already so.
type ballSource struct {
	name, frag              string
	disc, ring, clip, quads bool
}

// init makes the program of p.src; p.prog stays nil where it cannot.
func (p *ballProgram) init() error {
	src := p.src
	vert, err := shaders.WithDefine(shaders.BallVert, "CELL_CULL")
	if err != nil {
		return err
	}
	if src.quads {
		if vert, err = shaders.WithDefine(vert, "QUADS"); err != nil {
			return err
		}
	}
	prog, err := NewProgram(src.name, vert, src.frag)
	if err != nil {
		return err
	}
	p.radius, p.ring, p.opacity, p.clip = -1, -1, -1, -1
	us := []uniform{
		{&p.proj, "proj"}, {&p.alpha, "alpha"}, {&p.pointSize, "pointSize"},
		{&p.highlight, "highlightFirst"}, {&p.highlightBall, "highlightBall"},
		{&p.cellCull, "cellCull"}, {&p.cells, "cells"}, {&p.viewport, "viewport"}, {&p.cellOrigin, "cellOrigin"},
		{&p.cellReach, "cellReach"}, {&p.cellWin, "cellWin"}, {&p.cellSize, "cellSize"},
	}
	if src.disc {
		us = append(us, uniform{&p.radius, "radiusPx"})
	}
	if src.ring {
		us = append(us, uniform{&p.ring, "ring"}, uniform{&p.opacity, "opacity"})
	}
	if src.clip {
		us = append(us, uniform{&p.clip, "clip"})
	}
	if err := prog.uniforms(us...); err != nil {
		prog.Delete()
		return fmt.Errorf("%s program: %w", src.name, err)
	}
	p.prog = prog
	prog.Use()
	gl.Uniform1i(p.cellCull, 0)
	gl.Uniform1i(p.cells, 2) // texture unit 2: the culler's windows
	gl.Uniform1i(p.cellSize, occlusion.CellSize)
	if src.ring {
		gl.Uniform1f(p.ring, 0)
		gl.Uniform1f(p.opacity, 1)
	}
	if src.clip {
		gl.Uniform4f(p.clip, -1e9, -1e9, 1e9, 1e9)
	}
	if src.quads {
		for _, u := range []struct {
			name string
			unit int32
		}{{"lastTex", 3}, {"nextTex", 4}} { // bindQuadPositions' units
			loc, err := prog.Uniform(u.name)
			if err != nil {
				p.prog = nil
				prog.Delete()
				return fmt.Errorf("%s program: %w", src.name, err)
			}
			gl.Uniform1i(loc, u.unit)
		}
	}
	return nil
}

// programs lists the ball programs, for setting what they share: none
// with LayersOnly.
func (r *Renderer) programs() []*ballProgram { return r.progs }
