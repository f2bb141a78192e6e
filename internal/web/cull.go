//go:build js && wasm

package web

import (
	"syscall/js"
	"time"
	"unsafe"

	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/render/adaptive"
	"github.com/interpdemo/interpdemo/render/occlusion"
)

// Occlusion culling on the page, as in the window (render/cellcull.go):
// package render/occlusion finds, in Go, the balls that later balls hide
// entirely; their windows go to an R32I texture on unit 2, and ball.vert
// (compiled with CELL_CULL) moves the hidden balls out of the clip
// volume. Culled balls are points (the culling runs once a vertex, six
// times a ball as squares).
//
// One choice weighs every way the page can draw its balls: points,
// squares (sprites.go), culled points, or the painted image (painted.go),
// a single adaptive.Choice among four (adaptive.NewOf, options.go) for
// ?cull=, ?sprites= and ?paint= together. Two choices of two, the
// culling's and the form's, each blind to the other's options, could
// miss the cheapest: the culling's comparison weighed culled points
// against the form in force, and the form's comparisons ran only in
// frames that did not cull, so a start with a form dearer than culled
// points, the other form cheaper than both, kept culling and never
// measured the other form. The list starts with points, as the page
// always has: SwiftShader draws them cheaper than squares, every browser
// draws them natively, and the list's order is the hysteresis: squares,
// culling and painting, each spending work to save other work, are taken
// up only where they measure adaptive.Margin cheaper than the option in
// force, twice, and kept while cheaper at all.
//
// Each frame the page says which options it can draw
// (adaptive.Scene.Options, from allowedOptions): culling only where the
// culler holds the balls and the view suits it, and not with ?cull=off;
// squares only where their program is made, and not with
// ?sprites=points; points unculled not with ?sprites=quads; with ?cull=on,
// where the balls can be culled, the culled points alone. A change of
// them is a new scene: a new comparison.
//
// A frame's cost is the culler's time (Strategy, in frames that cull)
// and the rest of it (Busy), which is
//
//   - the Go frame's wall time, less the culler's: the export's call
//     that draws the frame, from its start to its end (a page has no CPU
//     clock: performance.now() is all the browser gives);
//   - plus the ball draw's GPU time (also reported alone, Cost.GPU): an
//     EXT_disjoint_timer_query_webgl2 TIME_ELAPSED_EXT query around it,
//     read frames later, never waited for; a result whose frames saw a
//     disjoint event (GPU_DISJOINT_EXT) is dropped, and its frame with
//     it. The Go frame never waits for the GPU (the GPU process runs it;
//     the loop waits for its fences between calls), so, unlike the
//     window's, its time holds none of the GPU's: the query must add it.
//
// A browser without the extension gives no measure of what culling or
// the squares save (the GPU's work; the Go frame only pays the culler's
// time): there the page makes no choice, auto draws points unculled, and
// ?cull=on and ?sprites=quads force theirs (docs/WEB.md says why). With
// every mode forced, there is nothing to choose either: the page draws
// the first option allowed (adaptive.First): so auto without a timer
// draws points unculled, ?cull=on culls (the options hold nothing else)
// and ?sprites=quads draws squares.

// The WebGL2 constants of the culling.
const (
	glTexture2Unit   = glTexture0 + 2 // TEXTURE2: the culler's windows (ball.vert's cells)
	glR32I           = 0x8235
	glRedInteger     = 0x8D94
	glTextureWrapS   = 0x2802
	glTextureWrapT   = 0x2803
	glClampToEdge    = 0x812F
	cellTextureUnit  = 2               // ball.vert's cells
	cellTextures     = maxInFlight + 2 // the ring of window textures, as in the window
	timerRing        = maxInFlight + 2 // frames whose GPU times may be pending at once
	timerPending     = -1              // timerJS's poll: nothing ready
	timerDisjoint    = -2              // timerJS's poll: a result dropped
	timerExtension   = "EXT_disjoint_timer_query_webgl2"
	ballVertCullFlag = "CELL_CULL"
)

// cellCuller is the page's culler and its textures, and the balls' one
// choice with its GPU timer.
type cellCuller struct {
	occlusion.Culler
	mode adaptive.Mode // ?cull=
	// choice is the balls' among the page's options (options.go); nil
	// where nothing measures: no GPU timer, or ?cull= and ?sprites= both
	// forced.
	choice *adaptive.Choice
	tex    [cellTextures]js.Value
	ring   int
	bytes  js.Value       // a Uint8Array the windows are copied through
	ints   js.Value       // an Int32Array over its buffer: texSubImage2D's source for INT
	on     bool           // the last frame that drew balls culled them
	scene  adaptive.Scene // what the costs depend on (the choice's Scene)

	timer  js.Value // timerJS's object; undefined without the extension
	timers timers
}

// initCells makes the textures and the timer for mode.
func (r *glRenderer) initCells(mode adaptive.Mode) {
	c := &r.cells
	g := r.gl
	g.Call("activeTexture", glTexture2Unit)
	for i := range c.tex {
		c.tex[i] = g.Call("createTexture")
		g.Call("bindTexture", glTexture2D, c.tex[i])
		for _, p := range [][2]int{
			{glTextureMinFilter, glNearest}, {glTextureMagFilter, glNearest},
			{glTextureWrapS, glClampToEdge}, {glTextureWrapT, glClampToEdge},
		} {
			g.Call("texParameteri", glTexture2D, p[0], p[1])
		}
		g.Call("texImage2D", glTexture2D, 0, glR32I, 1, 1, 0, glRedInteger, glInt, nil)
	}
	g.Call("activeTexture", glTexture0)
	if t := js.Global().Get("Function").New("gl", "ring", timerJS).Invoke(g, timerRing); !t.IsNull() {
		c.timer = t
	}
	c.mode = mode
}

// initChoice makes the balls' choice, where there is one to make: with
// the GPU timer, and ?cull= or ?sprites= auto (choosing).
func (r *glRenderer) initChoice() {
	c := &r.cells
	if choosing(c.mode, r.sprites.mode, r.paint.mode, c.hasTimer()) {
		c.choice = adaptive.NewOf(numOptions)
	}
}

func (c *cellCuller) hasTimer() bool { return c.timer.Type() == js.TypeObject }

// viewOf is the projection and viewport's mapping (resize) of world
// positions into the view's pixels from its top left, at scale pixels a
// world unit, as the culler and the painter take it.
func (r *glRenderer) viewOf(scale float64) occlusion.View {
	one := float64(physics.One)
	mu := marginPx / scale * one
	ww, wh := float64(r.cfg.Width)*one, float64(r.cfg.Height)*one
	sx := float64(r.view.Dx()+2*marginPx) / (ww + 2*mu)
	sy := float64(r.view.Dy()+2*marginPx) / (wh + 2*mu)
	rad := float64(r.cfg.Radius) * scale
	return occlusion.View{W: r.view.Dx(), H: r.view.Dy(), SX: sx, SY: sy, OX: mu*sx - marginPx, OY: mu*sy - marginPx,
		Radius: rad, MaxReach: (2*rad + 1) / 2}
}

// resizeCells sizes the culler's grids and textures for view v, and
// sets ball.vert's culling uniforms, as the window's resizeArea does.
func (r *glRenderer) resizeCells(v occlusion.View) {
	c := &r.cells
	c.Resize(v)
	c.Size() // now, not in the frame that first culls: the loop allocates nothing after its warm-up
	c.scene = adaptive.Scene{Balls: 0, ViewW: r.view.Dx(), ViewH: r.view.Dy(), RadiusPx64: int(v.Radius * 64)}
	g := r.gl
	if c.Usable() {
		tw, th := c.Windows()
		g.Call("activeTexture", glTexture2Unit)
		for _, t := range c.tex {
			g.Call("bindTexture", glTexture2D, t)
			g.Call("texImage2D", glTexture2D, 0, glR32I, tw, th, 0, glRedInteger, glInt, nil)
		}
		g.Call("bindTexture", glTexture2D, c.tex[c.ring])
		g.Call("activeTexture", glTexture0)
		if n := tw * th * 4; c.bytes.IsUndefined() || c.bytes.Length() < n {
			c.bytes = js.Global().Get("Uint8Array").New(n)
			c.ints = js.Global().Get("Int32Array").New(c.bytes.Get("buffer"))
		}
	}
	y0 := r.winH - r.view.Max.Y
	for _, p := range r.programs() {
		g.Call("useProgram", p.prog)
		g.Call("uniform4f", p.viewport, r.view.Min.X-marginPx, y0-marginPx, r.view.Dx()+2*marginPx, r.view.Dy()+2*marginPx)
		g.Call("uniform2f", p.cellOrigin, r.view.Min.X, r.winH-r.view.Min.Y)
		g.Call("uniform1f", p.cellReach, c.Reach())
		g.Call("uniform1i", p.cellWin, c.Win())
	}
}

// cullable reports whether the balls can be culled: not with ?cull=off,
// and only where the culler holds the balls drawn and the view suits it.
func (r *glRenderer) cullable() bool {
	c := &r.cells
	return c.mode != adaptive.Off && c.Balls() == r.pos.N() && r.pos.N() > 0 && c.Usable()
}

// culling reports whether the balls of the last Sync are drawn culled:
// the option in force, where culling can run.
func (r *glRenderer) culling() bool { return r.option() == optCulled }

// option is the option in force that the options allow now: the
// choice's, or the first allowed where there is no choice.
func (r *glRenderer) option() int {
	m := r.options()
	if r.cells.choice == nil {
		return adaptive.First(m)
	}
	return r.cells.choice.OptionIn(m)
}

// lastComparison is the balls' choice's last comparison that ended, for
// info(): the option in force when it started, the one it tried, and
// their costs in it (ms, -1 where not measured); nil before one ended.
func (r *glRenderer) lastComparison() any {
	if r.cells.choice == nil {
		return nil
	}
	a, b, ta, tb, ok := r.cells.choice.Last()
	if !ok {
		return nil
	}
	return []any{a, b, msOf(ta), msOf(tb)}
}

// msOf is ns in milliseconds, -1 for -1.
func msOf(ns int64) float64 {
	if ns < 0 {
		return -1
	}
	return float64(ns) / 1e6
}

// options is the mask of the options this frame can draw (options.go).
func (r *glRenderer) options() uint8 {
	return allowedOptions(r.cells.mode, r.sprites.mode, r.paint.mode, r.cullable(), r.squaresUsable(), r.paintUsable())
}

// syncCells keeps the culler's copy of the positions sync uploaded;
// step says exactly one step of the world separates them from the last.
func (c *cellCuller) syncCells(last, next []int32, step bool) {
	if c.mode == adaptive.Off {
		return
	}
	if step {
		c.Step(next)
		return
	}
	c.Sync(last, next)
}

// beginBalls chooses how this frame draws its balls (an option,
// options.go): culled (then it finds the hidden balls), painted (then it
// paints them, ball hl in the player's colour), or as squares or points;
// and starts the draw's GPU timer when the choice measures the frame. It
// allocates nothing.
func (r *glRenderer) beginBalls(alpha float32, hl int) int {
	c := &r.cells
	if c.hasTimer() {
		c.timers.poll(c.timer, c.choice)
	}
	c.scene.Balls = r.pos.N()
	c.scene.Options = r.options() // a change starts a new comparison
	opt, measure, tag := adaptive.First(c.scene.Options), false, adaptive.Tag{}
	if c.choice != nil {
		opt, measure, tag = c.choice.Pick(c.scene)
	}
	// The strategy's own time: the culler's walk, or the painting.
	var own int64
	if opt == optCulled || opt == optPainted {
		var t0 int64
		if measure {
			t0 = wallNs() // the clock only on the frames a comparison measures
		}
		if opt == optCulled {
			r.prepareCells(alpha)
		} else {
			r.paintBalls(alpha, hl)
		}
		if measure {
			own = wallNs() - t0
		}
	}
	if measure && c.hasTimer() {
		if q := c.timers.begin(c.timer); q != nil {
			q.tag, q.cost.Strategy = tag, own
		}
	}
	c.on, r.sprites.quads, r.paint.on = opt == optCulled, opt == optSquares, opt == optPainted
	return opt
}

// endBalls ends the ball draw's GPU timer, if one runs.
func (r *glRenderer) endBalls() {
	if r.cells.timers.running {
		r.cells.timer.Call("end")
		r.cells.timers.running = false
	}
}

// frameDone closes the measured frame's CPU part: ns is the Go frame's
// wall time, the culler's included.
func (r *glRenderer) frameDone(ns int64) { r.cells.timers.frameDone(ns) }

// prepareCells finds the hidden balls at mix factor alpha and leaves the
// windows on texture unit 2, uploaded into the next texture of the ring
// when they changed.
func (r *glRenderer) prepareCells(alpha float32) {
	c := &r.cells
	windows, fresh := c.Prepare(alpha)
	g := r.gl
	g.Call("activeTexture", glTexture2Unit)
	if fresh {
		c.ring = (c.ring + 1) % cellTextures
	}
	g.Call("bindTexture", glTexture2D, c.tex[c.ring])
	if tw, th := c.Windows(); fresh && len(windows) >= tw*th && tw*th > 0 {
		b := unsafe.Slice((*byte)(unsafe.Pointer(&windows[0])), tw*th*4)
		js.CopyBytesToJS(c.bytes, b)
		g.Call("texSubImage2D", glTexture2D, 0, 0, 0, tw, th, glRedInteger, glInt, c.ints)
	}
	g.Call("activeTexture", glTexture0)
}

// cullStats is the culling's part of the choice and its costs; hidden
// (a walk over every ball: for a report, not a frame) adds how many
// balls the last frame hid.
func (r *glRenderer) cullStats(hidden bool) cullStats {
	c := &r.cells
	n := 0
	if hidden && c.on {
		n = c.HiddenCount()
	}
	return newCullStats(c.mode, r.culling(), c.hasTimer(), n, c.choice)
}

// timers are the measured frames whose costs are not complete yet: the
// Go side of timerJS's queries, in the same order.
type timers struct {
	q       [timerRing]timerQuery
	head, n int  // the oldest pending, and how many are
	open    int  // 1 + the index of the frame whose CPU time frameDone sets; 0 for none
	running bool // a query is open around the ball draw
}

type timerQuery struct {
	tag    adaptive.Tag // the choice's for the frame
	cost   adaptive.Cost
	cpuSet bool // frameDone set cost.Busy (the Go frame's part of it)
}

// begin starts the GPU timer of a frame, or returns nil when every
// query is still pending.
func (t *timers) begin(tj js.Value) *timerQuery {
	if t.n == timerRing {
		return nil
	}
	i := (t.head + t.n) % timerRing
	q := &t.q[i]
	t.n++
	q.cost, q.cpuSet = adaptive.Cost{}, false
	t.open, t.running = i+1, true
	tj.Call("begin")
	return q
}

// frameDone sets the open frame's Go time: its wall time less the
// culler's.
func (t *timers) frameDone(ns int64) {
	if t.open == 0 {
		return
	}
	q := &t.q[t.open-1]
	q.cost.Busy = max(ns-q.cost.Strategy, 0)
	q.cpuSet = true
	t.open = 0
}

// poll hands the costs that are complete to the choice, oldest first; a
// dropped GPU time (a disjoint event) drops its frame.
func (t *timers) poll(tj js.Value, choice *adaptive.Choice) {
	for t.n > 0 {
		q := &t.q[t.head]
		if !q.cpuSet {
			return
		}
		ns := tj.Call("poll").Float()
		if ns == timerPending {
			return
		}
		if ns != timerDisjoint {
			// The page's Go frame never waits for the GPU, as a
			// window's frame does at its swap: the GPU's time is added.
			q.cost.Busy += int64(ns)
			if choice != nil {
				choice.MeasuredGPU(q.tag, int64(ns))
				choice.Measured(q.tag, q.cost)
			}
		}
		t.head = (t.head + 1) % timerRing
		t.n--
	}
}

// timerJS is the body of a function of the WebGL2 context and a ring
// size that returns the ball draw's GPU timer, or null where the browser
// does not offer EXT_disjoint_timer_query_webgl2. The queries stay in
// JavaScript (a WebGLQuery handed to Go would be an allocation a frame);
// poll returns the oldest query's result in nanoseconds, -1 while it is
// pending (or none is), -2 for a result dropped because the GPU saw a
// disjoint event (a clock change, a context switch) while it ran.
const timerJS = `
const ext = gl.getExtension("` + timerExtension + `");
if (!ext) return null;
const qs = [], serials = [];
for (let i = 0; i < ring; i++) { qs.push(gl.createQuery()); serials.push(0); }
let head = 0, count = 0, serial = 0, dropBelow = 0;
return {
	begin() {
		const i = (head + count) % ring;
		serials[i] = ++serial;
		count++;
		gl.beginQuery(ext.TIME_ELAPSED_EXT, qs[i]);
	},
	end() { gl.endQuery(ext.TIME_ELAPSED_EXT); },
	poll() {
		if (count === 0) return -1;
		const q = qs[head];
		if (!gl.getQueryParameter(q, gl.QUERY_RESULT_AVAILABLE)) return -1;
		if (gl.getParameter(ext.GPU_DISJOINT_EXT)) dropBelow = serial + 1; // every query issued so far
		const ns = gl.getQueryParameter(q, gl.QUERY_RESULT);
		const s = serials[head];
		head = (head + 1) % ring;
		count--;
		return s < dropBelow ? -2 : ns;
	},
};
`

// wallStart is when wallNs counts from.
var wallStart = time.Now()

// wallNs is a monotonic time in nanoseconds: performance.now() in a
// browser, the only clock a page has.
func wallNs() int64 { return int64(time.Since(wallStart)) }
