package web

import (
	"image"
	"math/rand/v2"
	"testing"
)

// packRect puts each pixel of the rectangle where an ImageData of rows
// stride bytes apart holds it, c at its top left, and reports the bytes
// up to the last row's end: a graph's few columns of the sweep, a
// sub-image's, a rectangle as wide as the rows.
func TestPackRect(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 300, 40))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range src.Pix {
		src.Pix[i] = byte(r.Uint32())
	}
	sub := src.SubImage(image.Rect(0, 0, 120, 40)).(*image.RGBA)
	for _, c := range []struct {
		img    *image.RGBA
		rect   image.Rectangle
		stride int
	}{
		{src, image.Rect(100, 0, 105, 40), 64 * 4},
		{src, image.Rect(0, 3, 1, 4), 64 * 4},
		{sub, image.Rect(60, 10, 120, 30), 64 * 4},
		{src, image.Rect(0, 0, 300, 40), 300 * 4},
	} {
		dst := make([]byte, c.stride*c.rect.Dy())
		for i := range dst {
			dst[i] = 0xAB
		}
		n := packRect(dst, c.stride, c.img, c.rect)
		if want := (c.rect.Dy()-1)*c.stride + c.rect.Dx()*4; n != want {
			t.Errorf("%v: %d bytes, want %d", c.rect, n, want)
		}
		for y := c.rect.Min.Y; y < c.rect.Max.Y; y++ {
			for x := c.rect.Min.X; x < c.rect.Max.X; x++ {
				i := (y-c.rect.Min.Y)*c.stride + (x-c.rect.Min.X)*4
				if got, want := dst[i:i+4], c.img.Pix[c.img.PixOffset(x, y):][:4]; string(got) != string(want) {
					t.Fatalf("%v: pixel %d,%d is %v, want %v", c.rect, x, y, got, want)
				}
			}
		}
		// Nothing past a row's pixels is written.
		if c.rect.Dx()*4 < c.stride && dst[c.rect.Dx()*4] != 0xAB {
			t.Errorf("%v: wrote past the first row's pixels", c.rect)
		}
	}
}

// A dirty set keeps a sweep's columns, one after another, as one
// rectangle, the wrap's at the other end apart, and every pixel added
// inside what it lists, however many rectangles come.
func TestDirtyMergesWhatTouches(t *testing.T) {
	var d dirty
	for x := 100; x < 130; x += 3 {
		d.add(image.Rect(x, 0, x+3, 108))
	}
	d.add(image.Rect(0, 0, 4, 108))
	d.add(image.Rectangle{})
	if got, want := d.list(), []image.Rectangle{image.Rect(100, 0, 130, 108), image.Rect(0, 0, 4, 108)}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("sweep and wrap: %v, want %v", got, want)
	}
	d.reset()
	if len(d.list()) != 0 {
		t.Errorf("reset: %v", d.list())
	}
	r := rand.New(rand.NewPCG(3, 4))
	var added []image.Rectangle
	for range 200 {
		x, y := r.IntN(600), r.IntN(100)
		c := image.Rect(x, y, x+1+r.IntN(40), y+1+r.IntN(20))
		added = append(added, c)
		d.add(c)
		if len(d.list()) > maxDirty {
			t.Fatalf("%d rectangles kept, at most %d", len(d.list()), maxDirty)
		}
	}
	for _, c := range added {
		for y := c.Min.Y; y < c.Max.Y; y++ {
			for x := c.Min.X; x < c.Max.X; x++ {
				in := false
				for _, k := range d.list() {
					in = in || image.Pt(x, y).In(k)
				}
				if !in {
					t.Fatalf("pixel %d,%d of %v not listed in %v", x, y, c, d.list())
				}
			}
		}
	}
	if n := testing.AllocsPerRun(100, func() { d.reset(); d.add(image.Rect(0, 0, 1, 1)); _ = d.list() }); n != 0 {
		t.Errorf("%v allocations a change", n)
	}
}
