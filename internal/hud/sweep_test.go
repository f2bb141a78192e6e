package hud

import (
	"image"
	"math/rand/v2"
	"testing"
	"time"
)

// TestSweepColumnsPlaceFramesByTime: a frame lands in the columns of its
// time modulo the width, the newest column is where now falls, and the
// gap ahead of it is blank though older frames were there.
func TestSweepColumnsPlaceFramesByTime(t *testing.T) {
	const n = 100
	span := time.Second // 10 ms a column
	r := NewRing(1024)
	for at := time.Duration(0); at < 2500*ms; at += 10 * ms {
		r.Add(Frame{Start: at, Dur: 10 * ms, Ticks: int(at / (10 * ms) % 3)})
	}
	now := 2500 * ms // column 250: x = 50
	cols := make([]Column, n)
	SweepColumns(cols, r, now, span)
	gap := SweepGap(n)
	for x := 0; x < n; x++ {
		ahead := (x - 50 + n) % n // columns ahead of the sweep's newest
		c := cols[x]
		switch {
		case ahead == 0:
			// Column 250 is [2500, 2510) ms: no frame has started there.
			if c.Frames != 0 {
				t.Errorf("column %d (now's) holds %d frames, want 0", x, c.Frames)
			}
		case ahead >= 1 && ahead <= gap:
			if c.Frames != 0 {
				t.Errorf("column %d, in the gap, holds %d frames", x, c.Frames)
			}
		default:
			// The newest frame at x is the one of column k = 250 - (n - ahead).
			k := 250 - (n - ahead)
			if c.Frames != 1 || c.Dur != 10*ms || c.Ticks != k%3 {
				t.Errorf("column %d = %+v, want the frame at %d ms (%d ticks)", x, c, k*10, k%3)
			}
		}
	}
}

// TestSweepRedrawsOnlyWhatChanged: at every refresh the sweep's image is
// the graph Draw paints for the same columns, though only the returned
// part was redrawn; and at 60 FPS refreshed 30 times a second that part
// is a few columns wide, but where the sweep wraps or a line changes.
func TestSweepRedrawsOnlyWhatChanged(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const w, h = 320, 108
	span := 4 * time.Second
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	whole := image.NewRGBA(image.Rect(0, 0, w, h))
	r := NewRing(8192)
	s := NewSweep(w)
	g, ref := NewGraph(), NewGraph()
	cols := make([]Column, w)
	lines := GraphLines{Tick: 40 * ms}
	now := 123 * ms
	for step := 0; step < 600; step++ {
		// Frames of every kind: steady 60 FPS, bursts of fast frames,
		// long stalls that run and cap ticks.
		frames := 1 + rng.IntN(4)
		if step >= 400 {
			frames = 2
		}
		for range frames {
			d := 16*ms + time.Duration(rng.IntN(1000))*time.Microsecond
			if step >= 400 {
				// Steady at 60 FPS, refreshed 30 times a second.
				d = 16666667
			}
			switch k := rng.IntN(10); {
			case step >= 400:
			case k == 0:
				d = time.Duration(50+rng.IntN(400)) * time.Microsecond
			case k == 1:
				d = time.Duration(60+rng.IntN(300)) * ms
			}
			f := Frame{Start: now, Dur: d, Ticks: int(d / (40 * ms)), Capped: d > 200*ms}
			if f.Capped && rng.IntN(2) == 0 {
				f.Discarded = d - 200*ms
			}
			r.Add(f)
			now += d
		}
		if step == 300 {
			lines.Cap = 16666667 // a new line: all of it redrawn
		}
		parts := s.Update(img, g, r, now, span, DefaultScale, lines)
		SweepColumns(cols, r, now, span)
		ref.Draw(whole, cols, DefaultScale, lines)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if a, b := img.RGBAAt(x, y), whole.RGBAAt(x, y); a != b {
					t.Fatalf("step %d: pixel (%d,%d) = %v after redrawing %v, the whole graph has %v", step, x, y, a, parts, b)
				}
			}
		}
		if step == 0 || step == 300 {
			if len(parts) != 1 || parts[0] != img.Bounds() {
				t.Errorf("step %d: redrew %v, want the whole graph", step, parts)
			}
			continue
		}
		width := 0
		for _, p := range parts {
			width += p.Dx()
		}
		// Steady, once the sweep has gone round since (4 s, 120
		// refreshes): a refresh covers 33 ms, under 3 columns of 12.5
		// ms, and moves the gap's edge as far: at most the gap and 4
		// columns (in two parts where the sweep wraps).
		if step > 530 && width > SweepGap(w)+4 {
			t.Errorf("step %d: a steady refresh redrew %d columns (%v)", step, width, parts)
		}
	}
	// Nothing new: nothing redrawn.
	if parts := s.Update(img, g, r, now, span, DefaultScale, lines); len(parts) != 0 {
		t.Errorf("a refresh with no new frame redrew %v", parts)
	}
}

// TestSweepKeepsColumnsTheRingNoLongerHolds: at a frame rate where the
// ring holds far less than the graph's span (64 frames of 1 ms, a span of
// 4 s), every column the sweep has passed still shows its frames, and
// shows what the whole ring showed when the column was newest.
func TestSweepKeepsColumnsTheRingNoLongerHolds(t *testing.T) {
	const w = 200 // 20 ms a column
	span := 4 * time.Second
	img := image.NewRGBA(image.Rect(0, 0, w, 108))
	r := NewRing(64)
	s, g := NewSweep(w), NewGraph()
	lines := GraphLines{Tick: 40 * ms}
	now := time.Duration(0)
	for now < 5*time.Second {
		for range 33 {
			d := time.Millisecond
			if now/(500*ms)%2 == 1 {
				d = 1100 * time.Microsecond // a slower half second now and then
			}
			r.Add(Frame{Start: now, Dur: d})
			now += d
		}
		s.Update(img, g, r, now, span, DefaultScale, lines)
	}
	gap := SweepGap(w)
	newest := int(sweepCol(now, w, span) % w)
	for x := 0; x < w; x++ {
		ahead := (x - newest + w) % w
		c := s.cols[x]
		if ahead <= gap {
			continue // the gap, and now's column, still filling
		}
		if c.Frames < 15 {
			t.Errorf("column %d (%d behind the sweep) holds %d frames, want the ~18 of its 20 ms", x, (w-ahead)%w, c.Frames)
		}
	}
}

// TestOverlaysAreOpaque: the HUD's panel and the whole graph have no
// translucent pixel, which the renderer relies on to leave what is
// beneath them unpainted (render.Layer.Opaque).
func TestOverlaysAreOpaque(t *testing.T) {
	ti := NewTextImage(420, 200)
	panel := ti.Render([]byte("FPS 1041.0  TPS 25.0\nvsync off\n? or F1: keys"))
	img := image.NewRGBA(image.Rect(0, 0, 320, 108))
	cols := make([]Column, 320)
	for x := range cols {
		cols[x] = Column{Dur: time.Duration(x+1) * ms, Ticks: x % 6, Capped: x%50 == 0, Discarded: x%70 == 0, Frames: 1 + x%3}
	}
	NewGraph().Draw(img, cols, DefaultScale, GraphLines{Tick: 40 * ms, Cap: 16 * ms})
	for _, c := range []struct {
		name string
		img  *image.RGBA
		r    image.Rectangle
	}{{"HUD panel", ti.Img, panel}, {"graph", img, img.Bounds()}} {
		for y := c.r.Min.Y; y < c.r.Max.Y; y++ {
			for x := c.r.Min.X; x < c.r.Max.X; x++ {
				if a := c.img.RGBAAt(x, y).A; a != 255 {
					t.Fatalf("%s: pixel (%d,%d) has alpha %d", c.name, x, y, a)
				}
			}
		}
	}
}

// fillColumnsRef is fillColumns as plainly as it can be written: every
// frame, newest first, into each column its time overlaps.
func fillColumnsRef(cols []Column, r *Ring, oldest, newest int64, span time.Duration) {
	n := int64(len(cols))
	for k := oldest; k <= newest+int64(SweepGap(len(cols))); k++ {
		cols[floorMod(k, n)] = Column{}
	}
	for i := 0; i < r.Len(); i++ {
		f := r.At(i)
		for k := max(sweepCol(f.Start, n, span), oldest); k <= min(sweepCol(f.Start+f.Dur-1, n, span), newest); k++ {
			cols[floorMod(k, n)].add(f)
		}
	}
}

// TestFillColumnsMatchesTheReference: frames of every length, from
// microseconds to seconds, some of none, spread over column boundaries
// and a wrapping ring: the columns are the reference's, whatever the
// shortcut for frames inside one column skips.
func TestFillColumnsMatchesTheReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(200)
		span := time.Duration(1+rng.IntN(5000)) * ms
		r := NewRing(1 + rng.IntN(600))
		at := time.Duration(rng.Int64N(int64(10 * time.Second)))
		for i := rng.IntN(2000); i > 0; i-- {
			var d time.Duration
			switch rng.IntN(5) {
			case 0:
				d = time.Duration(rng.IntN(2000)) * time.Microsecond
			case 1:
				d = time.Duration(rng.IntN(40)) * ms
			case 2:
				d = 0
			case 3:
				// To a column's boundary, give or take a nanosecond
				// or two: where a frame stops being in one column.
				k := sweepCol(at, int64(n), span) + 1 + int64(rng.IntN(2))
				exact := time.Duration((k*int64(span) + int64(n) - 1) / int64(n))
				d = max(0, exact+time.Duration(rng.IntN(5)-2)-at)
			default:
				d = span / time.Duration(n) * time.Duration(rng.IntN(3))
			}
			r.Add(Frame{Start: at, Dur: d, Ticks: rng.IntN(6), Capped: rng.IntN(9) == 0, Discarded: time.Duration(rng.IntN(2))})
			at += d
			if rng.IntN(3) == 0 { // the next frame starts a little before or after this one ends
				at = max(0, at+time.Duration(rng.IntN(5)-2))
			}
		}
		newest := sweepCol(at, int64(n), span)
		oldest := newest - int64(rng.IntN(n))
		got, want := make([]Column, n), make([]Column, n)
		for i := range got { // columns outside [oldest, newest+gap] are left as they were
			got[i] = Column{Frames: i + 1}
			want[i] = got[i]
		}
		fillColumns(got, r, oldest, newest, span)
		fillColumnsRef(want, r, oldest, newest, span)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("trial %d (n %d, span %v, columns %d to %d): column %d = %+v, want %+v", trial, n, span, oldest, newest, i, got[i], want[i])
			}
		}
	}
}

// BenchmarkFillColumns: a refresh of the demo's graph (640 columns over 4
// s) from a full ring of 8,192 frames of 2 µs: frames at 500,000 a second.
func BenchmarkFillColumns(b *testing.B) {
	r := NewRing(8192)
	at := time.Second
	for i := 0; i < 8192; i++ {
		r.Add(Frame{Start: at, Dur: 2 * time.Microsecond, Ticks: i % 2})
		at += 2 * time.Microsecond
	}
	cols := make([]Column, 640)
	newest := sweepCol(at, 640, 4*time.Second)
	b.ReportAllocs()
	for b.Loop() {
		fillColumns(cols, r, newest-1, newest, 4*time.Second)
	}
}
