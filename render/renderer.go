// Package render draws the world with OpenGL 3.3 core. Every GL call of the
// project lives here. All balls are one draw call of point sprites; the
// interpolation between each ball's last and next position happens in the
// vertex shader, so a frame on which no logic tick ran changes one uniform
// and uploads no buffer data, whatever the number of balls.
//
// Occlusion culling: with many balls, many lie entirely under later ones.
// The CPU finds which 4x4 pixel cells of the view later balls cover at
// full opacity, and the vertex shader drops every ball whose sprite lies
// only over such cells: it never reaches the rasterizer (package
// render/occlusion, cellcull.go). Whether that pays is measured on the
// running machine (Config.Cull). The picture is the painter's algorithm's
// all the same (later balls over earlier ones); Config.Painter keeps the
// reference, which draws every ball.
//
// Damage tracking: a frame is drawn by Draw, the world and the overlays
// (the HUD's text, the frame-time graph) over it. Where the drawable keeps
// its pixels from one frame to the next (Config.Retained), Draw repaints
// only what changed: where balls are or were, but not beneath an opaque
// overlay, and the parts of an overlay that its uploads changed. Overlays
// that change a few times a second, a few columns at a time, then cost
// next to nothing.
//
// A Renderer must be created, used and deleted on the thread that owns the
// GL context (the main thread, for SDL).
package render

import (
	"errors"
	"fmt"
	"image"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/interpdemo/interpdemo/render/adaptive"
	"github.com/interpdemo/interpdemo/render/occlusion"
	"github.com/interpdemo/interpdemo/render/positions"
	"github.com/interpdemo/interpdemo/shaders"
)

// ErrInvalid is wrapped by the errors New returns for a bad Config.
var ErrInvalid = errors.New("render: invalid argument")

// Config describes the logical world being drawn and how to draw it.
type Config struct {
	WorldW, WorldH int32 // world size in units
	Radius         int32 // ball radius in units
	FracBits       uint  // fixed-point fraction bits of the positions

	// Painter draws every ball, every fragment of every sprite shaded
	// and blended in order (the painter's algorithm), with no culling:
	// the reference the fast path is measured and compared against.
	Painter bool
	// Cull says how the occlusion culling is chosen: adaptive.Auto (the
	// zero value) uses it while it measures cheaper on this machine than
	// either form of the balls drawn whole, adaptive.On and adaptive.Off
	// force it (see choice.go and cellcull.go).
	Cull adaptive.Mode
	// Sprites says how the balls' form is chosen where they are not
	// culled: adaptive.Auto (the zero value) draws each ball as a square
	// of two triangles or as a point sprite, whichever measures cheaper
	// on this machine (culled points being the third option of the same
	// choice); adaptive.On forces points, adaptive.Off squares (see
	// choice.go and quads.go).
	Sprites adaptive.Mode
	// Retained says the drawable keeps its pixels from one frame to the
	// next: an EGL pbuffer (SDL's offscreen driver) is a single buffer
	// that a swap leaves alone. Draw then repaints only the parts of the
	// window that changed. A window's back buffer is undefined after a
	// swap, so there every frame is painted whole.
	Retained bool
	// PaintedOnly says only what each Draw repainted is shown (Painted):
	// a window that presents parts of its back buffer and keeps what it
	// showed (the X server keeps a window's pixels). Draw may then change
	// the rest of the drawable: a frame that repaints the whole world
	// clears the whole drawable first, which a software rasterizer does
	// at memory speed, where clearing the world's part alone is drawn
	// like any rectangle (see frame.go). The drawable as a whole then
	// holds no frame: ReadPixels is the frame only where Painted says.
	// It matters only with Retained.
	PaintedOnly bool
	// LayersOnly makes a renderer of the layers alone, with no ball
	// (Sync takes none) and none of the balls' programs: for a window
	// whose world has a window of its own (the platform's SplitWorld),
	// the layers around it.
	LayersOnly bool
}

// bytesPerBall is the size of one position: two int32.
const bytesPerBall = 8

// marginPx is how far beyond the world's edges, in pixels, the viewport
// reaches. GL drops a point sprite whose centre leaves the viewport, so a
// ball drawn slightly past a wall (extrapolation overshoots there) would
// blink out; with the margin it is drawn and the scissor trims it.
const marginPx = 64

// Renderer draws balls. Positions live in two GPU buffers; which one holds
// "last" and which "next" swaps on every tick, so a single tick uploads only
// the new next positions.
type Renderer struct {
	cfg Config

	// choice chooses how the balls are drawn (choice.go), timers
	// measure the frames its comparisons ask for.
	choice *adaptive.Choice
	timers timers

	ball ballProgram // ball.vert + ball.frag: the reference disc, and the ghost rings
	disc ballProgram // ball.vert + disc.frag: the disc, lean
	// The reference and the disc for frames painted whole, compiled
	// without their clip rectangle's test (see drawBalls).
	ballWhole, discWhole ballProgram
	// The disc drawn as squares (quads.go), for parts and whole frames.
	discQuads, discWholeQuads ballProgram

	vbo      [2]uint32
	vao      [2]uint32 // vao[i] reads last from vbo[i] and next from vbo[1-i]
	capacity int       // balls the buffers can hold

	pos positions.Buffers // what the buffers hold, and which is which

	winW, winH int
	area       Rect // the part of the window the world is fitted into
	view       Rect
	scale      float64
	pointSize  float32
	maxPoint   float32

	highlight int32    // the ball in the player's colour, -1: none
	vp        viewport // what the viewport is set to

	uploaded int64

	progs   []*ballProgram // the ball programs made (programs)
	progErr error          // a ball program that failed to compile on first use (ready)
	proj    mgl32.Mat4     // the ball programs' projection, kept for those made later

	ov          *overlays
	overlayList []*Overlay

	fences     [maxInFlight]uintptr // fences of the frames still in flight, oldest first
	nFence     int
	fenceEvery int // frames per fence (see EndFrame)
	sinceFence int
	keptUp     int          // fence points in a row that found the oldest fence done
	fencedAt   int64        // when the last fence point ended (clock)
	fenceCost  int64        // what a fence point costs, waiting aside (ns)
	clock      func() int64 // wallNow; a test's clock in tests

	cells cellCuller // occlusion culling of hidden balls
	quads quadDrawer // the balls drawn as squares, and the choice of form
	draws int        // draws and partial clears into the window by the last Draw
	ret   retained   // what the drawable holds, for repainting only what changed
	occ   occupancy  // where the balls can be during the current tick
	spr   sprites    // where a few balls are drawn, frame by frame
	debug debugLog
}

// maxInFlight is how many frames the CPU may run ahead of the GPU. Drivers
// that do not throttle at swap (SDL's offscreen EGL pbuffer with llvmpipe
// queues without limit) would otherwise let the loop race seconds ahead of
// what is on screen, and measure nothing real.
const maxInFlight = 2

// New creates a renderer in the current GL context. It fails with the
// driver's message if the context lacks OpenGL 3.3 or a shader does not
// compile.
func New(cfg Config) (*Renderer, error) {
	if cfg.WorldW <= 0 || cfg.WorldH <= 0 || cfg.Radius <= 0 || cfg.FracBits > 16 {
		return nil, fmt.Errorf("%w: world %dx%d, radius %d, %d fraction bits", ErrInvalid, cfg.WorldW, cfg.WorldH, cfg.Radius, cfg.FracBits)
	}
	if err := gl.Init(); err != nil {
		return nil, fmt.Errorf("render: loading OpenGL: %w", err)
	}
	var major, minor int32
	gl.GetIntegerv(gl.MAJOR_VERSION, &major)
	gl.GetIntegerv(gl.MINOR_VERSION, &minor)
	if major < 3 || (major == 3 && minor < 3) {
		return nil, fmt.Errorf("render: OpenGL 3.3 needed, context is %d.%d", major, minor)
	}
	r := &Renderer{cfg: cfg, fenceEvery: 1, highlight: -1, clock: wallNow} // the uniforms start at 0: none
	r.choice = newChoice()
	r.debug.init(major, minor)
	if cfg.LayersOnly {
		return r.initLayers()
	}
	r.progs = make([]*ballProgram, 0, 6)
	ballWhole, err := shaders.WithDefine(shaders.BallFrag, "WHOLE_FRAME")
	if err != nil {
		return nil, err
	}
	discWhole, err := shaders.WithDefine(shaders.DiscFrag, "WHOLE_FRAME")
	if err != nil {
		return nil, err
	}
	discQuads, err := shaders.WithDefine(shaders.DiscFrag, "QUADS")
	if err != nil {
		return nil, err
	}
	discWholeQuads, err := shaders.WithDefine(discWhole, "QUADS")
	if err != nil {
		return nil, err
	}
	r.ball.src = ballSource{"ball", shaders.BallFrag, true, true, true, false}
	r.disc.src = ballSource{"disc", shaders.DiscFrag, true, false, true, false}
	r.ballWhole.src = ballSource{"ball (whole frame)", ballWhole, true, true, false, false}
	r.discWhole.src = ballSource{"disc (whole frame)", discWhole, true, false, false, false}
	r.discQuads.src = ballSource{"disc (squares)", discQuads, true, false, true, true}
	r.discWholeQuads.src = ballSource{"disc (squares, whole frame)", discWholeQuads, true, false, false, true}
	// The program of a frame painted whole, as the first is, is made
	// now, and a driver that cannot compile it fails New; the others
	// when first drawn with (ready). Each program but the first that
	// Mesa compiles and links in a process costs about 1.2 ms on
	// llvmpipe (docs/DESIGN.md, "Where start-up goes"): the demo's first
	// frame draws with one of the six: the squares' unless culling or
	// points are forced (the choices start without culling, and with
	// squares: quads.go).
	first := &r.discWholeQuads
	switch {
	case cfg.Painter:
		first = &r.ballWhole
	case cfg.Cull == adaptive.On || cfg.Sprites == adaptive.On:
		first = &r.discWhole
	}
	if err = r.compile(first); err != nil {
		r.Delete()
		return nil, err
	}

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

	var rng [2]float32
	gl.GetFloatv(gl.POINT_SIZE_RANGE, &rng[0])
	r.maxPoint = rng[1]

	gl.Enable(gl.PROGRAM_POINT_SIZE)
	gl.Disable(gl.DEPTH_TEST)
	r.initCells()
	r.initQuads()
	r.timers.init()
	return r.initLayers()
}

// initLayers makes what drawing the layers needs, and ends New.
func (r *Renderer) initLayers() (*Renderer, error) {
	gl.Enable(gl.BLEND)
	gl.BlendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA) // premultiplied alpha, for every blended draw
	var err error
	if r.ov, err = newOverlays(); err != nil {
		r.Delete()
		return nil, err
	}
	if e := gl.GetError(); e != gl.NO_ERROR {
		r.Delete()
		return nil, fmt.Errorf("render: GL error 0x%x during setup", e)
	}
	if err := r.DebugErr(); err != nil {
		r.Delete()
		return nil, err
	}
	return r, nil
}

// SetHighlightFirst gives ball 0 its own colour (the player's ball).
func (r *Renderer) SetHighlightFirst(on bool) {
	if on {
		r.SetHighlight(0)
	} else {
		r.SetHighlight(-1)
	}
}

// SetHighlight gives ball i the player's colour (in a network game, the
// ball this player moves); -1 for none.
func (r *Renderer) SetHighlight(i int) {
	if int32(max(i, -1)) != r.highlight {
		r.setHighlight(max(i, -1))
	}
}

func (r *Renderer) setHighlight(i int) {
	r.highlight = int32(i)
	for _, p := range r.programs() {
		r.highlightTo(p)
	}
	r.ret.valid = false // the ball changes colour wherever it is
}

// highlightTo gives ball program p the highlight's uniforms.
func (r *Renderer) highlightTo(p *ballProgram) {
	p.prog.Use()
	on := int32(0)
	if r.highlight >= 0 {
		on = 1
		gl.Uniform1i(p.highlightBall, r.highlight)
	}
	gl.Uniform1i(p.highlight, on)
}

// compile makes ball program p and gives it what the programs share:
// the highlight and the view (setHighlight, resizeArea).
func (r *Renderer) compile(p *ballProgram) error {
	if err := p.init(); err != nil {
		return err
	}
	r.progs = append(r.progs, p)
	r.highlightTo(p)
	if r.winW > 0 {
		r.viewTo(p) // else the first Resize gives it
	}
	return nil
}

// ready makes ball program p on its first use, and reports whether it
// can draw: where it cannot be made, nothing is drawn with it, and
// DebugErr returns why.
func (r *Renderer) ready(p *ballProgram) bool {
	if p.prog != nil {
		return true
	}
	if r.progErr == nil {
		r.progErr = r.compile(p)
	}
	return r.progErr == nil
}

// Resize adapts the viewport and projection to a drawable of w x h pixels,
// the world filling it. Call it once at start and on every window size
// change, not every frame.
func (r *Renderer) Resize(w, h int) { r.ResizeArea(w, h, Rect{0, 0, w, h}) }

// ResizeArea is Resize with the world letterboxed into area, a part of
// the window (pixels, origin top left): the rest of the window is the
// bars' colour, for overlays beside the world rather than over it. It
// does nothing when neither the size nor the area changed.
func (r *Renderer) ResizeArea(w, h int, area Rect) {
	if w == r.winW && h == r.winH && area == r.area {
		return // every frame, as a rule: inlined
	}
	r.resizeArea(w, h, area)
}

func (r *Renderer) resizeArea(w, h int, area Rect) {
	area = area.Intersect(Rect{0, 0, w, h})
	if w <= 0 || h <= 0 || area.Empty() || (w == r.winW && h == r.winH && area == r.area) {
		return
	}
	r.winW, r.winH, r.area = w, h, area
	r.view, r.scale = Letterbox(area.W, area.H, r.cfg.WorldW, r.cfg.WorldH)
	r.view.X += area.X
	r.view.Y += area.Y
	r.ret.valid = false

	// The viewport is the letterboxed world plus a margin on every side;
	// the projection maps world units onto it accordingly. GL's window
	// origin is the bottom left; Rect's is the top left.
	r.vp = vpOther
	r.setWorldViewport()

	one := float32(int32(1) << r.cfg.FracBits)
	mx := float32(float64(marginPx)/r.scale) * one
	my := mx
	ww := float32(r.cfg.WorldW) * one
	wh := float32(r.cfg.WorldH) * one
	// y grows downwards in the world, as on screen.
	r.proj = mgl32.Ortho(-mx, ww+mx, wh+my, -my, -1, 1)

	rad := float64(r.cfg.Radius) * r.scale
	// The edge is anti-aliased from radius-0.5 to radius+0.5 pixels: the
	// sprite is just wide enough for it. Every pixel more is a fragment per
	// ball that a software rasterizer pays for.
	r.pointSize = float32(2*rad + 1)
	if r.maxPoint > 0 && r.pointSize > r.maxPoint {
		r.pointSize = r.maxPoint
	}
	r.resizeCells()
	for _, p := range r.programs() {
		r.viewTo(p)
	}
}

// viewTo gives ball program p the view's uniforms.
func (r *Renderer) viewTo(p *ballProgram) {
	p.prog.Use()
	gl.UniformMatrix4fv(p.proj, 1, false, &r.proj[0])
	gl.Uniform1f(p.pointSize, r.pointSize)
	if p.radius >= 0 {
		gl.Uniform1f(p.radius, float32(float64(r.cfg.Radius)*r.scale))
	}
	vx := r.view.X - marginPx
	vy := r.winH - (r.view.Y + r.view.H) - marginPx
	gl.Uniform4f(p.viewport, float32(vx), float32(vy), float32(r.view.W+2*marginPx), float32(r.view.H+2*marginPx))
	gl.Uniform2f(p.cellOrigin, float32(r.view.X), float32(r.winH-r.view.Y))
	gl.Uniform1f(p.cellReach, float32(r.cells.Reach()))
	gl.Uniform1i(p.cellWin, int32(r.cells.Win()))
}

// viewport is what the GL viewport is set to, so that it is set only
// when it changes.
type viewport int

const (
	vpOther viewport = iota // not known (set by someone else)
	vpWorld                 // the letterboxed world and its margin (balls)
	vpFull                  // the whole window (overlays)
)

// setWorldViewport points the viewport at the letterboxed world (see
// marginPx).
func (r *Renderer) setWorldViewport() {
	if r.vp == vpWorld {
		return
	}
	r.vp = vpWorld
	vx := r.view.X - marginPx
	vy := r.winH - (r.view.Y + r.view.H) - marginPx
	gl.Viewport(int32(vx), int32(vy), int32(r.view.W+2*marginPx), int32(r.view.H+2*marginPx))
}

// setFullViewport points the viewport at the whole window (overlays).
func (r *Renderer) setFullViewport() {
	if r.vp == vpFull {
		return
	}
	r.vp = vpFull
	gl.Viewport(0, 0, int32(r.winW), int32(r.winH))
}

// scissor limits drawing to rect (window pixels, origin top left).
func (r *Renderer) scissor(rect Rect) {
	gl.Scissor(int32(rect.X), int32(r.winH-(rect.Y+rect.H)), int32(rect.W), int32(rect.H))
}

// WindowSize is the drawable size given to the last Resize.
func (r *Renderer) WindowSize() (w, h int) { return r.winW, r.winH }

// View returns the window rectangle the world is drawn into and the scale
// in pixels per world unit.
func (r *Renderer) View() (Rect, float64) { return r.view, r.scale }

// WorldToPixel maps a world position in units to window pixel coordinates
// (origin top left, pixel centres at .5).
func (r *Renderer) WorldToPixel(x, y float64) (float64, float64) {
	return float64(r.view.X) + x*r.scale, float64(r.view.Y) + y*r.scale
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

// Background colours: the letterbox bars and the world. Whole levels of
// an 8-bit channel, so that a clear of the whole window and a clear of
// part of it (which a rasterizer may draw as a rectangle, rounding its own
// way) give the same pixels.
var (
	barColor   = [4]float32{5.0 / 255, 5.0 / 255, 8.0 / 255, 1}
	worldColor = [4]float32{20.0 / 255, 26.0 / 255, 41.0 / 255, 1}
)

// Clear paints the letterbox bars and the world's background.
func (r *Renderer) Clear() { r.clear() }

// clear is Clear; it returns how many clears it made. The whole window
// is cleared in the colour of its larger part, the world or the bars
// (one clear, which a rasterizer does fastest), and the smaller part
// over it (the bars, at most four rectangles, or the world): a pixel of
// the larger part is cleared once, and where the world fills the window
// there is nothing more. Clearing the whole window in the bars' colour
// and the world over it, as before, cleared the world's pixels twice: on
// an NVIDIA H200 (headless, 2026-11-27), where filling pixels costs, a
// frame painted whole at one ball took 52 µs at 640x480 and 709 µs at
// 2560x1920, in proportion to the pixels cleared.
func (r *Renderer) clear() int {
	r.drawnOutside()
	window := [1]Rect{{0, 0, r.winW, r.winH}}
	view := r.view.Intersect(window[0])
	var n int
	if window[0].area()-view.area() > view.area() {
		gl.Disable(gl.SCISSOR_TEST)
		gl.ClearColor(barColor[0], barColor[1], barColor[2], barColor[3])
		gl.Clear(gl.COLOR_BUFFER_BIT)
		gl.Enable(gl.SCISSOR_TEST)
		r.scissor(r.view)
		gl.ClearColor(worldColor[0], worldColor[1], worldColor[2], worldColor[3])
		gl.Clear(gl.COLOR_BUFFER_BIT)
		n = 2
	} else {
		n = r.clearWorldThenBars(window[:], nil)
	}
	r.scissor(r.view) // stays on for the balls
	return n
}

// DrawBalls draws every ball at alpha between its last (0) and next (1)
// position: percentWithinTick to interpolate, 1 for no interpolation,
// 1+percent to extrapolate. Call Clear first.
func (r *Renderer) DrawBalls(alpha float32) {
	r.drawnOutside()
	view := [1]Rect{r.view}
	r.drawBalls(alpha, view[:], true)
}

// DrawGhosts draws faint rings at every ball's last and next position, so
// the interpolation between them can be seen.
func (r *Renderer) DrawGhosts() {
	r.drawnOutside()
	view := [1]Rect{r.view}
	r.drawGhosts(view[:])
}

// ReadPixels returns the whole drawable as an image (origin top left). Call
// it after drawing and before swapping buffers.
func (r *Renderer) ReadPixels() *image.RGBA {
	w, h := r.winW, r.winH
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if w == 0 || h == 0 {
		return img
	}
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.ReadPixels(0, 0, int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&img.Pix[0]))
	// GL's rows go bottom-up.
	row := make([]byte, img.Stride)
	for y := 0; y < h/2; y++ {
		a := img.Pix[y*img.Stride : (y+1)*img.Stride]
		b := img.Pix[(h-1-y)*img.Stride : (h-y)*img.Stride]
		copy(row, a)
		copy(a, b)
		copy(b, row)
	}
	return img
}

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
// this rule (medians of alternating 3 s runs, 2026-11-27; DESIGN.md).
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
		// points, a fifth dearer (DESIGN.md). (Before that, a measured
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

// Err reports a pending GL error, if any.
func (r *Renderer) Err() error {
	if e := gl.GetError(); e != gl.NO_ERROR {
		return fmt.Errorf("GL error 0x%x", e)
	}
	return nil
}

// Delete frees every GL object. Call it on the context's thread before the
// context is destroyed.
func (r *Renderer) Delete() {
	if r == nil {
		return
	}
	for _, o := range r.overlayList {
		o.delete()
	}
	r.overlayList = nil
	r.ov.delete()
	r.ov = nil
	for i := 0; i < r.nFence; i++ {
		gl.DeleteSync(r.fences[i])
	}
	r.nFence = 0

	if r.vao[0] != 0 {
		gl.DeleteVertexArrays(2, &r.vao[0])
		r.vao = [2]uint32{}
	}
	if r.vbo[0] != 0 {
		gl.DeleteBuffers(2, &r.vbo[0])
		r.vbo = [2]uint32{}
	}
	r.cells.delete()
	r.quads.delete()
	r.timers.delete()
	for _, p := range r.programs() {
		p.prog.Delete()
	}
}

// Info names the GL implementation: renderer and version strings.
func Info() string {
	return gl.GoStr(gl.GetString(gl.RENDERER)) + ", OpenGL " + gl.GoStr(gl.GetString(gl.VERSION))
}

// ballProgram is a program made of ball.vert and a fragment shader, with
// its uniforms' locations (-1 for those its fragment shader lacks).
type ballProgram struct {
	src                                              ballSource
	prog                                             *Program // nil until made (Renderer.ready)
	proj, alpha, pointSize, highlight, highlightBall int32
	cellCull, cells, viewport, cellOrigin            int32
	cellReach, cellWin, cellSize                     int32
	radius, ring, opacity, clip                      int32
}

// ballSource is what a ball program is made of: ball.vert and frag, with
// the uniforms disc, ring and clip (see init); with quads, both compiled
// for squares (QUADS, quads.go), frag already so.
type ballSource struct {
	name, frag              string
	disc, ring, clip, quads bool
}

// init makes the program of p.src; p.prog stays nil where it cannot.
func (p *ballProgram) init() error {
	src := p.src
	vert, err := shaders.WithDefine(shaders.BallVert, "CELL_CULL")
	if err != nil {
		return err
	}
	if src.quads {
		if vert, err = shaders.WithDefine(vert, "QUADS"); err != nil {
			return err
		}
	}
	prog, err := NewProgram(src.name, vert, src.frag)
	if err != nil {
		return err
	}
	p.radius, p.ring, p.opacity, p.clip = -1, -1, -1, -1
	for _, u := range []struct {
		loc  *int32
		name string
		want bool
	}{
		{&p.proj, "proj", true}, {&p.alpha, "alpha", true}, {&p.pointSize, "pointSize", true},
		{&p.highlight, "highlightFirst", true}, {&p.highlightBall, "highlightBall", true},
		{&p.cellCull, "cellCull", true}, {&p.cells, "cells", true}, {&p.viewport, "viewport", true}, {&p.cellOrigin, "cellOrigin", true},
		{&p.cellReach, "cellReach", true}, {&p.cellWin, "cellWin", true}, {&p.cellSize, "cellSize", true},
		{&p.radius, "radiusPx", src.disc}, {&p.ring, "ring", src.ring}, {&p.opacity, "opacity", src.ring}, {&p.clip, "clip", src.clip},
	} {
		if !u.want {
			continue
		}
		if *u.loc, err = prog.Uniform(u.name); err != nil {
			prog.Delete()
			return fmt.Errorf("%s program: %w", src.name, err)
		}
	}
	p.prog = prog
	prog.Use()
	gl.Uniform1i(p.cellCull, 0)
	gl.Uniform1i(p.cells, 2) // texture unit 2: the culler's windows
	gl.Uniform1i(p.cellSize, occlusion.CellSize)
	if src.ring {
		gl.Uniform1f(p.ring, 0)
		gl.Uniform1f(p.opacity, 1)
	}
	if src.clip {
		gl.Uniform4f(p.clip, -1e9, -1e9, 1e9, 1e9)
	}
	if src.quads {
		for _, u := range []struct {
			name string
			unit int32
		}{{"lastTex", 3}, {"nextTex", 4}} { // bindQuadPositions' units
			loc, err := prog.Uniform(u.name)
			if err != nil {
				p.prog = nil
				prog.Delete()
				return fmt.Errorf("%s program: %w", src.name, err)
			}
			gl.Uniform1i(loc, u.unit)
		}
	}
	return nil
}

// programs lists the ball programs, for setting what they share: none
// with LayersOnly.
func (r *Renderer) programs() []*ballProgram { return r.progs }
