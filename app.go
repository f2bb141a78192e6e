package main

import (
	"fmt"
	"image"
	"io"
	"strconv"
	"time"
	"unsafe"

	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/render"
)

// app is the running demo: the world, the loop, the renderer and the
// settings the keys change. Everything runs on the main thread.
type app struct {
	cfg    config
	log    io.Writer
	win    *platform.Window
	clock  *platform.Clock
	events *platform.EventTimes
	rend   *render.Renderer
	world  *physics.World
	fixed  *loop.Fixed

	interp      bool
	vsync       platform.Vsync // requested
	vsyncActual string         // in force: on, off, adaptive or unsupported
	vsyncLogged bool

	fps, tps *loop.RateCounter
	quit     bool

	start     time.Duration // clock time of the first frame
	lastStart time.Duration // clock time of the previous frame's start
	nextTitle time.Duration
	title     []byte

	st      runStats
	lastImg *image.RGBA // the last frame, read back when -screenshot is set
}

// runStats are the totals behind -stats.
type runStats struct {
	frames, ticks     int64
	maxTicksPerFrame  int
	cappedFrames      int64
	discarded         time.Duration
	uploadBytes       int64
	uploadBytesNoTick int64
	end               time.Duration
}

func newApp(cfg config, log io.Writer) (*app, error) {
	a := &app{cfg: cfg, log: log, interp: cfg.interp, vsync: cfg.vsync}
	var err error
	a.world, err = physics.New(cfg.physicsConfig(cfg.balls))
	if err != nil {
		return nil, err
	}
	a.win, err = platform.Open(platform.Options{
		Title: "interpdemo", Width: cfg.width, Height: cfg.height, Headless: cfg.headless,
	})
	if err != nil {
		return nil, err
	}
	a.rend, err = render.New(render.Config{
		WorldW: a.world.Config().Width, WorldH: a.world.Config().Height,
		Radius: a.world.Config().Radius, FracBits: physics.FracBits,
	})
	if err != nil {
		a.win.Close()
		return nil, err
	}
	a.rend.Resize(a.win.DrawableSize())
	a.setVsync(a.vsync)
	a.st.uploadBytes += int64(a.syncWorld()) // the initial upload, before any frame

	a.clock = platform.NewClock()
	a.events = platform.CalibrateEventTimes(a.clock)
	a.fps = loop.NewRateCounter(time.Second, 4096)
	a.tps = loop.NewRateCounter(time.Second, 4096)
	a.title = make([]byte, 0, 128)

	now := a.clock.Now()
	a.fixed, err = loop.NewFixed(loop.FixedConfig{Tick: cfg.tick, MaxLoops: cfg.maxLoops, Lockstep: cfg.lockstep}, now)
	if err != nil {
		a.close()
		return nil, err
	}
	a.start, a.lastStart = now, now
	return a, nil
}

// close frees the GL objects, then the context and window. Safe to call
// on a partly built app.
func (a *app) close() {
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

func (a *app) run() {
	for !a.quit {
		a.frame()
	}
}

// frame is one pass of the classic loop: events, logic ticks, draw.
func (a *app) frame() {
	now := a.clock.Now()
	a.pumpEvents()
	if a.cfg.duration > 0 && now-a.start >= a.cfg.duration {
		a.quit = true
	}

	plan := a.fixed.Step(now)
	ran := 0
	for ; ran < plan.Ticks; ran++ {
		if a.cfg.ticks > 0 && a.st.ticks >= a.cfg.ticks {
			break
		}
		a.world.Tick(physics.Control{})
		a.st.ticks++
	}
	if a.cfg.ticks > 0 && a.st.ticks >= a.cfg.ticks {
		a.quit = true
	}

	uploaded := a.syncWorld()
	alpha := float32(1)
	if a.interp {
		alpha = float32(plan.Percent)
	}
	a.rend.Clear()
	a.rend.DrawBalls(alpha)
	if a.quit && a.cfg.screenshot != "" {
		a.lastImg = a.rend.ReadPixels()
	}
	a.win.Swap()
	a.rend.EndFrame()

	a.fps.Add(now, 1)
	a.tps.Add(now, ran)
	a.st.frames++
	a.st.uploadBytes += int64(uploaded)
	if ran == 0 {
		a.st.uploadBytesNoTick += int64(uploaded)
	}
	a.st.maxTicksPerFrame = max(a.st.maxTicksPerFrame, ran)
	if plan.Capped {
		a.st.cappedFrames++
	}
	a.st.discarded += plan.Discarded
	a.lastStart = now
	a.st.end = a.clock.Now()
	if now >= a.nextTitle {
		a.nextTitle = now + 500*time.Millisecond
		a.updateTitle(now)
	}
}

// syncWorld brings the GPU's copy of the positions up to date and returns
// the buffer bytes sent.
func (a *app) syncWorld() int {
	return a.rend.Sync(a.world.Last, a.world.Next, a.world.Ticks()+a.world.Steps(), a.world.Moved())
}

// updateTitle shows the live numbers in the window title. The text is
// built in a reused buffer, so it costs no garbage.
func (a *app) updateTitle(now time.Duration) {
	b := a.title[:0]
	b = append(b, "interpdemo | FPS "...)
	b = strconv.AppendFloat(b, a.fps.Rate(now), 'f', 0, 64)
	b = append(b, " | TPS "...)
	b = strconv.AppendFloat(b, a.tps.Rate(now), 'f', 0, 64)
	b = append(b, " | interp "...)
	b = append(b, onOff(a.interp)...)
	b = append(b, " | vsync "...)
	b = append(b, a.vsyncActual...)
	b = append(b, " | balls "...)
	b = strconv.AppendInt(b, int64(a.world.N()), 10)
	a.title = b
	// SetTitle copies the bytes into C memory at once; the string view
	// does not outlive the call.
	a.win.SetTitle(unsafe.String(unsafe.SliceData(b), len(b)))
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
