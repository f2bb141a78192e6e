package render

// The positions' upload: the world's last and next positions into the
// two GPU buffers, one buffer a tick where it can.

import (
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/render/positions"
)

// bytesPerBall is the size of one position: two int32.
const bytesPerBall = 8

// initBuffers makes the two position buffers and the two vertex arrays
// that read them, last from one and next from the other (Renderer.vao).
func (r *Renderer) initBuffers() {
	gl.GenBuffers(2, &r.vbo[0])
	gl.GenVertexArrays(2, &r.vao[0])
	for i := 0; i < 2; i++ {
		gl.BindVertexArray(r.vao[i])
		gl.BindBuffer(gl.ARRAY_BUFFER, r.vbo[i])
		gl.EnableVertexAttribArray(0)
		gl.VertexAttribPointer(0, 2, gl.INT, false, bytesPerBall, nil)
		gl.BindBuffer(gl.ARRAY_BUFFER, r.vbo[1-i])
		gl.EnableVertexAttribArray(1)
		gl.VertexAttribPointer(1, 2, gl.INT, false, bytesPerBall, nil)
	}
	gl.BindVertexArray(0)
}

// Sync brings the GPU copy of the positions up to date and returns the
// number of buffer bytes it sent. last and next are the world's interleaved
// fixed-point positions; step counts the world's ticks and steps (each of
// which sets last = next before moving next); moved changes whenever last
// was set some other way (teleport, reset, new balls).
//
//   - nothing changed: 0 bytes;
//   - exactly one step since the last Sync: only next (8 bytes per ball),
//     written over the buffer holding the oldest positions, and the buffers
//     swap roles;
//   - anything else (several ticks in one frame, a teleport, a new ball
//     count): last and next (16 bytes per ball).
//
// last and next of different lengths (a caller's bug) upload nothing and
// keep the previous positions.
func (r *Renderer) Sync(last, next []int32, step, moved uint64) int {
	n := len(next) / 2
	if len(last) != len(next) || len(next)%2 != 0 || r.cfg.LayersOnly {
		return 0
	}
	if n > r.capacity {
		r.grow(n)
	}
	switch r.pos.Plan(n, step, moved) {
	case positions.None:
		return 0
	case positions.Next:
		r.upload(r.vbo[r.pos.Next()], next)
		r.occ.update(r, last, next)
		r.spr.sync(last, next)
		r.cells.sync(r, last, next, true)
		return r.count(len(next))
	}
	r.upload(r.vbo[r.pos.Last()], last)
	r.upload(r.vbo[r.pos.Next()], next)
	r.occ.update(r, last, next)
	r.spr.sync(last, next)
	r.cells.sync(r, last, next, false)
	return r.count(len(last) + len(next))
}

func (r *Renderer) count(int32s int) int {
	b := int32s * 4
	r.uploaded += int64(b)
	return b
}

// UploadedBytes is the total of buffer bytes sent to the GPU by Sync.
func (r *Renderer) UploadedBytes() int64 { return r.uploaded }

func (r *Renderer) grow(n int) {
	c := r.capacity * 2
	if c < n {
		c = n
	}
	if c < 64 {
		c = 64
	}
	for i := 0; i < 2; i++ {
		gl.BindBuffer(gl.ARRAY_BUFFER, r.vbo[i])
		gl.BufferData(gl.ARRAY_BUFFER, c*bytesPerBall, nil, gl.DYNAMIC_DRAW)
	}
	r.attachQuads(c)
	r.capacity = c
	r.pos.Lost()
}

func (r *Renderer) upload(vbo uint32, data []int32) {
	if len(data) == 0 {
		return
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, vbo)
	gl.BufferSubData(gl.ARRAY_BUFFER, 0, len(data)*4, unsafe.Pointer(&data[0]))
}
