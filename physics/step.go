package physics

import "time"

// Tick runs one fixed logic tick with the player's input c: every ball's
// Last becomes its Next, then Next advances by Dir*K>>DirBits (K =
// Displacement()) and bounces off the walls.
//
// Ball 0 is autonomous until the first tick whose c is non-zero; from that
// tick on it is player-controlled (until Reset, or SetBalls(0)): each tick
// it moves by (c.X*K, c.Y*K), clamped to the box, and a tick with zero c
// leaves it where it is.
func (w *World) Tick(c Control) {
	w.advance(w.k, c)
	w.ticks++
}

// Step advances the world by a variable dt, for the timing modes that do
// not use fixed ticks. It is Tick with K = Speed*One*dt/1s rounded down,
// and the fraction of 1/256 unit rounded off is carried to the next Step:
// the Ks of a run of Steps add up to exactly Speed*One*(their total dt)/1s,
// rounded down, whatever the split of dt (so an axis-aligned or
// player-controlled ball covers exactly that distance, at any frame rate).
// A dt <= 0 moves nothing (Last still becomes Next); a dt that would move
// a ball more than MaxDisplacement is clamped to it. Step does not count
// as a tick (Ticks is unchanged; Steps counts it).
func (w *World) Step(dt time.Duration, c Control) {
	var k int64
	k, w.stepRem = stepDisplacement(w.cfg.Speed, dt, w.stepRem)
	w.advance(k, c)
	w.steps++
}

// sign returns -1, 0 or +1.
func sign(v int8) int32 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// advance is the body of Tick and Step: 0 <= k <= MaxDisplacement.
func (w *World) advance(k int64, c Control) {
	first := 0
	if len(w.Next) >= 2 && (w.players&1 != 0 || c != (Control{})) {
		w.players |= 1
		first = 1
		x, y := w.Next[0], w.Next[1]
		w.Last[0], w.Last[1] = x, y
		// |k| <= 2^30 and positions < 2^28: no int32 overflow.
		x += sign(c.X) * int32(k)
		y += sign(c.Y) * int32(k)
		w.Next[0] = min(max(x, w.loX), w.loX+w.spanX)
		w.Next[1] = min(max(y, w.loY), w.loY+w.spanY)
	}
	w.move(k, first)
}

// move is the hot loop: for balls first..N-1, Last = Next, then Next +=
// Dir*k >> DirBits, bounced. Per ball it reads 16 bytes (Next, Dir) and
// writes 16 (Last, Next); Dir is written only on a bounce.
//
// With |Dir| <= DirOne, Dir*k fits an int32 when k < 2^17 (k is 4096 at the
// default settings), and the 32-bit loop is a few per cent faster than the
// 64-bit one; both give the same result. The 32-bit loop has a vector form
// where the CPU has one (moveAllVec: AVX2 on amd64, four balls a step, bit
// for bit the scalar loop's result): the scalar loop costs about 8 cycles
// a ball, far more than the 32 bytes it moves when they sit in a large
// cache, and the vector one brings a tick to about twice a copy of those
// bytes.
func (w *World) move(k int64, first int) {
	if k < 1<<(31-DirBits) {
		if !moveAllVec(w, int32(k), first) {
			moveAll(w, int32(k), first)
		}
	} else {
		moveAll(w, k, first)
	}
}

// moveAll is move with the product Dir*k computed in T.
//
// It works in chunks small enough to stay in the L1 cache: Last = Next is
// one copy (a vectorised memmove) per chunk, then moveChunk updates Next in
// place. moveChunk has no calls, so that the compiler keeps its loop in
// registers; the rare ball that overshoots a wall by more than the whole
// box stops it, is done by moveOne, and moveChunk goes on after it.
func moveAll[T int32 | int64](w *World, k T, first int) {
	next, last, dir := w.Next[2*first:], w.Last[2*first:], w.Dir[2*first:]
	for len(next) >= 2 {
		c := min(len(next), chunk)
		copy(last[:c], next[:c])
		for i := 0; ; i += 2 {
			i += moveChunk(next[i:c], dir[i:c], k, w.loX, w.spanX, w.loY, w.spanY)
			if i >= c {
				break
			}
			moveFold(next[i:i+2], last[i:i+2], dir[i:i+2], k, w.loX, w.spanX, w.loY, w.spanY)
		}
		next, last, dir = next[c:], last[c:], dir[c:]
	}
}

// moveFold moves the one ball of next, last and dir (x, y) the exact
// general way, by fold: Last = Next, then Next += Dir*k >> DirBits,
// reflected as many times as it takes. It gives the fast paths' result for
// any ball, and is their way for one that overshoots a wall by more than
// the box's span.
func moveFold[T int32 | int64](next, last, dir []int32, k T, lox, spanx, loy, spany int32) {
	last[0], last[1] = next[0], next[1]
	x, fx := fold(next[0]+displace(dir[0], k), lox, spanx)
	y, fy := fold(next[1]+displace(dir[1], k), loy, spany)
	next[0], next[1] = x, y
	if fx {
		dir[0] = -dir[0]
	}
	if fy {
		dir[1] = -dir[1]
	}
}

// chunk is the number of int32s (chunk/2 balls) moveAll does at a time:
// 4 KiB of each array, so the chunk of Next just copied is still in L1 when
// moveChunk reads it. (Measured from 512 to 16384 at a million balls: 1024
// was best by a few per cent; the difference is small.)
const chunk = 1024

// displace returns one coordinate's displacement d*k >> DirBits (Q8).
func displace[T int32 | int64](d int32, k T) int32 {
	return int32((T(d) * k) >> DirBits)
}

// moveChunk advances the balls of next (and dir, resliced to its length)
// until it meets one that overshoots a wall by more than the box's span,
// and returns that ball's index, untouched, or len(next) when all are done
// (len(next) is even).
//
// Overflow: positions are in [0, 2^28] (MaxSize), |Dir| <= 2^14 and
// 0 <= k <= 2^30 (k < 2^17 when T is int32), so the product fits T, the
// displacement |Dir*k>>14| <= 2^30 and every sum below fits an int32. With
// larger Dir values (written by hand) the products and sums may wrap, but
// the unsigned range tests below still send any coordinate outside the box
// to fold, which brings it back in exactly.
func moveChunk[T int32 | int64](next, dir []int32, k T, lox, spanx, loy, spany int32) int {
	// Reslice to one length and index from 0: the compiler then proves
	// every index in the loop in bounds (no bounds checks in the loop).
	n := len(next)
	dir = dir[:n]
	for i := 0; i < n-1; i += 2 {
		// Coordinates relative to the low wall: inside iff in [0, span].
		// (displace, written out: inlined, it makes the int64 loop's
		// code longer.)
		ux := next[i] - lox + int32((T(dir[i])*k)>>DirBits)
		uy := next[i+1] - loy + int32((T(dir[i+1])*k)>>DirBits)
		// One unsigned compare tests both walls of an axis.
		if uint32(ux) > uint32(spanx) || uint32(uy) > uint32(spany) {
			// A bounce: a few per cent of the balls per tick at the
			// default settings, at random, so this branch is
			// mispredicted; the block itself is branch-free (but for the
			// fold bail-out, never taken at sane settings) so that a
			// bounce costs one misprediction, not three or four.
			//
			// For u in [-span, 2*span], span - |span - |u|| is u
			// reflected once off the wall it overshot (u -> -u, or
			// u -> 2*span - u), and it differs from u iff u was outside.
			if uint32(ux+spanx) > uint32(3*spanx) || uint32(uy+spany) > uint32(3*spany) {
				return i // overshoot larger than the box: fold
			}
			rx, ry := spanx-abs32(spanx-abs32(ux)), spany-abs32(spany-abs32(uy))
			mx, my := neq32(rx, ux), neq32(ry, uy) // -1 where reflected
			dir[i] = (dir[i] ^ mx) - mx            // negated where reflected
			dir[i+1] = (dir[i+1] ^ my) - my
			ux, uy = rx, ry
		}
		next[i], next[i+1] = ux+lox, uy+loy
	}
	return n
}

// abs32 returns |v| without a branch (|MinInt32| = MinInt32, never met here).
func abs32(v int32) int32 {
	m := v >> 31
	return (v ^ m) - m
}

// neq32 returns -1 if a != b and 0 otherwise, without a branch.
func neq32(a, b int32) int32 {
	d := a ^ b
	return (d | -d) >> 31
}

// fold maps the unconstrained coordinate p (Q8), reached from inside [lo,
// lo+span] by one move, into [lo, lo+span] by as many reflections as it
// takes: the triangle wave of period 2*span. It reports whether the
// direction flips, that is whether the move crossed the walls an odd number
// of times. A wall is crossed only by a strict overshoot: landing exactly on
// a wall does not flip, as in the fast path. span > 0.
func fold(p, lo, span int32) (int32, bool) {
	u, s := int64(p)-int64(lo), int64(span)
	var crossings int64
	switch {
	case u > s: // walls at s, 2s, ... strictly below u
		crossings = (u - 1) / s
	case u < 0: // walls at 0, -s, ... strictly above u
		crossings = (-u + s - 1) / s
	}
	m := u % (2 * s)
	if m < 0 {
		m += 2 * s
	}
	if m > s {
		m = 2*s - m
	}
	return lo + int32(m), crossings&1 == 1
}
