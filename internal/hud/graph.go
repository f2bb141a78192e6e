package hud

import (
	"image"
	"image/color"
	"math"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Column is one pixel column of the frame-time graph: of the frames that
// overlap the column's slice of time, the longest one's duration and tick
// count, and whether any of them hit MaxLoops or discarded debt. A long
// frame spans several columns; many short frames share one.
type Column struct {
	Dur       time.Duration
	Ticks     int
	Capped    bool
	Discarded bool
	Frames    int // frames overlapping the column; 0 = no data
}

// add merges frame f, which overlaps the column's slice of time, into it.
func (c *Column) add(f Frame) {
	if c.Frames == 0 || f.Dur > c.Dur {
		c.Dur, c.Ticks = f.Dur, f.Ticks
	}
	c.Capped = c.Capped || f.Capped
	c.Discarded = c.Discarded || f.Discarded > 0
	c.Frames++
}

// Scale maps durations to the graph's height on a log scale from Lo (the
// bottom) to Hi (the top), so 0.1 ms frames and 400 ms frames both show.
type Scale struct {
	Lo, Hi time.Duration
}

// DefaultScale spans 0.1 ms to 1 s.
var DefaultScale = Scale{Lo: 100 * time.Microsecond, Hi: time.Second}

// Y returns the height, 0 to h pixels, of a bar of duration d.
func (s Scale) Y(d time.Duration, h int) int {
	if d <= s.Lo {
		return 0
	}
	if d >= s.Hi {
		return h
	}
	f := math.Log(float64(d)/float64(s.Lo)) / math.Log(float64(s.Hi)/float64(s.Lo))
	return int(math.Round(f * float64(h)))
}

// Graph colours. Bars are coloured by the ticks their frame ran. Every
// colour is opaque, the background too (the colour its translucent
// predecessor gave over the world's): the graph hides what is beneath it,
// so the renderer need not repaint what moves there.
var (
	graphBG      = color.RGBA{14, 18, 29, 255}
	tickLine     = color.RGBA{90, 150, 255, 255}
	capLine      = color.RGBA{80, 220, 120, 255}
	discardColor = color.RGBA{255, 60, 255, 255}
	tickColors   = [...]color.RGBA{
		{110, 110, 120, 255}, // 0 ticks: a frame between ticks
		{70, 200, 90, 255},   // 1
		{60, 190, 200, 255},  // 2
		{230, 210, 60, 255},  // 3
		{240, 150, 40, 255},  // 4 or more
	}
	cappedColor = color.RGBA{240, 50, 50, 255}
)

// BarColor is the colour of a column's bar.
func BarColor(c Column) color.RGBA {
	if c.Capped {
		return cappedColor
	}
	return tickColors[min(c.Ticks, len(tickColors)-1)]
}

// GraphLines are the reference lines drawn across the graph.
type GraphLines struct {
	Tick time.Duration // the tick time (blue)
	Cap  time.Duration // the frame cap's interval, 0 for none (green)
}

// Graph draws the frame-time graph. It holds the font drawer for the
// lines' labels, so drawing allocates nothing.
type Graph struct {
	tickLabel, capLabel font.Drawer
	buf                 []byte
}

// NewGraph returns a Graph.
func NewGraph() *Graph {
	return &Graph{
		tickLabel: font.Drawer{Src: image.NewUniform(tickLine), Face: basicfont.Face7x13},
		capLabel:  font.Drawer{Src: image.NewUniform(capLine), Face: basicfont.Face7x13},
		buf:       make([]byte, 0, 32),
	}
}

// Draw paints columns into img: a bar per column of its longest frame's
// duration, in the colour of its tick count, with that many pips above it
// where the bar is wide enough to count them, a magenta cap where debt was
// discarded, and labelled lines at the tick time and the frame cap.
func (g *Graph) Draw(img *image.RGBA, cols []Column, s Scale, lines GraphLines) {
	g.draw(img, img.Bounds(), cols, s, lines)
}

// draw paints the graph laid out over the rectangle b (which dst's bounds
// lie within) and writes only dst's pixels: every pixel of the graph
// depends only on its column, the run of equal columns it is part of (the
// pips), and the lines, so a part drawn alone has the pixels the whole
// graph has there.
func (g *Graph) draw(dst *image.RGBA, b image.Rectangle, cols []Column, s Scale, lines GraphLines) {
	fill(dst, b, graphBG)
	h := b.Dy() - 8 // room for pips on top
	w := min(len(cols), b.Dx())
	x0, x1 := max(dst.Bounds().Min.X-b.Min.X, 0), min(dst.Bounds().Max.X-b.Min.X, w)
	for x := x0; x < x1; x++ {
		c := cols[x]
		if c.Frames == 0 {
			continue
		}
		y := s.Y(c.Dur, h)
		fill(dst, image.Rect(b.Min.X+x, b.Max.Y-y, b.Min.X+x+1, b.Max.Y), BarColor(c))
		if c.Discarded {
			fill(dst, image.Rect(b.Min.X+x, b.Max.Y-y-2, b.Min.X+x+1, b.Max.Y-y), discardColor)
		}
	}
	// Pips: one 2x2 dot per tick above bars at least 3 columns wide.
	for x := runStart(cols[:w], x0); x < x1; {
		c := cols[x]
		run := runEnd(cols[:w], x) - x
		if c.Frames > 0 && run >= 3 {
			top := b.Max.Y - s.Y(c.Dur, h)
			px := b.Min.X + x + run/2 - 1
			for t := 0; t < c.Ticks && t < 8; t++ {
				fill(dst, image.Rect(px, top-3-3*t, px+2, top-1-3*t), color.RGBA{255, 255, 255, 255})
			}
		}
		x += run
	}
	ty := b.Max.Y - s.Y(lines.Tick, h)
	hline(dst, b, ty, tickLine)
	g.label(dst, b, &g.tickLabel, "tick ", lines.Tick, ty, b.Max.X-90)
	if lines.Cap > 0 {
		cy := b.Max.Y - s.Y(lines.Cap, h)
		hline(dst, b, cy, capLine)
		g.label(dst, b, &g.capLabel, "cap ", lines.Cap, cy, b.Max.X-180)
	}
}

// runStart is the first column of the run of equal columns holding x.
func runStart(cols []Column, x int) int {
	for x > 0 && x < len(cols) && cols[x-1] == cols[x] {
		x--
	}
	return x
}

// runEnd is the column just past the run of equal columns holding x.
func runEnd(cols []Column, x int) int {
	e := x + 1
	for e < len(cols) && cols[e] == cols[x] {
		e++
	}
	return e
}

// label writes "name 40ms" just above a line, at x, in the graph laid
// out over b (see draw).
func (g *Graph) label(dst *image.RGBA, b image.Rectangle, d *font.Drawer, name string, v time.Duration, y, x int) {
	g.buf = append(g.buf[:0], name...)
	g.buf = AppendMs(g.buf, v)
	d.Dst = dst
	px, py := max(x, b.Min.X+2), max(y-3, b.Min.Y+11)
	// A dark plate under the text, so it reads over the bars.
	fill(dst, image.Rect(px-2, py-11, px+len(g.buf)*GlyphW+2, py+3), color.RGBA{2, 2, 4, 255})
	d.Dot = fixed.P(px, py)
	d.DrawBytes(g.buf)
}

// hline draws a dotted line across the graph laid out over b, at y.
func hline(dst *image.RGBA, b image.Rectangle, y int, c color.RGBA) {
	if y <= b.Min.Y || y > b.Max.Y {
		return
	}
	p := image.Pt(0, y-1)
	for x := b.Min.X; x < b.Max.X; x += 2 { // dotted
		if p.X = x; p.In(dst.Bounds()) {
			dst.SetRGBA(x, y-1, c)
		}
	}
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
		for i := 0; i < len(row); i += 4 {
			row[i], row[i+1], row[i+2], row[i+3] = c.R, c.G, c.B, c.A
		}
	}
}
