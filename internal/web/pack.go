package web

import "image"

// packRect copies the pixels of c, a rectangle within img, into dst,
// row after row, the rows stride bytes apart (an ImageData's rows, as
// wide as stride/4 pixels, c at its top left), and returns the bytes it
// wrote up to the last row's end: (c.Dy()-1)*stride + c.Dx()*4. dst
// holds at least that many.
func packRect(dst []byte, stride int, img *image.RGBA, c image.Rectangle) int {
	row := c.Dx() * 4
	for y := c.Min.Y; y < c.Max.Y; y++ {
		i := img.PixOffset(c.Min.X, y)
		copy(dst[(y-c.Min.Y)*stride:], img.Pix[i:i+row])
	}
	return (c.Dy()-1)*stride + row
}

// maxDirty is the most rectangles a dirty set keeps apart.
const maxDirty = 4

// dirty is the parts of an overlay's image changed since its canvas was
// last written: a change that touches a rectangle kept is merged into it
// (the graph's sweep redraws column after column, the HUD's text the same
// extent), one apart from them is kept apart (the sweep's wrap, at the
// other end), and where maxDirty are kept the last grows to hold it. It
// allocates nothing.
type dirty struct {
	rects [maxDirty]image.Rectangle
	n     int
}

// add marks r changed.
func (d *dirty) add(r image.Rectangle) {
	if r.Empty() {
		return
	}
	for i := range d.n {
		if touches(d.rects[i], r) {
			d.rects[i] = d.rects[i].Union(r)
			return
		}
	}
	if d.n < maxDirty {
		d.rects[d.n] = r
		d.n++
		return
	}
	d.rects[d.n-1] = d.rects[d.n-1].Union(r)
}

// list is the rectangles changed; every pixel added lies in one.
func (d *dirty) list() []image.Rectangle { return d.rects[:d.n] }

// reset forgets the changes: written.
func (d *dirty) reset() { d.n = 0 }

// touches says whether a and b overlap or share an edge.
func touches(a, b image.Rectangle) bool {
	return a.Min.X <= b.Max.X && b.Min.X <= a.Max.X && a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y
}
