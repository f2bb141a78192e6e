//go:build js && wasm

package web

import (
	"fmt"
	"image"
	"syscall/js"
	"time"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/render/adaptive"
	"github.com/interpdemo/interpdemo/render/letterbox"
	"github.com/interpdemo/interpdemo/render/occlusion"
	"github.com/interpdemo/interpdemo/render/positions"
	"github.com/interpdemo/interpdemo/shaders"
)

// The WebGL2 constants used here, fixed by the OpenGL ES 3.0 specification
// (the names are its GL_ ones): constants, not a property looked up on the
// context on every frame.
const (
	glArrayBuffer      = 0x8892
	glTexture2D        = 0x0DE1
	glPoints           = 0x0000
	glInt              = 0x1404
	glColorBufferBit   = 0x4000
	glUnpackAlignment  = 0x0CF5
	glTriangles        = 0x0004
	glTexture0         = 0x84C0
	glRendererParam    = 0x1F01 // RENDERER
	glOneMinusSrcAlpha = 0x0303
	glOne              = 1
	glNearest          = 0x2600
	glLinkStatus       = 0x8B82
	glDynamicDraw      = 0x88E8
	glCompileStatus    = 0x8B81
	glBlend            = 0x0BE2
	glVertexShader     = 0x8B31
	glFragmentShader   = 0x8B30
	glTextureMinFilter = 0x2801
	glTextureMagFilter = 0x2800
)

// marginPx is how far beyond the world's edges the balls' viewport
// reaches, as in the window (package render): a ball drawn slightly past
// a wall is clipped by the canvas's edge, not dropped whole.
const marginPx = 64

// worldColor is the world's background, the window's (package render).
// Its letterbox bars' colour, rgb(5, 5, 8), is the page's background
// (cmd/web/index.html).
var worldColor = [3]float64{20.0 / 255, 26.0 / 255, 41.0 / 255}

// glRenderer draws the world of the demo's Scene with WebGL2 into the
// world's canvas, the way package render draws it with OpenGL 3.3: one
// draw call of point sprites for every ball (or of squares, where they
// measure cheaper: sprites.go), placed between its last and next
// position by the vertex shader (ball.vert) from two buffers, so that a
// frame with no tick changes one uniform and uploads no position; the
// balls that later ones hide entirely culled first where that pays
// (cull.go). The shaders are the window's, their version line swapped
// (shaders.WebGL2). The HUD and the graph are canvases of their own
// (panels.go).
type glRenderer struct {
	gl  js.Value
	cfg physics.Config

	disc, ball ballProgram     // ball.vert with disc.frag (balls), with ball.frag (ghost rings)
	progs      [3]*ballProgram // disc, ball, and the squares' (sprites.go) where made

	vbo      [2]js.Value
	vao      [2]js.Value // vao[i] reads last from vbo[i], next from vbo[1-i]
	pos      positions.Buffers
	capacity int   // balls the buffers hold
	uploaded int64 // position bytes sent

	canvas     js.Value
	winW, winH int             // the canvas's size: the world's part of the page (Scene.World)
	view       image.Rectangle // the letterboxed world in it, canvas pixels from the top left
	highlight  int

	stage js.Value // a Uint8Array the positions are copied through

	fences js.Value // fencesJS's queue of the frames still on the GPU

	cells   cellCuller    // occlusion culling of hidden balls (cull.go)
	sprites spriteChooser // the balls' form: points or squares (sprites.go)
	paint   painter       // the balls painted on the CPU (painted.go)
}

// Frames run by a MessageChannel loop (vsync off) are not paced by the
// compositor: without a bound the browser's GPU process falls seconds
// behind the loop. The window lets the GPU run two frames behind (package
// render); so does the page while the GPU is slow (it took the last frame
// it finished a display refresh or more, fence to done), and otherwise up
// to maxInFlight. In a browser the GPU process runs the page's WebGL on
// the thread that composites the browser's frames: with SwiftShader each
// composite held it 9 ms, 60 times a second, and two frames of a light
// scene waited behind it, the loop idle (docs/WEB.md, "Where a frame
// goes"). A heavy scene's frames take the GPU longer than a refresh:
// there more would only queue, and a frame late by the queue drops game
// time.
const (
	steadyInFlight = 2
	maxInFlight    = 8
)

// discDefines compile disc.frag for the page: without its clip test
// (WHOLE_FRAME: the canvas is the world's view, and its edges clip), and
// blending the fragments outside the disc (BLEND_OUTSIDE).
var discDefines = [...]string{"WHOLE_FRAME", "BLEND_OUTSIDE"}

// discFrag is disc.frag with discDefines, and more.
func discFrag(more ...string) (string, error) {
	src := shaders.DiscFrag
	var err error
	for _, d := range append(discDefines[:], more...) {
		if src, err = shaders.WithDefine(src, d); err != nil {
			return "", err
		}
	}
	return src, nil
}

// defaultLag is the bound where the display's refresh is not known.
const defaultLag = time.Second / 60

type ballProgram struct {
	prog                                            js.Value
	proj, alpha, pointSize, highlight, hlBall, clip js.Value
	radius, ring, opacity                           js.Value
	// ball.vert's occlusion culling (CELL_CULL, cull.go)
	cellCull, cells, viewport, cellOrigin, cellReach, cellWin, cellSize js.Value
}

// newGLRenderer makes the renderer on canvas, whose WebGL2 context it
// asks for, its occlusion culling chosen as cull says and the balls'
// form as sprites says (as demo.SpritesForms names the modes); an error
// says why there is none.
func newGLRenderer(canvas js.Value, cfg physics.Config, cull, sprites, paintMode adaptive.Mode) (*glRenderer, error) {
	ctx := canvas.Call("getContext", "webgl2", map[string]any{
		"antialias": false, "alpha": false, "depth": false, "preserveDrawingBuffer": true,
	})
	if ctx.IsNull() || ctx.IsUndefined() {
		return nil, fmt.Errorf("this browser gives no WebGL2 context")
	}
	r := &glRenderer{gl: ctx, cfg: cfg, canvas: canvas, highlight: -1}
	// ball.vert with its occlusion culling, as the window compiles it.
	vert, err := shaders.WithDefine(shaders.BallVert, ballVertCullFlag)
	if err != nil {
		return nil, err
	}
	disc, err := discFrag()
	if err != nil {
		return nil, err
	}
	if r.disc.prog, err = r.program("disc", vert, disc); err != nil {
		return nil, err
	}
	if r.ball.prog, err = r.program("ball", vert, shaders.BallFrag); err != nil {
		return nil, err
	}
	r.progs = [3]*ballProgram{&r.disc, &r.ball, &r.sprites.prog}
	for _, p := range r.progs[:2] {
		r.initBall(p)
	}
	g := r.gl
	for i := range 2 {
		r.vbo[i] = g.Call("createBuffer")
		r.vao[i] = g.Call("createVertexArray")
	}
	for i := range 2 {
		g.Call("bindVertexArray", r.vao[i])
		g.Call("bindBuffer", glArrayBuffer, r.vbo[i])
		g.Call("enableVertexAttribArray", 0)
		g.Call("vertexAttribPointer", 0, 2, glInt, false, 8, 0)
		g.Call("bindBuffer", glArrayBuffer, r.vbo[1-i])
		g.Call("enableVertexAttribArray", 1)
		g.Call("vertexAttribPointer", 1, 2, glInt, false, 8, 0)
	}
	g.Call("bindVertexArray", nil)
	g.Call("enable", glBlend)
	g.Call("blendFunc", glOne, glOneMinusSrcAlpha) // premultiplied alpha, as in the window
	g.Call("pixelStorei", glUnpackAlignment, 1)
	r.stage = js.Global().Get("Uint8Array").New(64 * 8) // grown with the buffers (grow)
	r.fences = js.Global().Get("Function").New("gl", fencesJS).Invoke(g)
	r.initCells(cull)
	if err := r.initSprites(sprites, vert); err != nil {
		return nil, err
	}
	if err := r.initPaint(paintMode); err != nil {
		return nil, err
	}
	r.initChoice()
	if e := g.Call("getError").Int(); e != 0 {
		return nil, fmt.Errorf("WebGL error 0x%x during setup", e)
	}
	return r, nil
}

// info is the WebGL renderer's name, as the browser tells it.
func (r *glRenderer) info() string {
	g := r.gl
	name := g.Call("getParameter", glRendererParam).String()
	if ext := g.Call("getExtension", "WEBGL_debug_renderer_info"); !ext.IsNull() {
		if v := g.Call("getParameter", ext.Get("UNMASKED_RENDERER_WEBGL")); v.Type() == js.TypeString {
			name = v.String()
		}
	}
	return name
}

func (r *glRenderer) program(name, vert, frag string) (js.Value, error) {
	g := r.gl
	p := g.Call("createProgram")
	for _, s := range []struct {
		kind int
		src  string
	}{{glVertexShader, vert}, {glFragmentShader, frag}} {
		src, err := shaders.WebGL2(s.src)
		if err != nil {
			return js.Null(), err
		}
		sh := g.Call("createShader", s.kind)
		g.Call("shaderSource", sh, src)
		g.Call("compileShader", sh)
		if !g.Call("getShaderParameter", sh, glCompileStatus).Bool() {
			return js.Null(), fmt.Errorf("%s shader: %s", name, firstLine(g.Call("getShaderInfoLog", sh).String()))
		}
		g.Call("attachShader", p, sh)
	}
	g.Call("linkProgram", p)
	if !g.Call("getProgramParameter", p, glLinkStatus).Bool() {
		return js.Null(), fmt.Errorf("%s program: %s", name, firstLine(g.Call("getProgramInfoLog", p).String()))
	}
	return p, nil
}

func (r *glRenderer) uniform(p js.Value, name string) js.Value {
	return r.gl.Call("getUniformLocation", p, name)
}

func (r *glRenderer) initBall(p *ballProgram) {
	u := func(n string) js.Value { return r.uniform(p.prog, n) }
	p.proj, p.alpha, p.pointSize, p.highlight, p.hlBall = u("proj"), u("alpha"), u("pointSize"), u("highlightFirst"), u("highlightBall")
	p.radius, p.clip, p.ring, p.opacity = u("radiusPx"), u("clip"), u("ring"), u("opacity")
	p.cellCull, p.cells, p.viewport, p.cellOrigin = u("cellCull"), u("cells"), u("viewport"), u("cellOrigin")
	p.cellReach, p.cellWin, p.cellSize = u("cellReach"), u("cellWin"), u("cellSize")
	g := r.gl
	g.Call("useProgram", p.prog)
	g.Call("uniform1f", p.ring, 0)
	g.Call("uniform1f", p.opacity, 1)
	g.Call("uniform1i", p.highlight, 0)
	g.Call("uniform1i", p.hlBall, 0)
	g.Call("uniform1i", p.cellCull, 0)
	g.Call("uniform1i", p.cells, cellTextureUnit)
	g.Call("uniform1i", p.cellSize, occlusion.CellSize)
}

// resize lays the world out in a part of the window w×h pixels, as the
// window does: letterboxed, centred. The canvas is made the world's view
// alone, vw×vh pixels at x, y in the part: the page's background is the
// bars.
func (r *glRenderer) resize(w, h int) (x, y, vw, vh int) {
	x, y, vw, vh, scale := letterbox.Fit(w, h, r.cfg.Width, r.cfg.Height)
	r.winW, r.winH = vw, vh
	r.canvas.Set("width", vw)
	r.canvas.Set("height", vh)
	r.view = image.Rect(0, 0, vw, vh)
	// As the window's projection (package render): the world's fixed-point
	// units onto the view and its margin, y down.
	one := float32(physics.One)
	mx := float32(marginPx/scale) * one
	ww, wh := float32(r.cfg.Width)*one, float32(r.cfg.Height)*one
	proj := mgl32.Ortho(-mx, ww+mx, wh+mx, -mx, -1, 1)
	rad := float64(r.cfg.Radius) * scale
	g := r.gl
	arr := float32Array(proj[:])
	for _, p := range r.programs() {
		g.Call("useProgram", p.prog)
		g.Call("uniformMatrix4fv", p.proj, false, arr)
		g.Call("uniform1f", p.pointSize, 2*rad+1) // the disc and its anti-aliased edge
		g.Call("uniform1f", p.radius, rad)
		y0 := r.winH - r.view.Max.Y
		g.Call("uniform4f", p.clip, r.view.Min.X, y0, r.view.Max.X, y0+r.view.Dy())
	}
	v := r.viewOf(scale)
	r.resizeCells(v)
	r.resizePaint(v)
	return x, y, vw, vh
}

// sync is the demo's SyncFunc: it brings the buffers up to date with the
// world's positions, as package positions plans, and returns the bytes
// it sent: nothing on a frame with no tick, the new next positions only
// on a frame with one.
func (r *glRenderer) sync(last, next []int32, step, moved uint64) int {
	n := len(next) / 2
	if len(last) != len(next) || len(next)%2 != 0 {
		return 0
	}
	if n > r.capacity {
		r.grow(n)
	}
	plan := r.pos.Plan(n, step, moved)
	if plan != positions.None {
		r.syncPaint(last, next)
	}
	switch plan {
	case positions.None:
		return 0
	case positions.Next:
		r.upload(r.vbo[r.pos.Next()], next)
		r.sprites.stale[r.pos.Next()] = true
		r.cells.syncCells(last, next, true)
		return r.count(len(next))
	}
	r.upload(r.vbo[r.pos.Last()], last)
	r.upload(r.vbo[r.pos.Next()], next)
	r.sprites.stale = [2]bool{true, true}
	r.cells.syncCells(last, next, false)
	return r.count(len(last) + len(next))
}

func (r *glRenderer) count(int32s int) int {
	b := int32s * 4
	r.uploaded += int64(b)
	return b
}

func (r *glRenderer) grow(n int) {
	c := max(r.capacity*2, n, 64)
	g := r.gl
	for i := range 2 {
		g.Call("bindBuffer", glArrayBuffer, r.vbo[i])
		g.Call("bufferData", glArrayBuffer, c*8, glDynamicDraw)
	}
	if c*8 > r.stage.Length() {
		r.stage = js.Global().Get("Uint8Array").New(c * 8)
	}
	r.capacity = c
	r.growSquares(c)
	r.pos.Lost()
}

func (r *glRenderer) upload(vbo js.Value, data []int32) {
	if len(data) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&data[0])), len(data)*4)
	js.CopyBytesToJS(r.stage, b)
	g := r.gl
	g.Call("bindBuffer", glArrayBuffer, vbo)
	g.Call("bufferSubData", glArrayBuffer, 0, r.stage, 0, len(b))
}

// busyGPU says the GPU still runs steadyInFlight frames and took the
// last it finished lag or longer, or runs maxInFlight: the next should
// wait. A fence's state changes only between the browser's tasks, so
// the caller tries again in a later task.
func (r *glRenderer) busyGPU(lag time.Duration) bool {
	if lag <= 0 {
		lag = defaultLag
	}
	return r.fences.Call("busy", maxInFlight, steadyInFlight, float64(lag)/1e6).Bool()
}

// fence marks the frame's end on the GPU, for busyGPU.
func (r *glRenderer) fence() { r.fences.Call("put") }

// idleGPU says the GPU has finished every frame fenced so far.
func (r *glRenderer) idleGPU() bool { return !r.fences.Call("busy", 1, 1, 0).Bool() }

// warm draws the world once in each way the page may draw it (points,
// the ghosts' rings, squares where their program is made) and fences it,
// before the loop starts: the first draw of each makes its pipeline in
// the GPU process, which on SwiftShader takes several frames' time, and
// the loop's first frames paid it (docs/WEB.md, "The loop").
func (r *glRenderer) warm() {
	g := r.gl
	g.Call("clearColor", worldColor[0], worldColor[1], worldColor[2], 1)
	g.Call("clear", glColorBufferBit)
	if n := r.pos.N(); n > 0 {
		// Not through draw: the balls' choice counts and measures the
		// frames that draw, and this is none of the loop's.
		g.Call("viewport", r.view.Min.X-marginPx, r.winH-r.view.Max.Y-marginPx, r.view.Dx()+2*marginPx, r.view.Dy()+2*marginPx)
		g.Call("bindVertexArray", r.vao[r.pos.Last()])
		for _, p := range []*ballProgram{&r.ball, &r.disc} {
			g.Call("useProgram", p.prog)
			g.Call("drawArrays", glPoints, 0, n)
		}
		if r.squaresUsable() {
			r.drawSquares(0, r.pos.Last(), n)
		}
		if r.paintUsable() {
			r.drawPainted()
		}
		g.Call("bindVertexArray", nil)
	}
	r.fence()
}

// fencesJS is the body of a function of the WebGL2 context that returns
// the frames' fences, kept in JavaScript: a WebGLSync handed to Go would
// cost a heap allocation (and a finalizer) a frame.
const fencesJS = `
const q = [], at = [];
let late = 0; // how long the GPU took the newest frame it finished, from its fence until seen done
return {
	put() { q.push(gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)); at.push(performance.now()); gl.flush(); },
	busy(most, steady, lagMs) {
		const now = performance.now();
		while (q.length > 0 && gl.getSyncParameter(q[0], gl.SYNC_STATUS) === gl.SIGNALED) {
			gl.deleteSync(q.shift());
			late = now - at.shift();
		}
		return q.length >= most || (q.length >= steady && late >= lagMs);
	},
};
`

// draw draws the scene's world whole into the canvas, the world's view
// (resize).
func (r *glRenderer) draw(sc *demo.Scene) {
	g := r.gl
	// The canvas is the view (resize): cleared whole, with no scissor, as
	// SwiftShader clears a whole canvas at memory speed and a part of one
	// only by drawing it (at 1,000 balls the frames ran 4 % faster); its
	// edges clip the balls, so disc.frag tests no clip rectangle
	// (WHOLE_FRAME, discDefines: at 10,000 balls the frames ran 21 %
	// faster).
	g.Call("clearColor", worldColor[0], worldColor[1], worldColor[2], 1)
	g.Call("clear", glColorBufferBit)
	if n := r.pos.N(); n > 0 {
		g.Call("viewport", r.view.Min.X-marginPx, r.winH-r.view.Max.Y-marginPx, r.view.Dx()+2*marginPx, r.view.Dy()+2*marginPx)
		g.Call("bindVertexArray", r.vao[r.pos.Last()])
		hl := -1 // the highlighted ball, -1 for none
		if sc.Highlight {
			hl = sc.HighlightBall
		}
		p := &r.disc
		if hl != r.highlight {
			for _, q := range r.programs() {
				g.Call("useProgram", q.prog)
				g.Call("uniform1i", q.highlight, min(hl+1, 1))
				g.Call("uniform1i", q.hlBall, max(hl, 0))
			}
			r.highlight = hl
		}
		switch opt := r.beginBalls(sc.Alpha, hl); opt { // finds the hidden balls or paints them, starts the GPU timer
		case optPainted:
			r.drawPainted()
			r.endBalls()
			// the ghost rings' points
			g.Call("viewport", r.view.Min.X-marginPx, r.winH-r.view.Max.Y-marginPx, r.view.Dx()+2*marginPx, r.view.Dy()+2*marginPx)
			g.Call("bindVertexArray", r.vao[r.pos.Last()])
		case optSquares:
			r.drawSquares(sc.Alpha, r.pos.Last(), n)
			r.endBalls()
			g.Call("bindVertexArray", r.vao[r.pos.Last()]) // the ghost rings' points
		default: // points, culled or not
			cull := opt == optCulled
			g.Call("useProgram", p.prog)
			g.Call("uniform1f", p.alpha, sc.Alpha)
			if cull {
				g.Call("uniform1i", p.cellCull, 1)
			}
			g.Call("drawArrays", glPoints, 0, n)
			r.endBalls()
			if cull {
				g.Call("uniform1i", p.cellCull, 0)
			}
		}
		if sc.Ghosts {
			q := &r.ball
			g.Call("useProgram", q.prog)
			g.Call("uniform1f", q.ring, 1.5)
			g.Call("uniform1f", q.opacity, 0.45)
			for _, a := range [2]float64{0, 1} {
				g.Call("uniform1f", q.alpha, a)
				g.Call("drawArrays", glPoints, 0, n)
			}
		}
		g.Call("bindVertexArray", nil)
	}
}

func float32Array(v []float32) js.Value {
	a := js.Global().Get("Float32Array").New(len(v))
	for i, f := range v {
		a.SetIndex(i, f)
	}
	return a
}
