package main

import (
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/internal/netplay"
	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/render"
)

// serialRasterMaxBalls is the most balls at start for which the demo,
// headless and repainting only what changed, asks Mesa's software
// rasterizer to rasterize on the drawing thread
// (platform.Options.SerialRaster): with so few balls a frame takes
// microseconds, a hundred thousand frames run each second, and llvmpipe's
// scene-reuse race (see platform.Options.SerialRaster) would crash the demo
// within minutes. With more balls, or with every frame painted whole (a
// window), frames are long and few, the race all but never happens, and
// rasterizing on every core matters.
const serialRasterMaxBalls = 64

// drawMode is where between a ball's last and next logic position it is
// drawn.
type drawMode int

const (
	drawInterp drawMode = iota // at percentWithinTick between last and next
	drawExtrap                 // ahead of next by percentWithinTick
	drawOff                    // at next: steps at the tick rate
	numDrawModes
)

// drawModeNames are each mode's name (the HUD, -stats) and how the window
// title shows it.
var drawModeNames = [numDrawModes]struct{ name, title string }{
	drawInterp: {"interpolate", "interp on"},
	drawExtrap: {"extrapolate", "interp extrapolate"},
	drawOff:    {"off", "interp off"},
}

func (d drawMode) String() string { return drawModeNames[d].name }

// alpha is the shader's mix factor from last (0) to next (1).
func (d drawMode) alpha(percent float64) float32 {
	switch d {
	case drawInterp:
		return float32(percent)
	case drawExtrap:
		return float32(1 + percent)
	}
	return 1
}

// view is what the keys change about the picture and the frame.
type view struct {
	draw               drawMode
	hud, graph, ghosts bool
	help               bool // the HUD's long form: settings, keys, legend
	fpsCap             int
	renderLoad         time.Duration
}

// capInterval is the frame interval the cap asks for; 0 without a cap.
func (v *view) capInterval() time.Duration {
	if v.fpsCap <= 0 {
		return 0
	}
	return time.Second / time.Duration(v.fpsCap)
}

// vsyncState is the vsync asked for and what the driver gave.
type vsyncState struct {
	requested platform.Vsync
	actual    string // on, off, adaptive, unsupported or offscreen
	logged    bool   // the first refusal was logged
}

// app is the shell around the simulation: the window, the renderer, the
// keys, the overlays, the files and the statistics. It wires the parts;
// the simulation's insides are package sim's. Everything runs on the main
// thread.
type app struct {
	cfg     config
	log     io.Writer
	win     *platform.Window
	clock   *platform.Clock
	events  *platform.EventTimes
	rend    *render.Renderer
	sim     *sim.Sim
	limiter *loop.Limiter

	keys     keyState
	view     view
	vsync    vsyncState
	ov       *overlay
	fps, tps *loop.RateCounter
	title    titleBar
	notice   notice
	last     sim.FrameInfo // the latest frame's logic, for the HUD

	st      runStats
	trace   *traceWriter
	saver   autosaver
	signals chan os.Signal // SIGINT, SIGTERM: quit cleanly, writing the files
	quit    bool
	start   time.Duration // clock time of the first frame
	capture capture       // -screenshot and -gif
	pace    *pacing       // -pacing, -vsync-sim: the time the simulation is given
	net     *netGame      // a network game's socket and session, or nil
}

// capture keeps the pictures of a run that -screenshot and -gif write.
type capture struct {
	last *image.RGBA // the last frame, for -screenshot
	gif  *gifCapture // every frame, for -gif
}

func newApp(cfg config, log io.Writer, mainStart time.Time) (a *app, err error) {
	a = &app{
		cfg: cfg, log: log,
		view: view{
			hud: cfg.hud, graph: cfg.graph, ghosts: cfg.ghosts, help: cfg.hudHelp,
			fpsCap: cfg.fpsCap, renderLoad: cfg.renderLoad,
		},
		vsync: vsyncState{requested: cfg.vsync},
		pace:  newPacing(&cfg),
	}
	switch {
	case !cfg.interp:
		a.view.draw = drawOff
	case cfg.extrapolate:
		a.view.draw = drawExtrap
	}
	a.clock = platform.NewClock()
	if cfg.net.on() {
		if a.net, err = startNet(&a.cfg, a.clock, log); err != nil {
			return nil, err
		}
		cfg = a.cfg
		defer func() {
			if err != nil {
				a.net.leave(a.clock)
			}
		}()
	}
	if a.sim, err = sim.New(sim.Config{
		Settings:      cfg.settings,
		Mode:          cfg.mode,
		Speed:         cfg.speed,
		Paused:        cfg.paused,
		FrameCap:      a.view.capInterval(),
		Fast:          cfg.fast,
		TickLimit:     cfg.ticks,
		LogicLoad:     cfg.logicLoad,
		Load:          a.busy,
		Record:        cfg.recordFile != "",
		Replay:        cfg.replay,
		Net:           a.netSession(),
		Bot:           cfg.net.bot,
		BotSeed:       cfg.net.botSeed,
		Rollback:      cfg.net.netcode == "rollback",
		MaxPrediction: cfg.net.maxPrediction,
		SyncTest:      cfg.syncTest,
	}, a.clock, a.clock.Now()); err != nil {
		if cfg.replay != nil {
			err = fmt.Errorf("%s: %v", cfg.replayFile, err)
		}
		return nil, err
	}
	a.saver = autosaver{path: cfg.recordFile, next: autosave}
	if cfg.gifFile != "" {
		a.capture.gif = &gifCapture{}
	}
	choice := renderChoiceFromEnv()
	if a.win, err = platform.Open(platform.Options{
		Title: "interpdemo", Width: cfg.width, Height: cfg.height, Headless: cfg.headless,
		SerialRaster: cfg.headless && !choice.redraw && int(a.sim.World().N()) <= serialRasterMaxBalls,
	}); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			a.close()
		}
	}()
	wc := a.sim.World().Config()
	if a.rend, err = render.New(renderConfig(wc, a.win, choice)); err != nil {
		return nil, err
	}
	a.rend.Resize(a.win.DrawableSize())
	a.ov = newOverlay(a.rend, render.Info())
	a.setVsync(a.vsync.requested)
	if a.net != nil && a.net.ghosts != nil {
		if a.net.ghosts.prog, err = render.NewMarkers(); err != nil {
			return nil, err
		}
	}
	if cfg.traceFile != "" {
		if a.trace, err = newTraceWriter(cfg.traceFile); err != nil {
			return nil, err
		}
	}

	a.events = platform.CalibrateEventTimes(a.clock)
	a.keys.queue = make([]input.Event, 0, 64)
	if a.fps, err = loop.NewRateCounter(time.Second, 4096); err != nil {
		return nil, err
	}
	if a.tps, err = loop.NewRateCounter(time.Second, 4096); err != nil {
		return nil, err
	}
	a.title.buf = make([]byte, 0, 128)
	if a.limiter, err = loop.NewLimiter(a.sim.LimiterInterval()); err != nil {
		return nil, err
	}
	a.st.init(mainStart)
	a.st.uploadBytes += int64(a.syncWorld()) // the initial upload, before any frame

	// Ctrl-C or a polite kill ends the run like Q: the trace, the
	// recording and the other files are written. A second one kills.
	a.signals = make(chan os.Signal, 1)
	signal.Notify(a.signals, os.Interrupt, syscall.SIGTERM)

	now := a.clock.Now()
	a.start = now
	a.pace.start(now)
	a.limiter.Start(now) // the first frame waits its whole interval too
	// The loop starts now, not when the simulation was made: the window
	// and GL set-up is loading time, not a burst of ticks.
	if err = a.sim.SetMode(a.sim.Mode(), now); err != nil {
		return nil, err
	}
	return a, nil
}

// close frees the GL objects, then the context and window, and throws away
// an unfinished trace. Safe to call on a partly built app.
func (a *app) close() {
	if a.signals != nil {
		signal.Stop(a.signals)
	}
	if a.trace != nil {
		a.trace.abort()
	}
	if a.net != nil {
		a.net.ghosts.delete()
	}
	if a.rend != nil {
		a.rend.Delete()
		a.rend = nil
	}
	if a.net != nil {
		a.net.conn.Close()
	}
	if a.win != nil {
		a.win.Close()
		a.win = nil
	}
}

// netSession is the network game's session, or nil.
func (a *app) netSession() *netplay.Session {
	if a.net == nil {
		return nil
	}
	return a.net.sess
}

// setVsync asks for a vsync mode and records what the driver gave. The
// first refusal is logged; the demo goes on either way.
func (a *app) setVsync(v platform.Vsync) {
	a.vsync.requested = v
	actual, err := a.pace.setVsync(a.win, v)
	a.vsync.actual = actual
	if err != nil && !a.vsync.logged {
		a.vsync.logged = true
		fmt.Fprintf(a.log, "interpdemo: %v; running with the driver's default\n", err)
	}
}

// setFPSCap sets the frame cap (0 for none): the simulation's adaptive
// mode follows it, and the limiter paces the frames.
func (a *app) setFPSCap(n int) {
	a.view.fpsCap = n
	a.sim.SetFrameCap(a.view.capInterval())        // >= 0
	a.limiter.SetInterval(a.sim.LimiterInterval()) // >= 0
}

// requestQuit ends the run: at once, or in a network game once every
// peer has heard that the game is over.
func (a *app) requestQuit(now time.Duration) {
	if a.net != nil && !a.sim.Finished() {
		a.sim.Quit(now)
		return
	}
	a.quit = true
}

func (a *app) run() {
	for !a.quit {
		a.frame()
	}
	a.st.stopCounting() // what follows (files, profiles) is not the run
}

// frame is one pass of the loop: events, logic, draw, pacing.
func (a *app) frame() {
	now := a.clock.Now()
	if prev, ok := a.st.frameStart(now, a.start); ok {
		a.ov.ring.Add(frameOf(&prev))
		if a.trace != nil {
			a.trace.row(&prev)
		}
	}
	a.pumpEvents(now)
	select {
	case <-a.signals:
		a.requestQuit(now)
		signal.Reset(os.Interrupt, syscall.SIGTERM)
	default:
	}
	if a.cfg.duration > 0 && now-a.start >= a.cfg.duration {
		a.requestQuit(now)
	}

	if a.net != nil {
		a.net.conn.Read(now, a.net.sess)
	}
	info := a.sim.Frame(a.pace.frameTime(now, a.sim), a.keys.queue)
	a.keys.queue = a.keys.queue[:0]
	a.last = info
	if a.net != nil {
		a.net.conn.Write(now, a.net.sess) // new input goes out at once
		a.net.announce(a.log)
		if a.net.smooth != nil {
			a.net.smooth.update(a.sim, a.net.sess.Index(), now)
		}
		if a.net.ghosts != nil {
			a.net.ghosts.update(a.sim, a.net.sess.Index(), now)
		}
	}
	if a.sim.Finished() {
		a.quit = true
	}

	if t, ok := a.sim.PresentAt(); ok {
		a.limiter.WaitUntil(a.clock, t)
	}
	a.sim.BeginDraw(a.clock.Now())
	uploaded := a.syncWorld()
	alpha := a.drawFrame(info, now)
	a.busy(a.view.renderLoad)
	if a.quit && a.cfg.screenshot != "" {
		a.capture.last = a.rend.ReadPixels()
	}
	if a.capture.gif != nil {
		a.capture.gif.add(a.rend.ReadPixels(), now)
	}
	a.win.Swap()
	a.pace.present(a.clock, info, a.sim) // the simulated vblank; the frame's step
	a.rend.EndFrame()
	a.sim.EndDraw(a.clock.Now())

	a.fps.Add(now, 1)
	a.tps.Add(now, info.Ticks)
	x, nextX := ball0X(a.sim.World(), alpha)
	a.st.frameDone(now, info, uploaded, a.view.renderLoad, a.sim.Mode(), a.view.capInterval(), x, nextX)
	if now >= a.title.next {
		a.title.next = now + 500*time.Millisecond
		a.updateTitle(now)
	}
	if err := a.saver.maybeSave(now, a.sim); err != nil {
		fmt.Fprintf(a.log, "interpdemo: autosave: %v\n", err)
	}
	if !a.quit {
		a.limiter.Wait(a.clock)
	}
}

// drawFrame issues the frame's GL commands and returns the mix factor
// the balls were drawn at.
func (a *app) drawFrame(info sim.FrameInfo, now time.Duration) float32 {
	a.rend.SetHighlightFirst(a.sim.World().Player())
	alpha := float32(1)
	if a.sim.Mode() == sim.ModeFixed {
		alpha = a.view.draw.alpha(info.Percent)
	}
	if a.view.hud && a.ov.textDue(now) {
		a.ov.setText(a.rend, a.snapshot(now), now)
	}
	a.ov.draw(a.rend, now, alpha, a.view.ghosts, a.view.hud, a.view.graph, a.graphLines())
	if a.view.ghosts && a.net != nil && a.net.ghosts != nil {
		a.net.ghosts.draw(a.rend, a.sim.World().Config().Radius, now)
	}
	if err := a.rend.DebugErr(); err != nil {
		a.quit = true // finish reports it: exit status 1
	}
	return alpha
}

// ball0X is where ball 0 is drawn at mix factor alpha, and its logic
// position, x in world units, for the trace; NaN without a ball.
func ball0X(w *physics.World, alpha float32) (drawn, next float64) {
	if w.N() == 0 {
		return math.NaN(), math.NaN()
	}
	last, nxt := float64(w.Last[0]), float64(w.Next[0])
	return (last + float64(alpha)*(nxt-last)) / physics.One, nxt / physics.One
}

// syncWorld brings the GPU's copy of the positions up to date and returns
// the buffer bytes sent.
func (a *app) syncWorld() int {
	w := a.sim.World()
	if a.net != nil && a.net.smooth != nil {
		return a.net.smooth.sync(a.rend, w)
	}
	return a.rend.Sync(w.Last, w.Next, w.Ticks()+w.Steps(), w.Moved())
}

// busy burns d of CPU time on purpose (the render and logic loads that
// make a fast machine act like a slow one). It keeps pumping SDL's events
// about every millisecond, so key presses during a long frame are stamped
// when they happen, not when the frame ends: the advice of the Allegro FAQ
// answer in Pixelate #11 to check the input from inside slow drawing code.
func (a *app) busy(d time.Duration) {
	if d <= 0 {
		return
	}
	end := a.clock.Now() + d
	nextPump := time.Duration(0)
	for {
		now := a.clock.Now()
		if now >= end {
			return
		}
		if now >= nextPump {
			pumpSDL()
			nextPump = now + time.Millisecond
		}
	}
}
