//go:build js && wasm

package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"syscall/js"
	"time"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/render/adaptive"
)

// refreshSamples is how many animation frames the page watches before
// the loop starts, to learn the display's refresh interval.
const refreshSamples = 12

// warmup is how long after the first frame the allocation and GC counts
// of -stats start: the demo's one warm-up, as in the window.
const warmup = demo.Warmup

// Run runs the demo in the page: the flags from the page's query, the
// loop on the browser's animation frames, the world drawn with WebGL2
// into the canvas #world. It returns when the page is set up; the loop
// goes on in the browser's callbacks.
func Run() {
	p := &page{doc: js.Global().Get("document"), next: nextNone}
	p.clock.base = time.Now()
	p.api = js.Global().Get("Object").New()
	js.Global().Set("interpdemo", p.api)
	p.setState("loading")
	if err := p.start(); err != nil {
		p.fail(err)
	}
}

// clock is the loop's clock: Go's monotonic time, which the browser's
// performance.now() gives.
type clock struct{ base time.Time }

func (c *clock) Now() time.Duration { return time.Since(c.base) }

// page is the web front end of one run.
type page struct {
	doc    js.Value
	api    js.Value // window.interpdemo: the page's state, for people and tests
	clock  clock
	perf   js.Value
	offset time.Duration // the clock's reading less performance.now()'s, in ns

	d          *demo.Demo
	cfg        *demo.Config
	gl         *glRenderer
	win        *layout // the window: the world's canvas and the overlays' (panels.go)
	winW, winH int

	refresh time.Duration // the display's, measured on animation frames
	animate bool          // vsync: a frame on each animation frame; else as fast as the browser runs them
	due     time.Duration // the frame limiter's next frame
	dueIv   time.Duration // the interval due counts in

	sched    js.Value // the scheduler (loop.go): called with the first frame's answer
	title    js.Value // titleJS's setter, and the bytes it decodes
	titleBuf js.Value
	next     float64 // the frame's answer: what the next frame waits for (loop.go)

	keys      []demo.KeyEvent // key events since the last frame
	quitKey   bool            // Q or Escape was pressed
	drawAfter bool            // a frame whose draw waits (the adaptive mode's present time)
	frameNow  time.Duration
	callStart time.Duration // when the export's call that runs now began
	alpha     float32       // the last frame's mix factor from last to next positions

	frames      int64
	warmAt      time.Duration
	warm        bool
	mem         runtime.MemStats
	allocs, gcs uint64 // the counts at the end of the warm-up
	warmFrames  int64  // the frames and ticks at its end
	warmTicks   uint64
	runAllocs   uint64 // since then, to the last frame (finish)
	runGCs      uint64
	log         consoleLog
	budget      budget // why the logic fell behind, when it does (budget.go)
}

// start reads the query, fetches a recording, checks the flags, makes
// the renderer and the demo, and starts the loop.
func (p *page) start() error {
	var err error
	if p.sched, err = newScheduler(); err != nil {
		return err
	}
	p.perf = js.Global().Get("performance")
	t0 := p.clock.Now()
	pn := p.perf.Call("now").Float()
	p.offset = (t0+p.clock.Now())/2 - time.Duration(pn*1e6)

	args, err := Args(js.Global().Get("location").Get("search").String())
	if err != nil {
		return err
	}
	files := &pageFiles{}
	if u := ReplayURL(args); u != "" {
		files.url, files.data, files.err = u, nil, nil
		files.data, files.err = fetchBytes(u)
	}
	platform := demo.Platform{
		Clock: &p.clock, Display: (*display)(p), Files: files, Log: &p.log,
		Load: p.busy, Network: pageNetwork{},
	}
	var usage bytes.Buffer
	cfg, err := demo.Parse(args, &usage, platform)
	if errors.Is(err, demo.ErrHelp) {
		p.setText("stats", usage.String())
		p.setText("status", "the flags, as a query: ?balls=1000&tick=40ms&ghosts")
		p.setState("help")
		return nil
	}
	if err != nil {
		return err
	}
	if err := checkPage(&cfg); err != nil {
		return err
	}
	cfg.Net.Page = true // a desync's report in the status (fail); the query's words
	p.refresh = p.measureRefresh()

	if p.d, err = demo.New(cfg, platform); err != nil {
		return err
	}
	p.cfg = p.d.Config()
	// The window: the world's -width x -height, with the HUD's column
	// and the graph's strip beside it (demo.Layout), each a canvas.
	p.winW, p.winH = p.cfg.WindowSize()
	canvas := p.doc.Call("getElementById", "world")
	if p.gl, err = newGLRenderer(canvas, p.d.World().Config(), p.cfg.Cull, p.cfg.Sprites, p.cfg.Paint); err != nil {
		return err
	}
	p.win = newLayout(p.doc, canvas, p.winW, p.winH)
	world, hudArea, graphArea := demo.Layout(p.winW, p.winH, p.cfg.HUDColumn(), p.cfg.Graph)
	p.win.show(0, &demo.Scene{World: world}, p.gl)
	p.win.warm(hudArea, graphArea)
	// Whether the browser offers the GPU timer the balls' choice needs
	// (cull.go): a property, read without a call into Go.
	p.api.Set("timer_query", p.gl.cells.hasTimer())
	if p.cfg.Cull == adaptive.Auto && !p.gl.cells.hasTimer() {
		p.log.Write([]byte("cull auto: this browser offers no " + timerExtension + ": culling stays off (?cull=on forces it)\n"))
	}
	if p.cfg.Sprites == adaptive.Auto && !p.gl.cells.hasTimer() {
		p.log.Write([]byte("sprites auto: this browser offers no " + timerExtension + ": the balls stay points (?sprites=quads forces squares)\n"))
	}
	p.d.Uploaded(p.d.SyncWorld(p.gl.sync)) // the initial upload, before any frame
	p.gl.warm()
	p.settle()
	p.listen()
	p.budget.init()
	current = p
	now := p.clock.Now()
	if err := p.d.Start(now); err != nil {
		return err
	}
	p.setState("running")
	p.setText("status", "running: "+keyHint)
	p.schedule(now)
	p.sched.Invoke(p.next)
	return nil
}

// keyHint is the status line's reminder of the keys.
const keyHint = "Space interpolation, E draw mode, V vsync, ? help, Q stop (click the page first if keys do nothing)"

// checkPage refuses the flags a page cannot honour, with the command
// line's kind of one-line message.
func checkPage(c *demo.Config) error {
	switch {
	case c.Headless:
		return demo.UsageError{Msg: "-headless: a page always draws; the native demo runs headless"}
	case c.VsyncSim > 0:
		return demo.UsageError{Msg: "-vsync-sim: a page has a real display: its animation frames (-vsync on)"}
	case c.Net.UDP():
		return demo.UsageError{Msg: "-host, -join, -spectate HOST:PORT: a page has no UDP; play through a lobby's room: ?lobby=ws://HOST:PORT/ROOM (&spectate to watch)"}
	case c.CPUProfile != "" || c.MemProfile != "":
		return demo.UsageError{Msg: "-cpuprofile, -memprofile: no profiles in a page; use the browser's profiler"}
	}
	return nil
}

// fail shows a one-line error: in the status line and, with ?stats, in
// <pre id="stats">, where a test reads it; a desync's report below the
// line, in the status. Nothing is drawn.
func (p *page) fail(err error) {
	line := "interpdemo: " + firstLine(err.Error())
	p.setText("status", line)
	if e := (*netplay.Error)(nil); errors.As(err, &e) && e.Report != "" {
		p.setText("status", line+"\n\n"+e.Report)
	}
	if strings.Contains(js.Global().Get("location").Get("search").String(), "stats") {
		p.setText("stats", line)
	}
	js.Global().Get("console").Call("error", line)
	p.setState("error")
	p.api.Set("error", line)
}

func (p *page) setText(id, s string) {
	if el := p.doc.Call("getElementById", id); !el.IsNull() {
		el.Set("textContent", s)
	}
}

func (p *page) setState(s string) { p.api.Set("state", s) }

// titleMax is the longest title setTitle passes as bytes.
const titleMax = 256

// setTitle sets the page's title to b, as UTF-8. It copies the bytes into
// a typed array that JavaScript decodes: a Go string handed over would
// cost two heap allocations each time.
func (p *page) setTitle(b []byte) {
	if p.title.IsUndefined() {
		p.titleBuf = js.Global().Get("Uint8Array").New(titleMax)
		p.title = js.Global().Get("Function").New("buf", titleJS).Invoke(p.titleBuf)
	}
	if len(b) > titleMax {
		p.doc.Set("title", string(b))
		return
	}
	js.CopyBytesToJS(p.titleBuf, b)
	p.title.Invoke(len(b))
}

// titleJS is the body of a function of a Uint8Array that returns the
// title's setter: called with a length, it sets the title to that many
// bytes of the array, decoded as UTF-8.
const titleJS = `
const dec = new TextDecoder();
return (n) => { document.title = dec.decode(buf.subarray(0, n)); };
`

// toClock converts a DOMHighResTimeStamp (ms since the page's origin, as
// performance.now(), animation frames and events give) to the loop's
// clock.
func (p *page) toClock(ms float64) time.Duration { return time.Duration(ms*1e6) + p.offset }

// measureRefresh watches a few animation frames and returns the median
// interval between their timestamps: the display's refresh interval.
func (p *page) measureRefresh() time.Duration {
	stamps := make(chan float64, refreshSamples+1)
	var f js.Func
	n := 0
	f = js.FuncOf(func(_ js.Value, a []js.Value) any {
		stamps <- a[0].Float()
		if n++; n <= refreshSamples {
			js.Global().Call("requestAnimationFrame", f)
		}
		return nil
	})
	js.Global().Call("requestAnimationFrame", f)
	ts := make([]float64, 0, refreshSamples+1)
	for range refreshSamples + 1 {
		ts = append(ts, <-stamps)
	}
	f.Release()
	d := make([]float64, 0, refreshSamples)
	for i := 1; i < len(ts); i++ {
		d = append(d, ts[i]-ts[i-1])
	}
	slices.Sort(d)
	return time.Duration(d[len(d)/2] * 1e6)
}

// settleFrames bounds the animation frames settle waits.
const settleFrames = 300

// settle waits on animation frames until the GPU has finished what the
// setup gave it (the warm-up's draws) and the browser has shown two
// frames since, at most settleFrames: the loop's clock starts after.
func (p *page) settle() {
	done := make(chan struct{})
	var f js.Func
	n := 0
	f = js.FuncOf(func(js.Value, []js.Value) any {
		if n++; (n > 2 && p.gl.idleGPU()) || n >= settleFrames {
			close(done)
			return nil
		}
		js.Global().Call("requestAnimationFrame", f)
		return nil
	})
	js.Global().Call("requestAnimationFrame", f)
	<-done
	f.Release()
}

// listen turns the page's key events into the demo's, stamped with the
// time the browser gave each (when the key moved, even during a long
// frame), delivered at the next frame.
func (p *page) listen() {
	onKey := js.FuncOf(func(_ js.Value, a []js.Value) any {
		e := a[0]
		if e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("altKey").Bool() {
			return nil // the browser's own shortcuts
		}
		k := KeyOf(e.Get("code").String())
		if k == demo.KeyNone {
			return nil
		}
		e.Call("preventDefault") // Space and the arrows would scroll the page
		down := e.Get("type").String() == "keydown"
		if down && (k == demo.KeyQ || k == demo.KeyEscape) {
			p.quitKey = true
		}
		p.keys = append(p.keys, demo.KeyEvent{
			Key: k, Down: down, Repeat: e.Get("repeat").Bool(), Shift: e.Get("shiftKey").Bool(),
			Time: p.toClock(e.Get("timeStamp").Float()),
		})
		return nil
	})
	w := js.Global().Get("window")
	w.Call("addEventListener", "keydown", onKey)
	w.Call("addEventListener", "keyup", onKey)
	w.Call("addEventListener", "blur", js.FuncOf(func(js.Value, []js.Value) any {
		if p.d != nil && !p.d.Done() {
			p.d.FocusLost(p.clock.Now())
		}
		return nil
	}))
	// A tab closed, or the page left, ends the run with no frame after:
	// the peers of a network game are told at once.
	w.Call("addEventListener", "pagehide", js.FuncOf(func(js.Value, []js.Value) any {
		if p.d != nil {
			p.d.Goodbye(p.clock.Now())
		}
		return nil
	}))
	p.api.Set("info", js.FuncOf(func(js.Value, []js.Value) any { return p.info() }))
}

// info is what window.interpdemo.info() returns: the frame's figures, for
// a person at the console and for tests.
func (p *page) info() any {
	w := p.d.World()
	return map[string]any{
		"frames": p.frames, "ticks": int(w.Ticks()), "balls": w.N(), "alpha": p.alpha,
		"title": p.doc.Get("title").String(), "refresh_ms": float64(p.refresh) / 1e6,
		"vsync": p.animate, "uploaded": p.gl.uploaded,
		"cull": p.gl.culling(), "cull_hidden": p.gl.cullStats(true).Hidden, "timer_query": p.gl.cells.hasTimer(),
		"quads": p.gl.sprites.quads, "painted": p.gl.paint.on, "last_comparison": p.gl.lastComparison(),
	}
}

// frame is one pass of the loop: keys, logic, and (at once, or at the
// adaptive mode's present time) the draw. ts is the animation frame's
// timestamp, or -1 outside one.
func (p *page) frame(ts float64) {
	d := p.d
	if !p.animate && p.gl.busyGPU(p.refresh) {
		// The GPU runs behind: not a frame yet. A timer, not a message:
		// spinning on messages would take the CPU from the browser's GPU
		// process, which on a software rasterizer shares the cores.
		p.after(1)
		return
	}
	now := p.clock.Now()
	if iv := d.FrameInterval(); iv > 0 {
		if iv != p.dueIv {
			p.due, p.dueIv = now, iv
		}
		slack := time.Millisecond / 2
		if ts >= 0 {
			slack = p.refresh / 2 // the animation frame nearest the due time
		}
		if now < p.due-slack {
			p.schedule(now)
			return
		}
		if p.due += iv; p.due < now-iv {
			p.due = now // far behind (a hidden tab): start again from now
		}
	} else {
		p.dueIv = 0
	}
	d.StartFrame(now)
	for _, e := range p.keys {
		e.Time = min(e.Time, now)
		d.Key(e)
	}
	p.keys = p.keys[:0]
	t, ok := d.Update(now)
	p.budget.check(p, now)
	if ok {
		if wait := t - p.clock.Now(); wait > time.Millisecond {
			p.frameNow, p.drawAfter = now, true
			p.after(float64(wait) / 1e6)
			return
		}
	}
	p.draw(now, ts)
}

// draw is the frame's second half: the world and the overlays, the
// render load, and the frame's measurements.
func (p *page) draw(now time.Duration, ts float64) {
	d := p.d
	p.frameNow = now
	drawStart := p.clock.Now()
	d.BeginDraw(drawStart)
	d.SetCull(p.gl.cullStats(false).hud())
	d.SetSprites(p.gl.spritesHUD())
	uploaded := d.SyncWorld(p.gl.sync)
	sc := d.Scene(now, p.winW, p.winH)
	p.alpha = sc.Alpha
	p.win.show(now, sc, p.gl)
	p.gl.draw(sc)
	p.busy(d.RenderLoad())
	p.budget.drawn(drawStart, p.clock.Now())
	// The canvas is shown at the display's next refresh after the
	// animation frame's callback returns: that is the frame's vblank.
	shown := p.clock.Now()
	if ts >= 0 && p.animate && p.refresh > 0 {
		shown = p.toClock(ts) + p.refresh
	}
	if !p.animate {
		p.gl.fence() // animation frames are paced by the compositor; a loop of messages is not
	}
	d.Presented(shown, 0, 0)
	d.EndFrame(now, p.clock.Now(), uploaded)
	// The Go frame's wall time, for the balls' choice: the call that
	// drew it, from its start (a page has no CPU clock).
	p.gl.frameDone(int64(p.clock.Now() - p.callStart))
	p.budget.called(p.callStart, p.clock.Now())
	p.frames++
	p.countAllocs(now)
	if b, ok := d.Title(now); ok {
		p.setTitle(b)
	}
	if d.Done() {
		p.finish()
		return
	}
	p.schedule(p.clock.Now())
}

// schedule asks for the next frame: the next animation frame with vsync
// on; otherwise at once (a MessageChannel message, which the browser does
// not throttle as it does nested timers), or by a timer when the frame
// limiter's next frame is later.
func (p *page) schedule(now time.Duration) {
	if p.next != nextNone {
		return // asked for already
	}
	switch {
	case p.animate:
		p.next = nextAnimation
	case p.dueIv > 0 && p.due-now > time.Millisecond:
		p.next = float64(p.due-now) / 1e6
	default:
		p.next = nextMessage
	}
}

// countAllocs counts the heap allocations and GC cycles from the end of
// the warm-up, for -stats.
func (p *page) countAllocs(now time.Duration) {
	if !p.warm {
		if p.warmAt == 0 {
			p.warmAt = now + warmup
		} else if now >= p.warmAt {
			runtime.ReadMemStats(&p.mem)
			p.allocs, p.gcs, p.warm = p.mem.Mallocs, uint64(p.mem.NumGC), true
			p.warmFrames, p.warmTicks = p.frames, p.d.World().Ticks()
			if ch := p.gl.cells.choice; ch != nil {
				ch.Restart() // what the balls' choice measured so far was the warm-up's, as in the window
			}
		}
	}
}

// finish ends the loop: the demo's -stats into <pre id="stats"> (and the
// console), its error or why it stopped in the status line.
func (p *page) finish() {
	now := p.clock.Now()
	if p.warm {
		// The run's counts end with its last frame; what finishing
		// allocates (the -stats line) is not the loop's.
		runtime.ReadMemStats(&p.mem)
		p.runAllocs, p.runGCs = p.mem.Mallocs-p.allocs, uint64(p.mem.NumGC)-p.gcs
	}
	var out bytes.Buffer
	err := p.d.Finish(now, &out, p.report)
	if s := strings.TrimSpace(out.String()); s != "" {
		p.setText("stats", s)
		js.Global().Get("console").Call("log", s)
	}
	p.d.Close()
	if err != nil {
		p.fail(err)
		return
	}
	why := "the run ended"
	switch {
	case p.quitKey:
		why = "Q pressed"
	case p.cfg.Ticks > 0 && int64(p.d.World().Ticks()) >= p.cfg.Ticks:
		why = fmt.Sprintf("%d ticks done", p.cfg.Ticks)
	case p.cfg.Replay != nil:
		why = "the replay ended; its hashes matched"
	}
	p.setText("status", fmt.Sprintf("stopped: %s (%d frames, %d ticks); reload the page to run again", why, p.frames, p.d.World().Ticks()))
	p.setState("stopped")
}

// report adds the page's own figures to -stats.
func (p *page) report(r *report.Stats) {
	r.VideoDriver = "browser (WebGL2)"
	r.GLRenderer = p.gl.info()
	r.OverlayUploadBytes = p.win.bytes
	p.gl.cullStats(true).report(r)
	p.gl.spriteStats().report(r)
	p.gl.paintStats().report(r)
	if p.warm {
		a, g := p.runAllocs, p.runGCs
		r.AllocsAfterWarmup, r.GCAfterWarmup = &a, &g
	}
}

// busy burns d on purpose (the render and logic loads). A page cannot
// take events meanwhile; they keep the time they happened at.
func (p *page) busy(d time.Duration) {
	if d <= 0 {
		return
	}
	for end := p.clock.Now() + d; p.clock.Now() < end; {
	}
}

// display is the page as the demo's display: vsync on draws a frame on
// each animation frame; off runs frames as fast as the browser will.
type display page

func (d *display) SetVsync(v demo.Vsync) (string, error) {
	p := (*page)(d)
	p.animate = v != demo.VsyncOff
	if p.animate {
		return "on", nil // adaptive too: animation frames are the browser's vsync
	}
	return "off", nil
}

func (d *display) RefreshInterval() time.Duration { return d.refresh }

// consoleLog is the demo's log: the browser's console, a line a call.
type consoleLog struct{}

func (consoleLog) Write(b []byte) (int, error) {
	js.Global().Get("console").Call("log", strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

var _ io.Writer = consoleLog{}

// firstLine is s up to its first newline: a message of one line.
func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
