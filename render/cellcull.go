package render

import (
	"time"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/render/adaptive"
	"github.com/interpdemo/interpdemo/render/occlusion"
)

// Occlusion culling on the CPU (package render/occlusion finds the hidden
// balls; this file uploads what it found and decides when to use it).
// The windows go to the next of a ring of textures: a texture that a
// frame still in flight reads would make the upload wait for it.
//
// Whether it pays is measured on the running machine (package
// render/adaptive, in one choice with the balls' form: choice.go), on
// the frames a comparison measures (15 to 30 frames of each option in
// 512 at first, in 4,096 once the choice holds): the
// culler's time, and the frame's from its ball draw to the end of
// EndFrame (after the swap), which holds the GPU's time wherever the GPU
// is what the frame waits for (EndFrame waits for the frame two before,
// and a swap for the GPU), each option judged by its blocks of frames
// whole: a block starts with the GPU's queue emptied and its last frame
// waits for the GPU to finish it (choice.go). On a software rasterizer
// a hidden sprite costs about a microsecond and culling 10,000 balls of
// 16 px pays; on a GPU the whole draw costs less than finding what to
// skip, and it stays off.
//
// Each measured frame's ball draw is also timed by a GL_TIME_ELAPSED
// query, read a few frames late (never waited for), and reported: on a
// GPU it is the draw's own time. It does not decide: llvmpipe's queries
// count little of its rasterizer threads' work, where culling saves its
// time (measured here at 10,000 balls: a query said 1 to 4 ms where the
// draw took 11 to 17 ms to finish, and now and then 100 ms for a 15 ms
// frame).

const cellTextures = maxInFlight + 2 // the ring of window textures

type cellCuller struct {
	occlusion.Culler
	tex  [cellTextures]uint32
	ring int
	// texW, texH: the size the ring's storage was allocated at for the
	// windows (0 until a frame culls: one texel each, initCells).
	texW, texH int
	used       bool // a frame has used a texture since EndFrame last looked
	// closes: the frame, one the comparison measures, closes a block
	// the choice measures whole (EndFrame waits for the GPU to finish
	// it).
	closes bool

	on bool // the last frame that drew balls culled them
}

// Culling reports whether the balls of the last Sync are drawn with
// occlusion culling: the choice in force (Config.Cull; with auto, the
// cheaper as measured), where culling can run at all (Config.Painter off,
// balls small enough for a stamp).
func (r *Renderer) Culling() bool { return r.option() == optCulled }

// cullable reports whether the balls can be culled.
func (r *Renderer) cullable() bool {
	c := &r.cells
	return !r.cfg.Painter && c.tex[0] != 0 && r.cfg.Cull != adaptive.Off &&
		c.Balls() == r.pos.N() && r.pos.N() > 0 && c.Usable()
}

// SetCull sets how the culling is chosen (see Config.Cull); a new
// comparison starts, of all the options the modes now allow.
func (r *Renderer) SetCull(m adaptive.Mode) {
	if r.cfg.Cull == adaptive.Off && m != adaptive.Off {
		r.pos.Lost() // the culler kept no positions: the next Sync gives them
	}
	r.cfg.Cull = m
	r.choice = newChoice()
}

// CullStats is the culling's choice and the costs behind it.
type CullStats struct {
	Mode adaptive.Mode
	On   bool // the choice in force (false where culling cannot run)
	// With auto, in ns, -1 where not measured: the medians of the last
	// comparisons' blocks (adaptive.Choice.JudgeBlocks), the culler's
	// time and what the choice compares, a frame's time from its ball
	// draw to the end of EndFrame, with culling and without (the cheaper
	// form measured, squares or points); and the ball draw's GPU time (a
	// timer query) of the last frame measured with and without (in that
	// form).
	WalkNs, GPUOnNs, GPUOffNs, CostOnNs, CostOffNs int64
	// Compared counts the frames the comparisons of culled points with
	// either form drew, Tried those of them drawn with the option not in
	// force (adaptive.Choice.ComparedPair).
	Compared, Tried int
}

// CullStats reports the culling's choice and costs.
func (r *Renderer) CullStats() CullStats {
	s := CullStats{Mode: r.cfg.Cull, On: r.Culling()}
	s.CostOnNs, s.WalkNs, s.GPUOnNs = r.choice.Measures(optCulled)
	s.CostOffNs, s.GPUOffNs = r.cheaperForm()
	for _, o := range [2]int{optSquares, optPoints} {
		f, t := r.choice.ComparedPair(optCulled, o)
		s.Compared += f
		s.Tried += t
	}
	return s
}

// cheaperForm is the cost and GPU time of the cheaper form measured
// without culling, squares or points: -1, -1 where neither was.
func (r *Renderer) cheaperForm() (cost, gpu int64) {
	cost, gpu = -1, -1
	for _, o := range [2]int{optSquares, optPoints} {
		if t, _, g := r.choice.Measures(o); t >= 0 && (cost < 0 || t < cost) {
			cost, gpu = t, g
		}
	}
	return cost, gpu
}

// CullHidden counts the balls the last culled frame hid (0 where culling
// is not the choice in force): a walk over every ball, for a report.
func (r *Renderer) CullHidden() int {
	if !r.Culling() {
		return 0
	}
	return r.cells.HiddenCount()
}

// cullScene is what the culling's costs depend on.
func (r *Renderer) cullScene() adaptive.Scene {
	return adaptive.Scene{Balls: r.pos.N(), ViewW: r.view.W, ViewH: r.view.H, RadiusPx64: int(float64(r.cfg.Radius) * r.scale * 64)}
}

// sync keeps the CPU's copy of the positions Sync uploads, when the CPU
// may cull them; step says exactly one step of the world separates them
// from the last.
func (c *cellCuller) sync(r *Renderer, last, next []int32, step bool) {
	if r.cfg.Painter || r.cfg.Cull == adaptive.Off {
		return
	}
	if step {
		c.Step(next)
		return
	}
	c.Sync(last, next)
}

// resizeCells sizes the grids for the renderer's view and sprite.
func (r *Renderer) resizeCells() {
	c := &r.cells
	// The projection and viewport's mapping (resizeArea) of world
	// positions into the view's pixels from its top left.
	one := float64(int64(1) << r.cfg.FracBits)
	mu := float64(marginPx) / r.scale * one
	ww, wh := float64(r.cfg.WorldW)*one, float64(r.cfg.WorldH)*one
	sx := float64(r.view.W+2*marginPx) / (ww + 2*mu)
	sy := float64(r.view.H+2*marginPx) / (wh + 2*mu)
	v := occlusion.View{W: r.view.W, H: r.view.H, SX: sx, SY: sy, OX: mu*sx - marginPx, OY: mu*sy - marginPx,
		Radius: float64(r.cfg.Radius) * r.scale, MaxReach: float64(r.pointSize) / 2}
	if c.tex[0] == 0 {
		v.W, v.H = 0, 0 // no textures to upload to: nothing culled
	}
	c.Resize(v)
	// The grids now, the textures when a frame first culls
	// (prepareCells): a run whose comparisons first try culling after
	// its warm-up (at 1,000,000 balls on llvmpipe, where the first
	// frames take a second each) must not allocate then. Made later, in
	// the frame after the resize, they were 7 allocations after the
	// warm-up in make bench's run at 1,000,000 balls (2026-11-28).
	c.Size()
}

// initCells makes the ring's textures, each with one texel until a frame
// culls (prepareCells), and leaves the first on texture unit 2. The ball
// programs' cells sampler reads unit 2 only while culling, but a draw
// with no complete texture there makes Mesa build its fallback texture in
// the first frame and wait there for the GPU to finish all it was given
// (_mesa_get_fallback_texture's glFinish): a stalled pipeline on a GPU;
// on llvmpipe a wait of 7.6 ms for the clears before the balls (a
// GALLIUM_TRACE of bin/interpdemo -headless -ticks 1 -fast, 2026-11-28).
func (r *Renderer) initCells() {
	c := &r.cells
	gl.GenTextures(cellTextures, &c.tex[0])
	gl.ActiveTexture(gl.TEXTURE2)
	for i := len(c.tex) - 1; i >= 0; i-- {
		gl.BindTexture(gl.TEXTURE_2D, c.tex[i])
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
		gl.TexImage2D(gl.TEXTURE_2D, 0, gl.R32I, 1, 1, 0, gl.RED_INTEGER, gl.INT, nil)
	}
	gl.ActiveTexture(gl.TEXTURE0)
}

func (c *cellCuller) delete() {
	if c.tex[0] != 0 {
		gl.DeleteTextures(cellTextures, &c.tex[0])
		c.tex = [cellTextures]uint32{}
	}
}

// prepareCells finds the hidden balls at mix factor alpha and leaves the
// windows on texture unit 2. It allocates nothing, and uploads nothing
// when the last windows are still right.
func (r *Renderer) prepareCells(alpha float32) {
	c := &r.cells
	c.used = true
	windows, fresh := c.Prepare(alpha)
	gl.ActiveTexture(gl.TEXTURE2)
	if tw, th := c.Windows(); tw != c.texW || th != c.texH {
		// The first culled frame since the view changed: the ring's
		// storage. Each texture is given its windows before a frame
		// reads it: a frame moves to the next texture only with fresh
		// windows, which it uploads there.
		c.texW, c.texH = tw, th
		for _, t := range c.tex {
			gl.BindTexture(gl.TEXTURE_2D, t)
			gl.TexImage2D(gl.TEXTURE_2D, 0, gl.R32I, int32(tw), int32(th), 0, gl.RED_INTEGER, gl.INT, nil)
		}
	}
	if fresh {
		c.ring = (c.ring + 1) % cellTextures
	}
	gl.BindTexture(gl.TEXTURE_2D, c.tex[c.ring])
	if fresh {
		tw, th := c.Windows()
		gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
		gl.TexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, int32(tw), int32(th), gl.RED_INTEGER, gl.INT, unsafe.Pointer(&windows[0]))
	}
	gl.ActiveTexture(gl.TEXTURE0)
}

// timers measure the frames a comparison asks for: the time from the
// frame's ball draw to the end of its EndFrame, and a GL_TIME_ELAPSED
// query of the ball draw, read a few frames late: a result not yet
// available is looked at again next frame, and a frame finding every
// query still pending is not measured.
type timers struct {
	q       [timerRing]timerQuery
	head, n int         // the oldest pending, and how many are
	open    *timerQuery // the frame measured now, until its EndFrame
	// What the driver writes back, here and not on the stack: a local's
	// address given to C escapes to the heap, an allocation a frame.
	ready int32
	ns    uint64
}

// timerRing is how many frames' queries may be pending at once.
const timerRing = 6

type timerQuery struct {
	id    uint32
	tag   adaptive.Tag
	cost  adaptive.Cost
	start int64 // when the frame's ball draw started
}

func (t *timers) init() {
	for i := range t.q {
		gl.GenQueries(1, &t.q[i].id)
	}
}

func (t *timers) delete() {
	for i := range t.q {
		if t.q[i].id != 0 {
			gl.DeleteQueries(1, &t.q[i].id)
			t.q[i].id = 0
		}
	}
	t.n, t.open = 0, nil
}

// endFrame closes the time of the frame measured now, if any, and hands
// it to choice.
func (t *timers) endFrame(choice *adaptive.Choice) {
	if q := t.open; q != nil {
		q.cost.Busy = max(wallNow()-q.start-q.cost.Strategy, 0)
		t.open = nil
		choice.Measured(q.tag, q.cost)
	}
}

// poll hands the GPU times that are in to choice, oldest first.
func (t *timers) poll(choice *adaptive.Choice) {
	t.open = nil // a frame with no EndFrame: not measured
	for t.n > 0 {
		q := &t.q[t.head]
		gl.GetQueryObjectiv(q.id, gl.QUERY_RESULT_AVAILABLE, &t.ready)
		if t.ready == 0 {
			return
		}
		gl.GetQueryObjectui64v(q.id, gl.QUERY_RESULT, &t.ns)
		choice.MeasuredGPU(q.tag, int64(t.ns))
		t.head = (t.head + 1) % timerRing
		t.n--
	}
}

// begin starts measuring a frame whose ball draw starts at start, or
// returns nil when every query is still pending. The caller sets its
// tag and Strategy, and ends the query after the draw.
func (t *timers) begin(start int64) *timerQuery {
	if t.n == timerRing || t.q[0].id == 0 {
		return nil
	}
	q := &t.q[(t.head+t.n)%timerRing]
	t.n++
	q.start, q.cost = start, adaptive.Cost{}
	t.open = q
	gl.BeginQuery(gl.TIME_ELAPSED, q.id)
	return q
}

// clockStart is when wallNow counts from.
var clockStart = time.Now()

// wallNow is a monotonic time in nanoseconds.
func wallNow() int64 { return int64(time.Since(clockStart)) }
