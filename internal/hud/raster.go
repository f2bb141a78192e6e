package hud

import (
	"image"
	"image/color"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// TextImage rasterises lines of text with the 7x13 face of
// golang.org/x/image/font/basicfont into a reused RGBA image.
type TextImage struct {
	Img    *image.RGBA
	drawer font.Drawer
	bg     color.RGBA
	used   image.Rectangle
	cut    bool
}

// Text metrics of basicfont.Face7x13.
const (
	GlyphW  = 7
	LineH   = 14
	padding = 6
)

// NewTextImage makes a w x h pixel canvas.
func NewTextImage(w, h int) *TextImage {
	t := &TextImage{
		Img: image.NewRGBA(image.Rect(0, 0, w, h)),
		bg:  color.RGBA{7, 9, 14, 255}, // opaque: what its translucent predecessor gave over the world
	}
	t.drawer = font.Drawer{
		Dst:  t.Img,
		Src:  image.NewUniform(color.RGBA{235, 240, 250, 255}),
		Face: basicfont.Face7x13,
	}
	return t
}

// Columns is how many characters of text a line of a canvas w pixels
// wide holds.
func Columns(w int) int { return (w - 2*padding) / GlyphW }

// Render draws text (lines split at '\n') on an opaque panel sized to the
// text, and returns the panel's rectangle. Pixels outside the panel are
// transparent. Text beyond the canvas is clipped, and Cut says so.
func (t *TextImage) Render(text []byte) image.Rectangle {
	cols, rows := 0, 0
	for line := range lines(text) {
		cols = max(cols, len(line))
		rows++
	}
	full := image.Rect(0, 0, cols*GlyphW+2*padding, rows*LineH+2*padding)
	panel := full.Intersect(t.Img.Bounds())
	t.cut = panel != full
	// Clear what was used last time, then paint the new panel.
	fill(t.Img, t.used.Union(panel), color.RGBA{})
	fill(t.Img, panel, t.bg)
	t.used = panel
	y := padding + basicfont.Face7x13.Ascent
	for line := range lines(text) {
		t.drawer.Dot = fixed.P(padding, y)
		t.drawer.DrawBytes(line)
		for i, c := range line {
			if c == ',' {
				t.comma(padding+i*GlyphW, y)
			}
		}
		y += LineH
	}
	return panel
}

// Cut says whether the last Render clipped its text: a line wider than
// the canvas, or more lines than it holds.
func (t *TextImage) Cut() bool { return t.cut }

// comma redraws the comma whose glyph cell starts at x on baseline y
// with a tail two pixels below the baseline: the font's comma is a
// period's diamond with a one-pixel tail, and "1.5" and "1,5" read the
// same at a glance.
func (t *TextImage) comma(x, y int) {
	a := basicfont.Face7x13.Ascent
	fill(t.Img, image.Rect(x, y-a, x+GlyphW, y-a+LineH-1).Intersect(t.used), t.bg)
	fg := t.drawer.Src.(*image.Uniform).C.(color.RGBA)
	for _, p := range [...]image.Point{{2, -2}, {3, -2}, {2, -1}, {3, -1}, {3, 0}, {2, 1}, {1, 2}} {
		if q := (image.Point{x + p.X, y + p.Y}); q.In(t.used) {
			t.Img.SetRGBA(q.X, q.Y, fg)
		}
	}
}

// lines yields the '\n'-separated lines of b without allocating.
func lines(b []byte) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for len(b) > 0 {
			i := 0
			for i < len(b) && b[i] != '\n' {
				i++
			}
			if !yield(b[:i]) {
				return
			}
			if i == len(b) {
				return
			}
			b = b[i+1:]
			if len(b) == 0 {
				yield(b)
			}
		}
	}
}
