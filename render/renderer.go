// Package render draws the world with OpenGL 3.3 core. Every GL call of the
// project lives here. All balls are one draw call of point sprites; the
// interpolation between each ball's last and next position happens in the
// vertex shader, so a frame on which no logic tick ran changes one uniform
// and uploads no buffer data, whatever the number of balls.
//
// A Renderer must be created, used and deleted on the thread that owns the
// GL context (the main thread, for SDL).
package render

import (
	"fmt"
	"image"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/interpdemo/interpdemo/shaders"
)

// Config describes the logical world being drawn.
type Config struct {
	WorldW, WorldH int32 // world size in units
	Radius         int32 // ball radius in units
	FracBits       uint  // fixed-point fraction bits of the positions
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
	cfg   Config
	balls *Program

	uProj, uAlpha, uPointSize, uRadius, uRing, uOpacity, uHighlight int32

	vbo      [2]uint32
	vao      [2]uint32 // vao[i] reads last from vbo[i] and next from vbo[1-i]
	cur      int       // last = vbo[cur], next = vbo[1-cur]
	capacity int       // balls the buffers can hold
	n        int       // balls in the buffers

	synced      bool
	syncedStep  uint64
	syncedMoved uint64

	winW, winH int
	view       Rect
	scale      float64
	pointSize  float32
	maxPoint   float32

	highlight bool
	fullView  bool // the viewport is the whole window (overlays), not the world

	uploaded int64

	ov          *overlays
	overlayList []*Overlay

	fences [maxInFlight]uintptr // fences of the frames still in flight, oldest first
	nFence int
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
	if cfg.WorldW <= 0 || cfg.WorldH <= 0 || cfg.Radius <= 0 {
		return nil, fmt.Errorf("render: bad world %dx%d radius %d", cfg.WorldW, cfg.WorldH, cfg.Radius)
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
	r := &Renderer{cfg: cfg}
	var err error
	r.balls, err = NewProgram("ball", shaders.BallVert, shaders.BallFrag)
	if err != nil {
		return nil, err
	}
	for _, u := range []struct {
		loc  *int32
		name string
	}{
		{&r.uProj, "proj"}, {&r.uAlpha, "alpha"}, {&r.uPointSize, "pointSize"},
		{&r.uRadius, "radiusPx"}, {&r.uRing, "ring"}, {&r.uOpacity, "opacity"},
		{&r.uHighlight, "highlightFirst"},
	} {
		if *u.loc, err = r.balls.Uniform(u.name); err != nil {
			r.balls.Delete()
			return nil, fmt.Errorf("ball program: %w", err)
		}
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
	gl.Enable(gl.BLEND)
	gl.BlendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA) // premultiplied alpha, for every draw
	gl.Disable(gl.DEPTH_TEST)

	if r.ov, err = newOverlays(); err != nil {
		r.Delete()
		return nil, err
	}

	r.balls.Use()
	gl.Uniform1f(r.uRing, 0)
	gl.Uniform1f(r.uOpacity, 1)
	if e := gl.GetError(); e != gl.NO_ERROR {
		r.Delete()
		return nil, fmt.Errorf("render: GL error 0x%x during setup", e)
	}
	return r, nil
}

// SetHighlightFirst gives ball 0 its own colour (the player's ball).
func (r *Renderer) SetHighlightFirst(on bool) {
	if on == r.highlight {
		return
	}
	r.highlight = on
	r.balls.Use()
	v := int32(0)
	if on {
		v = 1
	}
	gl.Uniform1i(r.uHighlight, v)
}

// Resize adapts the viewport and projection to a drawable of w x h pixels.
// Call it once at start and on every window size change, not every frame.
func (r *Renderer) Resize(w, h int) {
	if w <= 0 || h <= 0 {
		return
	}
	r.winW, r.winH = w, h
	r.view, r.scale = Letterbox(w, h, r.cfg.WorldW, r.cfg.WorldH)

	// The viewport is the letterboxed world plus a margin on every side;
	// the projection maps world units onto it accordingly. GL's window
	// origin is the bottom left; Rect's is the top left.
	r.setWorldViewport()

	one := float32(int32(1) << r.cfg.FracBits)
	mx := float32(float64(marginPx)/r.scale) * one
	my := mx
	ww := float32(r.cfg.WorldW) * one
	wh := float32(r.cfg.WorldH) * one
	// y grows downwards in the world, as on screen.
	proj := mgl32.Ortho(-mx, ww+mx, wh+my, -my, -1, 1)

	rad := float64(r.cfg.Radius) * r.scale
	// The edge is anti-aliased from radius-0.5 to radius+0.5 pixels: the
	// sprite is just wide enough for it. Every pixel more is a fragment per
	// ball that a software rasterizer pays for.
	r.pointSize = float32(2*rad + 1)
	if r.maxPoint > 0 && r.pointSize > r.maxPoint {
		r.pointSize = r.maxPoint
	}
	r.balls.Use()
	gl.UniformMatrix4fv(r.uProj, 1, false, &proj[0])
	gl.Uniform1f(r.uPointSize, r.pointSize)
	gl.Uniform1f(r.uRadius, float32(rad))
}

// setWorldViewport points the viewport and scissor at the letterboxed
// world (see marginPx).
func (r *Renderer) setWorldViewport() {
	r.fullView = false
	h := r.winH
	vx := r.view.X - marginPx
	vy := h - (r.view.Y + r.view.H) - marginPx
	gl.Viewport(int32(vx), int32(vy), int32(r.view.W+2*marginPx), int32(r.view.H+2*marginPx))
	gl.Scissor(int32(r.view.X), int32(h-(r.view.Y+r.view.H)), int32(r.view.W), int32(r.view.H))
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
func (r *Renderer) Sync(last, next []int32, step, moved uint64) int {
	n := len(next) / 2
	if len(last) != len(next) {
		panic("render: last and next differ in length")
	}
	switch {
	case n > r.capacity:
		r.grow(n)
	case r.synced && n == r.n && moved == r.syncedMoved && step == r.syncedStep:
		return 0
	case r.synced && n == r.n && moved == r.syncedMoved && step == r.syncedStep+1:
		r.upload(r.vbo[r.cur], next)
		r.cur = 1 - r.cur
		r.syncedStep = step
		return r.count(len(next))
	}
	r.n = n
	r.upload(r.vbo[r.cur], last)
	r.upload(r.vbo[1-r.cur], next)
	r.synced, r.syncedStep, r.syncedMoved = true, step, moved
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
	r.capacity = c
	r.synced = false
}

func (r *Renderer) upload(vbo uint32, data []int32) {
	if len(data) == 0 {
		return
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, vbo)
	gl.BufferSubData(gl.ARRAY_BUFFER, 0, len(data)*4, unsafe.Pointer(&data[0]))
}

// Clear paints the letterbox bars and the world's background.
func (r *Renderer) Clear() {
	gl.Disable(gl.SCISSOR_TEST)
	gl.ClearColor(0.02, 0.02, 0.03, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT)
	gl.Enable(gl.SCISSOR_TEST) // stays on for the balls
	gl.ClearColor(0.08, 0.10, 0.16, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT)
}

// DrawBalls draws every ball at alpha between its last (0) and next (1)
// position: percentWithinTick to interpolate, 1 for no interpolation,
// 1+percent to extrapolate.
func (r *Renderer) DrawBalls(alpha float32) {
	if r.n == 0 {
		return
	}
	r.balls.Use()
	if r.fullView {
		r.setWorldViewport()
	}
	gl.BindVertexArray(r.vao[r.cur])
	gl.Uniform1f(r.uAlpha, alpha)
	gl.DrawArrays(gl.POINTS, 0, int32(r.n))
}

// DrawGhosts draws faint rings at every ball's last and next position, so
// the interpolation between them can be seen.
func (r *Renderer) DrawGhosts() {
	if r.n == 0 {
		return
	}
	r.balls.Use()
	if r.fullView {
		r.setWorldViewport()
	}
	gl.BindVertexArray(r.vao[r.cur])
	gl.Uniform1f(r.uRing, 1.5)
	gl.Uniform1f(r.uOpacity, 0.45)
	gl.Uniform1f(r.uAlpha, 0)
	gl.DrawArrays(gl.POINTS, 0, int32(r.n))
	gl.Uniform1f(r.uAlpha, 1)
	gl.DrawArrays(gl.POINTS, 0, int32(r.n))
	gl.Uniform1f(r.uRing, 0)
	gl.Uniform1f(r.uOpacity, 1)
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
// swap) and, if more than maxInFlight frames are queued, waits for the
// oldest one to complete.
func (r *Renderer) EndFrame() {
	if r.nFence == maxInFlight {
		f := r.fences[0]
		gl.ClientWaitSync(f, gl.SYNC_FLUSH_COMMANDS_BIT, 5e9)
		gl.DeleteSync(f)
		copy(r.fences[:], r.fences[1:])
		r.nFence--
	}
	r.fences[r.nFence] = gl.FenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)
	r.nFence++
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
	r.balls.Delete()
}

// Info names the GL implementation: renderer and version strings.
func Info() string {
	return gl.GoStr(gl.GetString(gl.RENDERER)) + ", OpenGL " + gl.GoStr(gl.GetString(gl.VERSION))
}
