package loop

import (
	"math"
	"math/bits"
	"time"
)

// mulDiv returns a*b/c for a, b >= 0 and c > 0, computed exactly in 128
// bits, rounded up when ceil is set and down otherwise, and saturated to
// math.MaxInt64 when the result does not fit.
func mulDiv(a, b, c time.Duration, ceil bool) time.Duration {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi >= uint64(c) {
		return math.MaxInt64 // the quotient needs more than 64 bits
	}
	q, r := bits.Div64(hi, lo, uint64(c))
	if q >= math.MaxInt64 {
		return math.MaxInt64
	}
	if ceil && r != 0 {
		q++
	}
	return time.Duration(q)
}

// mulSat returns d×n, saturated to the range of time.Duration.
func mulSat(d time.Duration, n int64) time.Duration {
	if d == 0 || n == 0 {
		return 0
	}
	p := d * time.Duration(n)
	if p/time.Duration(n) != d || (n == -1 && d == math.MinInt64) {
		if (d < 0) != (n < 0) {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	return p
}
