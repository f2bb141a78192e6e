package demo

import (
	"bytes"
	"image"
	"strconv"
	"time"

	"github.com/interpdemo/interpdemo/internal/hud"
)

// Overlay sizes in pixels: a front end's textures for the panels are
// this large.
const (
	HUDMaxWidth, HUDMaxHeight = 420, 330
	GraphHeight               = 108
	GraphMaxWidth             = 2048
)

const (
	graphSpan     = 4 * time.Second
	hudRefresh    = 100 * time.Millisecond // the HUD's text, 10 times a second
	graphRefresh  = time.Second / 30       // the graph, 30 times a second
	graphRingSize = 8192                   // frames the graph remembers
)

// Panel is an overlay as a front end draws it: an image made on the CPU,
// the parts of it that changed since the last frame (to upload), and the
// rectangle of the window it covers (pixels, from the top left), which
// shows the image's top-left W×H pixels. Panels are opaque.
type Panel struct {
	Img        *image.RGBA
	Changed    []image.Rectangle
	X, Y, W, H int
}

// Marker is a ring to draw over the world: a rollback's predicted or
// corrected position (Q8 world units converted to units), its colour
// premultiplied by its opacity A.
type Marker struct {
	X, Y       float64 // world units
	R, G, B, A float32
}

// Scene is what a frame draws, as the demo decided it.
type Scene struct {
	// Alpha is the mix factor from each ball's last position (0) to its
	// next (1): percentWithinTick, more than 1 when extrapolating.
	Alpha float32
	// Ghosts draws rings at every ball's last and next position.
	Ghosts bool
	// Highlight draws ball 0 as the player's.
	Highlight bool
	// HUD and Graph are the overlays, nil when off.
	HUD, Graph *Panel
	// Markers are rollback's ghost rings (with Ghosts on), MarkerRadius
	// wide in world units (plus a few pixels).
	Markers      []Marker
	MarkerRadius float64
}

// overlay is the HUD and the frame-time graph: images drawn on the CPU by
// package hud, a few times a second, and handed to the front end with the
// parts that changed: the HUD's text when it changes, and the graph as a
// sweep (hud.Sweep), whose refresh changes a few columns where the sweep
// is.
type overlay struct {
	text      *hud.TextImage
	panel     image.Rectangle // the HUD text's extent in text.Img
	buf       []byte          // the HUD's text being built
	shown     []byte          // the HUD's text in the panel
	status    []byte          // the snapshot's Status line(s)
	snap      hud.Snapshot
	graphImg  *image.RGBA
	graphSub  *image.RGBA // graphImg's left graphW columns
	sweep     *hud.Sweep
	graph     *hud.Graph
	ring      *hud.Ring
	nextText  time.Duration
	nextGraph time.Duration
	graphW    int
	hudPanel  Panel
	graphPane Panel
	hudParts  [1]image.Rectangle
	markers   []Marker
}

func newOverlay() *overlay {
	return &overlay{
		text:     hud.NewTextImage(HUDMaxWidth, HUDMaxHeight),
		buf:      make([]byte, 0, 2048),
		shown:    make([]byte, 0, 2048),
		status:   make([]byte, 0, 512),
		graphImg: image.NewRGBA(image.Rect(0, 0, GraphMaxWidth, GraphHeight)),
		sweep:    hud.NewSweep(GraphMaxWidth),
		ring:     hud.NewRing(graphRingSize),
		graph:    hud.NewGraph(),
		// Room for what a sweep redraws at most, two rectangles where it
		// wraps: the first wrap comes seconds in, after the warm-up.
		graphPane: Panel{Changed: make([]image.Rectangle, 0, 2)},
	}
}

// setText builds the HUD's text for s and, if it differs from the text
// shown, renders it: the panel is what changed.
func (o *overlay) setText(s *hud.Snapshot, now time.Duration) (changed bool) {
	o.nextText = now + hudRefresh
	o.buf = hud.AppendText(o.buf[:0], s)
	if bytes.Equal(o.buf, o.shown) && !o.panel.Empty() {
		return false
	}
	o.shown = append(o.shown[:0], o.buf...)
	o.panel = o.text.Render(o.buf)
	return true
}

// hudLayer is the HUD's panel for the frame; it fills in the snapshot and
// re-renders the text when due.
func (d *Demo) hudLayer(now time.Duration) *Panel {
	o := d.ov
	p := &o.hudPanel
	p.Changed = o.hudParts[:0]
	if now >= o.nextText && o.setText(d.snapshot(now), now) {
		p.Changed = append(p.Changed, o.panel)
	}
	p.Img, p.X, p.Y, p.W, p.H = o.text.Img, 0, 0, o.panel.Dx(), o.panel.Dy()
	return p
}

// graphLayer is the graph's panel for the frame, refreshed when due, as
// of the frame's start now, in a window winW×winH pixels.
func (d *Demo) graphLayer(now time.Duration, winW, winH int) *Panel {
	o := d.ov
	p := &o.graphPane
	p.Changed = p.Changed[:0]
	w := min(winW, GraphMaxWidth)
	if w != o.graphW {
		o.graphW = w
		o.graphSub = o.graphImg.SubImage(image.Rect(0, 0, w, GraphHeight)).(*image.RGBA)
		o.nextGraph = 0
	}
	if now >= o.nextGraph {
		o.nextGraph = now + graphRefresh
		lines := hud.GraphLines{Tick: d.sim.Tick(), Cap: d.view.capInterval()}
		p.Changed = append(p.Changed, o.sweep.Update(o.graphSub, o.graph, o.ring, now, graphSpan, hud.DefaultScale, lines)...)
	}
	p.Img, p.X, p.Y, p.W, p.H = o.graphImg, 0, winH-GraphHeight, o.graphW, GraphHeight
	return p
}

// snapshot gathers the HUD's numbers into the overlay's snapshot.
func (d *Demo) snapshot(now time.Duration) *hud.Snapshot {
	s := &d.ov.snap
	lastSecond := d.ov.ring.Since(now - time.Second)
	set := d.sim.Settings()
	d.ov.status = d.appendStatus(d.ov.status[:0], now)
	*s = hud.Snapshot{
		FPS:                 d.fps.Rate(now),
		TPS:                 d.tps.Rate(now),
		TicksThisFrame:      d.last.Ticks,
		Percent:             d.last.Percent,
		DiscardedLastSecond: lastSecond.Discarded,
		DiscardedTotal:      d.st.discarded,
		Draw:                d.view.draw.String(),
		VsyncRequested:      d.vsync.requested.String(),
		VsyncActual:         d.vsync.actual,
		FPSCap:              d.view.fpsCap,
		RenderLoad:          d.view.renderLoad,
		LogicLoad:           d.sim.LogicLoad(),
		Balls:               d.sim.World().N(),
		Player:              d.sim.World().Player(),
		Mode:                d.sim.Mode().String(),
		ModeLine:            d.sim.ModeLine(),
		Speed:               d.sim.Speed(),
		Paused:              d.sim.Paused(),
		Tick:                d.sim.Tick(),
		MaxLoops:            int(set.MaxLoops),
		Lockstep:            set.Lockstep,
		Status:              d.ov.status,
		KeyHelp:             hudHelp,
		Help:                d.view.help,
		GraphLegend:         d.view.graph,
	}
	d.pace.snapshot(s)
	return s
}

// hudHelp is the key table as the HUD shows it, made once.
var hudHelp = hudKeyHelp()

// appendStatus appends the HUD's line for recording, replaying and
// refused keys, or the network game's lines, to b. It appends into a
// buffer the overlay keeps, 10 times a second: a string built here
// ("recording to " + name, or string(bytes)) would be an allocation every
// time.
func (d *Demo) appendStatus(b []byte, now time.Duration) []byte {
	if msg, ok := d.notice.at(now); ok {
		return append(b, msg...)
	}
	switch {
	case d.sim.Recording():
		return append(append(b, "recording to "...), d.cfg.RecordFile...)
	case d.sim.Replaying():
		return append(append(b, "replaying "...), d.cfg.ReplayFile...)
	}
	if d.net != nil {
		return d.net.hudLines(b, d.sim)
	}
	return b
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

// Title is the window title's text when it is due (twice a second, and at
// once after a key), as of now; ok is false when the title shown is still
// current. The bytes are the demo's, valid until the next call.
func (d *Demo) Title(now time.Duration) (b []byte, ok bool) {
	if now < d.title.next {
		return nil, false
	}
	d.title.next = now + 500*time.Millisecond
	b = d.title.buf[:0]
	b = append(b, "interpdemo | FPS "...)
	b = strconv.AppendFloat(b, d.fps.Rate(now), 'f', 0, 64)
	b = append(b, " | TPS "...)
	b = strconv.AppendFloat(b, d.tps.Rate(now), 'f', 0, 64)
	b = append(b, " | "...)
	b = append(b, drawModeNames[d.view.draw].title...)
	b = append(b, " | vsync "...)
	b = append(b, d.vsync.actual...)
	b = append(b, " | balls "...)
	b = strconv.AppendInt(b, int64(d.sim.World().N()), 10)
	b = append(b, " | "...)
	b = append(b, d.sim.Mode().String()...)
	if d.sim.Paused() {
		b = append(b, " | paused"...)
	}
	d.title.buf = b
	return b, true
}
