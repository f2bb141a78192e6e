package render

import (
	"fmt"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/shaders"
)

// Occlusion culling for many balls. At 100,000 balls of 16 px in 640x480
// each pixel is covered some 65 times and six balls in seven are hidden
// entirely under later ones; a software rasterizer still pays for each of
// them, about a microsecond per sprite before a pixel is shaded. The
// culler finds the hidden ones on the GPU, every frame, with nothing
// uploaded:
//
//  1. Occluders: the opaque cores of the last balls (the nearest: later
//     balls are drawn over earlier ones) are drawn into a depth texture,
//     front to back, each at a depth of its own (ball.vert).
//  2. Hierarchical depth: for every cell of cullCell x cullCell pixels,
//     the farthest of those depths (hiz.frag).
//  3. The balls, in the painter's order, as always, but the vertex shader
//     moves a ball whose sprite lies only over cells that nearer cores
//     cover entirely out of the clip volume, before it is rasterized.
//
// A culled ball is one the painter's algorithm would have painted over
// with opaque pixels everywhere, so the picture is exactly the painter's.

// cullCell is the side of a hierarchical depth cell in pixels;
// cullMinBalls the fewest balls culled (in 640x480 at radius 8, below
// about 50,000 balls few are hidden, and the occluders cost more than the
// culling saves); cullCoverage how many times over the occluders' cores
// cover the view.
const cullCell = 8

// Variables, for the tests.
var (
	cullMinBalls = 50_000
	cullCoverage = 12.0 // the occluders' cores cover the view this many times over
)

type culler struct {
	fbo, depthTex uint32 // occluders' depth, window-sized
	hizFBO, hiz   uint32 // farthest depth per cell
	w, h, hw, hh  int
	complete      bool // both framebuffers are complete: culling can run
	prog          *Program
	uDepth, uCell int32
}

func (r *Renderer) initCuller() error {
	c := &r.cull
	p, err := NewProgram("hierarchical depth", shaders.FullscreenVert, shaders.HiZFrag)
	if err != nil {
		return err
	}
	c.prog = p
	for _, u := range []struct {
		loc  *int32
		name string
	}{{&c.uDepth, "depth"}, {&c.uCell, "cell"}} {
		if *u.loc, err = p.Uniform(u.name); err != nil {
			return fmt.Errorf("culling: %w", err)
		}
	}
	p.Use()
	gl.Uniform1i(c.uDepth, 0)
	gl.Uniform1i(c.uCell, cullCell)
	gl.GenFramebuffers(1, &c.fbo)
	gl.GenFramebuffers(1, &c.hizFBO)
	gl.GenTextures(1, &c.depthTex)
	gl.GenTextures(1, &c.hiz)
	for _, t := range []uint32{c.depthTex, c.hiz} {
		gl.BindTexture(gl.TEXTURE_2D, t)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	}
	return nil
}

// resizeCuller sizes the textures for a w x h window.
func (r *Renderer) resizeCuller(w, h int) {
	c := &r.cull
	if c.prog == nil || (w == c.w && h == c.h) {
		return
	}
	c.w, c.h = w, h
	c.hw, c.hh = (w+cullCell-1)/cullCell, (h+cullCell-1)/cullCell
	gl.BindTexture(gl.TEXTURE_2D, c.depthTex)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.DEPTH_COMPONENT24, int32(w), int32(h), 0, gl.DEPTH_COMPONENT, gl.UNSIGNED_INT, nil)
	gl.BindTexture(gl.TEXTURE_2D, c.hiz)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.R32F, int32(c.hw), int32(c.hh), 0, gl.RED, gl.FLOAT, nil)
	gl.BindFramebuffer(gl.FRAMEBUFFER, c.fbo)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.TEXTURE_2D, c.depthTex, 0)
	gl.DrawBuffer(gl.NONE)
	gl.ReadBuffer(gl.NONE)
	c.complete = gl.CheckFramebufferStatus(gl.FRAMEBUFFER) == gl.FRAMEBUFFER_COMPLETE
	gl.BindFramebuffer(gl.FRAMEBUFFER, c.hizFBO)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, c.hiz, 0)
	// Without a complete pair the balls are all drawn: slower, the same.
	c.complete = c.complete && gl.CheckFramebufferStatus(gl.FRAMEBUFFER) == gl.FRAMEBUFFER_COMPLETE
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
}

func (c *culler) delete() {
	if c.prog == nil {
		return
	}
	gl.DeleteFramebuffers(1, &c.fbo)
	gl.DeleteFramebuffers(1, &c.hizFBO)
	gl.DeleteTextures(1, &c.depthTex)
	gl.DeleteTextures(1, &c.hiz)
	c.prog.Delete()
	c.prog = nil
}

// Culling reports whether n balls would be drawn with occlusion culling:
// enough balls, more than the occluders, and Config.Painter off.
func (r *Renderer) Culling(n int) bool {
	return !r.cfg.Painter && r.cull.complete && r.corePoint > 0 && n >= cullMinBalls && n > r.occluders()
}

// drawOccluders draws the occluders and the hierarchical depth, for the
// balls at mix factor alpha (steps 1 and 2 above), leaving the default
// framebuffer bound with the world's viewport and the hierarchical depth
// on texture unit 1.
func (r *Renderer) drawOccluders(alpha float32, step float32) {
	c := &r.cull
	gl.BindFramebuffer(gl.FRAMEBUFFER, c.fbo)
	gl.Disable(gl.SCISSOR_TEST)
	gl.Clear(gl.DEPTH_BUFFER_BIT)
	r.setWorldViewport()
	gl.Enable(gl.SCISSOR_TEST)
	r.scissor(r.view)
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthMask(true)
	r.core.prog.Use()
	gl.Uniform1f(r.core.alpha, alpha)
	gl.Uniform1f(r.core.depthStep, step)
	gl.BindVertexArray(r.vao[r.pos.Last()])
	k := r.occluders()
	first := (r.capacity - r.pos.N()) * 4 // the index buffer's last n entries count down from n-1
	gl.DrawElementsWithOffset(gl.POINTS, int32(k), gl.UNSIGNED_INT, uintptr(first))
	gl.Disable(gl.DEPTH_TEST)

	gl.BindFramebuffer(gl.FRAMEBUFFER, c.hizFBO)
	gl.Disable(gl.SCISSOR_TEST)
	gl.Viewport(0, 0, int32(c.hw), int32(c.hh))
	r.vp = vpOther
	c.prog.Use()
	gl.ActiveTexture(gl.TEXTURE0)
	gl.BindTexture(gl.TEXTURE_2D, c.depthTex)
	gl.Disable(gl.BLEND)
	gl.BindVertexArray(r.ov.vao) // no attributes: the triangle comes from gl_VertexID
	gl.DrawArrays(gl.TRIANGLES, 0, 3)
	gl.Enable(gl.BLEND)

	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.ActiveTexture(gl.TEXTURE1)
	gl.BindTexture(gl.TEXTURE_2D, c.hiz)
	gl.ActiveTexture(gl.TEXTURE0)
	r.setWorldViewport()
	gl.Enable(gl.SCISSOR_TEST)
}

// occluders is how many of the nearest balls are drawn as occluders:
// enough for their cores to cover the world's view cullCoverage times
// over, so that hardly a pixel is left uncovered (a pixel is left
// uncovered by k random cores with probability exp(-coverage)). The
// count depends on the view, not on the number of balls: at a million
// balls, as few occluders hide as much as at a hundred thousand.
func (r *Renderer) occluders() int {
	core := float64(r.corePoint) * float64(r.corePoint)
	k := int(cullCoverage * float64(r.view.W*r.view.H) / core)
	return max(1, min(k, r.pos.N()))
}
