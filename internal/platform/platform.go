// Package platform is the thin layer over SDL: the window, the OpenGL
// context, vsync, and the clock that the loop and SDL's event timestamps
// share. Everything here must run on the main thread.
package platform

import (
	"errors"
	"fmt"
	"image"
	"os"
	"time"

	"github.com/veandco/go-sdl2/sdl"
)

// Options configure Open.
type Options struct {
	Title         string
	Width, Height int
	// Offset moves the window this many pixels right and down from the
	// centre of the screen (a second window of the same program, seen
	// apart from the first).
	Offset int
	// Headless renders through SDL's offscreen driver (EGL): no window is
	// shown and no X server or compositor is needed.
	Headless bool
	// Debug asks for a debug context (SDL_GL_CONTEXT_DEBUG_FLAG), in which
	// the driver logs what it finds wrong (KHR_debug). The environment
	// variable INTERPDEMO_GL_DEBUG=1 asks for one too: the test harness
	// sets it, so every end-to-end run checks its GL calls.
	Debug bool
	// SerialRaster asks Mesa's software rasterizer (llvmpipe) to
	// rasterize on the thread that draws (LP_NUM_THREADS=0) instead of
	// on threads of its own, unless the user set LP_NUM_THREADS. Other
	// drivers ignore it. Mesa 22.3's llvmpipe (Debian 12's) races when it
	// reuses a scene its rasterizer threads have just finished: the
	// drawing thread frees the scene's memory while the last thread is
	// still ending it, and a later draw crashes (SIGSEGV in the first
	// glClear or glDrawArrays of a frame). Each frame risks it once, so
	// tiny frames at tens of thousands a second crash within minutes;
	// with the rasterizing done by the drawing thread there is no race.
	SerialRaster bool
	// SwapOnly presents by swaps alone, even where the window's GLX
	// could present parts of its back buffer (GLX_MESA_copy_sub_buffer):
	// the path of a GLX without it (NVIDIA's), for measuring and testing
	// it on Mesa's.
	SwapOnly bool
	// Preload has Open note which libraries making the window and its
	// context loaded (the GL driver's), in the user's cache directory,
	// for the next start to load them early, beside its own start-up
	// (preload.go). Programs whose start-up counts set it; tests do not.
	Preload bool
}

// serialRaster sets LP_NUM_THREADS=0 if on and the user has not set it.
func serialRaster(on bool) {
	if _, set := os.LookupEnv("LP_NUM_THREADS"); on && !set {
		os.Setenv("LP_NUM_THREADS", "0")
	}
}

// DebugEnv is the environment variable that asks for a debug context.
const DebugEnv = "INTERPDEMO_GL_DEBUG"

// ErrNoDisplay is returned by Open when there is no display to open a
// window on.
var ErrNoDisplay = errors.New("no display: DISPLAY and WAYLAND_DISPLAY are not set or cannot be reached; use -headless to render offscreen")

// Window is an SDL window with a current OpenGL 3.3 core context.
type Window struct {
	win      *sdl.Window
	ctx      sdl.GLContext
	driver   string
	headless bool
	glx      *glxWindow   // the window's GLX, or nil (not X11)
	world    *worldWindow // the world's own window (SplitWorld), or nil
	interval int          // the swap interval in force (SetVsync)
	drawH    int          // the drawable's height when DrawableSize last read it
}

// Open initialises SDL's video subsystem and opens a window with an OpenGL
// 3.3 core context, current on the calling thread.
func Open(o Options) (*Window, error) {
	// Before the environment changes: the start's preloading opens
	// libraries whose constructors read it (Mesa's and LLVM's: 153 calls
	// of getenv on its thread, headless here), and C's setenv, under Go's
	// os.Setenv, may free the array a getenv is reading. A fault there,
	// on a thread with every signal blocked, kills the process with
	// nothing said, as three demos died in the tests' runs under load
	// (TestOpenWaitsForThePreloading).
	waitPreload(preloadDeadline)
	serialRaster(o.SerialRaster) // before the driver is loaded, below
	keepHeapTop()                // before the driver's first buffers
	if o.Headless {
		os.Setenv("SDL_VIDEODRIVER", "offscreen")
	} else if os.Getenv("SDL_VIDEODRIVER") == "" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return nil, ErrNoDisplay
	}
	if err := sdl.Init(sdl.INIT_VIDEO | sdl.INIT_EVENTS); err != nil {
		return nil, fmt.Errorf("SDL init: %w", err)
	}
	driver, _ := sdl.GetCurrentVideoDriver()
	if !o.Headless && os.Getenv("SDL_VIDEODRIVER") == "" && (driver == "offscreen" || driver == "dummy") {
		// SDL fell back to a driver without a screen: the display named by
		// DISPLAY/WAYLAND_DISPLAY could not be opened.
		sdl.Quit()
		return nil, ErrNoDisplay
	}
	if err := setGLAttributes(o.Debug || os.Getenv(DebugEnv) == "1"); err != nil {
		sdl.Quit()
		return nil, err
	}
	win, err := createWindow(o)
	if err != nil {
		sdl.Quit()
		return nil, err
	}
	ctx, err := win.GLCreateContext()
	if err != nil {
		win.Destroy()
		sdl.Quit()
		return nil, fmt.Errorf("creating OpenGL 3.3 core context: %w", err)
	}
	if err := win.GLMakeCurrent(ctx); err != nil {
		sdl.GLDeleteContext(ctx)
		win.Destroy()
		sdl.Quit()
		return nil, fmt.Errorf("making the GL context current: %w", err)
	}
	w := &Window{win: win, ctx: ctx, driver: driver, headless: o.Headless}
	w.DrawableSize()
	if !o.Headless {
		w.glx = newGLXWindow(driver, o.SwapOnly)
	}
	if o.Preload {
		_ = learnPreload() // a cache not written costs the next start only its head start
	}
	return w, nil
}

// setGLAttributes asks SDL for the context Open makes: OpenGL 3.3 core,
// forward compatible (with debug, a debug context), double-buffered,
// with no depth or stencil buffer.
func setGLAttributes(debug bool) error {
	ctxFlags := sdl.GL_CONTEXT_FORWARD_COMPATIBLE_FLAG
	if debug {
		ctxFlags |= sdl.GL_CONTEXT_DEBUG_FLAG
	}
	attrs := []struct {
		attr sdl.GLattr
		v    int
	}{
		{sdl.GL_CONTEXT_MAJOR_VERSION, 3},
		{sdl.GL_CONTEXT_MINOR_VERSION, 3},
		{sdl.GL_CONTEXT_PROFILE_MASK, sdl.GL_CONTEXT_PROFILE_CORE},
		{sdl.GL_CONTEXT_FLAGS, ctxFlags},
		{sdl.GL_DOUBLEBUFFER, 1},
		{sdl.GL_DEPTH_SIZE, 0},
		{sdl.GL_STENCIL_SIZE, 0},
	}
	for _, a := range attrs {
		if err := sdl.GLSetAttribute(a.attr, a.v); err != nil {
			return fmt.Errorf("SDL GL attribute: %w", err)
		}
	}
	return nil
}

// createWindow creates Open's window: o's size, centred on the first
// display (moved by o.Offset where not 0), hidden when headless.
func createWindow(o Options) (*sdl.Window, error) {
	flags := uint32(sdl.WINDOW_OPENGL | sdl.WINDOW_RESIZABLE | sdl.WINDOW_ALLOW_HIGHDPI)
	if o.Headless {
		flags |= sdl.WINDOW_HIDDEN
	}
	x, y := int32(sdl.WINDOWPOS_CENTERED), int32(sdl.WINDOWPOS_CENTERED)
	if b, err := sdl.GetDisplayBounds(0); err == nil && o.Offset != 0 {
		x = b.X + max(0, (b.W-int32(o.Width))/2) + int32(o.Offset)
		y = b.Y + max(0, (b.H-int32(o.Height))/2) + int32(o.Offset)
	}
	win, err := sdl.CreateWindow(o.Title, x, y, int32(o.Width), int32(o.Height), flags)
	if err != nil {
		return nil, fmt.Errorf("creating window: %w", err)
	}
	return win, nil
}

// Preserved reports whether the drawable keeps its pixels from one frame
// to the next. Headless, SDL's offscreen driver draws into an EGL pbuffer,
// a single buffer that a swap leaves as it is (the EGL specification: a
// swap has no effect on a pbuffer). A window's back buffer is undefined
// after a swap.
func (w *Window) Preserved() bool { return w.headless && w.driver == "offscreen" }

// CanPresentParts reports whether the window can show parts of its back
// buffer without a swap (PresentParts): X11 with GLX_MESA_copy_sub_buffer
// (Mesa's GLX, Xvfb's included). A window presented only that way keeps
// its back buffer's pixels from one frame to the next, as a pbuffer does.
// It does not wait for the display's vblank: with vsync on, swap.
func (w *Window) CanPresentParts() bool { return w.glx != nil && w.glx.copy != nil }

// PresentParts shows the rectangles rects (window pixels, origin at the
// top left, in the drawable's size as DrawableSize last read it) of the
// back buffer, and leaves the back buffer as it is. Call it only where
// CanPresentParts.
func (w *Window) PresentParts(rects []image.Rectangle) {
	h := w.drawH
	for _, r := range rects {
		if !r.Empty() {
			w.glx.present(r.Min.X, h-r.Max.Y, r.Dx(), r.Dy())
		}
	}
}

// XWindow is the window's X11 id where it has GLX (its GLX drawable),
// for tests that read what the X server shows; 0 otherwise.
func (w *Window) XWindow() uint64 {
	if w.glx == nil {
		return 0
	}
	return uint64(w.glx.drawable)
}

// Driver is SDL's video driver ("x11", "wayland", "offscreen", ...).
func (w *Window) Driver() string { return w.driver }

// ID is SDL's window id.
func (w *Window) ID() uint32 {
	id, _ := w.win.GetID()
	return id
}

// DrawableSize is the size of the GL drawable in pixels. Read it when the
// window's size changes, not every frame: SDL's binding allocates.
func (w *Window) DrawableSize() (int, int) {
	dw, dh := w.win.GLGetDrawableSize()
	w.drawH = int(dh)
	return int(dw), int(dh)
}

// SetTitle sets the window title.
func (w *Window) SetTitle(s string) { w.win.SetTitle(s) }

// Swap presents the back buffer.
func (w *Window) Swap() { w.win.GLSwap() }

// SetVsync asks for a swap interval (SDL's numbers: 0 off, 1 every
// vblank, -1 adaptive) and reports the state actually in force: "on",
// "off", "adaptive", "unsupported" when the driver refuses to set any
// interval (Xvfb with llvmpipe answers "That operation is not
// supported"), or "offscreen" headless, where SDL accepts an interval but
// there is no display to wait for (a swap never blocks). Adaptive vsync
// falls back to plain vsync when refused, as SDL's documentation
// recommends. The refusal is returned as err so the caller can report
// it; the program keeps running either way.
func (w *Window) SetVsync(interval int) (actual string, err error) {
	setErr := sdl.GLSetSwapInterval(interval)
	if setErr != nil && interval < 0 {
		if sdl.GLSetSwapInterval(1) == nil {
			setErr = nil
		}
	}
	if setErr != nil {
		return "unsupported", fmt.Errorf("cannot set the swap interval: %v", setErr)
	}
	got, gerr := sdl.GLGetSwapInterval()
	if gerr != nil {
		return "unsupported", fmt.Errorf("cannot read the swap interval: %v", gerr)
	}
	if w.headless {
		return "offscreen", nil
	}
	w.interval = got
	if w.world != nil {
		w.glx.setInterval(w.world.win, got)
	}
	switch {
	case got > 0:
		return "on", nil
	case got < 0:
		return "adaptive", nil
	}
	return "off", nil
}

// RefreshInterval is the refresh interval of the display the window is
// on, from SDL's current display mode (its desktop mode if that fails),
// for a frame pacer's hint; 0 when SDL does not know the rate (the
// offscreen driver). SDL gives the rate in whole hertz: 59.94 Hz comes as
// 59 or 60, which the pacer corrects from the frames.
func (w *Window) RefreshInterval() time.Duration {
	i, err := w.win.GetDisplayIndex()
	if err != nil {
		return 0
	}
	m, err := sdl.GetCurrentDisplayMode(i)
	if err != nil || m.RefreshRate <= 0 {
		if m, err = sdl.GetDesktopDisplayMode(i); err != nil || m.RefreshRate <= 0 {
			return 0
		}
	}
	return time.Second / time.Duration(m.RefreshRate)
}

// Close deletes the GL context, destroys the window and shuts SDL down.
// Delete every GL object before calling it.
func (w *Window) Close() {
	if w == nil {
		return
	}
	w.closeWorld()
	if w.ctx != nil {
		sdl.GLDeleteContext(w.ctx)
		w.ctx = nil
	}
	if w.win != nil {
		w.win.Destroy()
		w.win = nil
	}
	sdl.Quit()
}

// Clock reads SDL's performance counter, the clock SDL's event timestamps
// come from (CLOCK_MONOTONIC_RAW on Linux). Using it as the loop's clock
// means input events and frames are measured on the same clock: no drift
// between them, whatever NTP does to CLOCK_MONOTONIC. It satisfies
// loop.Sleeper.
type Clock struct {
	origin uint64
	freq   uint64
}

// NewClock starts a clock at zero. SDL must be initialised.
func NewClock() *Clock {
	return &Clock{origin: sdl.GetPerformanceCounter(), freq: sdl.GetPerformanceFrequency()}
}

// Now is the time since the clock started.
func (c *Clock) Now() time.Duration {
	d := sdl.GetPerformanceCounter() - c.origin
	if c.freq == 1e9 {
		return time.Duration(d)
	}
	sec := d / c.freq
	return time.Duration(sec)*time.Second + time.Duration((d%c.freq)*1e9/c.freq)
}

// Sleep pauses the calling goroutine for at least d.
func (c *Clock) Sleep(d time.Duration) { time.Sleep(d) }

// EventTimes maps SDL event timestamps (32-bit milliseconds since SDL's
// start, wrapping every 49.7 days) onto a Clock.
//
// SDL stamps an event with SDL_GetTicks() when it queues it, and SDL's tick
// count is the performance counter's time since SDL started, truncated to
// milliseconds. The offset between the two is found once by watching for
// the instant the millisecond count steps: at that instant SDL's time is
// exactly a whole number of milliseconds. After that the mapping is exact
// to the millisecond and never drifts, because both read the same counter.
type EventTimes struct {
	clock  *Clock
	offset time.Duration // clock time of SDL tick 0
	done   chan struct{} // StartEventTimes's: closed once offset is measured; nil once Map waited for it
}

// CalibrateEventTimes measures the offset: three steps of SDL's
// millisecond count, about 2 to 3 ms.
func CalibrateEventTimes(c *Clock) *EventTimes {
	return &EventTimes{clock: c, offset: calibrate(c)}
}

// StartEventTimes is CalibrateEventTimes measuring on a goroutine of its
// own, while the caller goes on (the demo's start-up: the GL programs,
// its first frame); the first Map waits for it. Call Map from one
// goroutine only.
func StartEventTimes(c *Clock) *EventTimes {
	done := make(chan struct{})
	e := &EventTimes{clock: c, done: done}
	go func() {
		e.offset = calibrate(c)
		close(done)
	}()
	return e
}

// Wait waits for StartEventTimes's measuring to end (at most its 20 ms),
// as Map does: before SDL is shut, which its goroutine reads. Call it
// from Map's goroutine.
func (e *EventTimes) Wait() {
	if e.done != nil {
		<-e.done
		e.done = nil
	}
}

// calibrate returns the clock time of SDL tick 0 (see EventTimes).
func calibrate(c *Clock) time.Duration {
	// A sample is an edge of SDL's millisecond count seen between two
	// reads of the clock; the closer the two reads, the better (a thread
	// that loses the CPU between them measures the scheduler). Up to
	// three edges within 20 ms, the tightest kept.
	best, bestWidth := time.Duration(0), time.Duration(-1)
	last := sdl.GetTicks64()
	deadline := c.Now() + 20*time.Millisecond
	for edges := 0; edges < 3; {
		before := c.Now()
		t := sdl.GetTicks64()
		after := c.Now()
		if t != last {
			last = t
			edges++
			if w := after - before; bestWidth < 0 || w < bestWidth {
				best, bestWidth = after-time.Duration(t)*time.Millisecond, w
			}
		}
		if after > deadline {
			if bestWidth < 0 {
				best = after - time.Duration(t)*time.Millisecond
			}
			break
		}
	}
	return best
}

// Map converts an event timestamp to the clock's time. The 32-bit stamp is
// widened against the current 64-bit tick count, so a stamp taken just
// before the 32-bit counter wrapped still maps to the right time.
func (e *EventTimes) Map(stamp uint32) time.Duration {
	e.Wait()
	return e.offset + time.Duration(widen(sdl.GetTicks64(), stamp))*time.Millisecond
}

// widen turns a 32-bit millisecond stamp taken at or before now (a 64-bit
// tick count) into a 64-bit tick count. The difference is taken in 32 bits,
// so a stamp from just before the 32-bit count wrapped, seen just after,
// is a few milliseconds old, not 49.7 days in the future.
func widen(now uint64, stamp uint32) uint64 {
	return now - uint64(uint32(now)-stamp)
}
