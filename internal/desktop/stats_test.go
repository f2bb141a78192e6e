package desktop

import (
	"runtime"
	"testing"
	"time"
)

// sink keeps test allocations alive, so the compiler cannot drop them.
var sink []*[4]uintptr

// allocate makes n heap objects of 32 bytes with pointers (not the tiny
// allocator's, which packs several into one block).
func allocate(n int) {
	sink = sink[:0]
	for range n {
		sink = append(sink, new([4]uintptr))
	}
}

// TestAllocCountIsExact: the counts taken at the warm-up and at the end
// see an allocation made just before them, not only once its span leaves
// the P's cache (runtime/metrics' lag, which turned warm-up allocations
// into "allocations after warm-up" at the first GC, minutes later).
func TestAllocCountIsExact(t *testing.T) {
	const n = 37
	sink = make([]*[4]uintptr, 0, n)
	// Other goroutines (the runtime's, the testing package's) may
	// allocate meanwhile: the least of a few tries is the test's own.
	best := uint64(1 << 62)
	for range 5 {
		var s memStats
		before, _ := s.readAllocs()
		allocate(n)
		after, _ := s.readAllocs()
		best = min(best, after-before)
	}
	if best != n {
		t.Errorf("counted %d allocations for %d", best, n)
	}
	var s memStats
	if allocs := testing.AllocsPerRun(10, func() { s.readAllocs() }); allocs != 0 {
		t.Errorf("reading the counts allocates %v times", allocs)
	}
}

// TestRunStatsWarmUpAndSteadyState drives the statistics with generated
// frame times: the warm-up's counts are taken once the first second is
// over, a frame after that allocates nothing, and the counts between the
// warm-up and the end are the allocations made in between.
func TestRunStatsWarmUpAndSteadyState(t *testing.T) {
	var s memStats
	s.init(time.Now())
	const frame = 5 * time.Millisecond
	now := time.Duration(0)
	step := func() {
		s.frameStart(now)
		s.frameDone()
		now += frame
	}
	for now < warmup {
		step()
		if s.warm {
			t.Fatalf("warm at %v, before the warm-up (%v) is over", now, warmup)
		}
	}
	step()
	if !s.warm {
		t.Fatalf("not warm at %v", now)
	}
	if allocs := testing.AllocsPerRun(1000, step); allocs != 0 {
		t.Errorf("a frame after the warm-up allocates %v times", allocs)
	}
	const n = 11
	sink = make([]*[4]uintptr, 0, n)
	allocate(n)
	s.stopCounting()
	got := s.end.allocs - s.begin.allocs
	// testing.AllocsPerRun's own bookkeeping allocates a little; the
	// runtime's goroutines may too. The frames allocated nothing (above).
	if got < n || got > n+16 {
		t.Errorf("%d allocations counted between the warm-up and the end; %d made", got, n)
	}
	first := s.end
	s.stopCounting() // a second call keeps the first counts
	if s.end != first {
		t.Errorf("stopCounting counted again: %+v, then %+v", first, s.end)
	}
	if runtime.GOOS == "linux" && (s.begin.rss <= 0 || s.end.rss <= 0 || s.end.peak < s.end.rss) {
		t.Errorf("resident memory at the start %d, at the end %d, peak %d", s.begin.rss, s.end.rss, s.end.peak)
	}
}
