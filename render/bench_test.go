package render

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/shaders"
)

// BenchmarkFrame is one headless frame of n balls at 640x480, radius 8
// (16 px), as the demo draws it with no HUD: clear, draw at a percent, and
// wait for the GPU (glFinish), with no buffer upload (a frame between
// ticks). On llvmpipe this measures the software rasterizer.
//
// The floor variants draw the same sprites with a fragment shader that
// writes a constant colour, without blending: what the rasterizer costs
// for sprites of that size with no shading at all, the least any way of
// drawing these balls could cost.
func BenchmarkFrame(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			benchFrame(b, n, false)
		})
	}
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("floor-%dk", n/1000), func(b *testing.B) {
			benchFrame(b, n, true)
		})
	}
}

const floorFrag = `#version 330 core
flat in vec3 color;
out vec4 fragColor;
void main() { fragColor = vec4(color, 1.0); }
`

func benchFrame(b *testing.B, n int, floor bool) {
	win := withGLB(b, 640, 480)
	r, err := New(Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Delete()
	r.Resize(win.DrawableSize())
	rng := rand.New(rand.NewPCG(1, 2))
	last := make([]int32, 2*n)
	next := make([]int32, 2*n)
	for i := range last {
		lim := int32(640 - 16)
		if i%2 == 1 {
			lim = 480 - 16
		}
		last[i] = (8 + rng.Int32N(lim)) << fracBits
		next[i] = last[i] + (rng.Int32N(33)-16)<<fracBits
	}
	r.Sync(last, next, 1, 1)
	if floor {
		p, err := NewProgram("floor", shaders.BallVert, floorFrag)
		if err != nil {
			b.Fatal(err)
		}
		defer p.Delete()
		// Same vertex shader, so the same uniforms: copy the ones that
		// place the sprites, then draw with this program.
		r.balls, p = p, r.balls
		defer func() { r.balls, p = p, r.balls }()
		for _, u := range []struct {
			loc  *int32
			name string
		}{{&r.uProj, "proj"}, {&r.uAlpha, "alpha"}, {&r.uPointSize, "pointSize"}} {
			if *u.loc, err = r.balls.Uniform(u.name); err != nil {
				b.Fatal(err)
			}
		}
		r.uRadius, r.uRing, r.uOpacity, r.uHighlight = -1, -1, -1, -1 // not in this program
		r.Resize(win.DrawableSize())
		gl.Disable(gl.BLEND)
		defer gl.Enable(gl.BLEND)
	}
	r.Finish()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Clear()
		r.DrawBalls(float32(i%100) / 100)
		r.Finish()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/ball")
}
