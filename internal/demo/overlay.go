package demo

import (
	"bytes"
	"image"
	"strconv"
	"time"

	"github.com/interpdemo/interpdemo/internal/hud"
)

// Overlay sizes in pixels: a front end's textures for the panels are
// HUDMaxWidth x HUDMaxHeight and GraphMaxWidth x GraphHeight. The HUD's
// column is as wide as its form needs (hudWidth): HUDWidth for the short
// form, a line an item (37 characters for the widest of them, the hint
// at ?); HUDMaxWidth for the long form and in a network game, whose
// table of players is 50 characters wide. Lines wrap to fit the column
// (hud.Wrap), and the long form, at its longest, fits in HUDMaxHeight (a
// test checks both): 36 lines, those of a rollback game of
// netplay.MaxPlayers (8) players, a line each in the table.
const (
	HUDWidth                  = 280
	HUDMaxWidth, HUDMaxHeight = 420, 520
	GraphHeight               = 108
	GraphMaxWidth             = 2048
)

// hudWidth is the HUD's column width for its long form or short form,
// in a network game or not.
func hudWidth(long, net bool) int {
	if long || net {
		return HUDMaxWidth
	}
	return HUDWidth
}

// HUDColumn is the width of the HUD's column in the window the
// configuration opens: 0 with the HUD off.
func (c *Config) HUDColumn() int {
	if !c.HUD {
		return 0
	}
	return hudWidth(c.HUDHelp, c.Net.On())
}

// Rect is a rectangle of the window in pixels, origin at the top left.
type Rect struct{ X, Y, W, H int }

// WindowSize is the size of the window a front end opens for the
// configuration: the world's -width x -height pixels, with the HUD's
// column at its left and the graph's strip below it for the overlays on
// at the start, the column as wide as the HUD's form at the start needs.
// The overlays never cover the world (see Scene.World): an overlay turned
// on later, or the HUD's wider long form, takes its room from the world's
// part of the window.
func (c *Config) WindowSize() (w, h int) {
	w, h = c.Width+c.HUDColumn(), c.Height
	if c.Graph {
		h += GraphHeight
	}
	if c.HUD {
		h = max(h, HUDMaxHeight)
	}
	return w, h
}

// Layout is where a frame's parts go in a window of winW x winH pixels:
// the HUD in a column hudW pixels wide at the left (0: the HUD is off),
// as tall as the window; the graph in a strip along the bottom of the
// rest; the world in what is left. None overlaps another. An overlay that
// is off takes no room; one that would leave the world less than
// minWorld pixels a side gives it up (a window the user made smaller than
// the one opened).
func Layout(winW, winH, hudW int, graph bool) (world, hudArea, graphArea Rect) {
	const minWorld = 16
	graphH := 0
	hudW = max(0, min(hudW, winW-minWorld))
	if graph {
		graphH = max(0, min(GraphHeight, winH-minWorld))
	}
	hudArea = Rect{0, 0, hudW, winH}
	graphArea = Rect{hudW, winH - graphH, winW - hudW, graphH}
	world = Rect{hudW, 0, winW - hudW, winH - graphH}
	return world, hudArea, graphArea
}

const (
	graphSpan     = 4 * time.Second
	hudRefresh    = 100 * time.Millisecond // the HUD's text, 10 times a second, with a graph refresh
	graphRefresh  = time.Second / 30       // the graph, 30 times a second
	graphRingSize = 8192                   // frames the graph remembers
)

// Panel is an overlay as a front end draws it: an image made on the CPU,
// the parts of it that changed since the last frame (to upload), and the
// rectangle of the window it covers (pixels, from the top left), which
// shows the image's top-left W×H pixels. Panels are opaque, and lie
// outside Scene.World.
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
	// World is the part of the window the world is drawn in (pixels,
	// origin top left): the front end fits the world's units into it,
	// keeping their aspect ratio and centred (render.Letterbox), and
	// paints the rest of the window the bars' colour. The panels lie
	// outside it: every ball is seen wherever it is.
	World Rect
	// Alpha is the mix factor from each ball's last position (0) to its
	// next (1): percentWithinTick, more than 1 when extrapolating.
	Alpha float32
	// Ghosts draws rings at every ball's last and next position.
	Ghosts bool
	// Highlight draws ball HighlightBall in the player's colour: yours
	// (ball 0 once the arrows moved it; in a network game, ball i for
	// player i, from the start).
	Highlight     bool
	HighlightBall int
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
	raw       []byte          // the HUD's text being built
	buf       []byte          // raw, its lines wrapped to the column
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
	o := &overlay{
		text:     hud.NewTextImage(HUDMaxWidth, HUDMaxHeight),
		raw:      make([]byte, 0, 2048),
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
	// The panels' images and the HUD's list of changes never change:
	// set once, not written every frame.
	o.hudPanel.Img, o.hudPanel.Changed = o.text.Img, o.hudParts[:0]
	o.graphPane.Img = o.graphImg
	return o
}

// setText builds the HUD's text for s and, if it differs from the text
// shown, renders it: the panel is what changed. Its lines wrap to a
// column width pixels wide.
func (o *overlay) setText(s *hud.Snapshot, width int, now time.Duration) (changed bool) {
	o.nextText = now + hudRefresh
	o.raw = hud.AppendText(o.raw[:0], s)
	o.buf = hud.Wrap(o.buf[:0], o.raw, hud.Columns(width))
	if bytes.Equal(o.buf, o.shown) && !o.panel.Empty() {
		return false
	}
	o.shown = append(o.shown[:0], o.buf...)
	o.panel = o.text.Render(o.buf)
	return true
}

// textDue says whether the HUD's text is renewed in the frame at now:
// when its refresh is due and, the graph shown, in a frame that refreshes
// the graph too (at most a graph refresh later), so that the overlays
// change in the same frames and a window shows their changes together
// (each frame that changes them costs a present, whatever its size); at
// once when a key asked for it.
func (o *overlay) textDue(now time.Duration, graph bool) bool {
	return now >= o.nextText && (o.nextText == 0 || !graph || now >= o.nextGraph)
}

// hudWidth is the HUD's column width for the form it shows: 0 when off.
func (d *Demo) hudWidth() int {
	if !d.view.hud {
		return 0
	}
	return hudWidth(d.view.help, d.net != nil)
}

// hudLayer is the HUD's panel for the frame; it fills in the snapshot and
// re-renders the text when due.
func (d *Demo) hudLayer(now time.Duration, area Rect) *Panel {
	o := d.ov
	p := &o.hudPanel
	if len(p.Changed) > 0 {
		p.Changed = p.Changed[:0]
	}
	if o.textDue(now, d.view.graph) && o.setText(d.snapshot(now), d.hudWidth(), now) {
		p.Changed = append(p.Changed, o.panel)
	}
	p.X, p.Y = area.X, area.Y
	p.W, p.H = min(o.panel.Dx(), area.W), min(o.panel.Dy(), area.H)
	return p
}

// graphLayer is the graph's panel for the frame, refreshed when due, as
// of the frame's start now, in area.
func (d *Demo) graphLayer(now time.Duration, area Rect) *Panel {
	o := d.ov
	p := &o.graphPane
	if len(p.Changed) > 0 {
		p.Changed = p.Changed[:0]
	}
	w := min(max(area.W, 1), GraphMaxWidth)
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
	p.X, p.Y, p.W, p.H = area.X, area.Y, o.graphW, min(area.H, GraphHeight)
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
		Draw:                drawModeNames[d.view.draw].hud,
		VsyncRequested:      d.vsync.requested.String(),
		VsyncActual:         d.vsync.actual,
		FPSCap:              d.view.fpsCap,
		RenderLoad:          d.view.renderLoad,
		LogicLoad:           d.sim.LogicLoad(),
		Balls:               d.sim.World().N(),
		Player:              d.sim.World().Player() && d.net == nil, // a network game says "your ball"
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
		Cull:                d.cull,
		Sprites:             d.sprites,
	}
	d.pace.snapshot(s)
	return s
}

// SetCull tells the HUD's long form the renderer's occlusion culling:
// its choice and the costs behind it (a front end calls it each frame, or
// when they change).
func (d *Demo) SetCull(c hud.Cull) { d.cull = c }

// SetSprites tells the HUD's long form the balls' form: points or
// squares, and the costs behind the choice (as SetCull).
func (d *Demo) SetSprites(s hud.Sprites) { d.sprites = s }

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
	b = append(b, "interpdemo | "...)
	if d.net != nil {
		b = append(d.net.appendWho(b), " | "...)
	}
	b = append(b, "FPS "...)
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
