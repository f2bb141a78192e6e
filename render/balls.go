package render

import (
	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/render/adaptive"
)

// Drawing the balls. Each ball is a point sprite shaded as an
// anti-aliased disc and blended over what is beneath, in the world's
// order, so later balls cover earlier ones: the painter's algorithm.
//
// With many balls, many of them lie entirely under later ones, and a
// software rasterizer (llvmpipe) pays about a microsecond for each sprite
// before shading a pixel of it. Where that measures cheaper, they are
// culled first (cellcull.go): the hidden ones never reach the rasterizer;
// the visible ones are drawn as always, so the picture is the same.
//
// Config.Painter keeps the reference: every ball, with ball.frag (the
// disc.frag of the fast path is the same disc without the ghost rings'
// uniforms and branch).

// DrawBalls draws every ball at alpha between its last (0) and next (1)
// position: percentWithinTick to interpolate, 1 for no interpolation,
// 1+percent to extrapolate. Call Clear first.
func (r *Renderer) DrawBalls(alpha float32) {
	r.drawnOutside()
	view := [1]Rect{r.view}
	r.drawBalls(alpha, view[:], true)
}

// DrawGhosts draws faint rings at every ball's last and next position, so
// the interpolation between them can be seen.
func (r *Renderer) DrawGhosts() {
	r.drawnOutside()
	view := [1]Rect{r.view}
	r.drawGhosts(view[:])
}

// drawBalls draws the balls at mix factor alpha into each of rects
// (window pixels, inside the world's view). The caller has cleared those
// rects. whole says the frame is painted whole: rects is the world's view
// alone, and the window around it holds only the letterbox bars, with
// nothing drawn over them yet.
//
// The ball shaders test each fragment against the rectangle drawn into
// (llvmpipe lets a sprite through one row below the scissor: see
// disc.frag), and on llvmpipe that test costs a fifth of a frame at
// 10,000 balls. A whole frame needs none: the only row a sprite can
// reach outside the view is the bars' row below it, cleared again after.
func (r *Renderer) drawBalls(alpha float32, rects []Rect, whole bool) {
	if r.pos.N() == 0 || len(rects) == 0 {
		return
	}
	whole = whole && len(rects) == 1 && rects[0] == r.view
	opt, q := r.ballForm(alpha, whole)
	cells, quads := opt == optCulled, opt == optSquares
	r.cells.on = cells
	r.quads.on = quads
	p := r.programFor(quads, whole)
	if !r.ready(p) {
		if q != nil {
			gl.EndQuery(gl.TIME_ELAPSED)
			r.timers.open = nil // nothing drawn: no frame's cost
		}
		return
	}
	r.setWorldViewport()
	gl.Enable(gl.SCISSOR_TEST)
	p.prog.Use()
	gl.Uniform1f(p.alpha, alpha)
	if cells {
		gl.Uniform1i(p.cellCull, 1)
	}
	gl.BindVertexArray(r.vao[r.pos.Last()])
	if quads {
		r.bindQuadPositions()
	}
	for _, rect := range rects {
		r.clip(p, rect)
		if quads {
			r.drawQuads()
		} else {
			gl.DrawArrays(gl.POINTS, 0, int32(r.pos.N()))
		}
	}
	r.draws += len(rects)
	if q != nil {
		gl.EndQuery(gl.TIME_ELAPSED)
	}
	if cells {
		gl.Uniform1i(p.cellCull, 0)
	}
	if whole {
		r.clearBelowView()
	}
}

// ballForm picks the form of the balls of a frame (optPoints,
// optSquares or optCulled), makes the culler's cells where it culls, and
// where a comparison measures the frame, starts its timer query (nil
// where none).
func (r *Renderer) ballForm(alpha float32, whole bool) (opt int, q *timerQuery) {
	// Squares, points, or culled points: the choice in force, or another
	// in a comparison, then measured (choice.go).
	//
	// A repaint of parts of a retained drawable draws its balls in the
	// form of the balls around them, so that no frame shows the two
	// forms side by side (their edges may differ in a last bit): squares
	// where the drawable holds squares, else points, culled where the
	// choice in force culls. The choice goes on in frames that repaint
	// the world whole.
	opt = optPoints
	switch {
	case r.cfg.Painter:
	case !whole && r.cfg.Retained:
		switch {
		case r.quads.on:
			opt = optSquares
		case r.option() == optCulled:
			opt = optCulled
			r.prepareCells(alpha)
		}
	default:
		var measure bool
		var tag adaptive.Tag
		opt, measure, tag = r.pick()
		var start int64
		if measure {
			if tag.Opens() {
				// A block the choice measures whole starts from an
				// empty queue: what the frames before left (drawn
				// the other way, or unmeasured) is not its cost.
				gl.Finish()
			}
			start = wallNow() // the clock only on the frames a comparison measures
		}
		if opt == optCulled {
			r.prepareCells(alpha)
		}
		if measure {
			r.cells.used = true // a fence each frame, whatever the option: the same pacing for all
			r.cells.closes = tag.Closes()
			if q = r.timers.begin(start); q != nil {
				q.tag = tag
				if opt == optCulled {
					q.cost.Strategy = wallNow() - start
				}
			}
		}
	}
	return opt, q
}

// programFor is the program that draws the balls as squares or
// points, into a frame painted whole or in parts: the reference's
// (Config.Painter) or the disc's.
func (r *Renderer) programFor(quads, whole bool) *ballProgram {
	switch {
	case r.cfg.Painter && whole:
		return &r.ballWhole
	case r.cfg.Painter:
		return &r.ball
	case quads && whole:
		return &r.discWholeQuads
	case quads:
		return &r.discQuads
	case whole:
		return &r.discWhole
	default:
		return &r.disc
	}
}

// clearBelowView paints the row of pixels just below the world's view
// with the bars' colour again, if the window has one there.
func (r *Renderer) clearBelowView() {
	below := Rect{r.view.X, r.view.Y + r.view.H, r.view.W, 1}.Intersect(Rect{0, 0, r.winW, r.winH})
	if below.Empty() {
		return
	}
	r.scissor(below)
	gl.ClearColor(barColor[0], barColor[1], barColor[2], barColor[3])
	gl.Clear(gl.COLOR_BUFFER_BIT)
	r.draws++
}

// drawGhosts draws faint rings at every ball's last and next position into
// each of rects, over the balls.
func (r *Renderer) drawGhosts(rects []Rect) {
	if r.pos.N() == 0 || len(rects) == 0 {
		return
	}
	r.setWorldViewport()
	gl.Enable(gl.SCISSOR_TEST)
	p := &r.ball
	if !r.ready(p) {
		return
	}
	p.prog.Use()
	gl.BindVertexArray(r.vao[r.pos.Last()])
	gl.Uniform1f(p.ring, 1.5)
	gl.Uniform1f(p.opacity, 0.45)
	for _, a := range [2]float32{0, 1} {
		gl.Uniform1f(p.alpha, a)
		for _, rect := range rects {
			r.clip(p, rect)
			gl.DrawArrays(gl.POINTS, 0, int32(r.pos.N()))
		}
	}
	r.draws += 2 * len(rects)
	gl.Uniform1f(p.ring, 0)
	gl.Uniform1f(p.opacity, 1)
}

// clip limits the balls drawn with p to rect: the scissor, and the
// program's own clip rectangle (see disc.frag).
func (r *Renderer) clip(p *ballProgram, rect Rect) {
	r.scissor(rect)
	if p.clip < 0 {
		return // a whole frame's program: the scissor alone
	}
	y0 := r.winH - (rect.Y + rect.H)
	gl.Uniform4f(p.clip, float32(rect.X), float32(y0), float32(rect.X+rect.W), float32(y0+rect.H))
}
