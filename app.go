package main

import (
	"fmt"
	"image"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/render"
)

// drawMode is where between a ball's last and next logic position it is
// drawn.
type drawMode int

const (
	drawInterp drawMode = iota // at percentWithinTick between last and next
	drawExtrap                 // ahead of next by percentWithinTick
	drawOff                    // at next: steps at the tick rate
)

func (d drawMode) String() string {
	return [...]string{"interpolate", "extrapolate", "off"}[d]
}

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

// app is the running demo: the world, the loop strategies, the renderer
// and the settings the keys change. Everything runs on the main thread.
type app struct {
	cfg    config
	log    io.Writer
	win    *platform.Window
	clock  *platform.Clock
	events *platform.EventTimes
	rend   *render.Renderer
	world  *physics.World

	// Timing. Every mode runs on virtual time (the speed factor); only the
	// strategy of the current mode is in use.
	mode    timingMode
	virt    *loop.Virtual
	fixed   *loop.Fixed
	sub     *loop.Substep
	tf      *loop.TimeFactor
	adapt   *loop.Adaptive
	limiter *loop.Limiter
	fastNow time.Duration     // -fast: the synthetic loop time
	vdelta  loop.VirtualDelta // this frame's advance of virtual time

	speed      float64
	paused     bool
	fpsCap     int
	renderLoad time.Duration
	logicLoad  time.Duration

	// Input: key events wait in keyq (raw clock) until the frame maps them
	// onto virtual time and hands them to the sampler, which gives every
	// logic tick its own record.
	sampler *input.Sampler
	keyq    []input.Event
	keyDown [input.MaxButton + 1]uint8 // physical keys held per button (arrows and WASD share)
	prevRec input.Record
	cmds    []command // world commands waiting for the next tick boundary

	rec        *recorder // -record
	rep        *replayer // -replay
	saveLogged bool

	// View.
	draw           drawMode
	hudOn, graphOn bool
	ghostsOn       bool
	vsync          platform.Vsync // requested
	vsyncActual    string         // on, off, adaptive or unsupported
	vsyncLogged    bool
	ov             *overlay
	fps, tps       *loop.RateCounter
	nextTitle      time.Duration
	title          []byte
	last           frameInfo // the latest frame's logic, for the HUD
	modeLine       []byte
	notice         string // a one-off message for the HUD (refused keys)
	noticeUntil    time.Duration

	glInfo   string
	nextHUD  time.Duration
	quit     bool
	signals  chan os.Signal // SIGINT, SIGTERM: quit cleanly, writing the files
	start    time.Duration  // clock time of the first frame
	frameIdx int64
	lastImg  *image.RGBA // the last frame, when -screenshot is set

	st    runStats
	trace *traceWriter
}

// frameInfo is what one frame's logic did.
type frameInfo struct {
	ticks     int     // logic ticks, cycles or steps run
	percent   float64 // percentWithinTick (1 in the variable-step modes)
	discarded time.Duration
	capped    bool
}

// command changes the world between two ticks. Commands are applied at a
// tick boundary, in order, and recorded with the tick they precede, so a
// replay applies them at exactly the same point.
type command struct {
	kind cmdKind
	arg  int64
}

type cmdKind uint8

const (
	cmdReset    cmdKind = iota + 1 // back to the initial state
	cmdSetBalls                    // arg: the ball count
	cmdSetTick                     // arg: the tick length in ns
)

func newApp(cfg config, log io.Writer, mainStart time.Time) (a *app, err error) {
	a = &app{
		cfg: cfg, log: log,
		mode: cfg.mode, speed: cfg.speed, paused: cfg.paused, fpsCap: cfg.fpsCap,
		renderLoad: cfg.renderLoad, logicLoad: cfg.logicLoad,
		hudOn: cfg.hud, graphOn: cfg.graph, ghostsOn: cfg.ghosts,
		vsync: cfg.vsync,
	}
	switch {
	case !cfg.interp:
		a.draw = drawOff
	case cfg.extrapolate:
		a.draw = drawExtrap
	}
	if cfg.replayFile != "" {
		if a.rep, err = openReplay(cfg.replayFile); err != nil {
			return nil, err
		}
		if a.cfg, err = a.rep.apply(a.cfg); err != nil {
			return nil, err
		}
	}
	if a.world, err = newWorld(a.cfg); err != nil {
		return nil, err
	}
	if cfg.recordFile != "" {
		a.rec = newRecorder(a.cfg, a.world)
	}
	if a.rep != nil {
		a.rep.bind(a.world)
		a.prevRec = a.rep.p.Initial()
	}
	if a.win, err = platform.Open(platform.Options{
		Title: "interpdemo", Width: cfg.width, Height: cfg.height, Headless: cfg.headless,
	}); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			a.close()
		}
	}()
	wc := a.world.Config()
	if a.rend, err = render.New(render.Config{WorldW: wc.Width, WorldH: wc.Height, Radius: wc.Radius, FracBits: physics.FracBits}); err != nil {
		return nil, err
	}
	a.rend.Resize(a.win.DrawableSize())
	a.glInfo = render.Info()
	a.ov = newOverlay(a.rend)
	a.setVsync(a.vsync)
	if cfg.traceFile != "" {
		if a.trace, err = newTraceWriter(cfg.traceFile); err != nil {
			return nil, err
		}
	}

	a.clock = platform.NewClock()
	a.events = platform.CalibrateEventTimes(a.clock)
	a.sampler = input.NewSampler()
	a.keyq = make([]input.Event, 0, 64)
	a.cmds = make([]command, 0, 8)
	a.fps = loop.NewRateCounter(time.Second, 4096)
	a.tps = loop.NewRateCounter(time.Second, 4096)
	a.title = make([]byte, 0, 128)
	a.modeLine = make([]byte, 0, 128)
	if a.limiter, err = loop.NewLimiter(0); err != nil {
		return nil, err
	}
	a.st.init()
	a.st.mainStart = mainStart
	a.st.uploadBytes += int64(a.syncWorld()) // the initial upload, before any frame

	// Ctrl-C or a polite kill ends the run like Q: the trace, the
	// recording and the other files are written. A second one kills.
	a.signals = make(chan os.Signal, 1)
	signal.Notify(a.signals, os.Interrupt, syscall.SIGTERM)

	now := a.clock.Now()
	a.start = now
	if err = a.setMode(a.mode, now); err != nil {
		return nil, err
	}
	return a, nil
}

// newWorld makes the world the settings describe. (physics.Config takes
// 0 balls to mean its default, one ball; an empty world is asked for.)
func newWorld(c config) (*physics.World, error) {
	w, err := physics.New(c.physicsConfig(c.balls))
	if err == nil && c.balls == 0 {
		err = w.SetBalls(0)
	}
	return w, err
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
	if a.rend != nil {
		a.rend.Delete()
		a.rend = nil
	}
	if a.win != nil {
		a.win.Close()
		a.win = nil
	}
}

// setVsync asks for a vsync mode and records what the driver gave. The
// first refusal is logged; the demo goes on either way.
func (a *app) setVsync(v platform.Vsync) {
	a.vsync = v
	actual, err := a.win.SetVsync(v)
	a.vsyncActual = actual
	if err != nil && !a.vsyncLogged {
		a.vsyncLogged = true
		fmt.Fprintf(a.log, "interpdemo: %v; running with the driver's default\n", err)
	}
}

// setMode switches the timing strategy, starting it afresh at now.
func (a *app) setMode(m timingMode, now time.Duration) error {
	if (a.rec != nil || a.rep != nil) && m != modeFixed {
		return fmt.Errorf("only fixed mode is deterministic; %s cannot be recorded or replayed", m)
	}
	// The variable-step mode clamps a stalled frame to 100 ms of game
	// time; fixed mode handles stalls itself (MaxLoops, debt) and the
	// strategies with their own clamp get the raw time. One virtual clock
	// serves every mode, so game time goes on across a switch.
	maxDelta := time.Duration(-1)
	if m == modeVariable {
		maxDelta = loop.DefaultMaxDelta
	}
	if a.virt == nil {
		var err error
		if a.virt, err = loop.NewVirtual(loop.VirtualConfig{}, now); err != nil {
			return err
		}
	}
	a.virt.SetMaxDelta(maxDelta)
	a.virt.Reset(now)
	a.applySpeed()
	vnow := a.virt.Now()
	var err error
	switch m {
	case modeFixed:
		a.fixed, err = loop.NewFixed(loop.FixedConfig{Tick: a.world.Config().Tick, MaxLoops: a.cfg.maxLoops, Lockstep: a.cfg.lockstep}, vnow)
		a.fastNow = vnow
	case modeSubstep:
		a.sub, err = loop.NewSubstep(loop.SubstepConfig{MinT: 1}, vnow) // MinT: see logicSubstep
	case modeTimeFactor:
		a.tf, err = loop.NewTimeFactor(loop.TimeFactorConfig{}, vnow)
	}
	if err != nil {
		return err
	}
	a.mode = m
	a.applyPacing()
	return nil
}

// applySpeed gives the virtual clock the speed factor, or 0 when paused.
func (a *app) applySpeed() {
	s := a.speed
	if a.paused {
		s = 0
	}
	a.virt.SetSpeed(s) // speeds are validated where they are set
}

// capInterval is the frame interval the cap asks for; 0 without a cap.
func (a *app) capInterval() time.Duration {
	if a.fpsCap <= 0 {
		return 0
	}
	return time.Second / time.Duration(a.fpsCap)
}

// applyPacing sets the frame limiter: the frame cap, or sub-stepping's MinT
// (1/60 s), whichever is longer. Adaptive mode paces its presents itself,
// at the frame cap or, without one, at the seed's 40 presents per second.
func (a *app) applyPacing() {
	d := a.capInterval()
	switch a.mode {
	case modeSubstep:
		d = max(d, loop.DefaultMinT)
	case modeAdaptive:
		a.adapt, _ = loop.NewAdaptive(loop.AdaptiveConfig{Target: d}, a.clock.Now()) // d >= 0: valid
		d = 0
	}
	a.limiter.SetInterval(d)
}

func (a *app) run() {
	for !a.quit {
		a.frame()
	}
}

// frame is one pass of the loop: events, logic, draw, pacing.
func (a *app) frame() {
	now := a.clock.Now()
	a.st.frameStart(now, a)
	a.pumpEvents(now)
	select {
	case <-a.signals:
		a.quit = true
		signal.Reset(os.Interrupt, syscall.SIGTERM)
	default:
	}
	if a.cfg.duration > 0 && now-a.start >= a.cfg.duration {
		a.quit = true
	}
	a.vdelta = a.virt.Advance(now)
	// Key events were stamped on the raw clock; the loop runs on virtual
	// time (slow motion, pause), so map them before the sampler sees them.
	for _, e := range a.keyq {
		e.Time = a.virt.Map(e.Time)
		a.sampler.Push(e)
	}
	a.keyq = a.keyq[:0]

	info := a.logic(now)
	a.last = info

	if a.mode == modeAdaptive {
		a.waitUntil(a.adapt.PresentAt())
		a.adapt.BeginDraw(a.clock.Now())
	}
	uploaded := a.syncWorld()
	a.drawFrame(info, now)
	a.busy(a.renderLoad)
	if a.quit && a.cfg.screenshot != "" {
		a.lastImg = a.rend.ReadPixels()
	}
	a.win.Swap()
	a.rend.EndFrame()
	if a.mode == modeAdaptive {
		a.adapt.EndDraw(a.clock.Now())
	}

	a.fps.Add(now, 1)
	a.tps.Add(now, info.ticks)
	a.st.frameDone(now, info, uploaded, a)
	if now >= a.nextTitle {
		a.nextTitle = now + 500*time.Millisecond
		a.updateTitle(now)
	}
	if a.rec != nil {
		if err := a.rec.maybeSave(now); err != nil && !a.saveLogged {
			a.saveLogged = true
			fmt.Fprintf(a.log, "interpdemo: autosave: %v\n", err)
		}
	}
	if !a.quit {
		a.limiter.Wait(a.clock)
	}
	a.frameIdx++
}

// drawFrame issues the frame's GL commands.
func (a *app) drawFrame(info frameInfo, now time.Duration) {
	a.rend.SetHighlightFirst(a.world.Player())
	a.rend.Clear()
	alpha := float32(1)
	if a.mode == modeFixed {
		alpha = a.draw.alpha(info.percent)
	}
	a.rend.DrawBalls(alpha)
	if a.ghostsOn {
		a.rend.DrawGhosts()
	}
	a.ov.draw(a, now)
}

// syncWorld brings the GPU's copy of the positions up to date and returns
// the buffer bytes sent.
func (a *app) syncWorld() int {
	return a.rend.Sync(a.world.Last, a.world.Next, a.world.Ticks()+a.world.Steps(), a.world.Moved())
}

// busy burns d of CPU time on purpose (the render and logic loads that
// make a fast machine act like a slow one). It keeps pumping SDL's events
// about every millisecond, so key presses during a long frame are stamped
// when they happen, not when the frame ends: the seed's advice to check
// the input from inside slow drawing code.
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

// waitUntil sleeps, then spins, until the clock reaches t.
func (a *app) waitUntil(t time.Duration) {
	a.limiter.WaitUntil(a.clock, t)
}
