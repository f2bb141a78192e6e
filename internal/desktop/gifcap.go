package desktop

import (
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"io"
	"time"

	"github.com/interpdemo/interpdemo/internal/demo"
)

// plan9 is the palette of the frames.
var plan9 = color.Palette(palette.Plan9)

// capture keeps the pictures of a run that -screenshot and -gif write.
type capture struct {
	last *image.RGBA // the last frame, for -screenshot
	gif  *gifCapture // every frame, for -gif
}

// gifCapture keeps the frames of a run for -gif, in the Plan 9 palette.
// Unlike the rest of the loop it allocates (a picture per frame): it is a
// capture mode, for making the README's animation.
type gifCapture struct {
	anim  gif.GIF
	start []time.Duration  // each kept frame's start, for the delays
	index map[uint32]uint8 // colour -> palette index, learned as they come
}

// add keeps frame img, drawn at start, until demo.MaxGIFFrames are kept.
func (g *gifCapture) add(img *image.RGBA, start time.Duration) {
	if len(g.anim.Image) >= demo.MaxGIFFrames {
		return
	}
	if g.index == nil {
		g.index = map[uint32]uint8{}
	}
	p := image.NewPaletted(img.Rect, palette.Plan9)
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		row := img.Pix[img.PixOffset(img.Rect.Min.X, y):]
		out := p.Pix[p.PixOffset(p.Rect.Min.X, y):]
		for x := range img.Rect.Dx() {
			r, gr, b := row[4*x], row[4*x+1], row[4*x+2]
			key := uint32(r)<<16 | uint32(gr)<<8 | uint32(b)
			i, ok := g.index[key]
			if !ok {
				i = uint8(plan9.Index(color.RGBA{r, gr, b, 255}))
				g.index[key] = i
			}
			out[x] = i
		}
	}
	g.anim.Image = append(g.anim.Image, p)
	g.start = append(g.start, start)
}

// write encodes the animation; each frame lasts until the next one
// started (the last one as long as the one before it), in GIF's 1/100 s.
func (g *gifCapture) write(w io.Writer) error {
	n := len(g.anim.Image)
	g.anim.Delay = make([]int, n)
	for i := range n {
		var d time.Duration
		switch {
		case i+1 < n:
			d = g.start[i+1] - g.start[i]
		case i > 0:
			d = g.start[i] - g.start[i-1]
		}
		g.anim.Delay[i] = max(2, int((d+5*time.Millisecond)/(10*time.Millisecond)))
	}
	return gif.EncodeAll(w, &g.anim)
}
