//go:build !purego

package physics

import "golang.org/x/sys/cpu"

// hasAVX2 says the vector hot loop (move_amd64.s) can run here: the CPU
// has AVX2 and the OS saves its registers.
var hasAVX2 = cpu.X86.HasAVX2

// moveVec advances balls as moveChunk does, four at a time with AVX2, and
// writes each ball's Last = Next as it goes (next, last and dir have the
// same length, a multiple of 2). It stops at the first group of four balls
// in which one overshoots a wall by more than the box's span, or when fewer
// than four balls are left, and returns the index of that group's first
// int32, untouched (len(next) when all are done). Every product, shift,
// sum and comparison is moveChunk's in int32, lane by lane, so the result
// is bit for bit the same, wrapped values included.
//
//go:noescape
func moveVec(next, last, dir []int32, k, lox, spanx, loy, spany int32) int

// moveAllVec is moveAll[int32] with the vector loop, when the CPU has
// AVX2: it reports false, having done nothing, when it has not. The balls
// the vector loop leaves (a group with a ball to fold, and the last one
// to three balls) are done one at a time by fold, the exact general case.
func moveAllVec(w *World, k int32, first int) bool {
	if !hasAVX2 {
		return false
	}
	next, last, dir := w.Next[2*first:], w.Last[2*first:], w.Dir[2*first:]
	for len(next) >= 2 {
		i := moveVec(next, last, dir, k, w.loX, w.spanX, w.loY, w.spanY)
		if i >= len(next) {
			break
		}
		moveFold(next[i:i+2], last[i:i+2], dir[i:i+2], k, w.loX, w.spanX, w.loY, w.spanY)
		next, last, dir = next[i+2:], last[i+2:], dir[i+2:]
	}
	return true
}
