package hud

import (
	"image"
	"time"
)

// Sweep is the frame-time graph drawn as a sweep, as a heart monitor
// draws: time does not scroll the picture, a column's place on the graph
// is fixed by its time (column k of width span/n at x = k mod n), the
// newest column is redrawn where the sweep is, and a gap of blank columns
// just ahead of it separates the newest frames from the oldest. So a
// refresh changes a few columns, not the whole graph: Update redraws only
// those, and says which, so that the texture upload and the repaint on
// screen are as small as the change. A column, once the sweep has moved
// past it, is final: it is kept until the sweep comes round again, so the
// ring of frames need only hold the frames since the last refresh, not
// the graph's whole span (at 50,000 FPS, 8,192 frames are 0.16 s).
type Sweep struct {
	cols, prev []Column // the columns as of this and the last Update
	w          int      // the graph's width at the last Update, 0: none yet
	lines      GraphLines
	scale      Scale
	span       time.Duration
	newest     int64             // the newest column at the last Update (not taken modulo the width)
	dirty      []bool            // columns to redraw
	parts      []image.Rectangle // what the last Update redrew
	part       image.RGBA        // the part being redrawn (a field: a local would escape to the font drawer)
}

// NewSweep returns a sweep for graphs up to maxW columns wide.
func NewSweep(maxW int) *Sweep {
	maxW = max(maxW, 1)
	return &Sweep{cols: make([]Column, maxW), prev: make([]Column, maxW), dirty: make([]bool, maxW), parts: make([]image.Rectangle, 0, 2)}
}

// SweepGap is the width of the blank gap ahead of the sweep, in columns,
// for a graph n columns wide.
func SweepGap(n int) int { return max(n/40, 2) }

// SweepColumns lays the frames of the last span before now onto the n =
// len(cols) columns of a sweep: column k (of the time [k*span/n,
// (k+1)*span/n)) goes to cols[k mod n], the newest column is the one now
// falls in, and the gap columns just after it are blank. It reads the ring
// back only as far as the graph reaches.
func SweepColumns(cols []Column, r *Ring, now, span time.Duration) {
	clear(cols)
	n := int64(len(cols))
	if n == 0 || span <= 0 {
		return
	}
	newest := sweepCol(now, n, span)
	fillColumns(cols, r, newest-n+int64(SweepGap(len(cols)))+1, newest, span)
}

// sweepCol is the sweep column (not yet taken modulo n) that time t falls
// in.
func sweepCol(t time.Duration, n int64, span time.Duration) int64 {
	return floorDiv(int64(t)*n, int64(span))
}

// fillColumns sets sweep columns oldest to newest (not yet taken modulo
// n = len(cols)) from the frames in r, blanks the gap after newest, and
// leaves the other columns as they are.
//
// Most frames fall within one column (a column is span/n, 6 ms of the
// demo's graph, and a frame at hundreds of thousands a second is
// microseconds): the time bounds of the last such column are kept, and a
// frame within them costs no division.
func fillColumns(cols []Column, r *Ring, oldest, newest int64, span time.Duration) {
	n := int64(len(cols))
	for k := oldest; k <= newest+int64(SweepGap(len(cols))); k++ {
		cols[floorMod(k, n)] = Column{}
	}
	var lo, hi time.Duration // the times of column at: [lo, hi); none yet
	var at, slot int64
	for k, i := 0, r.head; k < r.n; k++ {
		i = r.older(i)
		f := &r.buf[i]
		end := f.Start + f.Dur
		if f.Start >= lo && end <= hi && f.Dur > 0 {
			if at < oldest {
				break
			}
			if at <= newest {
				cols[slot].add(*f)
			}
			continue
		}
		first, last := sweepCol(f.Start, n, span), sweepCol(end-1, n, span)
		if last < oldest {
			break // the ring is in time order: everything older is done
		}
		if first == last {
			at, slot = last, floorMod(last, n)
			lo, hi = colStart(at, n, span), colStart(at+1, n, span)
		}
		for c := max(first, oldest); c <= min(last, newest); c++ {
			cols[floorMod(c, n)].add(*f)
		}
	}
}

// colStart is the time column k (not yet taken modulo n) starts at: the
// earliest t with sweepCol(t, n, span) == k.
func colStart(k, n int64, span time.Duration) time.Duration {
	return time.Duration(-floorDiv(-k*int64(span), n)) // ceil(k*span/n)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// Update brings the graph in img (as wide as img, at most the width the
// sweep was made for) up to date as of now, from the frames in r, and
// returns the parts of img it redrew, as one or two rectangles (two when
// the changes lie at both ends, where the sweep wraps): the columns that
// changed since the last Update, with the runs of equal columns they
// touch, whose pips move. All of img when its size, the scale, the span
// or the lines changed; none when nothing did. The pixels are those Draw
// gives for the same columns. It allocates nothing.
func (s *Sweep) Update(img *image.RGBA, g *Graph, r *Ring, now, span time.Duration, sc Scale, lines GraphLines) []image.Rectangle {
	b := img.Bounds()
	w := min(b.Dx(), len(s.cols))
	s.parts = s.parts[:0]
	if w <= 0 {
		return s.parts
	}
	cols, prev, dirty := s.cols[:w], s.prev[:w], s.dirty[:w]
	newest := sweepCol(now, int64(w), span)
	if w != s.w || lines != s.lines || sc != s.scale || span != s.span || newest < s.newest || newest-s.newest >= int64(w-SweepGap(w)) {
		s.w, s.lines, s.scale, s.span, s.newest = w, lines, sc, span, newest
		SweepColumns(cols, r, now, span)
		g.Draw(img, cols, sc, lines)
		copy(prev, cols)
		return append(s.parts, b)
	}
	// The columns from the last Update's newest (it may have had more
	// frames since) to now's; the older ones are final, and kept though
	// the ring may no longer hold their frames.
	fillColumns(cols, r, s.newest, newest, span)
	s.newest = newest
	clear(dirty)
	first, last := w, -1
	for x := 0; x < w; x++ {
		if cols[x] == prev[x] {
			continue
		}
		x0, x1 := pipRun(cols, x)
		p0, p1 := pipRun(prev, x)
		x0, x1 = min(x0, p0), max(x1, p1)
		for i := x0; i < x1; i++ {
			dirty[i] = true
		}
		first, last = min(first, x0), max(last, x1-1)
	}
	if last < first {
		return s.parts
	}
	// Two parts, split at the widest clean stretch between the first and
	// the last dirty column.
	gap0, gap1 := 0, 0
	for x := first; x <= last; {
		if dirty[x] {
			x++
			continue
		}
		e := x
		for !dirty[e] {
			e++
		}
		if e-x > gap1-gap0 {
			gap0, gap1 = x, e
		}
		x = e
	}
	if gap1 > gap0 {
		s.parts = append(s.parts, s.redraw(img, g, first, gap0), s.redraw(img, g, gap1, last+1))
	} else {
		s.parts = append(s.parts, s.redraw(img, g, first, last+1))
	}
	copy(prev, cols)
	return s.parts
}

// pipRun is the columns whose pixels column x's value can change: the run
// of equal columns holding it where that run has pips (a run's pips sit
// in its middle), else x alone.
func pipRun(cols []Column, x int) (x0, x1 int) {
	if c := cols[x]; c.Frames == 0 || c.Ticks == 0 {
		return x, x + 1
	}
	return runStart(cols, x), runEnd(cols, x)
}

// redraw draws columns [x0, x1) of the graph in img and returns their
// rectangle.
func (s *Sweep) redraw(img *image.RGBA, g *Graph, x0, x1 int) image.Rectangle {
	b := img.Bounds()
	part := image.Rect(b.Min.X+x0, b.Min.Y, b.Min.X+x1, b.Max.Y)
	s.part = image.RGBA{Pix: img.Pix[img.PixOffset(part.Min.X, part.Min.Y):], Stride: img.Stride, Rect: part}
	g.draw(&s.part, b, s.cols[:s.w], s.scale, s.lines)
	s.part.Pix = nil
	return part
}
