// Package hud computes what the demo's overlay shows: the HUD's text and
// the frame-time graph, from plain values and a ring buffer of frames. It
// also rasterises both into RGBA images (with golang.org/x/image/font), so
// all of it is tested without a GPU; the renderer only uploads the images.
// Nothing here allocates once set up.
package hud

import "time"

// Frame is what the graph remembers of one frame.
type Frame struct {
	Start     time.Duration // frame start on the loop's clock
	Dur       time.Duration // frame interval: until the next frame's start
	Ticks     int           // logic ticks (or cycles) the frame ran
	Capped    bool          // hit MaxLoops
	Discarded time.Duration // time debt discarded
}

// Ring keeps the latest frames, overwriting the oldest.
type Ring struct {
	buf  []Frame
	head int // next slot to write
	n    int
}

// NewRing returns a ring holding the latest capacity frames.
func NewRing(capacity int) *Ring {
	if capacity < 1 {
		capacity = 1
	}
	return &Ring{buf: make([]Frame, capacity)}
}

// Add appends a frame.
func (r *Ring) Add(f Frame) {
	r.buf[r.head] = f
	if r.head++; r.head == len(r.buf) {
		r.head = 0 // no division: this runs every frame
	}
	if r.n < len(r.buf) {
		r.n++
	}
}

// older is the slot before slot i: the next older frame.
func (r *Ring) older(i int) int {
	if i == 0 {
		return len(r.buf) - 1
	}
	return i - 1
}

// Len is the number of frames held.
func (r *Ring) Len() int { return r.n }

// At returns the i-th newest frame: At(0) is the latest.
func (r *Ring) At(i int) Frame {
	return r.buf[(r.head-1-i+2*len(r.buf))%len(r.buf)]
}

// Reset empties the ring.
func (r *Ring) Reset() { r.head, r.n = 0, 0 }

// Window sums the frames that started after a time: their count, ticks,
// how many hit MaxLoops or discarded debt, and the debt discarded.
type Window struct {
	Frames, Ticks, Capped, DiscardFrames int
	Discarded                            time.Duration
}

// Since summarises the frames that started after t.
func (r *Ring) Since(t time.Duration) Window {
	var w Window
	for k, i := 0, r.head; k < r.n; k++ {
		i = r.older(i)
		f := &r.buf[i]
		if f.Start <= t {
			break
		}
		w.Frames++
		w.Ticks += f.Ticks
		if f.Capped {
			w.Capped++
		}
		if f.Discarded > 0 {
			w.DiscardFrames++
			w.Discarded += f.Discarded
		}
	}
	return w
}
