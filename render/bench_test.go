package render

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/interpdemo/interpdemo/render/adaptive"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// BenchmarkFrame is one headless frame of n balls at 640x480, radius 8
// (16 px), as the demo draws it with no HUD: clear, draw at a percent, and
// wait for the GPU (glFinish), with no buffer upload (a frame between
// ticks). On llvmpipe this measures the software rasterizer.
//
//   - 10k, 100k: the demo's path with occlusion culling on (-cull on);
//   - painter-10k, painter-100k: the reference, every ball drawn
//     (Config.Painter);
//   - floor-10k, floor-100k: the reference's sprites with a fragment
//     shader that writes a constant colour, without blending: what the
//     rasterizer costs for every sprite with no shading at all, the least
//     any way of drawing every ball could cost.
func BenchmarkFrame(b *testing.B) {
	for _, kind := range []string{"", "painter-", "floor-"} {
		for _, n := range []int{10_000, 100_000} {
			b.Run(fmt.Sprintf("%s%dk", kind, n/1000), func(b *testing.B) {
				benchFrame(b, n, kind)
			})
		}
	}
}

const floorFrag = `#version 330 core
flat in vec3 color;
out vec4 fragColor;
void main() { fragColor = vec4(color, 1.0); }
`

// randomBalls places n balls inside a 640x480 world, each moving up to
// 16 units a tick.
func randomBalls(n int, seed uint64) (last, next []int32) {
	rng := rand.New(rand.NewPCG(seed, 2))
	last = make([]int32, 2*n)
	next = make([]int32, 2*n)
	for i := range last {
		lim := int32(640 - 16)
		if i%2 == 1 {
			lim = 480 - 16
		}
		last[i] = (8 + rng.Int32N(lim)) << fracBits
		next[i] = last[i] + (rng.Int32N(33)-16)<<fracBits
	}
	return last, next
}

func benchFrame(b *testing.B, n int, kind string) {
	win := withGLB(b, 640, 480)
	r, err := New(Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Painter: kind != "", Cull: adaptive.On})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Delete()
	if kind == "floor-" {
		p := ballProgram{src: ballSource{name: "floor", frag: floorFrag}}
		if err := p.init(); err != nil {
			b.Fatal(err)
		}
		defer p.prog.Delete()
		r.ballWhole, p = p, r.ballWhole // the program DrawBalls draws every ball with
		defer func() { r.ballWhole, p = p, r.ballWhole }()
		gl.Disable(gl.BLEND)
		defer gl.Enable(gl.BLEND)
	}
	r.Resize(win.DrawableSize())
	last, next := randomBalls(n, 1)
	r.Sync(last, next, 1, 1)
	// One frame first: llvmpipe compiles a shader's code at its first
	// draw, tens of milliseconds that are no frame's.
	r.Clear()
	r.DrawBalls(0)
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

// BenchmarkCulling is the CPU's part of the occlusion culling of a frame:
// the cells the balls cover at one mix factor, the windows, their upload.
func BenchmarkCulling(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			r := newRendererConfig(b, withGLB(b, 640, 480), Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Cull: adaptive.On})
			last, next := randomBalls(n, 1)
			r.Sync(last, next, 1, 1)
			if !r.Culling() {
				b.Fatalf("no culling at %d balls", n)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r.prepareCells(float32(i%100+1) / 101) // never the last frame's mix factor
			}
			b.StopTimer()
			r.Finish()
			b.ReportMetric(float64(r.cells.HiddenCount())/float64(n), "hidden/ball")
		})
	}
}
