package render

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/interpdemo/interpdemo/render/adaptive"
)

// TestQuadRuns: the squares are drawn in runs whose vertex counts are
// multiples of 6 and at most 1,020 (Mesa 22.3 hands its rasterizer runs
// of up to 1,024 vertices, and takes two triangles for a rectangle only
// in runs of whole squares), which together draw each ball once, in order.
func TestQuadRuns(t *testing.T) {
	for _, n := range []int{1, 169, 170, 171, 340, 1000, 100_000} {
		first, count := quadRuns(n, nil, nil)
		next := int32(0)
		for i := range first {
			if first[i] != next || count[i] <= 0 || count[i]%6 != 0 || count[i] > 1020 {
				t.Fatalf("%d balls: run %d starts at vertex %d with %d vertices; want %d, a positive multiple of 6 up to 1,020", n, i, first[i], count[i], next)
			}
			next += count[i]
		}
		if next != int32(6*n) || len(first) != (n+quadChunk-1)/quadChunk {
			t.Errorf("%d balls: %d runs draw %d vertices, want %d runs and %d", n, len(first), next, (n+quadChunk-1)/quadChunk, 6*n)
		}
		// Reused storage: the same runs, no new array.
		f2, c2 := quadRuns(n, first[:0], count[:0])
		if &f2[0] != &first[0] || &c2[0] != &count[0] || len(f2) != len(first) {
			t.Errorf("%d balls: the runs made again did not reuse their storage", n)
		}
	}
}

// TestQuadsKeepThePicture draws the same balls as squares and as point
// sprites, culling off, and compares the read-backs: the squares cover
// the sprites' pixels and shade the same disc, measured from an
// interpolated offset where the sprite has gl_PointCoord, so only the
// last bits of some edge pixels may differ (as between ball.frag and
// disc.frag: TestCullingKeepsThePicture). A square a pixel off, or of
// another size, or a ball drawn twice or missed (a run of the wrong
// length), fails by whole levels. Ball counts around the runs' length,
// several sizes of ball, a letterboxed window, points between ticks and
// beyond (extrapolation).
func TestQuadsKeepThePicture(t *testing.T) {
	cases := []struct {
		n      int
		radius int32
		w, h   int
	}{
		{1, 8, 640, 480}, {170, 8, 640, 480}, {1000, 8, 640, 480}, {1000, 8, 1001, 703},
		{3000, 1, 640, 480}, {300, 30, 640, 480}, {10_000, 8, 640, 480},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d balls r%d %dx%d", c.n, c.radius, c.w, c.h), func(t *testing.T) {
			win := withGL(t, c.w, c.h)
			last, next := randomBalls(c.n, 11)
			cfg := Config{WorldW: 640, WorldH: 480, Radius: c.radius, FracBits: fracBits, Cull: adaptive.Off}
			cfg.Sprites = adaptive.Off
			quads := newRendererConfig(t, win, cfg)
			cfg.Sprites = adaptive.On
			points := newRendererConfig(t, win, cfg)
			draw := func(r *Renderer, alpha float32) ([]byte, bool) {
				r.Resize(c.w, c.h)
				r.Sync(last, next, 1, 1)
				r.SetHighlightFirst(true)
				r.Clear()
				r.DrawBalls(alpha)
				return r.ReadPixels().Pix, r.quads.on
			}
			for _, alpha := range []float32{0, 0.37, 1, 1.61} {
				a, aq := draw(quads, alpha)
				b, bq := draw(points, alpha)
				if !aq || bq || !quads.Quads() || points.Quads() {
					t.Fatalf("squares drawn %v/%v where forced, %v/%v where points are", aq, quads.Quads(), bq, points.Quads())
				}
				d, k := 0, 0
				for i := 0; i < len(a); i += 4 {
					e := max(abs(int(a[i])-int(b[i])), abs(int(a[i+1])-int(b[i+1])), abs(int(a[i+2])-int(b[i+2])))
					if e > 0 {
						k++
					}
					d = max(d, e)
				}
				t.Logf("mix %v: %d pixels differ, by up to %d", alpha, k, d)
				if d > 2 || k > len(a)/4/100 {
					t.Errorf("mix %v: %d pixels differ between squares and points, by up to %d; want up to 2 levels in under 1 %%", alpha, k, d)
				}
			}
		})
	}
}

// TestAutoSpritesMeasuresBoth draws 1,000 balls with the form chosen by
// measurement (culling off, so that the form's comparisons run every
// frame): both forms are drawn, measured and reported, and the frames
// the comparisons drew are counted. Which form wins is measured by make
// bench (in a window, target 20), not asserted here: timing in a test.
func TestAutoSpritesMeasuresBoth(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of frames of 1,000 balls")
	}
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Cull: adaptive.Off})
	if info := Info(); !strings.Contains(info, "llvmpipe") {
		t.Skipf("the costs are llvmpipe's; this GL is %s", info)
	}
	last, next := randomBalls(1000, 7)
	r.Sync(last, next, 1, 1)
	frames := 2*adaptive.TrialFrames + 4 + 128
	drawn := [2]int{}
	for i := range frames {
		r.Clear()
		r.DrawBalls(float32(i%50) / 50)
		if r.quads.on {
			drawn[1]++
		} else {
			drawn[0]++
		}
		win.Swap()
		r.EndFrame()
	}
	s := r.SpriteStats()
	t.Logf("%d frames of points, %d of squares; last comparison: frame %.3f ms squares, %.3f points; GPU %.3f and %.3f ms",
		drawn[0], drawn[1], float64(s.CostQuadsNs)/1e6, float64(s.CostPointsNs)/1e6, float64(s.GPUQuadsNs)/1e6, float64(s.GPUPointsNs)/1e6)
	if s.CostQuadsNs <= 0 || s.CostPointsNs <= 0 || s.GPUQuadsNs <= 0 || s.GPUPointsNs <= 0 {
		t.Errorf("a cost not measured: %+v", s)
	}
	if drawn[0] < adaptive.TrialFrames-adaptive.Settle || drawn[1] < adaptive.TrialFrames-adaptive.Settle {
		t.Errorf("%d frames of points and %d of squares: a comparison draws both", drawn[0], drawn[1])
	}
	if least := 2*adaptive.TrialFrames - adaptive.Settle; s.Compared < least || s.Tried < adaptive.TrialFrames || s.Tried > s.Compared {
		t.Errorf("the comparisons drew %d frames, %d of them the form not in force; want at least %d and %d", s.Compared, s.Tried, least, adaptive.TrialFrames)
	}
	if s.Mode != adaptive.Auto || s.Quads != (r.choice.Option() == optSquares) {
		t.Errorf("reported %+v, the option in force %d", s, r.choice.Option())
	}
}

// TestPartsKeepTheForm: a retained frame that repaints parts of the
// drawable draws its balls in the form the drawable holds, so that no
// frame shows squares beside points; the choice of form goes on only in
// frames that repaint the world whole. Three balls moving, every frame
// but the first repainting parts: with the choice comparing from the
// start (blocks of each form in turn), the form would change within the
// first blocks.
func TestPartsKeepTheForm(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Retained: true, Cull: adaptive.Off})
	pos := []int32{q8(100), q8(100), q8(300), q8(200), q8(500), q8(400)}
	moved := []int32{q8(108), q8(100), q8(300), q8(208), q8(492), q8(400)}
	r.Sync(pos, moved, 1, 1)
	parts, wholeFrames := 0, 0
	for f := range 4 * adaptive.TrialFrames {
		before := r.quads.on
		compared, _ := r.choice.Compared()
		r.Draw(&Frame{Alpha: float32(f%8) / 8})
		after, _ := r.choice.Compared()
		if r.RepaintedPixels() >= 640*480 {
			wholeFrames++
			continue
		}
		parts++
		if r.quads.on != before || after != compared {
			t.Fatalf("frame %d repainted %d pixels: squares %v before, %v after; the comparisons drew %d frames before, %d after", f, r.RepaintedPixels(), before, r.quads.on, compared, after)
		}
		win.Swap()
	}
	if parts < 3*adaptive.TrialFrames {
		t.Errorf("%d frames repainted parts, %d whole; want nearly all in parts", parts, wholeFrames)
	}
}

// TestSquaresAllocateNothing: a frame of squares after the ball count
// grew allocates nothing; the runs' room is made with the buffers' at
// Sync. (A run at 1,000,000 balls whose first frame of squares came
// after its warm-up made 24 allocations there, in make bench.)
func TestSquaresAllocateNothing(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Cull: adaptive.Off, Sprites: adaptive.Off})
	last, next := randomBalls(100, 3)
	r.Sync(last, next, 1, 1)
	r.Draw(&Frame{Alpha: 0.5})
	last, next = randomBalls(5000, 3)
	r.Sync(last, next, 2, 1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r.Draw(&Frame{Alpha: 0.25})
	runtime.ReadMemStats(&after)
	if !r.quads.on {
		t.Fatal("the frame drew no squares")
	}
	if n := after.Mallocs - before.Mallocs; n != 0 {
		t.Errorf("%d allocations in the first frame of squares at the new count", n)
	}
}
