package render

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// TestCellCullingKeepsThePicture draws the same balls with and without the
// CPU's occlusion culling, at several mix factors, in a window of the
// world's size and in a larger one (a scale that is not whole, with
// letterbox bars), and compares the read-backs pixel for pixel: a culled
// ball must be one that the painter's algorithm paints over entirely. It
// also checks that the culling finds what it should: at 10,000 random
// balls in 640x480, about four in ten lie under later ones, and the cells
// find over a fifth.
func TestCellCullingKeepsThePicture(t *testing.T) {
	const n = 10_000
	for _, size := range [][2]int{{640, 480}, {1001, 703}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			win := withGL(t, size[0], size[1])
			last, next := randomBalls(n, 7)
			r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits})
			r.Sync(last, next, 1, 1)
			r.SetHighlightFirst(true)
			draw := func(alpha float32, min int) (*image.RGBA, int) {
				defer func(m int) { cellMinBalls = m }(cellMinBalls)
				cellMinBalls = min
				r.Clear()
				r.DrawBalls(alpha)
				if got, want := r.Culling(n), min <= n; got != want {
					t.Fatalf("CPU culling %v with %d balls from %d on, want %v", got, n, min, want)
				}
				return r.ReadPixels(), r.cells.hiddenCount()
			}
			for _, alpha := range []float32{0, 0.37, 1, 1.61} {
				all, _ := draw(alpha, math.MaxInt)
				culled, hidden := draw(alpha, 1)
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

// TestCullingUnderAWall puts ball 0 under a wall of later balls: the cells
// the wall's cores cover entirely belong to wall balls, the cells away
// from it to none, ball 0 is culled and no wall ball is, and the GPU's
// clipper, counting what it passes on to the rasterizer, sees every ball
// but ball 0 (where the driver counts it: ARB_pipeline_statistics_query).
func TestCullingUnderAWall(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits})
	// The wall: balls every 8 px from y = 200 to 288, whose cores (radius
	// 7.5) cover rows 195 to 293 entirely.
	pos := []int32{q8(300), q8(240)}
	for y := 200.0; y <= 288; y += 8 {
		for x := 4.0; x < 640; x += 8 {
			pos = append(pos, q8(x), q8(y))
		}
	}
	n := len(pos) / 2
	defer func(m int) { cellMinBalls = m }(cellMinBalls)
	cellMinBalls = 1
	r.Sync(pos, pos, 1, 1)
	if !r.Culling(n) {
		t.Fatalf("no culling of %d balls", n)
	}
	stats := hasExtension("GL_ARB_pipeline_statistics_query")
	var q uint32
	if stats {
		gl.GenQueries(1, &q)
		defer gl.DeleteQueries(1, &q)
		gl.BeginQuery(clippingOutputPrimitives, q)
	}
	r.Clear()
	r.DrawBalls(1)
	if stats {
		gl.EndQuery(clippingOutputPrimitives)
		var passed uint32
		gl.GetQueryObjectuiv(q, gl.QUERY_RESULT, &passed)
		if int(passed) != n-1 {
			t.Errorf("the clipper passed %d balls on, want %d (all but ball 0)", passed, n-1)
		}
	} else {
		t.Log("no GL_ARB_pipeline_statistics_query: the clipper's count not checked")
	}
	c := &r.cells
	for cy := 0; cy < c.gh; cy++ {
		for cx := 0; cx < c.gw; cx++ {
			owner := c.cells[cy*c.gw+cx]
			y0, y1 := cy*cellSize, (cy+1)*cellSize // rows of the cell
			switch {
			case y0 >= 195 && y1 <= 294 && owner < 1:
				t.Errorf("cell %d,%d inside the wall: owner %d, want a wall ball", cx, cy, owner)
			case (y1 <= 190 || y0 >= 300) && owner != -1:
				t.Errorf("cell %d,%d away from the wall: owner %d, want none", cx, cy, owner)
			}
		}
	}
	if !c.hidden(0) {
		t.Error("ball 0, under the wall, is not culled")
	}
	if h := c.hiddenCount(); h != 1 {
		t.Errorf("%d balls culled, want 1 (ball 0)", h)
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
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits})
	last, next := randomBalls(n, 3)
	r.Sync(last, next, 1, 1)
	frame := func(alpha float32, culled bool) *image.RGBA {
		t.Helper()
		defer func(m int) { cellMinBalls = m }(cellMinBalls)
		if !culled {
			cellMinBalls = math.MaxInt
		}
		r.Clear()
		r.DrawBalls(alpha)
		img := r.ReadPixels()
		r.EndFrame()
		return img
	}
	check := func(what string, alpha float32, found bool) {
		t.Helper()
		ring := r.cells.ring
		got := frame(alpha, true)
		if again := r.cells.ring != ring; again != found {
			t.Errorf("%s: windows found afresh %v, want %v", what, again, found)
		}
		if d, k := diff(frame(alpha, false), got); k != 0 {
			t.Errorf("%s: %d pixels differ from drawing every ball, by up to %d", what, k, d)
		}
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
	check("new positions", 0.5, true)
	check("the same again", 0.5, false)
	r.Resize(600, 450)
	check("a new view", 0.5, true)
}
