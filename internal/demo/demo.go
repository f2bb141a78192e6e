// Package demo is everything the interpdemo demo decides, apart from the
// platform it runs on: the flags and their checks, the key table and what
// each key does, the frame (time and key events in; the simulation, frame
// pacing, network play, what to draw and the HUD out), and the -stats,
// -trace, -state and -record outputs. It imports no SDL, no GL and no
// system calls, and reads no clock: a front end gives it the time, the
// keys and a Platform (files, sockets, the display), and draws the Scene
// it returns. The SDL window (package internal/desktop) and a web page
// are front ends; so is a test, on a manual clock.
//
// A front end opens a window of Config.WindowSize: the world's -width x
// -height with room for the overlays, which Scene places beside the world
// (Scene.World, Scene.HUD, Scene.Graph; see Layout), never over it.
//
// A frame, from the front end's side:
//
//	now := clock.Now()
//	d.StartFrame(now)
//	for each key event: d.Key(ev)    // and d.RequestQuit on a close,
//	                                 // d.Interrupt on a signal
//	if t, ok := d.Update(now); ok {  // logic: ticks, network
//		waitUntil(t)                // the adaptive mode paces its presents
//	}
//	d.BeginDraw(clock.Now())
//	uploaded := d.SyncWorld(renderer.Sync)
//	draw(d.Scene(now, winW, winH))
//	burn(d.RenderLoad())
//	swap()
//	if wake, vblank, ok := d.VblankWait(clock.Now()); ok { // -vsync-sim
//		d.Presented(vblank, wake, waitUntil(wake))
//	} else {
//		d.Presented(clock.Now(), 0, 0)
//	}
//	d.EndFrame(now, clock.Now(), uploaded)
//	if b, ok := d.Title(now); ok { setTitle(b) }
//	if !d.Done() { limiter.Wait(d.FrameInterval()) }
//
// and at the end d.Finish, which writes the files and -stats.
package demo

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/physics"
)

// Platform is what a front end gives the demo.
type Platform struct {
	// Clock is the loop's clock, monotonic; key events are stamped on it.
	Clock loop.Clock
	// Display is what the front end can do about vsync.
	Display Display
	// Files reads and writes the files the flags name; nil: none can be.
	Files Files
	// Network opens sockets for a network game; nil: no network game.
	Network Network
	// Log takes the demo's messages, a line each ("interpdemo: ...").
	Log io.Writer
	// Load burns d of time on purpose (the render and logic loads),
	// pumping the platform's events as it goes, so that key presses
	// during a long frame are stamped when they happen; nil: the loads
	// burn nothing.
	Load func(d time.Duration)
	// Stop is done when the user asks, from outside the window, for the
	// run to end (the desktop's SIGINT and SIGTERM), its cause saying how
	// ("interrupted by SIGINT"); nil: never. New's waits (a joiner's for
	// the host's answer, a spectator's for the game, the entering of a
	// lobby's room) end with it at once, with an error naming the wait:
	// they can last seconds to a minute, and a Ctrl-C that waited them
	// out would look lost. Once the loop runs, the front end calls
	// Interrupt.
	Stop context.Context
}

// stop is Stop, or a context never done where it is nil.
func (p Platform) stop() context.Context {
	if p.Stop == nil {
		return context.Background()
	}
	return p.Stop
}

// autosave is how often a recording is written while it runs, so that a
// crash or a kill loses at most this much of it. Each save replaces the
// file atomically.
const autosave = 10 * time.Second

// Demo is the demo's state: the simulation, the settings the keys change,
// the overlays' content, the statistics and the outputs. It is not safe
// for concurrent use: a front end calls it from its loop.
type Demo struct {
	cfg  Config
	p    Platform
	sim  *sim.Sim
	net  *netGame // a network game's socket and session, or nil
	keys keyState

	view    view
	vsync   vsyncState
	cull    hud.Cull    // the renderer's occlusion culling, for the HUD
	sprites hud.Sprites // the balls' form, for the HUD
	pace    *pacing
	ov      *overlay
	notice  notice
	title   titleBar

	fps, tps *loop.RateCounter
	last     sim.FrameInfo // the latest frame's logic
	st       runStats
	trace    *traceWriter
	scene    Scene

	start        time.Duration // the first frame's start
	frameNow     time.Duration // the frame in progress's start
	quit         bool
	autosaveNext time.Duration
	autosaveErr  bool // the first autosave failure was logged
}

// New makes the demo for cfg (from Parse) on the platform p: for a
// network game it opens the socket and, for a joiner, waits for the
// host's welcome. The loop starts at the first StartFrame.
func New(cfg Config, p Platform) (d *Demo, err error) {
	if p.Clock == nil || p.Display == nil {
		return nil, fmt.Errorf("demo: the platform has no clock or display")
	}
	if p.Log == nil {
		p.Log = io.Discard
	}
	d = &Demo{
		cfg: cfg, p: p,
		view: view{
			hud: cfg.HUD, graph: cfg.Graph, ghosts: cfg.Ghosts, help: cfg.HUDHelp,
			fpsCap: cfg.FPSCap, renderLoad: cfg.RenderLoad,
		},
		vsync: vsyncState{requested: cfg.Vsync},
		pace:  newPacing(&cfg),
		ov:    newOverlay(),
	}
	switch {
	case !cfg.Interp:
		d.view.draw = drawOff
	case cfg.Extrapolate:
		d.view.draw = drawExtrap
	}
	if cfg.Net.On() {
		if p.Network == nil {
			return nil, fmt.Errorf("no network here for a network game")
		}
		who := &whoLog{w: p.Log}
		d.p.Log = who
		if d.net, err = startNet(&d.cfg, p.Network, p.Clock, p.stop(), who); err != nil {
			return nil, err
		}
		cfg = d.cfg
		defer func() {
			if err != nil {
				d.net.leave(p.Clock)
			}
		}()
	}
	if d.sim, err = sim.New(sim.Config{
		Settings:  cfg.Settings,
		Mode:      cfg.Mode,
		Speed:     cfg.Speed,
		Paused:    cfg.Paused,
		FrameCap:  d.view.capInterval(),
		Fast:      cfg.Fast,
		TickLimit: cfg.Ticks,
		LogicLoad: cfg.LogicLoad,
		Load:      p.Load,
		Record:    cfg.RecordFile != "",
		Replay:    cfg.Replay,
		Net:       d.netSession(),
		Join:      d.net != nil && !d.net.host,
		FaultAt:   uint64(cfg.Net.FaultAt),
		Spectate:  d.netSpectator(),
		Bot:       cfg.Net.Bot,
		BotSeed:   cfg.Net.BotSeed,
		SyncTest:  cfg.SyncTest,
	}, p.Clock, p.Clock.Now()); err != nil {
		if cfg.Replay != nil {
			err = fmt.Errorf("%s: %v", cfg.ReplayFile, err)
		}
		return nil, err
	}
	if cfg.TraceFile != "" {
		if d.trace, err = newTraceWriter(p.Files, cfg.TraceFile); err != nil {
			return nil, FileErr("trace", err)
		}
	}
	d.keys.queue = make([]input.Event, 0, 64)
	if d.fps, err = loop.NewRateCounter(time.Second, 4096); err != nil {
		return nil, err
	}
	if d.tps, err = loop.NewRateCounter(time.Second, 4096); err != nil {
		return nil, err
	}
	d.title.buf = make([]byte, 0, 128)
	d.ov.markers = make([]Marker, 0, 2*physics.MaxPlayers)
	return d, nil
}

// Start starts the loop at now, the time of the first frame: the window
// and GL set-up before it is loading time, not a burst of ticks. The
// display is asked for the vsync the flags want.
func (d *Demo) Start(now time.Duration) error {
	d.start = now
	d.autosaveNext = now + autosave
	d.pace.start(now)
	d.setVsync(d.vsync.requested, now)
	return d.sim.SetMode(d.sim.Mode(), now)
}

// Close lets go of what the demo holds: an unfinished trace is thrown
// away, a network game's socket closed. Safe on a partly made Demo.
func (d *Demo) Close() {
	if d.trace != nil {
		d.trace.abort()
		d.trace = nil
	}
	if d.net != nil {
		d.net.stopWatching(d.p.Clock.Now()) // a spectator stopped otherwise (Stop) says goodbye too
		d.net.conn.Close()
	}
}

// Log is where the demo's messages go: the platform's log, through which
// a network game's lines say which peer wrote them. A front end writes
// its own messages about the run there too.
func (d *Demo) Log() io.Writer { return d.p.Log }

// Config is the configuration the demo runs: the flags', with a joiner's
// world settings replaced by the host's.
func (d *Demo) Config() *Config { return &d.cfg }

// World is the world to draw. The front end reads it; only the demo
// changes it.
func (d *Demo) World() *physics.World { return d.sim.World() }

// Sim is the simulation (for tests and measurements).
func (d *Demo) Sim() *sim.Sim { return d.sim }

// Discarded is the time debt the latest frame's logic threw away: in the
// fixed mode, what a frame later than MaxLoops ticks can catch up left
// over (0 when the logic kept up).
func (d *Demo) Discarded() time.Duration { return d.last.Discarded }

// Done says the run is over: quit, the tick limit, the end of a replay or
// of a network game.
func (d *Demo) Done() bool { return d.quit }

// Stop ends the run at once (a front end's own failure, such as a GL
// error): Finish reports it.
func (d *Demo) Stop() { d.quit = true }

// RequestQuit ends the run: at once, or in a network game once every
// peer has heard that the game is over.
func (d *Demo) RequestQuit(now time.Duration) {
	if d.net != nil && d.net.spec == nil && !d.sim.Finished() {
		d.sim.Quit(now)
		return
	}
	if d.net != nil {
		d.net.stopWatching(now) // a spectator's goodbye, if it goes before the end
	}
	d.quit = true
}

// Goodbye tells a network game's peers, in what goes out now, that this
// one is going with no more frames to come (a page whose tab closes): a
// player quits, as with Q, so that the others end cleanly at its end
// tick rather than after its silence; a spectator says goodbye. Nothing
// waits for an answer. A run without a network game, or whose game is
// over, has nothing to say.
func (d *Demo) Goodbye(now time.Duration) {
	g := d.net
	switch {
	case g == nil || d.quit:
	case g.spec != nil:
		g.stopWatching(now)
	case !d.sim.Finished():
		d.sim.Quit(now)
		g.sess.Frame(now, 0, 0) // the quit goes out at once
	}
}

// Interrupt ends the run as RequestQuit does, for a reason from outside
// the window: a signal, which why names ("interrupted by SIGINT"). A run
// that is still waiting for its game (a network game's players not all
// there yet, or a spectator's game not started) ends with an error that
// says so, since what it was started for never happened: Finish returns
// it (exit status 1), once the files are written. Any other run ends as
// with Q: the files are written and it succeeds.
func (d *Demo) Interrupt(now time.Duration, why error) {
	if g := d.net; g != nil && g.failed == nil && g.waiting() {
		g.failed = g.waitErr(why)
	}
	d.RequestQuit(now)
}

// FrameInterval is the interval the front end's frame limiter keeps: the
// frame cap, or what the timing mode asks for; 0 for none.
func (d *Demo) FrameInterval() time.Duration { return d.sim.LimiterInterval() }

// DisplayVsync says the display's own vsync is in force: a swap waits for
// its vblank. Emulated and simulated vsync wait on the loop's clock
// instead (VblankWait).
func (d *Demo) DisplayVsync() bool { return d.vsync.actual == "on" || d.vsync.actual == "adaptive" }

// RenderLoad is the time the front end burns in each frame's draw.
func (d *Demo) RenderLoad() time.Duration { return d.view.renderLoad }

// StartFrame begins the frame whose clock reading is now: the last
// frame's statistics and trace row are closed, and -duration checked.
func (d *Demo) StartFrame(now time.Duration) {
	d.frameNow = now
	if prev, ok := d.st.frameStart(now); ok {
		d.ov.ring.Add(frameOf(&prev))
		if d.trace != nil {
			d.trace.row(&prev)
		}
	}
	if d.cfg.Duration > 0 && now-d.start >= d.cfg.Duration {
		d.RequestQuit(now)
	}
}

// Update runs the frame's logic at now: the network's datagrams, the
// ticks, what goes out. In the adaptive mode it returns the time the
// frame's draw should start (ok true): the front end waits until then.
func (d *Demo) Update(now time.Duration) (presentAt time.Duration, ok bool) {
	info := d.sim.Frame(d.pace.frameTime(now, d.sim), d.keys.queue)
	d.keys.queue = d.keys.queue[:0]
	d.last = info
	if g := d.net; g != nil {
		g.lobbyWatch(now, d.sim)
		g.waitLimit(now, d.sim, d.cfg.Net.Wait)
		g.announce(d.p.Log)
		if g.smooth != nil {
			g.smooth.update(d.sim, g.sess.Index(), now)
		}
		if g.ghosts != nil {
			g.ghosts.update(d.sim, g.sess.Index(), now)
		}
	}
	if d.sim.Finished() {
		d.quit = true
	}
	return d.sim.PresentAt()
}

// BeginDraw tells the simulation the frame's draw starts at now (the
// adaptive mode measures it).
func (d *Demo) BeginDraw(now time.Duration) { d.sim.BeginDraw(now) }

// SyncFunc brings a renderer's copy of the balls' last and next positions
// up to date (render.Renderer.Sync) and returns the bytes it sent.
type SyncFunc func(last, next []int32, version, moved uint64) int

// SyncWorld hands the world's positions to sync, as they are to be drawn
// (a rollback's corrected remote balls gliding), and returns what sync
// returns.
func (d *Demo) SyncWorld(sync SyncFunc) int {
	w := d.sim.World()
	if d.net != nil && d.net.smooth != nil {
		return d.net.smooth.sync(w, sync)
	}
	return sync(w.Last, w.Next, w.Ticks()+w.Steps(), w.Moved())
}

// Scene is what the frame that started at now draws in a window of
// winW×winH pixels. It is the demo's own, valid until the next call.
func (d *Demo) Scene(now time.Duration, winW, winH int) *Scene {
	sc := &d.scene
	*sc = Scene{Alpha: 1, Ghosts: d.view.ghosts, Highlight: d.sim.World().Player()}
	if d.net != nil && d.net.sess != nil {
		sc.Highlight, sc.HighlightBall = true, d.net.sess.Index()
	}
	if d.sim.Mode() == sim.ModeFixed {
		sc.Alpha = d.view.draw.alpha(d.last.Percent)
	}
	world, hudArea, graphArea := Layout(winW, winH, d.hudWidth(), d.view.graph)
	sc.World = world
	if d.view.hud {
		sc.HUD = d.hudLayer(now, hudArea)
	}
	if d.view.graph {
		sc.Graph = d.graphLayer(now, graphArea)
	}
	if d.view.ghosts && d.net != nil && d.net.ghosts != nil {
		sc.Markers = d.net.ghosts.markers(now)
		sc.MarkerRadius = float64(d.sim.World().Config().Radius)
	}
	return sc
}

// VblankWait is what the front end waits for after the swap with a
// simulated display (-vsync-sim): until wake, the wake-up after the
// vblank at which the frame shows. ok is false without one: the frame
// shows when the swap returns.
func (d *Demo) VblankWait(now time.Duration) (wake, vblank time.Duration, ok bool) {
	return d.pace.vblankWait(now)
}

// Presented measures the frame's step: shown is when the frame is shown
// (the simulated vblank, or the swap's return); with a simulated display,
// wake is when the front end meant to wake up and woke when it did.
func (d *Demo) Presented(shown, wake, woke time.Duration) {
	if d.pace.vsim != nil && d.pace.synced {
		d.pace.vsim.woke(wake, woke)
	}
	d.pace.present(d.last, d.sim, shown)
}

// EndFrame counts the frame that started at start and whose draw ended
// at drawEnd, having sent uploaded bytes of positions to the GPU; a
// recording is saved when an autosave is due.
func (d *Demo) EndFrame(start, drawEnd time.Duration, uploaded int) {
	d.sim.EndDraw(drawEnd)
	if d.net != nil {
		if !d.net.ready {
			d.net.ready = true // a frame was shown: the loop runs
			if err := d.sim.Ready(); err != nil {
				fmt.Fprintf(d.p.Log, "interpdemo: %v\n", err)
				d.quit = true
			}
		}
		if !d.st.gameStarted && d.net.running() {
			d.st.gameStart, d.st.gameStarted = start, true
		}
		if d.last.Ticks > 0 {
			d.st.gameLastTicks = start // the game's tick rate counts to here
		}
	}
	d.fps.Add(start, 1)
	d.tps.Add(start, d.last.Ticks)
	x, nextX := ball0X(d.sim.World(), d.scene.Alpha)
	d.st.frameDone(start, d.last, uploaded, d.view.renderLoad, d.sim.Mode(), d.view.capInterval(), x, nextX)
	if d.cfg.RecordFile != "" && start >= d.autosaveNext && d.sim.Recording() {
		d.autosaveNext = start + autosave
		if err := d.writeRecording(); err != nil && !d.autosaveErr {
			d.autosaveErr = true
			fmt.Fprintf(d.p.Log, "interpdemo: autosave: %v\n", err)
		}
	}
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

// netSession is the network game's session, or nil.
func (d *Demo) netSpectator() *netplay.Spectator {
	if d.net == nil {
		return nil
	}
	return d.net.spec
}

func (d *Demo) netSession() *netplay.Session {
	if d.net == nil {
		return nil
	}
	return d.net.sess
}

// setVsync asks the display for a vsync mode at now and records what it
// gave. The first refusal is logged; the demo goes on either way, with
// vsync emulated where it was asked for.
func (d *Demo) setVsync(v Vsync, now time.Duration) {
	d.vsync.requested = v
	actual, err := d.pace.setVsync(d.p.Display, v, now)
	d.vsync.actual = actual
	if err != nil && !d.vsync.logged {
		d.vsync.logged = true
		how := "running with the driver's default"
		if d.pace.emulated {
			how = "vsync " + actual + ": each frame waits for a vblank of the loop's own clock"
		}
		fmt.Fprintf(d.p.Log, "interpdemo: %v; %s\n", err, how)
	}
}

// setFPSCap sets the frame cap (0 for none): the simulation's adaptive
// mode follows it, and so does FrameInterval.
func (d *Demo) setFPSCap(n int) {
	d.view.fpsCap = n
	d.sim.SetFrameCap(d.view.capInterval()) // >= 0
}

// Uploaded counts bytes of positions sent to the GPU outside a frame (the
// first upload, before the loop starts).
func (d *Demo) Uploaded(n int) { d.st.uploadBytes += int64(n) }
