// Package paint paints the balls on the CPU: plain Go, no GL, the
// picture that ball.vert and disc.frag draw, into an RGBA image that the
// page uploads as one texture (internal/web, the painted option).
//
// Where WebGL itself runs on the CPU (SwiftShader, llvmpipe), drawing
// 10,000 sprites of 200 pixels shades every fragment of every sprite,
// most of them painted over. Painting front to back, a Painter touches a
// pixel only until it is opaque:
//
//  1. The balls from the last to the first (front to back). Each pixel
//     row of the view is a bitmap of the pixels that the balls so far
//     cover at full opacity (as package render/occlusion's): a ball's
//     stamp (its pixels with any coverage, for its centre's 1/16 pixel)
//     less those bits is what of it shows; a row of it that shows nothing
//     costs two word operations.
//  2. A pixel that shows takes the ball's colour under what is already
//     there (premultiplied alpha, "under"), at the ball's coverage: 1 in
//     its core (where every centre in that 1/16 pixel covers the pixel's
//     centre fully), else clamp(radius+0.5-d, 0, 1), d the distance from
//     the pixel's centre to the ball's, in float32 as disc.frag computes
//     it. The core's bits are then set.
//  3. The world's colour goes under whatever is not opaque.
//
// Blending front to back with 8-bit steps rounds otherwise than the GPU's
// back-to-front blending: a pixel differs from the GPU's by a few levels
// at most, at the discs' edges (TestPaintedMatchesBackToFront bounds it).
//
// On a GPU the painter loses: drawing is nearly free there and painting
// is not. The page measures both and keeps the cheaper (package
// render/adaptive).
package paint

import (
	"math"
	"math/bits"

	"github.com/interpdemo/interpdemo/render/occlusion"
)

const (
	stampQ   = 16 // stamps for every 1/16 pixel of the centre, on each axis
	maxReach = 30 // the farthest, in pixels from the centre's, a stamp reaches: a row of it fits a word
	// slack is the margin, in pixels, the core's stamp keeps from the
	// core's edge, over float rounding.
	slack = 1.0 / 64
)

// Painter paints the balls of a view. The zero value paints nothing until
// Resize and Sync.
type Painter struct {
	n          int     // balls in last and next
	last, next []int32 // the positions of the last Sync
	colors     []uint32
	highlight  int // the ball drawn in the player's colour, -1 for none

	w, h           int
	sx, sy, ox, oy float64
	radius         float32
	stamp          int      // rows and columns a stamp reaches from the centre's pixel; 0: unusable
	reachM, coreM  []uint64 // stampQ^2 stamps of 2*stamp+1 rows: bit b is column px-stamp+b
	words          int      // a bitmap row: 64 columns left of the view, the view, 128 or more right
	opaque, blank  []uint64 // h rows of words: pixels opaque so far; blank with only the outside set
	img            []uint32 // w*h pixels, RGBA (R in the low byte), rows from the top
	background     [3]float32
	// What img was painted for: the positions', view's and highlight's
	// generation (bumped by Sync, Resize and SetHighlight) and the mix
	// factor.
	gen, paintedGen int
	alpha           float32
	painted         bool
}

// New is a painter whose world is the colour rgb (0 to 1 each).
func New(rgb [3]float64) *Painter {
	p := &Painter{highlight: -1}
	for i, c := range rgb {
		p.background[i] = float32(c * 255)
	}
	return p
}

// Usable reports whether the view can be painted: not empty, and balls
// small enough for a stamp.
func (p *Painter) Usable() bool { return p.stamp > 0 && p.w > 0 && p.h > 0 }

// Resize sets the view, as package occlusion takes it, and sizes the
// buffers (it allocates; Paint does not).
func (p *Painter) Resize(v occlusion.View) {
	p.gen++
	p.w, p.h = max(v.W, 0), max(v.H, 0)
	p.sx, p.sy, p.ox, p.oy = v.SX, v.SY, v.OX, v.OY
	p.radius = float32(v.Radius)
	reach := min(v.Radius+0.5, v.MaxReach)
	p.stamp = int(math.Ceil(reach))
	if reach <= 0 || 2*p.stamp+1 > 64 || p.stamp > maxReach || p.w == 0 || p.h == 0 {
		p.stamp = 0
		return
	}
	p.tableStamps(reach, v.Radius-0.5-slack)
	p.words = (64+p.w+64+63)/64 + 1
	p.opaque = make([]uint64, p.h*p.words)
	p.blank = make([]uint64, p.h*p.words)
	for y := 0; y < p.h; y++ {
		for k := 0; k < p.words; k++ {
			p.blank[y*p.words+k] = outside(k, 64, 64+p.w)
		}
	}
	p.img = make([]uint32, p.w*p.h)
}

// outside is word k of a row of bits (bit b of word k is column 64k+b)
// with the bits of the columns outside [lo, hi) set.
func outside(k, lo, hi int) uint64 {
	from, to := max(lo-64*k, 0), min(hi-64*k, 64)
	if from >= to {
		return ^uint64(0)
	}
	return ^(^uint64(0) >> (64 - (to - from)) << from)
}

// tableStamps fills the stamps: stamp (qy, qx) is for a centre qy/16 to
// (qy+1)/16 pixel down into its pixel and qx/16 to (qx+1)/16 across. A
// reach bit is set where some centre in that square comes within reach
// of the pixel's centre, a core bit where every centre lies within core.
func (p *Painter) tableStamps(reach, core float64) {
	n := 2*p.stamp + 1
	p.reachM, p.coreM = make([]uint64, stampQ*stampQ*n), make([]uint64, stampQ*stampQ*n)
	// near and far: the least and largest distance, on one axis, from a
	// pixel centre k+0.5 away from the start of the centre's pixel to a
	// centre q/16 to (q+1)/16 into it.
	near := func(k, q int) float64 {
		d, lo, hi := float64(k)+0.5, float64(q)/stampQ, float64(q+1)/stampQ
		return max(lo-d, d-hi, 0)
	}
	far := func(k, q int) float64 {
		d := float64(k) + 0.5
		return max(math.Abs(d-float64(q)/stampQ), math.Abs(d-float64(q+1)/stampQ))
	}
	for qy := range stampQ {
		for qx := range stampQ {
			at := (qy*stampQ + qx) * n
			for k := range n {
				ny, fy := near(k-p.stamp, qy), far(k-p.stamp, qy)
				for b := range n {
					nx, fx := near(b-p.stamp, qx), far(b-p.stamp, qx)
					if nx*nx+ny*ny < reach*reach {
						p.reachM[at+k] |= 1 << b
					}
					if core > 0 && fx*fx+fy*fy <= core*core {
						p.coreM[at+k] |= 1 << b
					}
				}
			}
		}
	}
}

// Sync keeps a copy of the positions: the world's interleaved
// fixed-point last and next positions.
func (p *Painter) Sync(last, next []int32) {
	n := len(next) / 2
	if len(last) != len(next) {
		n = 0
	}
	p.last = append(p.last[:0], last[:2*n]...)
	p.next = append(p.next[:0], next[:2*n]...)
	if len(p.colors) < n {
		// Coloured once, as ball.vert colours each ball: by its index.
		for i := len(p.colors); i < n; i++ {
			p.colors = append(p.colors, pack(Palette(i)))
		}
		if h := p.highlight; h >= 0 && h < n {
			p.colors[h] = pack(Highlight)
		}
	}
	p.n = n
	p.gen++
}

// Balls is how many balls the last Sync gave the painter.
func (p *Painter) Balls() int { return p.n }

// SetHighlight paints ball i (-1 for none) in the player's colour.
func (p *Painter) SetHighlight(i int) {
	if i == p.highlight {
		return
	}
	if h := p.highlight; h >= 0 && h < len(p.colors) {
		p.colors[h] = pack(Palette(h))
	}
	if i >= 0 && i < len(p.colors) {
		p.colors[i] = pack(Highlight)
	}
	p.highlight = i
	p.gen++
}

// Highlight is the player's colour (ball.vert's).
var Highlight = [3]float32{1, 0.85, 0.2}

// Palette is ball i's colour, as ball.vert's palette computes it.
func Palette(i int) [3]float32 {
	h := uint32(i) * 2654435761
	h ^= h >> 15
	t := float32(h&1023) / 1023
	var c [3]float32
	for k, o := range [3]float32{0, 0.33, 0.67} {
		c[k] = 0.55 + 0.4*float32(math.Cos(float64(6.28318*(t+o))))
	}
	return c
}

// pack is an opaque RGBA pixel of colour c, rounded as a GL
// framebuffer's unsigned normalized bytes are.
func pack(c [3]float32) uint32 {
	return uint32(c[0]*255+0.5) | uint32(c[1]*255+0.5)<<8 | uint32(c[2]*255+0.5)<<16 | 255<<24
}

// Size is the image's size in pixels.
func (p *Painter) Size() (w, h int) { return p.w, p.h }

// Paint paints the balls at mix factor alpha (between last and next) and
// returns the image: w*h pixels, RGBA with R in the low byte, rows from
// the top. It allocates nothing, and paints nothing when the image is
// still right (fresh false): the same positions, view and highlight at
// the same mix factor (interpolation off, or the game paused).
func (p *Painter) Paint(alpha float32) (img []uint32, fresh bool) {
	if p.painted && p.paintedGen == p.gen && p.alpha == alpha {
		return p.img, false
	}
	p.painted, p.paintedGen, p.alpha = true, p.gen, alpha
	if !p.Usable() {
		return p.img, true
	}
	clear(p.img)
	copy(p.opaque, p.blank)
	n := 2*p.stamp + 1
	reach := float64(p.stamp) + 1 // farther out, no pixel of the view is reached
	for i := p.n - 1; i >= 0; i-- {
		// As ball.vert: mix in float32, then the projection.
		lx, ly := float32(p.last[2*i]), float32(p.last[2*i+1])
		x := float64(lx+(float32(p.next[2*i])-lx)*alpha)*p.sx + p.ox
		y := float64(ly+(float32(p.next[2*i+1])-ly)*alpha)*p.sy + p.oy
		if x < -reach || y < -reach || x > float64(p.w)+reach || y > float64(p.h)+reach {
			continue
		}
		fx, fy := math.Floor(x), math.Floor(y)
		qx, qy := min(int((x-fx)*stampQ), stampQ-1), min(int((y-fy)*stampQ), stampQ-1)
		at := (qy*stampQ + qx) * n
		p.ball(i, int(fx)-p.stamp, int(fy)-p.stamp, float32(x), float32(y), p.reachM[at:at+n], p.coreM[at:at+n])
	}
	p.world()
	return p.img, true
}

// ball paints ball i under what is painted, its stamp's column 0 at
// pixel column bx, row 0 at pixel row by; (x, y) is its centre.
func (p *Painter) ball(i, bx, by int, x, y float32, reachM, coreM []uint64) {
	c := p.colors[i]
	base := bx + 64 // the stamp's column 0 in a bitmap row
	wi, sh := base>>6, uint(base&63)
	for k, m := range reachM {
		yy := by + k
		if yy < 0 || yy >= p.h {
			continue
		}
		row := p.opaque[yy*p.words+wi : yy*p.words+wi+2]
		lo, hi := m<<sh&^row[0], m>>(64-sh)&^row[1]
		if lo|hi == 0 {
			continue
		}
		cm := coreM[k]
		cl, ch := cm<<sh, cm>>(64-sh)
		img := p.img[yy*p.w : yy*p.w+p.w]
		dy := float32(yy) + 0.5 - y
		dy2 := dy * dy
		for w, v := range [2]uint64{lo, hi} {
			core := cl
			if w == 1 {
				core = ch
			}
			at := (wi+w)*64 - 64
			for v != 0 {
				b := bits.TrailingZeros64(v)
				v &= v - 1
				col := at + b
				d := img[col]
				if core>>b&1 != 0 {
					if d == 0 {
						img[col] = c // the first to cover it, fully
					} else {
						img[col] = under(d, c, 255)
					}
					continue
				}
				dx := float32(col) + 0.5 - x
				if a := p.radius + 0.5 - float32(math.Sqrt(float64(dx*dx+dy2))); a > 0 {
					img[col] = under(d, c, uint32(min(a, 1)*255+0.5))
				}
			}
		}
		row[0] |= cl
		row[1] |= ch
	}
}

// under puts opaque colour c at coverage a (0 to 255) under pixel d,
// both premultiplied RGBA: d plus what d lets through of c, rounded.
func under(d, c, a uint32) uint32 {
	t := (255 - d>>24) * a // what of c shows, times 255*255
	r := min(d&255+(c&255*t+32512)/65025, 255)
	g := min(d>>8&255+(c>>8&255*t+32512)/65025, 255)
	b := min(d>>16&255+(c>>16&255*t+32512)/65025, 255)
	return r | g<<8 | b<<16 | (d>>24+(t+127)/255)<<24
}

// world puts the world's colour under every pixel not yet opaque.
func (p *Painter) world() {
	bg := p.background
	solid := uint32(bg[0]+0.5) | uint32(bg[1]+0.5)<<8 | uint32(bg[2]+0.5)<<16 | 255<<24
	for i, d := range p.img {
		switch {
		case d == 0:
			p.img[i] = solid
		case d>>24 != 255:
			f := float32(255-d>>24) / 255
			r := min(d&255+uint32(bg[0]*f+0.5), 255)
			g := min(d>>8&255+uint32(bg[1]*f+0.5), 255)
			b := min(d>>16&255+uint32(bg[2]*f+0.5), 255)
			p.img[i] = r | g<<8 | b<<16 | 255<<24
		}
	}
}
