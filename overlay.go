package main

import (
	"bytes"
	"image"
	"os"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/render"
)

// Overlay sizes in pixels.
const (
	hudW, hudH    = 420, 330
	graphH        = 108
	graphSpan     = 4 * time.Second
	hudRefresh    = 100 * time.Millisecond // the HUD's text, 10 times a second
	graphRefresh  = time.Second / 30       // the graph, 30 times a second
	graphRingSize = 8192                   // frames the graph remembers
	maxGraphWidth = 2048
)

// overlay is the HUD and the frame-time graph: images drawn on the CPU by
// package hud, a few times a second, and uploaded as textures, only the
// parts that changed: the HUD's text when it changes, and the graph as a
// sweep (hud.Sweep), whose refresh changes a few columns where the sweep
// is. They are the frame's layers over the world (render.Layer): where
// the drawable keeps its pixels (headless), the renderer repaints only
// those parts, and where a ball passes beneath, so the overlays cost next
// to nothing. It is given the values it shows; it knows nothing of the
// app.
type overlay struct {
	text      *hud.TextImage
	textTex   *render.Overlay
	panel     image.Rectangle
	buf       []byte // the HUD's text being built
	shown     []byte // the HUD's text in the texture
	snap      hud.Snapshot
	graphImg  *image.RGBA
	graphSub  *image.RGBA // graphImg's left graphW columns
	graphTex  *render.Overlay
	sweep     *hud.Sweep
	graph     *hud.Graph
	ring      *hud.Ring
	nextText  time.Duration
	nextGraph time.Duration
	graphW    int
	glInfo    string
	netBuf    []byte
	layers    [2]render.Layer
	frame     render.Frame
}

func newOverlay(r *render.Renderer, glInfo string) *overlay {
	return &overlay{
		text:     hud.NewTextImage(hudW, hudH),
		textTex:  r.NewOverlay(hudW, hudH),
		buf:      make([]byte, 0, 2048),
		shown:    make([]byte, 0, 2048),
		graphImg: image.NewRGBA(image.Rect(0, 0, maxGraphWidth, graphH)),
		graphTex: r.NewOverlay(maxGraphWidth, graphH),
		sweep:    hud.NewSweep(maxGraphWidth),
		ring:     hud.NewRing(graphRingSize),
		graph:    hud.NewGraph(),
		glInfo:   glInfo,
	}
}

// uploadedBytes is what the overlays sent to the GPU (texture data, apart
// from the balls' buffers).
func (o *overlay) uploadedBytes() int64 {
	return o.textTex.UploadedBytes() + o.graphTex.UploadedBytes()
}

// textDue says the HUD's text is due for a refresh at now.
func (o *overlay) textDue(now time.Duration) bool { return now >= o.nextText }

// setText builds the HUD's text for s and, if it differs from the text
// shown, renders it and uploads its panel (only the panel: the rest of
// the texture is never drawn).
func (o *overlay) setText(r *render.Renderer, s *hud.Snapshot, now time.Duration) {
	o.nextText = now + hudRefresh
	o.buf = hud.AppendText(o.buf[:0], s)
	if bytes.Equal(o.buf, o.shown) && !o.panel.Empty() {
		return
	}
	o.shown = append(o.shown[:0], o.buf...)
	o.panel = o.text.Render(o.buf)
	o.textTex.Upload(o.text.Img, o.panel)
}

// draw refreshes the graph when due, as of the frame's start now, and
// draws the frame: the balls at mix factor alpha, the ghost rings if
// ghosts, and the overlays that are on.
func (o *overlay) draw(r *render.Renderer, now time.Duration, alpha float32, ghosts, hudOn, graphOn bool, lines hud.GraphLines) {
	winW, winH := r.WindowSize()
	f := &o.frame
	*f = render.Frame{Alpha: alpha, Ghosts: ghosts, Layers: o.layers[:0]}
	if hudOn {
		f.Layers = append(f.Layers, render.Layer{Overlay: o.textTex, W: o.panel.Dx(), H: o.panel.Dy(), Opaque: true})
	}
	if graphOn {
		w := min(winW, maxGraphWidth)
		if w != o.graphW {
			o.graphW = w
			o.graphSub = o.graphImg.SubImage(image.Rect(0, 0, w, graphH)).(*image.RGBA)
			o.nextGraph = 0
		}
		if now >= o.nextGraph {
			o.nextGraph = now + graphRefresh
			for _, part := range o.sweep.Update(o.graphSub, o.graph, o.ring, now, graphSpan, hud.DefaultScale, lines) {
				o.graphTex.Upload(o.graphImg, part)
			}
		}
		f.Layers = append(f.Layers, render.Layer{Overlay: o.graphTex, Y: winH - graphH, W: o.graphW, H: graphH, Opaque: true})
	}
	r.Draw(f)
}

// renderEnv is a hidden switch for measuring the renderer against its
// references (cmd/bench): a comma-separated list of
//
//	painter   draw the balls in one pass, every fragment shaded and blended
//	redraw    paint every frame whole, even where the drawable keeps its
//	          pixels
//	retained  where the drawable keeps its pixels (headless), repaint only
//	          what changed (the default)
const renderEnv = "INTERPDEMO_RENDER"

// renderChoice is what renderEnv asks for.
type renderChoice struct {
	painter, redraw bool
}

// renderChoiceFromEnv reads renderEnv.
func renderChoiceFromEnv() renderChoice {
	var c renderChoice
	for _, w := range strings.Split(os.Getenv(renderEnv), ",") {
		switch strings.TrimSpace(w) {
		case "painter":
			c.painter = true
		case "redraw":
			c.redraw = true
		case "retained":
			c.redraw = false
		}
	}
	return c
}

// renderConfig is the renderer's configuration for the world wc drawn in
// win. Where the drawable keeps its pixels from one frame to the next
// (headless), only what changed is repainted; a window's back buffer is
// undefined after a swap, so there every frame is painted whole.
func renderConfig(wc physics.Config, win *platform.Window, c renderChoice) render.Config {
	return render.Config{
		WorldW: wc.Width, WorldH: wc.Height, Radius: wc.Radius, FracBits: physics.FracBits,
		Painter: c.painter, Retained: win.Preserved() && !c.redraw,
	}
}

// graphLines are the graph's reference lines: the tick and the frame cap.
func (a *app) graphLines() hud.GraphLines {
	return hud.GraphLines{Tick: a.sim.Tick(), Cap: a.view.capInterval()}
}

// snapshot gathers the HUD's numbers into the overlay's snapshot.
func (a *app) snapshot(now time.Duration) *hud.Snapshot {
	s := &a.ov.snap
	lastSecond := a.ov.ring.Since(now - time.Second)
	set := a.sim.Settings()
	*s = hud.Snapshot{
		FPS:                 a.fps.Rate(now),
		TPS:                 a.tps.Rate(now),
		TicksThisFrame:      a.last.Ticks,
		Percent:             a.last.Percent,
		DiscardedLastSecond: lastSecond.Discarded,
		DiscardedTotal:      a.st.discarded,
		Draw:                a.view.draw.String(),
		VsyncRequested:      a.vsync.requested.String(),
		VsyncActual:         a.vsync.actual,
		FPSCap:              a.view.fpsCap,
		RenderLoad:          a.view.renderLoad,
		LogicLoad:           a.sim.LogicLoad(),
		Balls:               a.sim.World().N(),
		Player:              a.sim.World().Player(),
		Mode:                a.sim.Mode().String(),
		ModeLine:            a.sim.ModeLine(),
		Speed:               a.sim.Speed(),
		Paused:              a.sim.Paused(),
		Tick:                a.sim.Tick(),
		MaxLoops:            int(set.MaxLoops),
		Lockstep:            set.Lockstep,
		Status:              a.status(now),
		KeyHelp:             hudHelp,
		Help:                a.view.help,
		GraphLegend:         a.view.graph,
	}
	a.pace.snapshot(s)
	return s
}

// hudHelp is the key table as the HUD shows it, made once.
var hudHelp = hudKeyHelp()

// status is the HUD's line for recording, replaying and refused keys.
func (a *app) status(now time.Duration) string {
	if msg, ok := a.notice.at(now); ok {
		return msg
	}
	switch {
	case a.sim.Recording():
		return "recording to " + a.cfg.recordFile
	case a.sim.Replaying():
		return "replaying " + a.cfg.replayFile
	}
	if a.net != nil {
		a.ov.netBuf = a.net.hudLines(a.ov.netBuf[:0])
		return string(a.ov.netBuf) // 10 times a second, in a network game only
	}
	return ""
}

// notice is a one-off message for the HUD (a refused key), shown for a
// few seconds.
type notice struct {
	msg   string
	until time.Duration
}

func (n *notice) say(msg string, now time.Duration) { n.msg, n.until = msg, now+3*time.Second }

func (n *notice) at(now time.Duration) (string, bool) {
	return n.msg, n.msg != "" && now < n.until
}

// titleBar is the window title's text, rebuilt twice a second in a reused
// buffer.
type titleBar struct {
	buf  []byte
	next time.Duration
}

// updateTitle shows the live numbers in the window title. The text is
// built in a reused buffer, so it costs no garbage.
func (a *app) updateTitle(now time.Duration) {
	b := a.title.buf[:0]
	b = append(b, "interpdemo | FPS "...)
	b = strconv.AppendFloat(b, a.fps.Rate(now), 'f', 0, 64)
	b = append(b, " | TPS "...)
	b = strconv.AppendFloat(b, a.tps.Rate(now), 'f', 0, 64)
	b = append(b, " | "...)
	b = append(b, drawModeNames[a.view.draw].title...)
	b = append(b, " | vsync "...)
	b = append(b, a.vsync.actual...)
	b = append(b, " | balls "...)
	b = strconv.AppendInt(b, int64(a.sim.World().N()), 10)
	b = append(b, " | "...)
	b = append(b, a.sim.Mode().String()...)
	if a.sim.Paused() {
		b = append(b, " | paused"...)
	}
	a.title.buf = b
	setTitle(a.win, b)
}

// setTitle sets the window title from bytes. SetTitle copies them into C
// memory at once; the string view does not outlive the call.
func setTitle(w *platform.Window, b []byte) {
	w.SetTitle(unsafe.String(unsafe.SliceData(b), len(b)))
}
