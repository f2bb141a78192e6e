package loop

import (
	"testing"
	"time"
)

// The documented rules of the Pacer, one test each, on frame times made
// up to sit exactly on each rule's bound and one nanosecond past it:
// changing a rule's constant or comparison fails its test (the
// stabiliser's: TestStabilizeBounds).

// rulePer is the refresh interval of the rule tests: 8 ms, so that an
// eighth, a quarter and a half of it are whole nanoseconds.
const rulePer = 8 * time.Millisecond

// gridPacer returns a pacer with the Refresh hint rulePer, snapped to a
// grid through 0 (its first frame at -rulePer, its second at 0).
func gridPacer(t *testing.T) *Pacer {
	t.Helper()
	p, err := NewPacer(PacerConfig{Refresh: rulePer})
	if err != nil {
		t.Fatal(err)
	}
	p.Step(-rulePer)
	if fr := p.Step(0); !fr.Snapped || fr.Time != 0 {
		t.Fatalf("second frame: %+v, want snapped at 0", fr)
	}
	return p
}

// keepsGrid steps a gridPacer through frames at the grid point m (1, 2, ...)
// plus the offsets, and reports whether it still snaps after the last.
func keepsGrid(t *testing.T, offsets []time.Duration) bool {
	t.Helper()
	p := gridPacer(t)
	for m, off := range offsets {
		p.Step(time.Duration(m+1)*rulePer + off)
	}
	return p.Snapping()
}

// pattern turns "F" (a frame on its grid point) and "M" (a frame more
// than half an interval late: a misfit) into keepsGrid's offsets, the
// pattern repeated times times.
func pattern(s string, times int) []time.Duration {
	var offs []time.Duration
	for range times {
		for _, c := range s {
			switch c {
			case 'F':
				offs = append(offs, 0)
			case 'M':
				offs = append(offs, rulePer/2+1)
			}
		}
	}
	return offs
}

// TestPacerGivesUpAfterThreeMisfits pins "when three frames in a row, or
// one in four for a while, do not fit, the pacer gives the grid up", for
// frames too late and frames on the grid point of the last (too early:
// TestPacerFitBounds)
// (pacerMisfitCost 4, pacerMisfitLimit 12, each fitting frame lowering the
// score by 1, never below 0). It fails if the cost or the limit moves so
// that two in a row give up or three do not, if the score is compared
// with > instead of >=, if fitting frames stop lowering it (one in five
// would give up) or lower it by more (one in four would not), or if the
// score can go below 0 (a long good run would buy more misfits).
func TestPacerGivesUpAfterThreeMisfits(t *testing.T) {
	for _, c := range []struct {
		name  string
		offs  []time.Duration
		keeps bool
	}{
		{"two in a row", pattern("FFFMMF", 1), true},
		{"three in a row", pattern("FFFMMM", 1), false},
		{"three in a row after 200 fitting frames", append(pattern("F", 200), pattern("MMM", 1)...), false},
		{"one in four for a while", pattern("MFFF", 40), false},
		{"one in five for long", pattern("MFFFF", 200), true},
	} {
		if got := keepsGrid(t, c.offs); got != c.keeps {
			t.Errorf("%s: snapping %v after it, want %v", c.name, got, c.keeps)
		}
	}
	// The third kind of misfit, a frame on the same grid point as the
	// last: two keep the grid, three give it up.
	for n, keeps := range map[int]bool{2: true, 3: false} {
		p := gridPacer(t)
		p.Step(rulePer)
		for i := 1; i <= n; i++ {
			p.Step(rulePer + time.Duration(i)*time.Millisecond)
		}
		p.Step(2 * rulePer)
		if p.Snapping() != keeps {
			t.Errorf("%d frames on the grid point of the last: snapping %v after them, want %v", n, p.Snapping(), keeps)
		}
	}
}

// TestPacerFitBounds pins what fits the grid: a frame that wakes up at
// most half an interval after its grid point, or at most an eighth of an
// interval before it. Three frames in a row exactly on either bound keep
// the grid; three a nanosecond past it are misfits and give it up. (An
// early frame moves the grid back onto itself, so each early frame is
// early against the grid the last one left.)
func TestPacerFitBounds(t *testing.T) {
	late := func(off time.Duration) []time.Duration { return []time.Duration{0, off, off, off} }
	if !keepsGrid(t, late(rulePer/2)) {
		t.Errorf("three frames half an interval late gave the grid up: they fit")
	}
	if keepsGrid(t, late(rulePer/2+1)) {
		t.Errorf("three frames half an interval and 1 ns late kept the grid: they do not fit")
	}
	early := func(by time.Duration) bool {
		p := gridPacer(t)
		now := time.Duration(0)
		for i := range 3 {
			now += rulePer - by
			fr := p.Step(now)
			if by == rulePer/8 && (!fr.Snapped || fr.Time != now || fr.Correction != -by) {
				t.Errorf("frame %d, %v early: %+v, want snapped at now, the grid moved back by %v", i, by, fr, by)
			}
		}
		return p.Snapping()
	}
	if !early(rulePer / 8) {
		t.Errorf("three frames an eighth of an interval early gave the grid up: they fit")
	}
	if early(rulePer/8 + 1) {
		t.Errorf("three frames an eighth of an interval and 1 ns early kept the grid: they do not fit")
	}
}

// TestPacerSlew pins the creep: after a block of 16 frames that all woke
// up at least some lag after the grid, the grid creeps forward over the
// next block by a quarter of the least of those lags, a 64th of it each
// frame (the frame's Correction), and never past the frame's own time.
func TestPacerSlew(t *testing.T) {
	const lag, least = 2 * time.Millisecond, 640 * time.Microsecond
	run := func(block2 time.Duration) []PacedFrame {
		p := gridPacer(t)
		for m := 1; m <= 16; m++ { // a block
			off := lag
			if m == 7 {
				off = least // the least lag of the block, in the middle
			}
			if fr := p.Step(time.Duration(m)*rulePer + off); fr.Correction != 0 {
				t.Fatalf("block 1, frame %d: %+v, want no correction yet", m, fr)
			}
		}
		var frs []PacedFrame
		grid := 16 * rulePer
		for range 4 {
			grid += rulePer
			fr := p.Step(grid + block2)
			frs = append(frs, fr)
			grid = fr.Time // the grid crept (or not) to the paced time
		}
		return frs
	}
	want := least / 64 // 10 µs
	for i, fr := range run(lag) {
		if fr.Correction != want {
			t.Errorf("block 2, frame %d, woke %v after the grid: correction %v, want a 64th of the least lag %v, %v", i, lag, fr.Correction, least, want)
		}
	}
	for i, fr := range run(want / 2) {
		if fr.Time != fr.Now || fr.Correction != want/2 {
			t.Errorf("block 2, frame %d, woke %v after the grid: %+v, want the grid crept to the frame and no further", i, want/2, fr)
		}
	}
}

// TestPacerEnvelopeSlopeBounds pins the refinement's bounds: a slope of
// the lower envelope within an eighth of the interval, above or below it,
// becomes the interval; a slope a nanosecond further out, on either side,
// is ignored.
func TestPacerEnvelopeSlopeBounds(t *testing.T) {
	for _, c := range []struct {
		slope time.Duration
		taken bool
	}{
		{rulePer + rulePer/8, true},
		{rulePer + rulePer/8 + 1, false},
		{rulePer - rulePer/8, true},
		{rulePer - rulePer/8 - 1, false},
	} {
		p := &Pacer{period: rulePer}
		p.envelope(envPoint{now: 0, n: 0}) // the first point
		p.envelope(envPoint{now: 16 * c.slope, n: 16})
		want := rulePer
		if c.taken {
			want = c.slope
		}
		if p.period != want {
			t.Errorf("envelope slope %v against interval %v: interval now %v, want %v", c.slope, rulePer, p.period, want)
		}
	}
}

// bootPacer measures an interval from scratch (no hint) over the frame
// intervals given, and reports whether it snaps once they are all in.
func bootPacer(t *testing.T, intervals []time.Duration) bool {
	t.Helper()
	var p Pacer
	now := time.Duration(0)
	p.Step(now)
	for i, d := range intervals {
		now += d
		fr := p.Step(now)
		if i < len(intervals)-1 && fr.Snapped {
			t.Fatalf("snapped at frame %d of %d", i+1, len(intervals))
		}
	}
	return p.Snapping()
}

// bootIntervals is 32 frame intervals: rulePer but for the listed ones,
// by index.
func bootIntervals(other map[int]time.Duration) []time.Duration {
	ds := make([]time.Duration, pacerBoot)
	for i := range ds {
		ds[i] = rulePer
		if d, ok := other[i]; ok {
			ds[i] = d
		}
	}
	return ds
}

// TestPacerMeasureInliers pins the measuring rule: over 32 intervals the
// pacer snaps when at least 24 lie within an eighth of a whole number of
// the median (24 snap, 23 do not), and an interval exactly an eighth off,
// above or below, is one of them while one a nanosecond further is not.
func TestPacerMeasureInliers(t *testing.T) {
	outliers := func(n int) map[int]time.Duration {
		m := map[int]time.Duration{}
		for i := 0; len(m) < n; i += 3 {
			m[i] = rulePer + rulePer/2 // half an interval off 2 intervals
		}
		return m
	}
	if !bootPacer(t, bootIntervals(outliers(8))) {
		t.Errorf("24 inliers of 32: not snapping, want snapping")
	}
	if bootPacer(t, bootIntervals(outliers(9))) {
		t.Errorf("23 inliers of 32: snapping, want not")
	}
	for _, c := range []struct {
		d       time.Duration
		snapped bool
	}{
		{rulePer + rulePer/8, true},
		{rulePer + rulePer/8 + 1, false},
		{rulePer - rulePer/8, true},
		{rulePer - rulePer/8 - 1, false},
	} {
		m := outliers(8) // 24 inliers: every one counts
		for i := 1; i < pacerBoot; i += 8 {
			m[i] = c.d // four of them on the bound, one in each quarter
		}
		if got := bootPacer(t, bootIntervals(m)); got != c.snapped {
			t.Errorf("24 inliers of which 4 at %v (the median %v): snapping %v, want %v", c.d, rulePer, got, c.snapped)
		}
	}
}
