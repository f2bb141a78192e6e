package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestIndexBoundsRoundTrip(t *testing.T) {
	// Every value falls in a bucket whose bounds contain it, and buckets
	// are contiguous and increasing.
	vals := []uint64{0, 1, 127, 128, 129, 255, 256, 1000, 1 << 20, 16_666_667, 1<<62 + 12345, math.MaxInt64}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 10000; i++ {
		vals = append(vals, r.Uint64N(math.MaxInt64))
	}
	for _, v := range vals {
		i := index(v)
		if i < 0 || i >= nBuckets {
			t.Fatalf("index(%d) = %d out of range", v, i)
		}
		lo, hi := bounds(i)
		if v < lo || v > hi {
			t.Fatalf("value %d outside its bucket %d [%d, %d]", v, i, lo, hi)
		}
		if v >= exact && float64(hi-lo+1)/float64(lo) > 1.0/sub+1e-12 {
			t.Fatalf("bucket %d too wide for %d: [%d, %d]", i, v, lo, hi)
		}
	}
	for i := 1; i < nBuckets; i++ {
		_, prevHi := bounds(i - 1)
		lo, _ := bounds(i)
		if lo != prevHi+1 {
			t.Fatalf("gap between bucket %d and %d: %d then %d", i-1, i, prevHi, lo)
		}
	}
}

func TestQuantilesAgainstSorting(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	var h Histogram
	var all []time.Duration
	for i := 0; i < 50000; i++ {
		// Frame intervals around 16.7 ms with a long tail.
		d := time.Duration(16_666_667 + r.NormFloat64()*300_000)
		if r.IntN(100) == 0 {
			d += time.Duration(r.IntN(200)) * time.Millisecond
		}
		h.Add(d)
		all = append(all, max(d, 0))
	}
	slices.Sort(all)
	for _, q := range []float64{0.01, 0.5, 0.9, 0.99, 0.999} {
		rank := int(math.Ceil(q * float64(len(all))))
		want := all[rank-1]
		got := h.Quantile(q)
		if rel := math.Abs(float64(got-want)) / float64(want); rel > 1.0/sub {
			t.Errorf("q%.3f = %v, sorted gives %v (rel err %.4f)", q, got, want, rel)
		}
	}
	if h.Max() != all[len(all)-1] || h.Min() != all[0] {
		t.Errorf("min/max %v/%v, want %v/%v", h.Min(), h.Max(), all[0], all[len(all)-1])
	}
	if h.Count() != uint64(len(all)) {
		t.Errorf("count %d", h.Count())
	}
}

func TestSmallValuesExact(t *testing.T) {
	var h Histogram
	for v := 0; v < 100; v++ {
		h.Add(time.Duration(v))
	}
	if got := h.Quantile(0.5); got != 49 {
		t.Errorf("median of 0..99 = %v, want 49ns", got)
	}
	if got := h.Mean(); got != 49 { // 4950/100 = 49.5, truncated
		t.Errorf("mean = %v, want 49ns", got)
	}
}

func TestEmptyAndNegative(t *testing.T) {
	var h Histogram
	if h.Quantile(0.5) != 0 || h.Mean() != 0 {
		t.Fatal("empty histogram should report zeros")
	}
	h.Add(-5 * time.Second)
	if h.Max() != 0 || h.Quantile(0.99) != 0 {
		t.Fatalf("negative duration not counted as zero: max %v", h.Max())
	}
}

func TestAddDoesNotAllocate(t *testing.T) {
	var h Histogram
	allocs := testing.AllocsPerRun(1000, func() {
		h.Add(16 * time.Millisecond)
		_ = h.Quantile(0.99)
	})
	if allocs != 0 {
		t.Fatalf("%v allocs per Add+Quantile", allocs)
	}
}
