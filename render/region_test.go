package render

import (
	"math/rand/v2"
	"testing"
)

// The region's rectangles are checked against a reference model: a
// bitmap of the pixels the operations should leave.

const gridW, gridH = 40, 30

type bitmap [gridW * gridH]bool

func (b *bitmap) set(r Rect, v bool) {
	r = r.Intersect(Rect{0, 0, gridW, gridH})
	for y := r.Y; y < r.Y+r.H; y++ {
		for x := r.X; x < r.X+r.W; x++ {
			b[y*gridW+x] = v
		}
	}
}

func randRect(rng *rand.Rand) Rect {
	x, y := rng.IntN(gridW), rng.IntN(gridH)
	return Rect{x, y, rng.IntN(gridW - x + 1), rng.IntN(gridH - y + 1)}
}

func TestRegionMatchesABitmap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 2000; trial++ {
		var g region
		var want bitmap
		for op := 0; op < 1+rng.IntN(8); op++ {
			r := randRect(rng)
			if rng.IntN(3) == 0 {
				g.cut(r)
				want.set(r, false)
			} else {
				g.add(r)
				want.set(r, true)
			}
		}
		if g.overflow {
			continue // a region that gave up is painted whole: nothing to compare
		}
		// Every pixel of the model is in exactly one rectangle, and no
		// rectangle holds a pixel outside it.
		var count [gridW * gridH]int
		for _, r := range g.rects() {
			if r.Empty() {
				t.Fatalf("trial %d: empty rectangle %v in %v", trial, r, g.rects())
			}
			for y := r.Y; y < r.Y+r.H; y++ {
				for x := r.X; x < r.X+r.W; x++ {
					count[y*gridW+x]++
				}
			}
		}
		area := 0
		for i, in := range want {
			if in {
				area++
			}
			if (in && count[i] != 1) || (!in && count[i] != 0) {
				t.Fatalf("trial %d: pixel %d,%d in %d rectangles, want %v; region %v", trial, i%gridW, i/gridW, count[i], in, g.rects())
			}
		}
		if g.area() != area {
			t.Fatalf("trial %d: area %d, want %d", trial, g.area(), area)
		}
	}
}

func TestSubtract(t *testing.T) {
	var out [4]Rect
	// A hole in the middle leaves four pieces that tile the rest.
	n := subtract(Rect{0, 0, 10, 10}, Rect{3, 4, 2, 2}, &out)
	if n != 4 {
		t.Fatalf("%d pieces, want 4: %v", n, out[:n])
	}
	a := 0
	for _, r := range out[:n] {
		a += r.area()
	}
	if a != 100-4 {
		t.Errorf("pieces cover %d pixels, want 96", a)
	}
	// Disjoint: r itself; covering: nothing.
	if n := subtract(Rect{0, 0, 5, 5}, Rect{6, 6, 2, 2}, &out); n != 1 || out[0] != (Rect{0, 0, 5, 5}) {
		t.Errorf("disjoint: %v", out[:n])
	}
	if n := subtract(Rect{2, 2, 3, 3}, Rect{0, 0, 10, 10}, &out); n != 0 {
		t.Errorf("covered: %v", out[:n])
	}
}

func TestRegionOverflowIsReported(t *testing.T) {
	var g region
	for i := 0; i < maxRegion+5; i++ {
		g.add(Rect{2 * i, 0, 1, 1}) // disjoint single pixels
	}
	if !g.overflow {
		t.Errorf("%d disjoint rectangles fit in a region of %d", maxRegion+5, maxRegion)
	}
}

func TestRegionAllocatesNothing(t *testing.T) {
	var g region
	rng := rand.New(rand.NewPCG(1, 1))
	rects := make([]Rect, 64)
	for i := range rects {
		rects[i] = randRect(rng)
	}
	allocs := testing.AllocsPerRun(100, func() {
		g.reset()
		g.push(Rect{0, 0, gridW, gridH})
		for _, r := range rects[:4] {
			g.cut(r)
		}
		for _, r := range rects[4:12] {
			g.add(r)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per region built", allocs)
	}
}
