package render

import (
	"math"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// Layer is an overlay placed over the world for a frame: the top-left
// W x H texels of Overlay, one per pixel, at window pixel (X, Y).
//
// Opaque says every one of those texels has alpha 1 (the HUD's panel and
// the graph are): what lies beneath is never seen, so a retained frame
// does not repaint it when only balls moved there, and the layer is
// drawn without blending.
type Layer struct {
	Overlay    *Overlay
	X, Y, W, H int
	Opaque     bool
}

func (l Layer) rect() Rect { return Rect{l.X, l.Y, l.W, l.H} }

// same reports whether l and m are the same layer in the same place.
func (l *Layer) same(m *Layer) bool {
	return l.Overlay == m.Overlay && l.X == m.X && l.Y == m.Y && l.W == m.W && l.H == m.H && l.Opaque == m.Opaque
}

// Frame is what a frame shows: the balls at mix factor Alpha (see
// DrawBalls), the ghost rings if Ghosts, and the layers over them in
// order.
type Frame struct {
	Alpha  float32
	Ghosts bool
	Layers []Layer
}

// maxLayers is how many layers a frame can keep from one frame to the
// next; a frame with more is painted whole.
const maxLayers = 8

// Repainting only what changed (damage tracking). Where the drawable keeps
// its pixels from one frame to the next (Config.Retained), a frame differs
// from the last only where balls were or are drawn and where a layer
// changed, moved or appeared. Draw repaints that region and leaves the
// rest: at one ball, a frame repaints a few hundred pixels instead of the
// window, and the overlays, which change a few times a second, cost
// nothing on the frames in between, but where a ball passes beneath them.
//
// Where balls are drawn: with a few balls (up to spriteMaxBalls), each
// one's sprite where the last frame drew it and where this frame draws it,
// from a CPU copy of the positions Sync uploads (sprites.go). With more,
// where they can be drawn during the tick (occupancy): each ball's sprite
// anywhere between its last position and as far past its next as
// extrapolation goes, the same region on every frame between two ticks.
// Either way, a frame with no tick uploads nothing.
//
// A software rasterizer (llvmpipe) clears a whole window at memory speed
// but a part of it only by drawing, as slowly as any other drawing; so a
// region that is a large part of the window is painted whole instead.

// retained is what the drawable holds after the last Draw.
type retained struct {
	valid   bool // the drawable holds the last Draw's frame, nothing since
	ghosts  bool
	n       int
	layers  [maxLayers]Layer
	version [maxLayers]uint64 // each layer's content when drawn
	balls   region            // where balls were drawn by the last Draw
	paint   region            // this frame's repaint, rebuilt by every Draw
	painted int               // pixels repainted by the last Draw (for tests and stats)
	// clearAll: this frame repaints the world's whole area and, only
	// its repaint being shown (Config.PaintedOnly), clears the whole
	// drawable first.
	clearAll bool
}

// Draw draws a frame. With Config.Retained, after a frame drawn by Draw,
// only what changed since is repainted (see above); otherwise, the whole
// window. A frame with nothing to repaint makes no GL call.
func (r *Renderer) Draw(f *Frame) {
	if r.winW == 0 {
		return
	}
	r.planRepaint(f)
	rects := r.ret.paint.rects()
	r.draws = 0
	if len(rects) == 0 {
		r.keep(f)
		return
	}
	r.vp = vpOther // whatever another user of the context left

	// Backgrounds, then the balls, the ghosts and the layers, each into
	// every rectangle of the repaint: the rectangles are disjoint, so
	// each pixel is painted once, as in a whole frame.
	var world [maxRegion]Rect
	nw := 0
	whole := len(rects) == 1 && rects[0] == (Rect{0, 0, r.winW, r.winH})
	switch {
	case whole:
		r.draws += r.clear() // whole: the clears a rasterizer does fastest
		r.ret.valid = true
		world[0] = r.view
		nw = 1
	case r.ret.clearAll:
		// The world's whole area, of which only the repaint is shown:
		// the whole drawable cleared to the world's colour, the bars
		// where the repaint reaches beyond the world, and the balls
		// drawn once over the world, as in a whole frame.
		r.draws += r.clearWorldThenBars(rects, f)
		world[0] = r.view
		nw = 1
		whole = true // for the balls: the world whole, the bars' row below cleared again
	default:
		// A rectangle wholly under an opaque layer is the layer's
		// alone: nothing beneath it is cleared or drawn.
		gl.Enable(gl.SCISSOR_TEST)
		r.draws += r.clearBars(rects, f)
		gl.ClearColor(worldColor[0], worldColor[1], worldColor[2], worldColor[3])
		for _, p := range rects {
			if underOpaque(p, f) {
				continue
			}
			if q := p.Intersect(r.view); !q.Empty() {
				r.scissor(q)
				gl.Clear(gl.COLOR_BUFFER_BIT)
				r.draws++
				world[nw] = q
				nw++
			}
		}
	}
	r.drawBalls(f.Alpha, world[:nw], whole)
	if f.Ghosts {
		r.drawGhosts(world[:nw])
	}
	for _, l := range f.Layers {
		for _, p := range rects {
			if q := p.Intersect(l.rect()); !q.Empty() {
				r.drawLayer(l, q)
			}
		}
	}
	r.keep(f)
}

// Background colours: the letterbox bars and the world. Whole levels of
// an 8-bit channel, so that a clear of the whole window and a clear of
// part of it (which a rasterizer may draw as a rectangle, rounding its own
// way) give the same pixels.
var (
	barColor   = [4]float32{5.0 / 255, 5.0 / 255, 8.0 / 255, 1}
	worldColor = [4]float32{20.0 / 255, 26.0 / 255, 41.0 / 255, 1}
)

// Clear paints the letterbox bars and the world's background.
func (r *Renderer) Clear() { r.clear() }

// clear is Clear; it returns how many clears it made. The whole window
// is cleared in the colour of its larger part, the world or the bars
// (one clear, which a rasterizer does fastest), and the smaller part
// over it (the bars, at most four rectangles, or the world): a pixel of
// the larger part is cleared once, and where the world fills the window
// there is nothing more. Clearing the whole window in the bars' colour
// and the world over it, as before, cleared the world's pixels twice: on
// an NVIDIA H200 (headless, 2026-11-27), where filling pixels costs, a
// frame painted whole at one ball took 52 µs at 640x480 and 709 µs at
// 2560x1920, in proportion to the pixels cleared.
func (r *Renderer) clear() int {
	r.drawnOutside()
	window := [1]Rect{{0, 0, r.winW, r.winH}}
	view := r.view.Intersect(window[0])
	var n int
	if window[0].area()-view.area() > view.area() {
		gl.Disable(gl.SCISSOR_TEST)
		gl.ClearColor(barColor[0], barColor[1], barColor[2], barColor[3])
		gl.Clear(gl.COLOR_BUFFER_BIT)
		gl.Enable(gl.SCISSOR_TEST)
		r.scissor(r.view)
		gl.ClearColor(worldColor[0], worldColor[1], worldColor[2], worldColor[3])
		gl.Clear(gl.COLOR_BUFFER_BIT)
		n = 2
	} else {
		n = r.clearWorldThenBars(window[:], nil)
	}
	r.scissor(r.view) // stays on for the balls
	return n
}

// clearWorldThenBars clears the whole drawable in the world's colour,
// then the bars' parts of rects (clearBars), and returns how many clears
// that took. The scissor test is on after it.
func (r *Renderer) clearWorldThenBars(rects []Rect, f *Frame) int {
	gl.Disable(gl.SCISSOR_TEST)
	gl.ClearColor(worldColor[0], worldColor[1], worldColor[2], worldColor[3])
	gl.Clear(gl.COLOR_BUFFER_BIT)
	gl.Enable(gl.SCISSOR_TEST)
	return 1 + r.clearBars(rects, f)
}

// clearBars paints with the bars' colour the parts of rects outside the
// world's view, but for rectangles wholly under an opaque layer of f (nil:
// none), and returns how many clears that took.
func (r *Renderer) clearBars(rects []Rect, f *Frame) int {
	bars := false
	n := 0
	for _, p := range rects {
		if p.Intersect(r.view) == p || underOpaque(p, f) {
			continue
		}
		var out [4]Rect
		for _, q := range out[:subtract(p, r.view, &out)] {
			if !bars {
				gl.ClearColor(barColor[0], barColor[1], barColor[2], barColor[3])
				bars = true
			}
			r.scissor(q)
			gl.Clear(gl.COLOR_BUFFER_BIT)
			n++
		}
	}
	return n
}

// underOpaque reports whether p lies wholly under one of f's opaque
// layers, which paints every pixel of it (without blending): what lies
// beneath need not be painted first.
func underOpaque(p Rect, f *Frame) bool {
	if f == nil {
		return false
	}
	for i := range f.Layers {
		if l := &f.Layers[i]; l.Opaque && p.Intersect(l.rect()) == p {
			return true
		}
	}
	return false
}

// Holds reports whether the drawable (or, Config.PaintedOnly, the screen)
// holds the last frame Draw drew: if so, a Draw whose layers have the
// same places and contents, with no ball, paints nothing.
func (r *Renderer) Holds() bool { return r.ret.valid }

// Relative costs per pixel on llvmpipe, for choosing between a partial
// and a whole repaint: a whole-window clear runs at memory speed, a
// partial one is drawn like any rectangle, and an overlay is a textured,
// blended rectangle.
const (
	costClear     = 1
	costDrawn     = 12
	costOverlay   = 24
	costBallDraws = 4096 // ball vertices per extra draw call worth a repaint
)

// Painted is what the frame repainted, in window pixels from the top
// left: the whole window, or (retained) the parts that changed; the whole
// window once anything is drawn outside Draw. A window that presents only
// parts of its back buffer presents these. Valid until the next Draw.
func (r *Renderer) Painted() []Rect { return r.ret.paint.rects() }

// drawnOutside records a drawing outside Draw's account of what changed
// (the rings of Markers, the immediate Clear, DrawBalls, DrawGhosts and
// DrawOverlay): the frame counts as painted whole (Painted), and the next
// Draw repaints whole.
func (r *Renderer) drawnOutside() {
	r.ret.valid = false
	r.ret.paint.reset()
	r.ret.paint.push(Rect{0, 0, r.winW, r.winH})
	r.ret.painted = r.winW * r.winH
}

// SetRetained says whether the drawable keeps its pixels from one frame
// to the next from now on (Config.Retained): a window that presents parts
// of its back buffer instead of swapping does; one that swaps (vsync on)
// does not.
func (r *Renderer) SetRetained(on bool) {
	if on != r.cfg.Retained {
		r.cfg.Retained = on
		r.ret.valid = false
	}
}

// SetPaintedOnly says whether only what each frame repaints is shown from
// now on (Config.PaintedOnly): a window that presents parts of its back
// buffer, unless the whole drawable is read (a screenshot).
func (r *Renderer) SetPaintedOnly(on bool) {
	if on != r.cfg.PaintedOnly {
		r.cfg.PaintedOnly = on
		r.ret.valid = false // the drawable may not hold the whole last frame
	}
}

// Invalidate makes the next Draw paint the whole window: what was shown
// is lost (a window exposed after being covered).
func (r *Renderer) Invalidate() { r.ret.valid = false }

// planRepaint decides what the frame repaints: the whole window, or
// (retained) the region that changed since the last frame.
func (r *Renderer) planRepaint(f *Frame) {
	g := &r.ret.paint
	g.reset()
	r.ret.clearAll = false
	if !r.cfg.Retained || !r.ret.valid || f.Ghosts != r.ret.ghosts || len(f.Layers) != r.ret.n || len(f.Layers) > maxLayers {
		r.planWhole()
		return
	}
	if r.occ.all {
		r.planTooMuch(f)
		return
	}
	// Balls: where they were drawn last frame, and where they may be
	// drawn this frame.
	if r.tracked(f) && r.spr.valid {
		r.addSprites(g, f.Alpha)
	} else {
		for _, b := range r.ret.balls.rects() {
			g.add(b)
		}
		if r.tracked(f) {
			r.addSprites(g, f.Alpha)
		} else {
			r.occ.addTo(g, r)
		}
	}
	// Under an opaque layer nothing shows: balls moving there need no
	// repaint (what a layer's own change needs is added below).
	for i := range f.Layers {
		if l := &f.Layers[i]; l.Opaque && g.n > 0 {
			g.cut(l.rect())
		}
	}
	r.addLayerDamage(g, f)
	if g.n == 0 && !g.overflow {
		r.ret.painted = 0 // nothing changed
		return
	}
	// A large region costs more drawn in parts than the whole window (or,
	// where only the repaint is shown, than the world's area).
	if g.overflow || r.repaintCost(g, f) >= r.fallbackCost(f) || r.pos.N()*(g.n-1) > costBallDraws {
		r.planTooMuch(f)
		return
	}
	r.ret.painted = g.area()
}

// planWhole plans the whole window.
func (r *Renderer) planWhole() {
	g := &r.ret.paint
	g.reset()
	g.push(Rect{0, 0, r.winW, r.winH})
	r.ret.painted = r.winW * r.winH
}

// planTooMuch plans a frame whose balls changed too much of the world to
// repaint in parts: the world's area, or the whole window.
func (r *Renderer) planTooMuch(f *Frame) {
	if !r.planArea(f) {
		r.planWhole()
	}
}

// fallbackCost is what a frame that does not repaint in parts costs:
// the world's area with the whole drawable cleared, where only the
// repaint is shown (Config.PaintedOnly); otherwise, and for the layers
// alone (Config.LayersOnly, which never paint the world's area), the
// whole window.
func (r *Renderer) fallbackCost(f *Frame) int {
	if r.cfg.PaintedOnly && !r.cfg.LayersOnly && r.area != (Rect{0, 0, r.winW, r.winH}) {
		return r.winW * r.winH * costClear
	}
	return r.wholeCost(f)
}

// addLayerDamage adds to g what the layers changed since the last frame.
func (r *Renderer) addLayerDamage(g *region, f *Frame) {
	for i := range f.Layers {
		l, old := &f.Layers[i], &r.ret.layers[i]
		switch {
		case !l.same(old):
			// Moved, resized or swapped (the HUD's panel, when its text
			// changes length): where it was and where it is.
			g.add(old.rect())
			g.add(l.rect())
		case l.Overlay.version != r.ret.version[i]:
			// New content: where the uploads since changed it.
			for _, d := range l.Overlay.damage[:l.Overlay.nDamage] {
				g.add(Rect{l.X + d.X, l.Y + d.Y, d.W, d.H}.Intersect(l.rect()))
			}
		}
	}
}

// wholeCost is what painting the whole window costs, in costClear units.
func (r *Renderer) wholeCost(f *Frame) int {
	win := Rect{0, 0, r.winW, r.winH}
	full := win.area() * costClear
	for _, l := range f.Layers {
		full += l.rect().Intersect(win).area() * costOverlay
	}
	return full
}

// repaintCost is what repainting the region g costs.
func (r *Renderer) repaintCost(g *region, f *Frame) int {
	win := Rect{0, 0, r.winW, r.winH}
	part := 0
	for _, p := range g.rects() {
		if !underOpaque(p, f) {
			part += p.area() * costDrawn
		}
	}
	for _, l := range f.Layers {
		lr := l.rect().Intersect(win)
		for _, p := range g.rects() {
			part += p.Intersect(lr).area() * costOverlay
		}
	}
	return part
}

// planArea plans, for a frame whose balls changed too much of the world
// to repaint in parts, the world's whole part of the window (the area
// ResizeArea gave: the balls cannot be drawn outside it) and what the
// layers changed, where that costs less than the whole window: with the
// overlays beside the world, a frame then repaints the world but not the
// overlays' rectangles. Where only the repaint is shown
// (Config.PaintedOnly), it always does, and the frame clears the whole
// drawable first (clearAll), as fast as a whole frame's clear. It returns
// false, planning nothing, where the whole window is as cheap, and for
// the layers alone (Config.LayersOnly): the world's area is the world's
// own window's, which covers it, and repainting it there would only be
// clipped away by the X server after the copy.
func (r *Renderer) planArea(f *Frame) bool {
	if r.cfg.LayersOnly {
		return false
	}
	g := &r.ret.paint
	g.reset()
	g.push(r.area)
	for _, l := range f.Layers {
		if l.Opaque {
			g.cut(l.rect())
		}
	}
	r.addLayerDamage(g, f)
	if g.overflow || r.area == (Rect{0, 0, r.winW, r.winH}) {
		return false
	}
	if r.cfg.PaintedOnly {
		// Only the repaint is shown: the whole drawable cleared (as a
		// whole frame's is), the world drawn whole, the overlays left
		// alone but where they changed.
		r.ret.clearAll = true
	} else if r.repaintCost(g, f) >= r.wholeCost(f) {
		return false
	}
	r.ret.painted = g.area()
	return true
}

// keep records what the drawable holds after a Draw.
func (r *Renderer) keep(f *Frame) {
	r.ret.valid = r.cfg.Retained && len(f.Layers) <= maxLayers
	r.ret.ghosts = f.Ghosts
	r.ret.n = len(f.Layers)
	for i := range f.Layers {
		l := &f.Layers[i]
		if l.Overlay.nDamage != 0 {
			l.Overlay.nDamage = 0 // drawn as it is now
		}
		if i < maxLayers {
			if !l.same(&r.ret.layers[i]) {
				r.ret.layers[i] = *l
			}
			r.ret.version[i] = l.Overlay.version
		}
	}
	if !r.ret.valid {
		r.spr.valid = false
		return
	}
	r.ret.balls.reset()
	if r.tracked(f) {
		r.keepSprites(&r.ret.balls, f.Alpha)
	} else {
		r.spr.valid = false
		r.occ.addTo(&r.ret.balls, r)
	}
	if r.ret.balls.overflow {
		r.ret.valid = false
	}
}

// RepaintedPixels is how many pixels the last Draw painted: the whole
// window, or less where it kept what had not changed.
func (r *Renderer) RepaintedPixels() int { return r.ret.painted }

// Passes is how many draw calls and clears the last Draw made into the
// window (a software rasterizer draws a partial clear like a rectangle):
// the fixed cost of a frame.
func (r *Renderer) Passes() int { return r.draws }

// occupancy is where the balls can be drawn during the current tick: a
// coarse grid over the world, each cell marked if some ball's sprite, at
// any mix factor from 0 (last) to 2 (as far past next as extrapolation
// goes), touches it. Sync fills it when positions change. It is in world
// units, so a window resize leaves it valid (but for its margin of a
// pixel and a half, which a smaller window makes too small: then it
// counts as everywhere until the next Sync).
type occupancy struct {
	all   bool    // too many balls to track, or none tracked yet: everywhere
	scale float64 // the window's scale when the grid was filled
	gw    int
	gh    int
	cells []uint64 // gw*gh bits, row by row
	runs  region   // the occupied cells as rectangles, in cells
}

// occCell is the grid's cell size in world units; occMaxBalls the most
// balls the grid tracks (more cover the window anyway).
const (
	occCell     = 16
	occMaxBalls = 4096
)

func (o *occupancy) update(r *Renderer, last, next []int32) {
	n := len(next) / 2
	if n > occMaxBalls {
		o.all = true
		return
	}
	o.all = false
	if o.cells == nil {
		o.gw = int(r.cfg.WorldW+occCell-1) / occCell
		o.gh = int(r.cfg.WorldH+occCell-1) / occCell
		o.cells = make([]uint64, (o.gw*o.gh+63)/64)
	}
	clear(o.cells)
	// The sprite's half-width in units: the radius, the anti-aliased
	// half pixel and a pixel for rounding, at the current scale.
	o.scale = r.scale
	reach := float64(r.cfg.Radius) + 1.5/max(r.scale, 1.0/64)
	one := float64(int64(1) << r.cfg.FracBits)
	for i := 0; i < n; i++ {
		lx, ly := float64(last[2*i])/one, float64(last[2*i+1])/one
		nx, ny := float64(next[2*i])/one, float64(next[2*i+1])/one
		ex, ey := 2*nx-lx, 2*ny-ly // mix factor 2
		cx0, cx1 := o.cell(min(lx, nx, ex)-reach, o.gw), o.cell(max(lx, nx, ex)+reach, o.gw)
		cy0, cy1 := o.cell(min(ly, ny, ey)-reach, o.gh), o.cell(max(ly, ny, ey)+reach, o.gh)
		for cy := cy0; cy <= cy1; cy++ {
			for cx := cx0; cx <= cx1; cx++ {
				k := cy*o.gw + cx
				o.cells[k/64] |= 1 << (k % 64)
			}
		}
	}
	o.findRuns()
}

// cell is the cell holding world coordinate u, clamped to [0, n).
func (o *occupancy) cell(u float64, n int) int {
	return int(math.Max(0, math.Min(float64(n-1), math.Floor(u/occCell))))
}

func (o *occupancy) has(cx, cy int) bool {
	k := cy*o.gw + cx
	return o.cells[k/64]&(1<<(k%64)) != 0
}

// addTo adds the occupied cells to g as window pixel rectangles, within
// the world's view.
func (o *occupancy) addTo(g *region, r *Renderer) {
	if r.pos.N() == 0 {
		return
	}
	if o.all || o.cells == nil || r.scale < o.scale {
		g.add(r.view)
		return
	}
	for _, c := range o.runs.rects() {
		x0 := r.view.X + int(math.Floor(float64(c.X*occCell)*r.scale))
		y0 := r.view.Y + int(math.Floor(float64(c.Y*occCell)*r.scale))
		x1 := r.view.X + int(math.Ceil(float64((c.X+c.W)*occCell)*r.scale))
		y1 := r.view.Y + int(math.Ceil(float64((c.Y+c.H)*occCell)*r.scale))
		g.add(Rect{x0, y0, x1 - x0, y1 - y0}.Intersect(r.view))
	}
}

// findRuns lists the occupied cells as rectangles (in cells): each row's
// runs of cells, a run extended downwards while the rows below have the
// same run. Too many rectangles count as everywhere.
func (o *occupancy) findRuns() {
	o.runs.reset()
	for cy := 0; cy < o.gh; cy++ {
		for cx := 0; cx < o.gw; {
			if !o.has(cx, cy) {
				cx++
				continue
			}
			end := cx
			for end < o.gw && o.has(end, cy) {
				end++
			}
			if cy == 0 || !o.sameRun(cx, end, cy-1) {
				// A run starting here, not continuing one from above.
				rows := 1
				for cy+rows < o.gh && o.sameRun(cx, end, cy+rows) {
					rows++
				}
				o.runs.push(Rect{cx, cy, end - cx, rows})
			}
			cx = end
		}
	}
	if o.runs.overflow {
		o.all = true
	}
}

// sameRun reports whether row cy has exactly the run [x0, x1): set
// there, clear just outside.
func (o *occupancy) sameRun(x0, x1, cy int) bool {
	if x0 > 0 && o.has(x0-1, cy) || x1 < o.gw && o.has(x1, cy) {
		return false
	}
	for cx := x0; cx < x1; cx++ {
		if !o.has(cx, cy) {
			return false
		}
	}
	return true
}
