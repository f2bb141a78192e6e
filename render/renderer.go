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
	"github.com/interpdemo/interpdemo/render/positions"
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
	if err := r.initBallPrograms(); err != nil {
		return nil, err
	}
	r.initBuffers()

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
