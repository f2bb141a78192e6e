// Package desktop is the demo's SDL front end: the window and its OpenGL
// context, vsync, SDL's events turned into the demo's timestamped key
// events, the renderer drawing the demo's Scene, screenshots and GIFs,
// signals, the collector's and the runtime threads' steady state, and the
// process's own figures (CPU, memory, start-up) for -stats. What the demo
// decides lives in package internal/demo; nothing here decides anything a
// web page would decide too.
package desktop

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"time"
	"unsafe"

	"github.com/veandco/go-sdl2/sdl"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/render"
	"github.com/interpdemo/interpdemo/render/adaptive"
)

// Run is the whole program: it returns the exit status, 0 on success, 1
// when something fails at run time, 2 for bad flags. It must run on the
// main thread (SDL and GL belong to it).
func Run(args []string) int {
	return run(args, os.Stdout, os.Stderr, time.Now())
}

func run(args []string, stdout, stderr io.Writer, start time.Time) int {
	// Ctrl-C and SIGTERM are caught before anything can wait (for a
	// FIFO's reader, the host, the lobby, the players), so that none is
	// lost: see interrupts.
	sig := catchInterrupts()
	defer sig.close()
	clock := platform.NewClock()
	w := &window{clock: clock}
	files := diskFiles{sig: sig}
	p := demo.Platform{
		Clock: clock, Display: w, Files: files, Network: udpNetwork{}, Log: stderr,
		Load: func(d time.Duration) { busy(clock, d) },
		Stop: sig.stop,
	}
	cfg, err := demo.Parse(args, stdout, p)
	if errors.Is(err, demo.ErrHelp) {
		return 0
	}
	if err == nil && cfg.Paint == adaptive.On {
		err = demo.UsageError{Msg: "-paint on: the window draws its balls on the GPU; the page paints them (make web, ?paint=on)"}
	}
	var usage demo.UsageError
	if errors.As(err, &usage) {
		fmt.Fprintf(stderr, "interpdemo: %v\n", err)
		if usage.Hint {
			fmt.Fprintln(stderr, demo.UsageHint)
		}
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "interpdemo: %v\n", err)
		return 1
	}
	prof, err := startProfiles(&cfg, files)
	if err != nil {
		fmt.Fprintf(stderr, "interpdemo: %v\n", err)
		return 1
	}
	a, err := open(cfg, p, w, start, sig, prof.abort)
	if err != nil {
		prof.abort()
		fmt.Fprintf(stderr, "%s: %v\n", cfg.LogName(), err) // a joiner that found no host says it is one
		var usage demo.UsageError
		if errors.As(err, &usage) {
			return 2
		}
		return 1
	}
	defer a.close()
	a.run()
	// A signal from here on gives up waiting for a FIFO's reader.
	sig.finish()
	log := a.d.Log() // a network game's says which peer this is
	// A profile that could not be written does not keep the other files
	// from being written: each failure is said, and the run fails.
	code := 0
	if err := prof.stop(files); err != nil {
		fmt.Fprintf(log, "interpdemo: %v\n", err)
		code = 1
	}
	if err := a.finish(stdout); err != nil {
		fmt.Fprintf(log, "interpdemo: %v\n", err)
		code = 1
	}
	return code
}

// serialRasterMaxBalls is the most balls at start for which the demo,
// repainting only what changed (headless, or in a window that presents
// parts of its back buffer), asks Mesa's software rasterizer to
// rasterize on the drawing thread (platform.Options.SerialRaster): with
// so few balls a frame takes microseconds, tens of thousands of frames
// run each second, and llvmpipe's scene-reuse race (see
// platform.Options.SerialRaster) would crash the demo within minutes.
// With more balls, or with every frame painted whole
// (INTERPDEMO_RENDER=redraw), frames are long and few, the race all but
// never happens, and rasterizing on every core matters.
const serialRasterMaxBalls = 64

// app is the front end of one run: the window, the renderer and its
// overlays, and the demo they show.
type app struct {
	d       *demo.Demo
	cfg     *demo.Config
	log     io.Writer
	win     *window
	clock   *platform.Clock
	events  *platform.EventTimes
	rend    *render.Renderer
	ov      *overlays
	limiter *loop.Limiter
	mem     memStats
	files   diskFiles
	capture capture // -screenshot and -gif
	glInfo  string
	drawErr error // a failure to draw: the run ends with it
	redraw  bool  // INTERPDEMO_RENDER=redraw: every frame painted whole
	// resized: the window's size changed. Its next frame is swapped, not
	// presented in parts: the GL driver learns a window's new size at a
	// swap (Mesa's software GLX keeps the old back buffer until then, and
	// a part of the new size beyond it is an X error).
	resized    bool
	parts      []image.Rectangle
	lastPump   time.Duration // when SDL's queue was last drained
	winW, winH int           // the window's drawable
	// The world in a window of its own (platform's SplitWorld): lay
	// draws the layers around it, in the window; split says the last
	// frame was drawn so. layShown: the window, presented by swaps,
	// shows the layers lay drew last (the X server keeps a window's
	// pixels until it is covered).
	lay         *render.Renderer
	split       bool
	layShown    bool
	splitFailed bool   // the layers' context or renderer could not be made
	presented   string // how the last frame reached the screen (presentSwap, ...)
	// stop is the interrupts' stop, done at the first SIGINT or SIGTERM:
	// the loop then ends the run (demo.Interrupt), once (interrupted).
	stop        context.Context
	interrupted bool
}

// window is the SDL window, the demo's display.
type window struct {
	*platform.Window
	clock *platform.Clock
}

// SetVsync asks the driver for the swap interval of v.
func (w *window) SetVsync(v demo.Vsync) (string, error) {
	actual, err := w.Window.SetVsync(v.SwapInterval())
	if err != nil {
		err = fmt.Errorf("vsync %s: %v", v, err)
	}
	return actual, err
}

// open makes the demo (for a network game: the session, and a joiner's
// wait for the host), then the window, the renderer and the overlays; a
// network game opens its window first.
//
// Opening the window is watched (openDeadline): abort runs if the process
// ends there.
func open(cfg demo.Config, p demo.Platform, w *window, mainStart time.Time, sig *interrupts, abort func()) (_ *app, err error) {
	a := &app{log: p.Log, win: w, clock: w.clock, files: diskFiles{sig: sig}, stop: sig.stop}
	choice := renderChoiceFromEnv()
	openWatched := func(balls int) error {
		return watched(openDeadline, sig.stop, p.Log, cfg.LogName(), "opening the window", displayHint(cfg.Headless), abort, func() error {
			return openWindow(cfg, w, choice, balls)
		})
	}
	if cfg.Net.On() {
		// A network game's window opens before the session: the game
		// starts when every player's loop runs, and a player that opened
		// its window after the start would begin the game behind the
		// others by the time that took (hundreds of milliseconds on
		// llvmpipe), a lag lockstep never makes up. A joiner does not
		// know the host's world yet: with no ball count, a headless one
		// rasterizes serially (safe at any count, slower with many).
		balls := int(cfg.Settings.Balls)
		if cfg.Net.Join != "" || cfg.Net.Spectate != "" {
			balls = 0
		}
		if err = openWatched(balls); err != nil {
			return nil, err
		}
	}
	if a.d, err = demo.New(cfg, p); err != nil {
		if w.Window != nil {
			w.Close()
			w.Window = nil
		}
		return nil, err
	}
	a.cfg = a.d.Config()
	defer func() {
		if err != nil {
			a.close() // a, not the nil returned
		}
	}()
	if w.Window == nil {
		if err = openWatched(a.d.World().N()); err != nil {
			return nil, err
		}
	}
	// SDL's clock runs: the events' offset from ours is measured beside
	// the programs' compiling and the first frame, not before them.
	a.events = platform.StartEventTimes(a.clock)
	wc := a.d.World().Config()
	rc := renderConfig(wc, w.Window, choice)
	rc.Cull, rc.Sprites = cfg.Cull, cfg.Sprites
	if a.rend, err = render.New(rc); err != nil {
		return nil, err
	}
	a.winW, a.winH = w.DrawableSize()
	a.rend.Resize(a.winW, a.winH)
	a.glInfo = render.Info()
	a.redraw = choice.redraw
	a.parts = make([]image.Rectangle, 0, 64)
	a.ov = newOverlays(a.rend)
	if cfg.GIFFile != "" {
		a.capture.gif = &gifCapture{}
	}
	if a.limiter, err = loop.NewLimiter(a.d.FrameInterval()); err != nil {
		return nil, err
	}
	a.mem.init(mainStart)
	a.d.Uploaded(a.d.SyncWorld(a.rend.Sync)) // the initial upload, before any frame

	now := a.clock.Now()
	a.limiter.Start(now) // the first frame waits its whole interval too
	if err = a.d.Start(now); err != nil {
		return nil, err
	}
	return a, nil
}

// openWindow opens the window and its GL context for a world of balls
// balls at start.
func openWindow(cfg demo.Config, w *window, choice renderChoice, balls int) (err error) {
	ww, wh := cfg.WindowSize()
	w.Window, err = platform.Open(platform.Options{
		Title: cfg.WindowTitle(), Width: ww, Height: wh, Offset: cfg.WindowOffset(), Headless: cfg.Headless,
		SerialRaster: !choice.redraw && balls <= serialRasterMaxBalls,
		SwapOnly:     choice.swap,
		Preload:      true,
	})
	return err
}

// close frees the GL objects, then the context and window, and lets the
// demo go. Safe on a partly built app.
func (a *app) close() {
	if a.d != nil {
		a.d.Close()
	}
	if a.lay != nil && a.win.UseLayers() == nil {
		a.lay.Delete() // in its own context
	}
	a.lay = nil
	if a.win.Window != nil {
		a.win.UseWindow()
	}
	if a.ov != nil {
		a.ov.delete()
		a.ov = nil
	}
	if a.rend != nil {
		a.rend.Delete()
		a.rend = nil
	}
	if a.events != nil {
		a.events.Wait() // its goroutine reads SDL's clock
	}
	if a.win.Window != nil {
		a.win.Close()
		a.win.Window = nil
	}
}

func (a *app) run() {
	for !a.d.Done() {
		a.frame()
	}
	a.mem.stopCounting() // what follows (files, profiles) is not the run
}

// frame is one pass of the loop: events, logic, draw, pacing.
func (a *app) frame() {
	d := a.d
	now := a.clock.Now()
	warm := a.mem.warm
	if a.mem.warmsAt(now) {
		a.rend.PrepareChoices() // what the choices may draw with, made before the counts
	}
	a.mem.frameStart(now)
	if a.mem.warm && !warm {
		a.rend.CompareCullAgain() // what the culling measured so far was the warm-up's
	}
	d.StartFrame(now)
	a.pollEvents(now)
	if !a.interrupted {
		// Ctrl-C or a polite kill ends the run like Q (the trace, the
		// recording and the other files are written), or, in a network
		// game still waiting for its players, with an error that says so.
		select {
		case <-a.stop.Done():
			a.interrupted = true
			d.Interrupt(now, context.Cause(a.stop))
		default:
		}
	}
	if t, ok := d.Update(now); ok {
		a.limiter.WaitUntil(a.clock, t)
	}
	d.BeginDraw(a.clock.Now())
	d.SetCull(hudCull(a.rend.CullStats()))
	d.SetSprites(hudSprites(a.rend.SpriteStats()))
	uploaded := d.SyncWorld(a.rend.Sync)
	a.show(d.Scene(now, a.winW, a.winH), now)
	if wake, vblank, ok := d.VblankWait(a.clock.Now()); ok {
		d.Presented(vblank, wake, a.limiter.WaitUntil(a.clock, wake).Woke)
	} else {
		d.Presented(a.clock.Now(), 0, 0)
	}
	a.rend.EndFrame()
	d.EndFrame(now, a.clock.Now(), uploaded)
	a.mem.frameDone()
	if b, ok := d.Title(now); ok {
		setTitle(a.win.Window, b)
	}
	if !d.Done() {
		if iv := d.FrameInterval(); iv != a.limiter.Interval() {
			a.limiter.SetInterval(iv) // >= 0
		}
		a.limiter.Wait(a.clock)
	}
}

// finish writes the pictures, then lets the demo write its files and
// -stats, with the front end's own figures.
func (a *app) finish(stdout io.Writer) error {
	now := a.clock.Now()
	var errs []error
	if err := a.rend.DebugErr(); err != nil {
		errs = append(errs, err) // the first GL error of a debug context
	}
	errs = append(errs, a.drawErr)
	if a.cfg.Screenshot != "" && a.capture.last != nil {
		errs = append(errs, demo.FileErr("screenshot", a.files.WriteFile(a.cfg.Screenshot, func(w io.Writer) error {
			return png.Encode(w, a.capture.last)
		})))
	}
	if g := a.capture.gif; g != nil {
		errs = append(errs, demo.FileErr("gif", a.files.WriteFile(a.cfg.GIFFile, g.write)))
	}
	err := a.d.Finish(now, stdout, a.report)
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return err
}

// report adds the front end's figures to -stats.
func (a *app) report(r *report.Stats) {
	r.OverlayUploadBytes = a.ov.uploadedBytes()
	r.VideoDriver = a.win.Driver()
	r.Present = a.presented
	r.GLRenderer = a.glInfo
	reportCull(r, a.rend.CullStats(), a.rend.CullHidden())
	reportSprites(r, a.rend.SpriteStats())
	a.mem.report(r, a.d.Wall())
}

// reportCull adds the occlusion culling's choice and costs to -stats.
func reportCull(r *report.Stats, s render.CullStats, hidden int) {
	r.SetCull(report.Cull{Mode: s.Mode.String(), On: s.On, Hidden: hidden, WalkNs: s.WalkNs,
		GPUOnNs: s.GPUOnNs, GPUOffNs: s.GPUOffNs, CostOnNs: s.CostOnNs, CostOffNs: s.CostOffNs,
		Compared: s.Compared, Tried: s.Tried})
}

// reportSprites adds the balls' form and its costs to -stats.
func reportSprites(r *report.Stats, s render.SpriteStats) {
	r.SetSprites(report.Sprites{Mode: demo.SpritesForms[s.Mode], Quads: s.Quads,
		CostQuadsNs: s.CostQuadsNs, CostPointsNs: s.CostPointsNs, GPUQuadsNs: s.GPUQuadsNs, GPUPointsNs: s.GPUPointsNs,
		Compared: s.Compared, Tried: s.Tried})
}

// hudCull is the culling's line of the HUD's long form.
func hudCull(s render.CullStats) hud.Cull {
	return hud.Cull{Known: true, On: s.On, Mode: s.Mode.String(),
		Walk: time.Duration(s.WalkNs), CostOn: time.Duration(s.CostOnNs), CostOff: time.Duration(s.CostOffNs)}
}

// hudSprites is the form's line of the HUD's long form.
func hudSprites(s render.SpriteStats) hud.Sprites {
	return hud.Sprites{Known: true, Quads: s.Quads, Mode: demo.SpritesForms[s.Mode],
		CostQuads: time.Duration(s.CostQuadsNs), CostPoints: time.Duration(s.CostPointsNs)}
}

// setTitle sets the window title from bytes. SetTitle copies them into C
// memory at once; the string view does not outlive the call.
func setTitle(w *platform.Window, b []byte) {
	w.SetTitle(unsafe.String(unsafe.SliceData(b), len(b)))
}

// busy burns d of CPU time on purpose (the render and logic loads that
// make a fast machine act like a slow one). It keeps pumping SDL's events
// about every millisecond, so key presses during a long frame are stamped
// when they happen, not when the frame ends: the advice of the Allegro FAQ
// answer in Pixelate #11 to check the input from inside slow drawing code.
func busy(clock *platform.Clock, d time.Duration) {
	if d <= 0 {
		return
	}
	end := clock.Now() + d
	nextPump := time.Duration(0)
	for {
		now := clock.Now()
		if now >= end {
			return
		}
		if now >= nextPump {
			sdl.PumpEvents()
			nextPump = now + time.Millisecond
		}
	}
}
