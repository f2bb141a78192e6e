package render

// Rectangle arithmetic for repainting part of the window: a region is a
// list of disjoint rectangles, so that every pixel in it is painted
// exactly once (an overlay blended twice over the same pixel would come
// out darker).

// Empty reports whether r has no pixels.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Intersect is the part of r inside s.
func (r Rect) Intersect(s Rect) Rect {
	x0, y0 := max(r.X, s.X), max(r.Y, s.Y)
	x1, y1 := min(r.X+r.W, s.X+s.W), min(r.Y+r.H, s.Y+s.H)
	if x1 <= x0 || y1 <= y0 {
		return Rect{}
	}
	return Rect{x0, y0, x1 - x0, y1 - y0}
}

// Union is the smallest rectangle holding r and s; an empty one adds
// nothing.
func (r Rect) Union(s Rect) Rect {
	switch {
	case r.Empty():
		return s
	case s.Empty():
		return r
	}
	x0, y0 := min(r.X, s.X), min(r.Y, s.Y)
	x1, y1 := max(r.X+r.W, s.X+s.W), max(r.Y+r.H, s.Y+s.H)
	return Rect{x0, y0, x1 - x0, y1 - y0}
}

func (r Rect) area() int {
	if r.Empty() {
		return 0
	}
	return r.W * r.H
}

// maxRegion is how many rectangles a region holds; a region that would
// need more is painted whole instead (see region.full).
const maxRegion = 32

// region is a set of disjoint rectangles in a fixed array: building one
// allocates nothing.
type region struct {
	r        [maxRegion]Rect
	n        int
	overflow bool // a rectangle did not fit: treat the region as everything
}

func (g *region) reset() { g.n, g.overflow = 0, false }

func (g *region) rects() []Rect { return g.r[:g.n] }

func (g *region) push(r Rect) {
	if r.Empty() {
		return
	}
	if g.n == maxRegion {
		g.overflow = true
		return
	}
	g.r[g.n] = r
	g.n++
}

// add adds the pixels of r that the region does not hold yet.
func (g *region) add(r Rect) {
	if r.Empty() {
		return
	}
	if !g.overlaps(r) {
		g.push(r) // the usual case, without the cutting's arrays
		return
	}
	// Cut r by every rectangle already held; what survives is new.
	var pieces, next [maxRegion]Rect
	np := 1
	pieces[0] = r
	for _, h := range g.r[:g.n] {
		nn, ok := 0, true
		for _, p := range pieces[:np] {
			if nn, ok = subtractInto(&next, nn, p, h); !ok {
				g.overflow = true
				return
			}
		}
		pieces, np = next, nn
		if np == 0 {
			return
		}
	}
	for _, p := range pieces[:np] {
		g.push(p)
	}
}

// overlaps reports whether r shares a pixel with the region.
func (g *region) overlaps(r Rect) bool {
	for _, h := range g.r[:g.n] {
		if !h.Intersect(r).Empty() {
			return true
		}
	}
	return false
}

// cut removes the pixels of h from the region.
func (g *region) cut(h Rect) {
	if h.Empty() || !g.overlaps(h) {
		return
	}
	var kept [maxRegion]Rect
	nk, ok := 0, true
	for _, p := range g.r[:g.n] {
		if nk, ok = subtractInto(&kept, nk, p, h); !ok {
			g.overflow = true
			return
		}
	}
	g.r, g.n = kept, nk
}

// area is the number of pixels in the region.
func (g *region) area() int {
	a := 0
	for _, r := range g.r[:g.n] {
		a += r.area()
	}
	return a
}

// subtractInto puts the pieces of r minus h (subtract) after the n
// rectangles of dst, and returns how many dst holds then; ok is false
// where they do not all fit.
func subtractInto(dst *[maxRegion]Rect, n int, r, h Rect) (_ int, ok bool) {
	var out [4]Rect
	k := subtract(r, h, &out)
	for _, q := range out[:k] {
		if n == maxRegion {
			return n, false
		}
		dst[n] = q
		n++
	}
	return n, true
}

// subtract writes r minus h as at most four disjoint rectangles (the bands
// above and below h, and the parts left and right of it between them) and
// returns how many.
func subtract(r, h Rect, out *[4]Rect) int {
	i := r.Intersect(h)
	if i.Empty() {
		out[0] = r
		return 1
	}
	n := 0
	put := func(q Rect) {
		if !q.Empty() {
			out[n] = q
			n++
		}
	}
	put(Rect{r.X, r.Y, r.W, i.Y - r.Y})                     // above
	put(Rect{r.X, i.Y + i.H, r.W, r.Y + r.H - (i.Y + i.H)}) // below
	put(Rect{r.X, i.Y, i.X - r.X, i.H})                     // left
	put(Rect{i.X + i.W, i.Y, r.X + r.W - (i.X + i.W), i.H}) // right
	return n
}
