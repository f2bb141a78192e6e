// Package stats keeps the run's measurements in fixed memory: a histogram
// of durations with bounded relative error, so that percentiles of millions
// of frames cost no allocation and no sorting.
package stats

import (
	"math/bits"
	"time"
)

// subBits sets the resolution: each power-of-two range of values is split
// into 2^subBits buckets, so a bucket is at most 1/64 of its value wide
// (relative error under 0.8% at the bucket's midpoint). Values below 128 ns
// are counted exactly.
const (
	subBits  = 6
	sub      = 1 << subBits
	exact    = 2 * sub
	nBuckets = exact + (63-subBits)*sub
)

// Histogram counts durations. The zero value is ready to use; it is about
// 30 KiB and never allocates.
type Histogram struct {
	counts   [nBuckets]uint64
	n        uint64
	sum      time.Duration
	min, max time.Duration
}

func index(v uint64) int {
	if v < exact {
		return int(v)
	}
	k := bits.Len64(v) - subBits - 1 // v >> k lies in [sub, 2*sub)
	return exact + (k-1)*sub + int(v>>uint(k)) - sub
}

// bounds returns the smallest and largest value counted in bucket i.
func bounds(i int) (lo, hi uint64) {
	if i < exact {
		return uint64(i), uint64(i)
	}
	k := (i-exact)/sub + 1
	m := uint64((i-exact)%sub + sub)
	return m << uint(k), (m+1)<<uint(k) - 1
}

// Add counts one duration. Negative durations count as zero.
func (h *Histogram) Add(d time.Duration) {
	if d < 0 {
		d = 0
	}
	if h.n == 0 || d < h.min {
		h.min = d
	}
	if d > h.max {
		h.max = d
	}
	h.n++
	h.sum += d
	h.counts[index(uint64(d))]++
}

// Reset forgets everything.
func (h *Histogram) Reset() { *h = Histogram{} }

// Count is the number of durations added.
func (h *Histogram) Count() uint64 { return h.n }

// Max is the largest duration added (exact).
func (h *Histogram) Max() time.Duration { return h.max }

// Min is the smallest duration added (exact).
func (h *Histogram) Min() time.Duration { return h.min }

// Mean is the exact mean.
func (h *Histogram) Mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return h.sum / time.Duration(h.n)
}

// Quantile returns the q-quantile (0 <= q <= 1) by the nearest-rank rule:
// the smallest recorded value v such that at least q of all values are
// <= v, reported as the middle of its bucket and clamped to the exact
// minimum and maximum.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	if q <= 0 {
		return h.min
	}
	if q >= 1 {
		return h.max
	}
	rank := uint64(q*float64(h.n) + 0.999999999)
	if rank < 1 {
		rank = 1
	}
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			lo, hi := bounds(i)
			v := time.Duration(lo + (hi-lo)/2)
			if v < h.min {
				v = h.min
			}
			if v > h.max {
				v = h.max
			}
			return v
		}
	}
	return h.max
}
