package hud

import (
	"image"
	"image/color"
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestRingKeepsLatest(t *testing.T) {
	r := NewRing(4)
	for i := 1; i <= 6; i++ {
		r.Add(Frame{Start: time.Duration(i) * ms, Ticks: i})
	}
	if r.Len() != 4 {
		t.Fatalf("Len = %d, want 4", r.Len())
	}
	for i := 0; i < 4; i++ {
		if got := r.At(i).Ticks; got != 6-i {
			t.Errorf("At(%d).Ticks = %d, want %d", i, got, 6-i)
		}
	}
	r.Reset()
	if r.Len() != 0 {
		t.Fatal("Reset left frames")
	}
}

func TestSinceSumsTheLastSecond(t *testing.T) {
	r := NewRing(1000)
	// 5 FPS for 3 s: each 200 ms frame runs 5 ticks and hits MaxLoops;
	// every other one discards debt.
	for i := 0; i < 15; i++ {
		var d time.Duration
		if i%2 == 0 {
			d = 30 * ms
		}
		r.Add(Frame{Start: time.Duration(i) * 200 * ms, Dur: 200 * ms, Ticks: 5, Capped: true, Discarded: d})
	}
	w := r.Since(2800*ms - time.Second) // frames that started after 1.8 s: 2.0 .. 2.8 s
	if w.Frames != 5 || w.Ticks != 25 || w.Capped != 5 || w.DiscardFrames != 3 || w.Discarded != 90*ms {
		t.Errorf("Since = %+v, want 5 frames, 25 ticks, 5 capped, 3 discarding 90ms", w)
	}
}

func TestColumnsPlaceFramesInTime(t *testing.T) {
	r := NewRing(100)
	// A sweep of 10 columns over 1 s, 100 ms each; at t = 10 s the newest
	// is column 100 (x 0), the gap x 1 and 2, the oldest shown column 93
	// (x 3, from 9.3 s). A 300 ms frame from 9.3 s covers x 3, 4, 5; ten
	// 10 ms frames from 9.6 s share x 6; a frame ending before 9.3 s is
	// off the graph.
	r.Add(Frame{Start: 8500 * ms, Dur: 400 * ms, Ticks: 9})
	r.Add(Frame{Start: 9300 * ms, Dur: 300 * ms, Ticks: 5, Capped: true})
	for i := 0; i < 10; i++ {
		r.Add(Frame{Start: 9600*ms + time.Duration(i)*10*ms, Dur: 10 * ms, Ticks: i % 2})
	}
	cols := make([]Column, 10)
	SweepColumns(cols, r, 10*time.Second, time.Second)
	for c, col := range cols {
		switch {
		case c >= 3 && c <= 5:
			if col.Dur != 300*ms || col.Ticks != 5 || !col.Capped || col.Frames != 1 {
				t.Errorf("column %d = %+v, want the 300 ms capped frame", c, col)
			}
		case c == 6:
			if col.Frames != 10 || col.Dur != 10*ms || col.Ticks != 1 {
				t.Errorf("column 6 = %+v, want 10 frames of 10 ms, longest with 1 tick", col)
			}
		default:
			if col.Frames != 0 {
				t.Errorf("column %d = %+v, want empty", c, col)
			}
		}
	}
}

func TestScaleIsLogarithmic(t *testing.T) {
	s := Scale{Lo: 100 * time.Microsecond, Hi: time.Second} // 4 decades
	for _, c := range []struct {
		d    time.Duration
		want int
	}{
		{0, 0}, {100 * time.Microsecond, 0}, {ms, 25}, {10 * ms, 50}, {100 * ms, 75}, {time.Second, 100}, {time.Hour, 100},
	} {
		if got := s.Y(c.d, 100); got != c.want {
			t.Errorf("Y(%v) = %d, want %d", c.d, got, c.want)
		}
	}
}

func TestDrawGraphPaintsBarsByTicks(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 200, 108)) // the labels sit at the right
	cols := make([]Column, 200)
	cols[5] = Column{Dur: 10 * ms, Ticks: 1, Frames: 1}
	for c := 20; c < 30; c++ {
		cols[c] = Column{Dur: 200 * ms, Ticks: 5, Capped: true, Discarded: true, Frames: 1}
	}
	NewGraph().Draw(img, cols, DefaultScale, GraphLines{Tick: 40 * ms})
	h := 100
	// Column 5: a green bar 50 px tall (10 ms is 2 of 4 decades).
	if got := img.RGBAAt(5, 107); got != tickColors[1] {
		t.Errorf("bottom of column 5 = %v, want green %v", got, tickColors[1])
	}
	if got := img.RGBAAt(5, 108-DefaultScale.Y(10*ms, h)); got != tickColors[1] {
		t.Errorf("top of column 5 = %v, want green", got)
	}
	if got := img.RGBAAt(5, 108-DefaultScale.Y(10*ms, h)-4); got != graphBG {
		t.Errorf("above column 5 = %v, want background", got)
	}
	// Columns 20-29: red (MaxLoops), a magenta cap, five white pips.
	top := 108 - DefaultScale.Y(200*ms, h)
	if got := img.RGBAAt(22, top+3); got != cappedColor {
		t.Errorf("capped bar = %v, want red", got)
	}
	if got := img.RGBAAt(22, top-1); got != discardColor {
		t.Errorf("discard cap = %v, want magenta", got)
	}
	white := color.RGBA{255, 255, 255, 255}
	pips := 0
	for y := 0; y < top; y++ {
		if img.RGBAAt(24, y) == white {
			pips++
		}
	}
	if pips != 5*2 { // five pips, 2 px tall each
		t.Errorf("%d white pip pixels above the capped bars, want 10 (5 pips)", pips)
	}
	// The tick-time line crosses empty columns.
	y := 108 - DefaultScale.Y(40*ms, h) - 1
	if got := img.RGBAAt(10, y); got != tickLine {
		t.Errorf("tick line at y=%d = %v, want %v", y, got, tickLine)
	}
}

func TestGraphLabelsItsLines(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 400, 108))
	NewGraph().Draw(img, make([]Column, 400), DefaultScale, GraphLines{Tick: 40 * ms, Cap: 16666667})
	count := func(c color.RGBA, x0, x1 int) int {
		n := 0
		for y := 0; y < 108; y++ {
			for x := x0; x < x1; x++ {
				if img.RGBAAt(x, y) == c {
					n++
				}
			}
		}
		return n
	}
	// Away from the dotted lines' x range used by labels, a line is 1 px
	// tall and dotted: 1 pixel per 2 columns. The labels add glyph pixels.
	if lineOnly, labelled := count(tickLine, 0, 100), count(tickLine, 310, 400); labelled <= 90/2+20 || lineOnly != 50 {
		t.Errorf("tick line: %d px without label, %d px with label", lineOnly, labelled)
	}
	if labelled := count(capLine, 220, 300); labelled <= 80/2+20 {
		t.Errorf("cap label not drawn: %d px", labelled)
	}
}

func TestAppendTextNamesEverything(t *testing.T) {
	s := Snapshot{
		FPS: 59.94, TPS: 25, TicksThisFrame: 2, Percent: 0.375,
		DiscardedLastSecond: 120 * ms, DiscardedTotal: 1500 * ms,
		Draw: "extrapolate", VsyncRequested: "on", VsyncActual: "unsupported", FPSCap: 144,
		RenderLoad: 200 * ms, LogicLoad: 10 * ms, Balls: 1000, Player: true,
		Mode: "fixed", ModeLine: []byte("substep: 3 cycles"), Speed: 0.5, Paused: true, Tick: 40 * ms, MaxLoops: 5, Lockstep: true,
		Status: []byte("recording to x.rec"), KeyHelp: "Space interp   PgUp/PgDn tick time", GraphLegend: true, Help: true,
		Cull:    Cull{Known: true, On: true, Mode: "auto", Walk: 1200 * time.Microsecond, CostOn: 12400 * time.Microsecond, CostOff: 19600 * time.Microsecond},
		Sprites: Sprites{Known: true, Quads: true, Mode: "auto", CostQuads: 1200 * time.Microsecond, CostPoints: 1600 * time.Microsecond},
	}
	text := string(AppendText(nil, &s))
	for _, want := range []string{
		"FPS 59.9", "TPS 25.0", "ticks this frame 2", "percentWithinTick 0.38", "draw extrapolate",
		"120ms/s", "discarded total 1500ms", "frame cap 144", "vsync on (actual unsupported)",
		"render 200ms/frame", "logic 10ms/tick", "balls 1000", "player", "mode fixed", "tick 40ms",
		"max-loops 5", "debt kept", "speed 0.50x", "PAUSED", "substep: 3 cycles", "recording to x.rec",
		"Space interp", "PgUp/PgDn", "graph: the last 4 s",
		"cull on (auto)  walk 1.20ms  frame 12.4ms on, 19.6ms off",
		"sprites quads (auto)  frame 1.20ms quads, 1.60ms points",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("HUD text lacks %q:\n%s", want, text)
		}
	}
}

// TestCullLine: the culling's line is in the long form only, and only
// where the front end told it; costs not measured are left out.
func TestCullLine(t *testing.T) {
	s := Snapshot{Help: true, Cull: Cull{Known: true, Mode: "off", Walk: -1, CostOn: -1, CostOff: -1}}
	if text := string(AppendText(nil, &s)); !strings.Contains(text, "\ncull off (off)\n") && !strings.HasSuffix(text, "\ncull off (off)") {
		t.Errorf("forced off: %q", text)
	}
	s.Cull.Known = false
	if text := string(AppendText(nil, &s)); strings.Contains(text, "cull") {
		t.Errorf("a culling line the front end never gave: %q", text)
	}
	s.Cull, s.Help = Cull{Known: true, On: true, Mode: "auto", Walk: ms, CostOn: ms, CostOff: 2 * ms}, false
	if text := string(AppendText(nil, &s)); strings.Contains(text, "cull") {
		t.Errorf("the culling in the short form: %q", text)
	}
}

// TestSpritesLine: the form's line is in the long form only, and only
// where the front end told it; costs not measured are left out.
func TestSpritesLine(t *testing.T) {
	s := Snapshot{Help: true, Sprites: Sprites{Known: true, Mode: "points", CostQuads: -1, CostPoints: -1}}
	if text := string(AppendText(nil, &s)); !strings.HasSuffix(text, "\nsprites points (points)") && !strings.Contains(text, "\nsprites points (points)\n") {
		t.Errorf("forced points: %q", text)
	}
	s.Sprites = Sprites{Known: true, Quads: true, Mode: "auto", CostQuads: ms, CostPoints: -1}
	if text := string(AppendText(nil, &s)); !strings.Contains(text, "\nsprites quads (auto)") || strings.Contains(text, "frame 1") {
		t.Errorf("auto, one form measured: %q", text)
	}
	s.Sprites.Known = false
	if text := string(AppendText(nil, &s)); strings.Contains(text, "sprites") {
		t.Errorf("a form's line the front end never gave: %q", text)
	}
	s.Sprites, s.Help = Sprites{Known: true, Quads: true, Mode: "auto", CostQuads: ms, CostPoints: 2 * ms}, false
	if text := string(AppendText(nil, &s)); strings.Contains(text, "sprites") {
		t.Errorf("the form in the short form: %q", text)
	}
}

// TestCompactHUD: by default the HUD is a few lines of the figures that
// matter; the settings, the keys and the legend wait behind the help key,
// and lines appear only for what is unusual.
func TestCompactHUD(t *testing.T) {
	s := Snapshot{
		FPS: 60, TPS: 25, TicksThisFrame: 1, Percent: 0.5, Draw: "interpolate", VsyncRequested: "on", VsyncActual: "on",
		Mode: "fixed", Speed: 1, Tick: 40 * ms, MaxLoops: 5, Balls: 1, KeyHelp: "Space interp", GraphLegend: true,
	}
	text := string(AppendText(nil, &s))
	for _, want := range []string{"FPS 60.0", "TPS 25.0", "ticks this frame 1", "percentWithinTick 0.50", "draw interpolate", "vsync on (actual on)", "debt discarded 0ms/s", "? or F1"} {
		if !strings.Contains(text, want) {
			t.Errorf("compact HUD lacks %q:\n%s", want, text)
		}
	}
	for _, absent := range []string{"Space interp", "graph:", "max-loops", "mode", "load"} {
		if strings.Contains(text, absent) {
			t.Errorf("compact HUD shows %q:\n%s", absent, text)
		}
	}
	// A line an item, for a narrow column: 7 lines, none over 37
	// characters (the demo's short column holds 38), at the widest
	// figures and vsync's longest common word too.
	if n := strings.Count(text, "\n") + 1; n > 7 {
		t.Errorf("compact HUD has %d lines, want at most 7:\n%s", n, text)
	}
	wide := s
	wide.FPS, wide.DiscardedLastSecond, wide.Draw, wide.VsyncRequested, wide.VsyncActual = 123456.7, 999*ms, "at next position", "adaptive", "unsupported"
	for line := range strings.SplitSeq(string(AppendText(nil, &wide)), "\n") {
		if len(line) > 37 {
			t.Errorf("compact HUD line of %d characters, want at most 37: %q", len(line), line)
		}
	}
	s.Paused, s.RenderLoad = true, 20*ms
	text = string(AppendText(nil, &s))
	for _, want := range []string{"PAUSED", "render 20ms/frame"} {
		if !strings.Contains(text, want) {
			t.Errorf("compact HUD hides %q:\n%s", want, text)
		}
	}
}

func TestAppendMs(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{40 * ms, "40ms"}, {16666667, "16.7ms"}, {250 * time.Microsecond, "0.25ms"}, {0, "0ms"}} {
		if got := string(AppendMs(nil, c.d)); got != c.want {
			t.Errorf("AppendMs(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestTextImageDrawsGlyphsOnAPanel(t *testing.T) {
	ti := NewTextImage(200, 60)
	panel := ti.Render([]byte("HUD\nline two"))
	if panel.Dx() != 8*GlyphW+2*padding || panel.Dy() != 2*LineH+2*padding {
		t.Errorf("panel %v, want %dx%d", panel, 8*GlyphW+2*padding, 2*LineH+2*padding)
	}
	lit := 0
	for y := 0; y < 60; y++ {
		for x := 0; x < 200; x++ {
			c := ti.Img.RGBAAt(x, y)
			if !image.Pt(x, y).In(panel) && c.A != 0 {
				t.Fatalf("pixel %d,%d outside the panel is %v", x, y, c)
			}
			if c.R > 200 {
				lit++
			}
		}
	}
	if lit < 30 {
		t.Errorf("only %d text pixels drawn", lit)
	}
	// A shorter text leaves no trace of the longer one.
	small := ti.Render([]byte("x"))
	for y := 0; y < 60; y++ {
		for x := 0; x < 200; x++ {
			if !image.Pt(x, y).In(small) && ti.Img.RGBAAt(x, y).A != 0 {
				t.Fatalf("stale pixel at %d,%d", x, y)
			}
		}
	}
}

func TestNoAllocations(t *testing.T) {
	ti := NewTextImage(420, 400)
	img := image.NewRGBA(image.Rect(0, 0, 320, 100))
	r := NewRing(512)
	cols := make([]Column, 320)
	s := Snapshot{Draw: "interpolate", Mode: "fixed", VsyncRequested: "on", VsyncActual: "on", ModeLine: []byte("x")}
	buf := make([]byte, 0, 2048)
	g := NewGraph()
	sw, swImg := NewSweep(320), image.NewRGBA(image.Rect(0, 0, 320, 100))
	now := time.Duration(0)
	allocs := testing.AllocsPerRun(50, func() {
		now += 16 * ms
		r.Add(Frame{Start: now, Dur: 16 * ms, Ticks: 1})
		buf = AppendText(buf[:0], &s)
		ti.Render(buf)
		SweepColumns(cols, r, now, 4*time.Second)
		g.Draw(img, cols, DefaultScale, GraphLines{Tick: 40 * ms, Cap: 16 * ms})
		sw.Update(swImg, g, r, now, 4*time.Second, DefaultScale, GraphLines{Tick: 40 * ms, Cap: 16 * ms})
		_ = r.Since(now - time.Second)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per HUD refresh", allocs)
	}
}

// TestWrapBreaksBetweenItems: a line too long for its column breaks
// after an item ("  " or ", "), not inside one; a word breaks only at a
// space, and only where no item ends; continued lines are indented.
func TestWrapBreaksBetweenItems(t *testing.T) {
	for _, c := range []struct {
		in   string
		cols int
		want string
	}{
		{"short  line", 20, "short  line"},
		{"FPS 60.0  TPS 25.0  ticks this frame 1", 24, "FPS 60.0  TPS 25.0\n  ticks this frame 1"},
		{"net: host, player 0 of 2, input delay 2 ticks, waiting for players 1/2", 30,
			"net: host, player 0 of 2,\n  input delay 2 ticks,\n  waiting for players 1/2"},
		{"one two three four five six", 12, "one two\n  three four\n  five six"},
		{"abcdefghijklmnopqrstuvwxyz", 12, "abcdefghijkl\n  mnopqrstuv\n  wxyz"},
		{"a\n\nb", 10, "a\n\nb"},
		{"  player 1: ping 4ms  debt 0ms", 20, "  player 1: ping 4ms\n    debt 0ms"},
		{"ends\n", 10, "ends\n"},
	} {
		got := string(Wrap(nil, []byte(c.in), c.cols))
		if got != c.want {
			t.Errorf("Wrap(%q, %d) =\n%s\nwant\n%s", c.in, c.cols, got, c.want)
		}
		for _, l := range strings.Split(got, "\n") {
			if len(l) > c.cols {
				t.Errorf("Wrap(%q, %d): line %q too long", c.in, c.cols, l)
			}
		}
	}
}

// TestGraphLegendBreaksBetweenItems: every line of the legend ends where
// an item ends (never on "=" or a lone word of a phrase) and fits the
// HUD's key lines' width.
func TestGraphLegendBreaksBetweenItems(t *testing.T) {
	for _, l := range strings.Split(GraphLegend, "\n") {
		l = strings.TrimSpace(l)
		if len(l) > 58 {
			t.Errorf("legend line %q is wider than the HUD", l)
		}
		if strings.HasSuffix(l, "=") || strings.HasPrefix(l, "=") || strings.HasSuffix(l, " pips") {
			t.Errorf("legend line %q breaks inside an item", l)
		}
	}
}

// TestRenderSaysWhenCut: Render reports text wider or taller than its
// canvas, and only then.
func TestRenderSaysWhenCut(t *testing.T) {
	ti := NewTextImage(Columns(100)*GlyphW+2*padding, 3*LineH+2*padding)
	fit := strings.Repeat("x", Columns(100))
	if ti.Render([]byte(fit + "\n" + fit + "\n" + fit)); ti.Cut() {
		t.Error("text that fits was cut")
	}
	if ti.Render([]byte(fit + "x")); !ti.Cut() {
		t.Error("a line one character too wide was not cut")
	}
	if ti.Render([]byte("a\nb\nc\nd")); !ti.Cut() {
		t.Error("a line too many was not cut")
	}
}

// TestCommaIsNotAPeriod: the HUD's comma has a tail below the baseline,
// which its period lacks: "1.5" and "1,5" differ where a glance looks.
func TestCommaIsNotAPeriod(t *testing.T) {
	ti := NewTextImage(100, 40)
	ti.Render([]byte(".,"))
	below := func(col int) int {
		n := 0
		y0 := padding + 13 - 2 + 1 // the baseline's next row (Face7x13: ascent 11)
		for y := y0; y < y0+3; y++ {
			for x := padding + col*GlyphW; x < padding+(col+1)*GlyphW; x++ {
				if ti.Img.RGBAAt(x, y).R > 128 {
					n++
				}
			}
		}
		return n
	}
	if p, c := below(0), below(1); c < p+2 {
		t.Errorf("below the baseline: period %d lit pixels, comma %d; want the comma's tail at least 2 more", p, c)
	}
}
