package main

import (
	"image"
	"strconv"
	"time"
	"unsafe"

	"github.com/interpdemo/interpdemo/internal/hud"
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
// package hud, a few times a second, and uploaded as textures. Between
// refreshes a frame only draws the two textured rectangles.
type overlay struct {
	text      *hud.TextImage
	textTex   *render.Overlay
	panel     image.Rectangle
	buf       []byte
	snap      hud.Snapshot
	graphImg  *image.RGBA
	graphSub  *image.RGBA // graphImg's left graphW columns
	graphTex  *render.Overlay
	cols      []hud.Column
	graph     *hud.Graph
	ring      *hud.Ring
	nextText  time.Duration
	nextGraph time.Duration
	graphW    int
}

func newOverlay(r *render.Renderer) *overlay {
	return &overlay{
		text:     hud.NewTextImage(hudW, hudH),
		textTex:  r.NewOverlay(hudW, hudH),
		buf:      make([]byte, 0, 2048),
		graphImg: image.NewRGBA(image.Rect(0, 0, maxGraphWidth, graphH)),
		graphTex: r.NewOverlay(maxGraphWidth, graphH),
		cols:     make([]hud.Column, maxGraphWidth),
		ring:     hud.NewRing(graphRingSize),
		graph:    hud.NewGraph(),
	}
}

// uploadedBytes is what the overlays sent to the GPU (texture data, apart
// from the balls' buffers).
func (o *overlay) uploadedBytes() int64 {
	return o.textTex.UploadedBytes() + o.graphTex.UploadedBytes()
}

// draw refreshes what is due, as of the frame's start now, and draws the
// overlays that are on.
func (o *overlay) draw(a *app, now time.Duration) {
	winW, winH := a.rend.WindowSize()
	if a.hudOn {
		if now >= a.nextHUD {
			a.nextHUD = now + hudRefresh
			o.buf = hud.AppendText(o.buf[:0], a.snapshot(now))
			o.panel = o.text.Render(o.buf)
			o.textTex.Upload(o.text.Img, o.panel)
		}
		a.rend.DrawOverlay(o.textTex, 0, 0, o.panel.Dx(), o.panel.Dy())
	}
	if a.graphOn {
		w := min(winW, maxGraphWidth)
		if w != o.graphW {
			o.graphW = w
			o.graphSub = o.graphImg.SubImage(image.Rect(0, 0, w, graphH)).(*image.RGBA)
			o.nextGraph = 0
		}
		if now >= o.nextGraph {
			o.nextGraph = now + graphRefresh
			img := o.graphSub
			hud.Columns(o.cols[:w], o.ring, now, graphSpan)
			o.graph.Draw(img, o.cols[:w], hud.DefaultScale, hud.GraphLines{Tick: a.world.Config().Tick, Cap: a.capInterval()})
			o.graphTex.Upload(o.graphImg, img.Rect)
		}
		a.rend.DrawOverlay(o.graphTex, 0, winH-graphH, o.graphW, graphH)
	}
}

// snapshot gathers the HUD's numbers.
func (a *app) snapshot(now time.Duration) *hud.Snapshot {
	s := &a.ov.snap
	lastSecond := a.ov.ring.Since(now - time.Second)
	*s = hud.Snapshot{
		FPS:                 a.fps.Rate(now),
		TPS:                 a.tps.Rate(now),
		TicksThisFrame:      a.last.ticks,
		Percent:             a.last.percent,
		DiscardedLastSecond: lastSecond.Discarded,
		DiscardedTotal:      a.st.discarded,
		Draw:                a.draw.String(),
		VsyncRequested:      a.vsync.String(),
		VsyncActual:         a.vsyncActual,
		FPSCap:              a.fpsCap,
		RenderLoad:          a.renderLoad,
		LogicLoad:           a.logicLoad,
		Balls:               a.world.N(),
		Player:              a.world.Player(),
		Mode:                a.mode.String(),
		ModeLine:            a.modeLine,
		Speed:               a.speed,
		Paused:              a.paused,
		Tick:                a.world.Config().Tick,
		MaxLoops:            a.cfg.maxLoops,
		Lockstep:            a.cfg.lockstep,
		Status:              a.status(now),
		GraphLegend:         a.graphOn,
	}
	return s
}

// status is the HUD's line for recording, replaying and refused keys.
func (a *app) status(now time.Duration) string {
	if a.notice != "" && now < a.noticeUntil {
		return a.notice
	}
	switch {
	case a.rec != nil:
		return "recording to " + a.cfg.recordFile
	case a.rep != nil:
		return "replaying " + a.cfg.replayFile
	}
	return ""
}

// say shows a message on the HUD for a few seconds.
func (a *app) say(msg string, now time.Duration) {
	a.notice, a.noticeUntil = msg, now+3*time.Second
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
	b = append(b, [...]string{"on", "extrapolate", "off"}[a.draw]...)
	b = append(b, " | vsync "...)
	b = append(b, a.vsyncActual...)
	b = append(b, " | balls "...)
	b = strconv.AppendInt(b, int64(a.world.N()), 10)
	b = append(b, " | "...)
	b = append(b, a.mode.String()...)
	if a.paused {
		b = append(b, " | paused"...)
	}
	a.title = b
	// SetTitle copies the bytes into C memory at once; the string view
	// does not outlive the call.
	a.win.SetTitle(unsafe.String(unsafe.SliceData(b), len(b)))
}
