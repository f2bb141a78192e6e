package physics

import "math/bits"

// Ball 0's direction: the 3-4-5 triangle, (3/5, 4/5) rounded to Q14.
const (
	ball0DirX = DirOne * 3 / 5 // 9830
	ball0DirY = DirOne * 4 / 5 // 13107
)

// spawn puts balls [from, to) in their initial state: Last = Next = the
// spawn position, Dir the spawn direction. It allocates nothing.
func (w *World) spawn(from, to int) {
	for i := from; i < to; i++ {
		x, y, dx, dy := w.initial(i)
		w.Last[2*i], w.Last[2*i+1] = x, y
		w.Next[2*i], w.Next[2*i+1] = x, y
		w.Dir[2*i], w.Dir[2*i+1] = dx, dy
	}
}

// initial returns ball i's initial position (Q8) and direction (Q14), a
// pure function of the world's size, radius, seed and i, in integer
// arithmetic only. Ball 0 starts as in the original demo: at the centre,
// heading (3/5, 4/5). Ball i > 0 starts at a uniform position in the box
// with a uniform direction.
func (w *World) initial(i int) (x, y, dx, dy int32) {
	if i == 0 {
		return w.cfg.Width * One / 2, w.cfg.Height * One / 2, ball0DirX, ball0DirY
	}
	base := splitmix(w.cfg.Seed + golden*uint64(i+1))
	x = w.loX + uniform(splitmix(base+golden), w.spanX)
	y = w.loY + uniform(splitmix(base+golden+golden), w.spanY)
	dx, dy = randomDir(base)
	return x, y, dx, dy
}

// golden is splitmix64's increment, 2^64 divided by the golden ratio.
const golden = 0x9E3779B97F4A7C15

// splitmix is the finaliser of splitmix64 (Steele, Lea, Flood 2014): a
// bijective mix of a 64-bit counter into a well-distributed value.
func splitmix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// uniform maps r to [0, span] (the bias is below span/2^64).
func uniform(r uint64, span int32) int32 {
	hi, _ := bits.Mul64(r, uint64(span)+1)
	return int32(hi)
}

// randomDir returns a uniformly distributed unit vector in Q14, drawn from
// the counter-based stream of base: points (a, b) of 16-bit signed
// coordinates are drawn until one falls in the ring 1024 <= |(a,b)| <=
// 32768 (uniform angle), and it is scaled to length DirOne with an integer
// square root. No float is involved, so every machine gets the same bits.
func randomDir(base uint64) (dx, dy int32) {
	for j := uint64(3); j < 3+64; j++ {
		r := splitmix(base + j*golden)
		for range 2 {
			a, b := int64(int16(r)), int64(int16(r>>16))
			r >>= 32
			d2 := a*a + b*b
			if d2 < 1<<20 || d2 > 1<<30 {
				continue
			}
			// |(a,b)| * 2^14 with 24+ significant bits: d2<<28 < 2^59.
			l := int64(isqrt(uint64(d2) << 28))
			return scaleDir(a, l), scaleDir(b, l)
		}
	}
	// Unreachable in practice (a draw is rejected with probability
	// about 0.21, so this needs 128 rejections in a row); keeps the
	// function total.
	return DirOne, 0
}

// scaleDir returns a*2^28/l rounded to nearest, halves away from zero.
func scaleDir(a, l int64) int32 {
	if a < 0 {
		return -int32(((-a)<<28 + l/2) / l)
	}
	return int32((a<<28 + l/2) / l)
}

// isqrt returns floor(sqrt(n)).
func isqrt(n uint64) uint64 {
	if n < 2 {
		return n
	}
	x := uint64(1) << ((bits.Len64(n) + 1) / 2) // > sqrt(n)
	for {
		y := (x + n/x) / 2
		if y >= x {
			return x
		}
		x = y
	}
}
