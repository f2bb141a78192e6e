package render

// How far the CPU runs ahead of the GPU: a fence at the end of a frame,
// spaced out where fences would weigh, and waited on where the queue is
// full or a measured block ends.

import "github.com/go-gl/gl/v3.3-core/gl"

// maxInFlight is how many frames the CPU may run ahead of the GPU. Drivers
// that do not throttle at swap (SDL's offscreen EGL pbuffer with llvmpipe
// queues without limit) would otherwise let the loop race seconds ahead of
// what is on screen, and measure nothing real.
const maxInFlight = 2

// EndFrame marks the end of a frame's GL commands (call it right after the
// swap) and, if more than maxInFlight fenced frames are queued, waits for
// the oldest one to complete.
//
// A fence ends every frame while the GPU is the bottleneck (waiting for
// one had to block), and wherever a fence point costs under a hundredth of
// a frame (fenceShare): a fence a frame is then next to free, and it keeps
// the GPU at most two frames behind. Only frames so cheap that their
// fences would weigh (thousands a second) space them out, every 2, 4, ...
// up to maxFenceEvery frames, while the GPU keeps up easily (the frame of
// the newest fence done when the next is due, or the oldest fence done at
// two fence points in a row): at thousands of frames a second, Mesa
// 22.3's llvmpipe, made to create and wait for a fence every frame, now
// and then corrupts its own memory and crashes a few seconds into the run
// (also before this renderer drew only what changed, with a small
// window). Frames that cheap cost the queue nothing.
//
// Spacing fences wherever the GPU kept up, as first built, let frames of
// a few milliseconds run far ahead: at 10,000 balls of radius 1 on
// llvmpipe, drawing every ball, the GPU kept up at two fence points now
// and then, the interval doubled to 16, the loop drew frames of 0.7 ms
// 30 and more frames ahead of the rasterizer, and the next tick's upload
// (a buffer those frames read) waited 10 to 40 ms for all of them: 278
// frames a second and a frame p99 of 31 ms, against 325 and 9.3 ms with
// this rule (medians of alternating 3 s runs, 2026-11-27).
func (r *Renderer) EndFrame() {
	defer r.timers.endFrame(r.choice) // after any wait for the GPU
	r.sinceFence++
	closes := r.cells.closes
	r.cells.closes = false
	if r.cells.used {
		// The CPU culler's textures are a ring of cellTextures: a frame
		// must not queue more frames than that before one is done. And a
		// frame the culling's comparison measures waits for the frame
		// two before, whichever option it draws, so that the GPU's time
		// is in its own.
		r.cells.used = false
		r.fenceEvery = 1
	}
	if r.sinceFence < r.fenceEvery {
		return
	}
	r.sinceFence = 0
	// In order: a frame that had to wait for the GPU sets a fence every
	// frame again; fences that cost under a frame's 1/fenceShare come
	// closer, halving the interval; else it doubles where the GPU is done
	// with the frame of the newest fence (fenceEvery frames before:
	// nothing older is queued), or where the oldest fence was done at two
	// fence points in a row (a GPU that keeps up with cheap frames, though
	// it has not finished the newest yet: a frame of a few microseconds
	// ends before the GPU has even started on it); otherwise it stays.
	// (Doubling wherever the oldest fence was done, as first built, let
	// the loop race some 30 frames ahead of a GPU 5 times slower after a
	// stall that let it catch up: 2026-11-26, frame p99 41.7 ms at 10,000
	// balls of radius 1 without culling. The doubling rules alone still
	// did, now and then: see above.)
	start := r.clock()
	frame := (start - r.fencedAt) / int64(r.fenceEvery) // the frames' mean since the last fence point
	full := r.nFence == maxInFlight
	easy := r.nFence > 0 && r.signalled(r.fences[r.nFence-1])
	waited := full && r.retireFence()
	r.fences[r.nFence] = gl.FenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)
	r.nFence++
	if closes {
		// The last frame of a block the choice measures whole (package
		// render/adaptive, JudgeBlocks): it waits for the GPU to finish
		// the block, so that the block's cost holds all the work its
		// option queued, and none is left to the frames after it, drawn
		// another way. A block's frames each measured alone, as first
		// built, let llvmpipe's point sprites at 10,000 balls of radius 1
		// leave their work to the squares after them: the choice took the
		// points, a fifth dearer. (Before that, a measured
		// frame with no frame two before in flight waited for its own, so
		// that on an NVIDIA H100 at 1,000,000 balls the run's first two
		// frames without culling no longer measured 0.2 and 0.05 ms
		// against 27 for the third: their work is in the block's now.)
		for r.nFence > 0 {
			waited = r.retireFence() || waited
		}
	}
	end := r.clock()
	r.fencedAt = end
	if cost := end - start; !waited {
		// What a fence point costs, waiting aside: the cheapest point
		// lately, creeping up over some eight points to a dearer cost
		// that lasts, so that one point delayed by the scheduler does not
		// count for a fence's cost.
		if r.fenceCost == 0 {
			r.fenceCost = cost
		}
		r.fenceCost = min(cost, r.fenceCost+(cost-r.fenceCost)/8)
	}
	switch {
	case waited:
		r.fenceEvery, r.keptUp = 1, 0 // the GPU is behind: bound the queue tightly again
	case r.fenceCost < frame/fenceShare:
		r.fenceEvery, r.keptUp = max(1, r.fenceEvery/2), 0 // fences next to free: closer
	case easy:
		r.fenceEvery, r.keptUp = min(maxFenceEvery, 2*r.fenceEvery), 0
	case full:
		if r.keptUp++; r.keptUp == 2 {
			r.fenceEvery, r.keptUp = min(maxFenceEvery, 2*r.fenceEvery), 0
		}
	}
}

// signalled reports, without waiting, whether fence f is signalled.
func (r *Renderer) signalled(f uintptr) bool {
	switch gl.ClientWaitSync(f, 0, 0) {
	case gl.ALREADY_SIGNALED, gl.CONDITION_SATISFIED:
		return true
	}
	return false
}

// fenceShare: fences are spaced out only where a fence point costs over a
// frame's 1/fenceShare. A bound on what fences may cost, not a measure of
// a machine: both costs are measured as the frames go.
const fenceShare = 100

// maxFenceEvery is the most frames between two fences.
const maxFenceEvery = 16

// retireFence waits for the oldest frame in flight to complete, and
// reports whether it had to wait (the fence was not signalled yet).
func (r *Renderer) retireFence() (waited bool) {
	f := r.fences[0]
	if !r.signalled(f) {
		waited = true
		gl.ClientWaitSync(f, gl.SYNC_FLUSH_COMMANDS_BIT, 5e9)
	}
	gl.DeleteSync(f)
	copy(r.fences[:], r.fences[1:])
	r.nFence--
	return waited
}

// Finish waits until the GPU has executed everything submitted.
func (r *Renderer) Finish() { gl.Finish() }
