package hud

import (
	"strconv"
	"time"
)

// Snapshot is what the HUD shows, sampled a few times a second.
type Snapshot struct {
	FPS, TPS       float64
	TicksThisFrame int
	Percent        float64 // percentWithinTick of the latest frame

	DiscardedLastSecond time.Duration
	DiscardedTotal      time.Duration

	Draw           string // where balls are drawn: interpolated, extrapolated, at next position
	VsyncRequested string
	VsyncActual    string
	FPSCap         int // 0: off

	RenderLoad time.Duration // busy-wait per frame
	LogicLoad  time.Duration // busy-wait per tick

	Balls  int
	Player bool // ball 0 is under the arrow keys

	Mode     string // fixed, substep, timefactor, adaptive, variable
	ModeLine []byte // one line of the mode's own numbers; may be empty
	Speed    float64
	Paused   bool
	Tick     time.Duration
	MaxLoops int
	Lockstep bool

	Status []byte // recording or replaying state, or the network game's lines; may be empty

	KeyHelp string // the key reference, a few keys a line (the demo's key table)
	Help    bool   // show every setting, the key reference and the graph legend

	GraphLegend bool // explain the graph's colours

	// Frame pacing (the long form): raw or smooth ("" leaves the line
	// out), the refresh interval the pacer found (0: no display paces
	// the frames), and the 99th percentile of the display step error so
	// far (StepErrorKnown false before any).
	Pacing         string
	Refresh        time.Duration
	StepErrorP99   time.Duration
	StepErrorKnown bool

	// Cull is the renderer's occlusion culling (the long form): its line
	// is left out where the front end says nothing of it.
	Cull Cull
	// Sprites is the balls' form (the long form): its line is left out
	// where the front end says nothing of it.
	Sprites Sprites
}

// Cull is the occlusion culling's choice and what it measured: the
// culler's CPU time, and what a frame cost with and without it (each
// negative where not measured).
type Cull struct {
	Known, On             bool
	Mode                  string // auto, on or off
	Walk, CostOn, CostOff time.Duration
}

// Sprites is the balls' form as chosen, points or squares, and what a
// frame cost drawn each way (each negative where not measured); on the
// page, or the image painted on the CPU (Painted, as PaintMode chose it),
// and what a painted frame cost (0 where not measured).
type Sprites struct {
	Known, Quads          bool
	Mode                  string // auto, points or quads
	CostQuads, CostPoints time.Duration
	Painted               bool
	PaintMode             string // auto, on or off
	CostPainted           time.Duration
}

// GraphLegend explains the graph, a line or two per item, each line
// within the HUD's column.
const GraphLegend = `graph: the last 4 s, swept left to right (the gap is now)
log scale 0.1 ms to 1 s
bar colour = ticks run: grey 0, green 1, cyan 2,
  yellow 3, orange 4+, red MaxLoops
magenta top = debt discarded   white pips = ticks
blue line = tick time   green line = frame cap`

// Wrap appends src to dst with every line longer than cols broken
// between items: after the last "  " or ", " that keeps the line within
// cols (a single space if there is none, mid-word only as a last resort).
// A continued line is indented two spaces more than the line it
// continues.
func Wrap(dst, src []byte, cols int) []byte {
	const indent = "  "
	cols = max(cols, len(indent)+8)
	n := 0
	for line := range lines(src) {
		if n > 0 {
			dst = append(dst, '\n')
		}
		n++
		// A continued line goes in two spaces further than its line.
		lead := min(skipSpaces(line, 0), cols/2) + len(indent)
		for room := cols; len(line) > room; room = cols - lead {
			cut, next := breakAt(line, room)
			dst = append(dst, line[:cut]...)
			dst = append(dst, '\n')
			for range lead {
				dst = append(dst, ' ')
			}
			line = line[next:]
		}
		dst = append(dst, line...)
	}
	return dst
}

// breakAt finds where to break line, longer than room, to fit room
// characters: the line ends at cut and the next starts at next (the
// separator dropped). Items end at "  " or ", "; words at a space.
func breakAt(line []byte, room int) (cut, next int) {
	word := -1
	for i := room; i > 0; i-- {
		if line[i] != ' ' {
			continue
		}
		if line[i-1] == ' ' || line[i-1] == ',' || i+1 < len(line) && line[i+1] == ' ' {
			return trimRight(line, i), skipSpaces(line, i)
		}
		if word < 0 {
			word = i
		}
	}
	if word > 0 {
		return trimRight(line, word), skipSpaces(line, word)
	}
	return room, room
}

func trimRight(b []byte, i int) int {
	for i > 0 && b[i-1] == ' ' {
		i--
	}
	return i
}

func skipSpaces(b []byte, i int) int {
	for i < len(b) && b[i] == ' ' {
		i++
	}
	return i
}

// AppendText appends the HUD's text for s to dst. By default it is a
// compact block of the figures that matter (FPS, TPS, ticks this frame,
// percentWithinTick, the drawing, vsync, the debt discarded) and the
// lines that say something is unusual (another mode, slow motion, a
// pause, loads, recording); with s.Help it adds every setting, the key
// reference and the graph legend.
func AppendText(dst []byte, s *Snapshot) []byte {
	b := appendFigures(dst, s)
	b = appendUnusual(b, s)
	if !s.Help {
		if s.KeyHelp != "" {
			b = append(b, "\n? or F1: keys, settings, graph legend"...)
		}
		return b
	}
	b = appendSettings(b, s)
	b = appendLoads(b, s)
	b = appendPacing(b, s)
	b = appendCull(b, &s.Cull)
	b = appendSprites(b, &s.Sprites)
	if s.KeyHelp != "" {
		b = append(b, "\n\n"...)
		b = append(b, s.KeyHelp...)
	}
	if s.GraphLegend {
		b = append(b, "\n\n"...)
		b = append(b, GraphLegend...)
	}
	return b
}

// appendFigures appends the figures that matter: FPS, TPS, ticks this
// frame, percentWithinTick, the drawing, vsync, the debt discarded.
func appendFigures(b []byte, s *Snapshot) []byte {
	// The short form puts its figures a line each, for a narrow column;
	// the long form, in a wide one, packs them three lines.
	sep := "\n"
	if s.Help {
		sep = "  "
	}
	b = append(b, "FPS "...)
	b = strconv.AppendFloat(b, s.FPS, 'f', 1, 64)
	b = append(b, "  TPS "...)
	b = strconv.AppendFloat(b, s.TPS, 'f', 1, 64)
	b = append(b, sep...)
	b = append(b, "ticks this frame "...)
	b = strconv.AppendInt(b, int64(s.TicksThisFrame), 10)
	b = append(b, "\npercentWithinTick "...)
	b = strconv.AppendFloat(b, s.Percent, 'f', 2, 64)
	b = append(b, sep...)
	b = append(b, "draw "...)
	b = append(b, s.Draw...)
	b = append(b, "\nvsync "...)
	b = append(b, s.VsyncRequested...)
	b = append(b, " (actual "...)
	b = append(b, s.VsyncActual...)
	b = append(b, ')')
	b = append(b, sep...)
	b = append(b, "debt discarded "...)
	b = AppendMs(b, s.DiscardedLastSecond)
	b = append(b, "/s"...)
	return b
}

// appendUnusual appends the lines that say something is unusual: another
// mode, slow motion, a pause, loads (the long form has them among the
// settings), the mode's own line, a status.
func appendUnusual(b []byte, s *Snapshot) []byte {
	if s.Mode != "fixed" || s.Speed != 1 || s.Paused {
		b = append(b, "\nmode "...)
		b = append(b, s.Mode...)
		b = append(b, "  speed "...)
		b = strconv.AppendFloat(b, s.Speed, 'f', 2, 64)
		b = append(b, 'x')
		if s.Paused {
			b = append(b, "  PAUSED"...)
		}
	}
	if !s.Help && (s.RenderLoad > 0 || s.LogicLoad > 0) {
		b = appendLoads(b, s)
	}
	if len(s.ModeLine) > 0 {
		b = append(b, '\n')
		b = append(b, s.ModeLine...)
	}
	if len(s.Status) > 0 {
		b = append(b, '\n')
		b = append(b, s.Status...)
	}
	return b
}

// appendSettings appends the long form's settings: the tick, max-loops,
// the debt, the frame cap, the balls.
func appendSettings(b []byte, s *Snapshot) []byte {
	b = append(b, "\ntick "...)
	b = AppendMs(b, s.Tick)
	b = append(b, "  max-loops "...)
	b = strconv.AppendInt(b, int64(s.MaxLoops), 10)
	if s.Lockstep {
		b = append(b, "  debt kept"...) // -lockstep, which a network game sets
	}
	b = append(b, "  discarded total "...)
	b = AppendMs(b, s.DiscardedTotal)
	b = append(b, "\nframe cap "...)
	if s.FPSCap > 0 {
		b = strconv.AppendInt(b, int64(s.FPSCap), 10)
	} else {
		b = append(b, "off"...)
	}
	b = append(b, "  balls "...)
	b = strconv.AppendInt(b, int64(s.Balls), 10)
	if s.Player {
		b = append(b, "  ball 0: player"...)
	}
	return b
}

// appendCull appends the culling's line: "cull on (auto)  walk 0.41ms
// frame 3.20ms on, 5.10ms off".
func appendCull(b []byte, c *Cull) []byte {
	if !c.Known {
		return b
	}
	b = append(b, "\ncull "...)
	if c.On {
		b = append(b, "on"...)
	} else {
		b = append(b, "off"...)
	}
	b = append(b, " ("...)
	b = append(b, c.Mode...)
	b = append(b, ')')
	if c.Walk >= 0 {
		b = append(b, "  walk "...)
		b = AppendMs(b, c.Walk)
	}
	if c.CostOn >= 0 && c.CostOff >= 0 {
		b = append(b, "  frame "...)
		b = AppendMs(b, c.CostOn)
		b = append(b, " on, "...)
		b = AppendMs(b, c.CostOff)
		b = append(b, " off"...)
	}
	return b
}

// appendSprites appends the form's line: "sprites quads (auto)  frame
// 1.20ms quads, 1.60ms points", or on a page that paints "sprites
// painted (paint auto)  frame 1.20ms quads, 1.60ms points, 0.90ms
// painted".
func appendSprites(b []byte, c *Sprites) []byte {
	if !c.Known {
		return b
	}
	b = append(b, "\nsprites "...)
	switch {
	case c.Painted:
		b = append(b, "painted (paint "...)
		b = append(b, c.PaintMode...)
	case c.Quads:
		b = append(b, "quads ("...)
		b = append(b, c.Mode...)
	default:
		b = append(b, "points ("...)
		b = append(b, c.Mode...)
	}
	b = append(b, ')')
	sep := "  frame "
	if c.CostQuads >= 0 && c.CostPoints >= 0 {
		b = append(b, sep...)
		b = AppendMs(b, c.CostQuads)
		b = append(b, " quads, "...)
		b = AppendMs(b, c.CostPoints)
		b = append(b, " points"...)
		sep = ", "
	}
	if c.CostPainted > 0 {
		b = append(b, sep...)
		b = AppendMs(b, c.CostPainted)
		b = append(b, " painted"...)
	}
	return b
}

// appendPacing appends the frame pacing's line: "pacing smooth  refresh
// 16.7ms  step error p99 0.021ms".
func appendPacing(b []byte, s *Snapshot) []byte {
	if s.Pacing == "" {
		return b
	}
	b = append(b, "\npacing "...)
	b = append(b, s.Pacing...)
	if s.Refresh > 0 {
		b = append(b, "  refresh "...)
		b = AppendMs(b, s.Refresh)
	}
	if s.StepErrorKnown {
		b = append(b, "  step error p99 "...)
		b = strconv.AppendFloat(b, float64(s.StepErrorP99)/float64(time.Millisecond), 'f', 3, 64)
		b = append(b, "ms"...)
	}
	return b
}

func appendLoads(b []byte, s *Snapshot) []byte {
	b = append(b, "\nload: render "...)
	b = AppendMs(b, s.RenderLoad)
	b = append(b, "/frame  logic "...)
	b = AppendMs(b, s.LogicLoad)
	return append(b, "/tick"...)
}

// AppendMs appends d in milliseconds: "40ms", "16.7ms", "0.25ms".
func AppendMs(b []byte, d time.Duration) []byte {
	ms := float64(d) / float64(time.Millisecond)
	prec := 0
	switch {
	case d%time.Millisecond == 0:
	case ms >= 10:
		prec = 1
	default:
		prec = 2
	}
	b = strconv.AppendFloat(b, ms, 'f', prec, 64)
	return append(b, "ms"...)
}
