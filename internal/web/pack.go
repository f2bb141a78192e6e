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
