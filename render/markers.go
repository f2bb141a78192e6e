package render

import (
	"fmt"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/shaders"
)

// MaxMarkers is how many markers one Markers.Draw call draws at most.
const MaxMarkers = 16

// Marker is a ring drawn at a window position (pixels, origin top left)
// in a premultiplied colour.
type Marker struct {
	X, Y       float32
	R, G, B, A float32 // premultiplied: R, G and B are at most A
}

// Markers draws a few rings over the world, for debugging views such as
// the rollback ghosts (where a remote ball was predicted, and where the
// correction put it). The positions travel as uniforms: no buffer, and
// nothing at all is sent on a frame that draws no marker.
type Markers struct {
	prog                                 *Program
	uMarker, uColor, uWindow, uPoint, uR int32
	vao                                  uint32
	pos, col                             [MaxMarkers][4]float32
}

// NewMarkers makes the marker program in the current GL context.
func NewMarkers() (*Markers, error) {
	p, err := NewProgram("marker", shaders.MarkerVert, shaders.MarkerFrag)
	if err != nil {
		return nil, err
	}
	m := &Markers{prog: p}
	if err := p.uniforms(uniform{&m.uMarker, "marker"}, uniform{&m.uColor, "color"}, uniform{&m.uWindow, "window"},
		uniform{&m.uPoint, "pointSize"}, uniform{&m.uR, "radiusPx"}); err != nil {
		p.Delete()
		return nil, fmt.Errorf("marker program: %w", err)
	}
	gl.GenVertexArrays(1, &m.vao) // core profile draws need a VAO, even an empty one
	return m, nil
}

// Delete frees the program. The Markers must not be used after.
func (m *Markers) Delete() {
	if m == nil || m.prog == nil {
		return
	}
	gl.DeleteVertexArrays(1, &m.vao)
	m.prog.Delete()
	m.prog = nil
}

// Draw draws up to MaxMarkers of ms (the rest are ignored) as rings of
// radius radiusPx pixels, over whatever r drew, clipped to the world's
// rectangle. Call it after Renderer.Draw; the next Draw then repaints the
// whole window.
func (m *Markers) Draw(r *Renderer, ms []Marker, radiusPx float32) {
	n := min(len(ms), MaxMarkers)
	w, h := r.winW, r.winH
	if n == 0 || w == 0 || h == 0 || radiusPx <= 0 {
		return
	}
	for i, k := range ms[:n] {
		m.pos[i] = [4]float32{k.X, k.Y, 0, 0}
		m.col[i] = [4]float32{k.R, k.G, k.B, k.A}
	}
	r.drawnOutside()
	r.setFullViewport() // the renderer's own viewport and scissor: no state to read back
	gl.Enable(gl.SCISSOR_TEST)
	r.scissor(r.view)
	gl.Enable(gl.BLEND)
	gl.BlendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA)

	m.prog.Use()
	gl.Uniform4fv(m.uMarker, int32(n), &m.pos[0][0])
	gl.Uniform4fv(m.uColor, int32(n), &m.col[0][0])
	gl.Uniform2f(m.uWindow, float32(w), float32(h))
	gl.Uniform1f(m.uPoint, 2*radiusPx+2)
	gl.Uniform1f(m.uR, radiusPx)
	gl.BindVertexArray(m.vao)
	gl.DrawArrays(gl.POINTS, 0, int32(n))
	gl.BindVertexArray(0)
}
