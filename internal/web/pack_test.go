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
