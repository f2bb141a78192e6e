package render

import (
	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/render/adaptive"
)

// Squares instead of point sprites, where that measures cheaper.
//
// A ball is a point sprite: one vertex, a square of pointSize pixels that
// the fragment shader shades as a disc. Mesa's llvmpipe rasterizes a
// sprite as a primitive of four edges, testing each 4x4 block of pixels
// against them; it rasterizes two triangles that make an axis-aligned
// rectangle as a rectangle, whose blocks need no edge test (lp_setup_rect.c).
// The same disc drawn as such a square (six vertices, the two triangles)
// costs the vertex stage six vertices a ball instead of one, and the
// rasterizer less: on llvmpipe at 1,000 balls the frame takes about a
// quarter less CPU (docs/DESIGN.md, "Squares or points"). On a GPU the
// vertices may cost more than the rasterizing saves. So which form draws
// the balls is chosen by measurement on the running machine, in one
// choice with the culling (choice.go): squares, points, or culled points.
//
// What llvmpipe needs for its rectangles, and the squares give it:
//   - no flat attribute (it keeps the rectangle path off): the colour is
//     interpolated, the same value at every vertex, so every fragment gets
//     that value exactly, and so is the offset from the ball's centre that
//     the disc is measured by (a sprite's gl_PointCoord, scaled);
//   - each run of vertices it sets up a multiple of 6: Mesa 22.3 hands a
//     draw's vertices on in runs of up to 1,024, so the squares are drawn
//     in runs of quadChunk balls (one glMultiDrawArrays);
//   - no depth buffer: the demo's drawables have none.
//
// The picture is the same either way but for the last bits of some edge
// pixels, the interpolated offset rounding otherwise than gl_PointCoord
// (TestQuadsKeepThePicture). Measuring both from gl_FragCoord would make
// them the same to the bit, and cost points 5 % and squares 15 % on
// llvmpipe. So that no frame shows the two side by side, a repaint of
// parts of a retained drawable draws the form the drawable holds, and
// the choice goes on in frames that repaint the world whole (drawBalls).
//
// Culling stays with the points: it runs in the vertex shader, once a
// ball there and six times here. Culled balls are points, which is why
// the form and the culling are one choice of three, not two of two.

// quadChunk is how many balls one draw of squares holds: 1,020 vertices,
// the largest multiple of 6 in Mesa 22.3's runs of 1,024.
const quadChunk = 170

type quadDrawer struct {
	tbo [2]uint32 // buffer textures over vbo[0] and vbo[1]
	// The runs of one glMultiDrawArrays for n balls: first vertex and
	// count of each. Made again only when the ball count changes.
	first, count []int32
	n            int
	// on: the last frame that drew balls drew squares; in a retained
	// drawable, the balls it holds are squares (drawBalls).
	on bool
}

// initQuads makes the buffer textures the squares read positions from.
func (r *Renderer) initQuads() {
	q := &r.quads
	gl.GenTextures(2, &q.tbo[0])
	r.attachQuads(r.capacity)
}

// attachQuads points the buffer textures at the position buffers' data
// after a grow gave them new storage for capacity balls, and makes room
// for that many balls' runs: a run at 1,000,000 balls whose first frame
// of squares came after its warm-up allocated them then (24 allocations).
func (r *Renderer) attachQuads(capacity int) {
	q := &r.quads
	if q.tbo[0] == 0 {
		return
	}
	if k := (capacity + quadChunk - 1) / quadChunk; cap(q.first) < k {
		q.first, q.count, q.n = make([]int32, 0, k), make([]int32, 0, k), -1
	}
	for i := range q.tbo {
		gl.BindTexture(gl.TEXTURE_BUFFER, q.tbo[i])
		gl.TexBuffer(gl.TEXTURE_BUFFER, gl.RG32I, r.vbo[i])
	}
	gl.BindTexture(gl.TEXTURE_BUFFER, 0)
}

func (q *quadDrawer) delete() {
	if q.tbo[0] != 0 {
		gl.DeleteTextures(2, &q.tbo[0])
		q.tbo = [2]uint32{}
	}
}

// quadsUsable reports whether the balls can be drawn as squares.
func (r *Renderer) quadsUsable() bool {
	return !r.cfg.Painter && r.quads.tbo[0] != 0 && r.cfg.Sprites != adaptive.On && r.pos.N() > 0
}

// Quads reports whether the balls of the last Sync are drawn as squares
// (not point sprites, culled or not): the choice in force (Config.Sprites
// and Config.Cull; with auto, the cheapest as measured).
func (r *Renderer) Quads() bool { return r.option() == optSquares }

// SetSprites sets how the balls' form is chosen (see Config.Sprites); a
// new comparison starts, of all the options the modes now allow.
func (r *Renderer) SetSprites(m adaptive.Mode) {
	r.cfg.Sprites = m
	r.choice = newChoice()
}

// SpriteStats is the balls' form as chosen, and the costs behind it.
type SpriteStats struct {
	Mode  adaptive.Mode // On: points; Off: squares
	Quads bool          // the form in force: squares (false where they cannot be, or the balls are culled)
	// With auto, in ns, -1 where not measured: the medians of the last
	// comparisons' blocks (as CullStats), a frame's time from its ball
	// draw to the end of EndFrame, drawn as squares and as points (not culled); and the ball
	// draw's GPU time (a timer query) of the last frame measured each way.
	CostQuadsNs, CostPointsNs, GPUQuadsNs, GPUPointsNs int64
	// Compared counts the frames the comparisons of squares with points
	// drew, Tried those of them drawn in the form not in force.
	Compared, Tried int
}

// SpriteStats reports the balls' form and the costs behind it.
func (r *Renderer) SpriteStats() SpriteStats {
	s := SpriteStats{Mode: r.cfg.Sprites, Quads: r.Quads()}
	s.CostQuadsNs, _, s.GPUQuadsNs = r.choice.Measures(optSquares)
	s.CostPointsNs, _, s.GPUPointsNs = r.choice.Measures(optPoints)
	s.Compared, s.Tried = r.choice.ComparedPair(optSquares, optPoints)
	return s
}

// drawQuads draws the balls as squares, in runs of quadChunk.
func (r *Renderer) drawQuads() {
	q := &r.quads
	if n := r.pos.N(); n != q.n {
		q.first, q.count = quadRuns(n, q.first[:0], q.count[:0])
		q.n = n
	}
	gl.MultiDrawArrays(gl.TRIANGLES, &q.first[0], &q.count[0], int32(len(q.first)))
}

// bindQuadPositions puts the buffer textures of last and next on texture
// units 3 and 4, where the square programs read them.
func (r *Renderer) bindQuadPositions() {
	last := r.pos.Last()
	gl.ActiveTexture(gl.TEXTURE3)
	gl.BindTexture(gl.TEXTURE_BUFFER, r.quads.tbo[last])
	gl.ActiveTexture(gl.TEXTURE4)
	gl.BindTexture(gl.TEXTURE_BUFFER, r.quads.tbo[1-last])
	gl.ActiveTexture(gl.TEXTURE0)
}

// quadRuns appends to first and count the runs of vertices that draw n
// balls as squares: quadChunk balls a run, the last run the rest.
func quadRuns(n int, first, count []int32) ([]int32, []int32) {
	for i := 0; i*quadChunk < n; i++ {
		first = append(first, int32(6*quadChunk*i))
		count = append(count, int32(6*min(quadChunk, n-quadChunk*i)))
	}
	return first, count
}
