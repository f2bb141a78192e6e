package render

import (
	"fmt"
	"image"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/render/adaptive"
	"github.com/interpdemo/interpdemo/render/occlusion"
)

// TestCellCullingKeepsThePicture draws the same balls with the CPU's
// occlusion culling forced on and forced off, at several mix factors, in a
// window of the world's size and in a larger one (a scale that is not
// whole, with letterbox bars), and compares the read-backs pixel for
// pixel: a culled ball must be one that the painter's algorithm paints
// over entirely. It also checks that the culling finds what it should:
// at 10,000 random balls in 640x480, about four in ten lie under later
// ones, and the cells find over a fifth.
func TestCellCullingKeepsThePicture(t *testing.T) {
	const n = 10_000
	for _, size := range [][2]int{{640, 480}, {1001, 703}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			win := withGL(t, size[0], size[1])
			last, next := randomBalls(n, 7)
			// Points both ways: culled balls are (quads.go).
			cfg := Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Sprites: adaptive.On}
			cfg.Cull = adaptive.On
			on := newRendererConfig(t, win, cfg)
			cfg.Cull = adaptive.Off
			off := newRendererConfig(t, win, cfg)
			draw := func(r *Renderer, alpha float32) *image.RGBA {
				r.Sync(last, next, 1, 1)
				r.SetHighlightFirst(true)
				r.Clear()
				r.DrawBalls(alpha)
				return r.ReadPixels()
			}
			for _, alpha := range []float32{0, 0.37, 1, 1.61} {
				all, culled := draw(off, alpha), draw(on, alpha)
				if !on.Culling() || !on.cells.on || off.Culling() || off.cells.on {
					t.Fatalf("culling %v/%v forced on, %v/%v forced off", on.Culling(), on.cells.on, off.Culling(), off.cells.on)
				}
				hidden := on.cells.HiddenCount()
				if d, k := diff(all, culled); k != 0 {
					t.Errorf("mix %v: %d pixels differ from drawing every ball, by up to %d", alpha, k, d)
				}
				t.Logf("mix %v: %d of %d balls culled", alpha, hidden, n)
				if size[0] == 640 && hidden < n/5 {
					t.Errorf("mix %v: %d of %d balls culled, want at least a fifth", alpha, hidden, n)
				}
				if hidden == 0 {
					t.Errorf("mix %v: no ball culled", alpha)
				}
			}
		})
	}
}

// clipped draws the renderer's balls at mix factor alpha and returns how
// many the GPU's clipper passed on to the rasterizer
// (ARB_pipeline_statistics_query); false where the driver does not count.
func clipped(t *testing.T, r *Renderer, alpha float32) (int, bool) {
	t.Helper()
	if !hasExtension("GL_ARB_pipeline_statistics_query") {
		r.Clear()
		r.DrawBalls(alpha)
		return 0, false
	}
	var q uint32
	gl.GenQueries(1, &q)
	defer gl.DeleteQueries(1, &q)
	r.Clear()
	gl.BeginQuery(clippingOutputPrimitives, q)
	r.DrawBalls(alpha)
	gl.EndQuery(clippingOutputPrimitives)
	var passed uint32
	gl.GetQueryObjectuiv(q, gl.QUERY_RESULT, &passed)
	return int(passed), true
}

// TestCullingUnderAWall puts ball 0 under a wall of later balls: the cells
// the wall's cores cover entirely belong to wall balls, the cells away
// from it to none, ball 0 is culled and no wall ball is, and the GPU's
// clipper, counting what it passes on to the rasterizer, sees every ball
// but ball 0 (where the driver counts it: ARB_pipeline_statistics_query).
func TestCullingUnderAWall(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Cull: adaptive.On})
	// The wall: balls every 8 px from y = 200 to 288, whose cores (radius
	// 7.5) cover rows 195 to 293 entirely.
	pos := []int32{q8(300), q8(240)}
	for y := 200.0; y <= 288; y += 8 {
		for x := 4.0; x < 640; x += 8 {
			pos = append(pos, q8(x), q8(y))
		}
	}
	n := len(pos) / 2
	r.Sync(pos, pos, 1, 1)
	if !r.Culling() {
		t.Fatalf("no culling of %d balls", n)
	}
	if passed, ok := clipped(t, r, 1); !ok {
		t.Log("no GL_ARB_pipeline_statistics_query: the clipper's count not checked")
	} else if passed != n-1 {
		t.Errorf("the clipper passed %d balls on, want %d (all but ball 0)", passed, n-1)
	}
	c := &r.cells
	gw, gh := c.Cells()
	for cy := 0; cy < gh; cy++ {
		for cx := 0; cx < gw; cx++ {
			owner := c.Owner(cx, cy)
			y0, y1 := cy*occlusion.CellSize, (cy+1)*occlusion.CellSize // rows of the cell
			switch {
			case y0 >= 195 && y1 <= 294 && owner < 1:
				t.Errorf("cell %d,%d inside the wall: owner %d, want a wall ball", cx, cy, owner)
			case (y1 <= 190 || y0 >= 300) && owner != -1:
				t.Errorf("cell %d,%d away from the wall: owner %d, want none", cx, cy, owner)
			}
		}
	}
	if !c.Hidden(0) {
		t.Error("ball 0, under the wall, is not culled")
	}
	if h := c.HiddenCount(); h != 1 {
		t.Errorf("%d balls culled, want 1 (ball 0)", h)
	}
}

// TestHiddenCountIsTheClippers: on random scenes, the balls the CPU counts
// hidden (HiddenCount, ball.vert's test in Go) are exactly those the
// GPU's clipper drops: a count off by one comparison fails.
func TestHiddenCountIsTheClippers(t *testing.T) {
	win := withGL(t, 640, 480)
	if !hasExtension("GL_ARB_pipeline_statistics_query") {
		t.Skip("no GL_ARB_pipeline_statistics_query: the clipper's count cannot be read")
	}
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Cull: adaptive.On})
	for _, seed := range []uint64{11, 12, 13} {
		n := 3000 * int(seed-10) * int(seed-10)
		last, next := randomBalls(n, seed)
		r.Sync(last, next, seed, seed)
		for _, alpha := range []float32{0.21, 0.5, 0.93} {
			passed, _ := clipped(t, r, alpha)
			hidden := r.cells.HiddenCount()
			if hidden == 0 {
				t.Errorf("%d balls, mix %v: none hidden", n, alpha)
			}
			if passed != n-hidden {
				t.Errorf("%d balls, mix %v: the clipper passed %d, the CPU counts %d hidden (want %d passed)", n, alpha, passed, hidden, n-hidden)
			}
		}
	}
}

// clippingOutputPrimitives is GL_CLIPPING_OUTPUT_PRIMITIVES_ARB, the
// primitives the clipper passes on to the rasterizer.
const clippingOutputPrimitives = 0x82F7

func hasExtension(name string) bool {
	var n int32
	gl.GetIntegerv(gl.NUM_EXTENSIONS, &n)
	for i := uint32(0); i < uint32(n); i++ {
		if gl.GoStr(gl.GetStringi(gl.EXTENSIONS, i)) == name {
			return true
		}
	}
	return false
}

// TestCullingFindsOnlyWhatChanged draws frames at the same mix factor
// with the same positions (interpolation off, or the game paused): the
// windows found for the first are used again, nothing is found or
// uploaded; a new mix factor, new positions or a new view find them
// afresh. Every frame's picture is the one drawing every ball gives.
func TestCullingFindsOnlyWhatChanged(t *testing.T) {
	const n = 10_000
	win := withGL(t, 640, 480)
	cfg := Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Cull: adaptive.On, Sprites: adaptive.On}
	r := newRendererConfig(t, win, cfg)
	cfg.Cull = adaptive.Off
	ref := newRendererConfig(t, win, cfg)
	last, next := randomBalls(n, 3)
	r.Sync(last, next, 1, 1)
	ref.Sync(last, next, 1, 1)
	frame := func(r *Renderer, alpha float32) *image.RGBA {
		t.Helper()
		r.Clear()
		r.DrawBalls(alpha)
		img := r.ReadPixels()
		r.EndFrame()
		return img
	}
	check := func(what string, alpha float32, found bool) {
		t.Helper()
		ring := r.cells.ring
		got := frame(r, alpha)
		if again := r.cells.ring != ring; again != found {
			t.Errorf("%s: windows found afresh %v, want %v", what, again, found)
		}
		if d, k := diff(frame(ref, alpha), got); k != 0 {
			t.Errorf("%s: %d pixels differ from drawing every ball, by up to %d", what, k, d)
		}
	}
	if r.cells.texW != 0 {
		t.Errorf("the windows' textures have storage (%d texels wide) before any frame culled", r.cells.texW)
	}
	check("the first frame", 1, true)
	check("the same mix factor", 1, false)
	check("the same mix factor again", 1, false)
	check("another mix factor", 0.5, true)
	moved := append([]int32(nil), next...)
	for i := range moved {
		moved[i] += 3 << fracBits
	}
	r.Sync(next, moved, 2, 1)
	ref.Sync(next, moved, 2, 1)
	check("new positions", 0.5, true)
	check("the same again", 0.5, false)
	moved2 := append([]int32(nil), moved...)
	for i := range moved2 {
		moved2[i] -= 2 << fracBits
	}
	r.Sync(moved, moved2, 3, 1) // one step: the culler copies next alone
	ref.Sync(moved, moved2, 3, 1)
	check("one step", 0.5, true)
	r.Resize(600, 450)
	ref.Resize(600, 450)
	check("a new view", 0.5, true)
	check("the new view again", 0.5, false)
	r.Resize(640, 480)
	ref.Resize(640, 480)
	check("the first view again", 0.5, true)
	if ref.cells.texW != 0 {
		t.Errorf("a renderer that never culled gave its windows' textures storage (%d texels wide)", ref.cells.texW)
	}
}

// TestAutoCullingMeasuresBoth draws 10,000 balls with the choice left to
// measurement, on llvmpipe, at radius 8 (four balls in ten hidden) and 1
// (almost nothing hidden), and checks what the choice stands on: both
// options measured and reported, the walk timed, and the picture the
// same whichever is in force (TestCullingKeepsThePicture). Which option
// wins on this machine is timing, measured where timing is measured: by
// make bench (go run ./cmd/bench -cull-only, targets 17 and 18). The
// rule itself is tested with generated costs in render/adaptive, noisy
// ones included (TestNoisyShortFrames).
func TestAutoCullingMeasuresBoth(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of frames of 10,000 balls")
	}
	win := withGL(t, 640, 480)
	for _, radius := range []int32{8, 1} {
		r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: radius, FracBits: fracBits})
		if info := Info(); !strings.Contains(info, "llvmpipe") {
			t.Skipf("the costs are llvmpipe's; this GL is %s", info)
		}
		last, next := randomBalls(10_000, 7)
		r.Sync(last, next, 1, 1)
		frames := 2*adaptive.TrialFrames + 4 + 128 // a comparison and its late results, then the choice
		on := 0
		for i := range frames {
			r.Clear()
			r.DrawBalls(float32(i%50) / 50)
			win.Swap()
			r.EndFrame()
			if r.Culling() {
				on++
			}
		}
		s := r.CullStats()
		t.Logf("radius %d: culling in force %d of %d frames; last comparison: walk %.3f ms; GPU %.3f ms on, %.3f off; frame %.3f ms on, %.3f off",
			radius, on, frames, float64(s.WalkNs)/1e6, float64(s.GPUOnNs)/1e6, float64(s.GPUOffNs)/1e6, float64(s.CostOnNs)/1e6, float64(s.CostOffNs)/1e6)
		if s.WalkNs <= 0 || s.CostOnNs <= 0 || s.CostOffNs <= 0 || s.GPUOnNs <= 0 || s.GPUOffNs <= 0 {
			t.Errorf("radius %d: a cost not measured: %+v", radius, s)
		}
		// The first comparison: its first block has no settling frames
		// (nothing is in flight at the start).
		if least := 2*adaptive.TrialFrames - adaptive.Settle; s.Compared < least || s.Tried < adaptive.TrialFrames || s.Tried > s.Compared {
			t.Errorf("radius %d: the comparisons drew %d frames, %d of them the other option; want at least %d and %d", radius, s.Compared, s.Tried, least, adaptive.TrialFrames)
		}
		if s.CostOnNs < s.WalkNs {
			t.Errorf("radius %d: a frame with culling measured %d ns, less than its walk's %d", radius, s.CostOnNs, s.WalkNs)
		}
	}
}

// TestCullerSizedAtResize: the occlusion culler's grids are made when
// the view is sized, before any frame, though the first frames draw
// without culling: a run whose comparisons first try culling after its
// warm-up (frames of a second at 1,000,000 balls on llvmpipe) allocates
// nothing for it then. Its textures wait for the first frame that culls
// (GL's memory, not Go's).
func TestCullerSizedAtResize(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Cull: adaptive.Auto})
	last, next := randomBalls(100, 3)
	r.Sync(last, next, 1, 1)
	r.Resize(600, 450)
	if !r.cells.Sized() {
		t.Error("the grids were not made at the resize")
	}
	r.Clear()
	r.DrawBalls(0.5)
	on := r.cells.on
	r.EndFrame()
	if on {
		t.Fatal("the first frame culled: a comparison starts without culling")
	}
	if r.cells.texW != 0 {
		t.Errorf("the windows' textures were given storage (%d texels wide) in a frame that did not cull", r.cells.texW)
	}
}

// TestCellsSamplerHasATextureBeforeCulling: from the renderer's start,
// texture unit 2, which the ball programs' cells sampler reads, holds a
// complete integer texture, though no frame has culled yet. Without one,
// Mesa makes its fallback texture at the first draw and waits there for
// the GPU to finish the frame so far (initCells).
func TestCellsSamplerHasATextureBeforeCulling(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Cull: adaptive.Auto})
	check := func(when string) {
		t.Helper()
		gl.ActiveTexture(gl.TEXTURE2)
		defer gl.ActiveTexture(gl.TEXTURE0)
		var bound, format, w, h int32
		gl.GetIntegerv(gl.TEXTURE_BINDING_2D, &bound)
		if bound == 0 || !slices.Contains(r.cells.tex[:], uint32(bound)) {
			t.Fatalf("%s: texture %d on unit 2, not one of the culler's %v", when, bound, r.cells.tex)
		}
		gl.GetTexLevelParameteriv(gl.TEXTURE_2D, 0, gl.TEXTURE_INTERNAL_FORMAT, &format)
		gl.GetTexLevelParameteriv(gl.TEXTURE_2D, 0, gl.TEXTURE_WIDTH, &w)
		gl.GetTexLevelParameteriv(gl.TEXTURE_2D, 0, gl.TEXTURE_HEIGHT, &h)
		if format != gl.R32I || w < 1 || h < 1 {
			t.Errorf("%s: unit 2's texture is %dx%d of format %#x, want R32I (%#x) with storage", when, w, h, format, gl.R32I)
		}
	}
	check("after New")
	last, next := randomBalls(100, 3)
	r.Sync(last, next, 1, 1)
	r.Resize(600, 450)
	r.Clear()
	r.DrawBalls(0.5)
	if r.cells.on {
		t.Fatal("the first frame culled: a comparison starts without culling")
	}
	r.EndFrame()
	check("after a frame without culling")
}

// TestAutoChoosesAmongThree: everything auto, 10,000 balls of radius 8:
// squares, points and culled points are each drawn, measured and
// reported, within the first comparisons (the option in force against
// each other at once), and the option in force at the end is not one
// that another measured Margin cheaper than. Two choices of two, one
// after the other, never measured the form not in force while culling
// was (choice.go).
func TestAutoChoosesAmongThree(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of frames of 10,000 balls")
	}
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits})
	last, next := randomBalls(10_000, 7)
	r.Sync(last, next, 1, 1)
	drawn := drawOptions(r, win, optionsFrames)
	c, s := r.CullStats(), r.SpriteStats()
	t.Logf("frames drawn as squares, points, culled: %v; last measured: squares %.3f ms, points %.3f, culled %.3f (walk %.3f); in force: option %d",
		drawn, float64(s.CostQuadsNs)/1e6, float64(s.CostPointsNs)/1e6, float64(c.CostOnNs)/1e6, float64(c.WalkNs)/1e6, r.choice.Option())
	costs := [numOptions]int64{optSquares: s.CostQuadsNs, optPoints: s.CostPointsNs, optCulled: c.CostOnNs}
	for o, n := range drawn {
		if n < adaptive.Block-adaptive.Settle || costs[o] <= 0 {
			t.Errorf("option %d drawn %d times, measured %d ns: each option is compared", o, n, costs[o])
		}
	}
	if c.WalkNs <= 0 || c.CostOffNs != min(s.CostQuadsNs, s.CostPointsNs) {
		t.Errorf("culling's stats %+v: want the walk measured, and the cost without culling the cheaper form's (%d, %d)", c, s.CostQuadsNs, s.CostPointsNs)
	}
	// The option in force against the other of the last comparison:
	// costs measured in turn (the last costs of options measured in
	// different comparisons need not compare, the load changing).
	in := r.choice.Option()
	a, b, ta, tb, ok := r.choice.Last()
	if in == b {
		a, b, ta, tb = b, a, tb, ta
	}
	if !ok || in != a || ta < 0 || tb < 0 {
		t.Errorf("option %d in force, the last comparison %d (%d ns) against %d (%d ns): want the one in force among them, both measured", in, a, ta, b, tb)
	} else if float64(tb) < adaptive.Margin*float64(ta) {
		t.Errorf("option %d in force at %d ns, option %d measured %d in the same comparison: over the margin cheaper", in, ta, b, tb)
	}
	if f, _ := r.choice.Compared(); s.Compared+c.Compared != f {
		t.Errorf("the form's comparisons %d frames and the culling's %d, want all %d between them", s.Compared, c.Compared, f)
	}
}

// optionsFrames is enough frames for the first comparisons to have tried
// each option (a confirmation's longer blocks among them), with their
// late results.
const optionsFrames = 4*2*adaptive.MaxBlocks*adaptive.Block + 16

// drawOptions draws frames whole frames of r's balls, at points between
// ticks, and counts those drawn with each option (squares, points,
// culled points).
func drawOptions(r *Renderer, win interface{ Swap() }, frames int) (drawn [numOptions]int) {
	for i := range frames {
		r.Clear()
		r.DrawBalls(float32(i%50) / 50)
		switch {
		case r.cells.on:
			drawn[optCulled]++
		case r.quads.on:
			drawn[optSquares]++
		default:
			drawn[optPoints]++
		}
		win.Swap()
		r.EndFrame()
	}
	return drawn
}
