// Package positions decides, frame by frame, what a renderer sends to the
// GPU of the world's positions, when it keeps them in two buffers whose
// roles swap: one holds every ball's last position and the other its
// next, and the vertex shader draws each ball between them. It is plain
// Go with no GL: the window's renderer (package render) and the web
// page's (internal/web) share it.
//
//   - nothing changed since the last frame: nothing is sent (the
//     interpolation is a uniform);
//   - exactly one tick or step since: only the new next positions, over
//     the buffer that held the oldest ones, and the buffers swap roles;
//   - anything else (several ticks in one frame, a teleport, a reset, a
//     new ball count, buffers that lost their contents): last and next.
package positions

// Upload is what a frame sends.
type Upload int

const (
	None Upload = iota // nothing
	Next               // the next positions, into buffer Buffers.Next
	Both               // last into Buffers.Last, next into Buffers.Next
)

// Buffers is what a renderer's two position buffers hold. The zero value
// holds nothing: the first Plan is Both.
type Buffers struct {
	cur    int // last is buffer cur, next is buffer 1-cur
	n      int
	synced bool
	step   uint64
	moved  uint64
}

// Plan says what to send for a world of n balls at step (its ticks and
// steps so far, each of which sets last = next before moving next) and
// moved (which changes whenever last was set some other way), and counts
// it as sent: after Next the buffers have swapped roles.
func (b *Buffers) Plan(n int, step, moved uint64) Upload {
	same := b.synced && n == b.n && moved == b.moved
	switch {
	case same && step == b.step:
		return None
	case same && step == b.step+1:
		b.cur = 1 - b.cur
		b.step = step
		return Next
	}
	b.n, b.synced, b.step, b.moved = n, true, step, moved
	return Both
}

// Lost says the buffers no longer hold what Plan counted (they were made
// again, larger): the next Plan is Both.
func (b *Buffers) Lost() { b.synced = false }

// Last and Next are the buffers (0 or 1) that hold, or are to hold, the
// last and the next positions.
func (b *Buffers) Last() int { return b.cur }

// Next is the buffer that holds the next positions.
func (b *Buffers) Next() int { return 1 - b.cur }

// N is the number of balls the buffers hold.
func (b *Buffers) N() int { return b.n }
