package render

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// Occlusion culling on the CPU, for thousands of balls. At 10,000 balls of
// 16 px in 640x480 each pixel lies under some seven sprites, and four
// balls in ten lie wholly under the opaque pixels of later ones. A culler
// on the GPU would have to draw every ball's core to find them; here the
// CPU finds most of them, at each frame's own mix factor (again only when
// the positions, the mix factor or the view changed):
//
//  1. Coverage, the balls from the last to the first: each pixel row of
//     the world's view is a bitmap of the pixels that the balls so far
//     cover at full opacity (the disc's coverage is 1 where a pixel's
//     centre lies within radius-0.5 of the ball's centre). A ball adds
//     its core, a precomputed stamp of bits, with a shift and an OR a row.
//  2. Cells: a cell of cellSize x cellSize pixels belongs to the ball that
//     covers its last pixel: every ball drawn from that one on covers the
//     whole cell opaquely, so any ball before it is painted over there.
//  3. Windows: for every cell, the first owner of the cellWin cells of
//     its row up to it. Only these go to the GPU, a texture the size of
//     the view over cellSize squared, whatever the number of balls.
//  4. The balls, as always, but ball.vert moves a ball out of the clip
//     volume when, in every row of cells its disc reaches, the two
//     windows that span the cells it reaches there belong to later balls.
//
// A culled ball is one the painter's algorithm would have painted over
// with opaque pixels everywhere its disc has any coverage, so the picture
// is exactly the painter's. The CPU takes positions to 1/256 pixel (the
// rasterizer's own precision), the stamps hold only the pixels covered
// wherever in its 1/16 pixel the centre lies, and every distance carries
// a margin of cellSlack pixels over the GPU's float rounding.

const (
	cellSize     = 4  // a cell's side in pixels (prepareCells counts on 4)
	cellFixBits  = 8  // positions in 1/256 pixel
	cellStampQ   = 16 // stamps for every 1/16 pixel of the centre, on each axis
	cellSlack    = 1.0 / 16
	cellTextures = maxInFlight + 2 // the ring of window textures
	// cellMaxReach is the farthest, in pixels from the centre's, that a
	// stamp reaches: a row of it fits a word. Larger balls (a window
	// some four times the world's size) are not culled.
	cellMaxReach = 30
)

// cellFirst has the bit of each cell's first column in a word of a row.
const cellFirst = 0x1111111111111111

// cellMinBalls is the fewest balls culled: with fewer in 640x480 (radius
// 8), too few are hidden to pay for finding them. A variable, for the
// tests.
var cellMinBalls = 9000

type cellCuller struct {
	n          int     // balls in last and next (0: none synced)
	last, next []int32 // the positions of the last Sync

	vw, vh int // the view the buffers are sized for, in pixels
	gw, gh int // cells
	win    int // cells per side of a window (cellWin)
	tw     int // windows a row, from -(win-1) cells on
	// Rows of the view's pixels, one bit each, from 64 pixels left of the
	// view to 64 or more right of it: words words a row, gh*cellSize rows.
	words int
	bits  []uint64 // pixels covered opaquely
	bits0 []uint64 // bits before any ball: pixels outside the view set
	// (a band's four rows interleaved, word by word: see bit)
	full  []uint64 // gh rows: a cell's nibble's low bit once it is covered
	full0 []uint64 // full before any ball: set outside the cells
	cells []int32  // gw*gh: each cell's owner, -1 for none

	reach  float64  // how far from its centre a ball's disc has coverage, slack included
	core   float64  // how far its full opacity reaches, slack taken off
	stamp  int      // rows and columns a stamp reaches from the centre's pixel; 0: no stamps
	stamps []uint64 // cellStampQ^2 stamps of 2*stamp+1 rows (see tableStamps)

	rowMin []int32 // tw*gh: the windows, the first owner over win cells of a row
	// The windows go to the next of a ring of textures: a texture that a
	// frame still in flight reads would make the upload wait for it.
	tex  [cellTextures]uint32
	ring int
	used bool // a frame has used a texture since EndFrame last looked

	// The world-to-pixel mapping of the view (resizeCells).
	sx, sy, ox, oy float64
	// What the windows in tex[ring] were found for: the positions' and
	// the view's generation (bumped by sync and resizeCells) and the mix
	// factor. prepared is false until a prepare.
	gen, preparedGen int
	alpha            float32
	prepared         bool
}

// Culling reports whether the n balls of the last Sync are drawn with
// occlusion culling: at least cellMinBalls of them, Config.Painter off,
// and balls small enough for a stamp.
func (r *Renderer) Culling(n int) bool {
	c := &r.cells
	return !r.cfg.Painter && c.tex[0] != 0 && n >= cellMinBalls &&
		c.n == n && n == r.pos.N() && c.stamp > 0 && !r.view.Empty()
}

// sync keeps the CPU's copy of the positions Sync uploads, when the CPU
// may cull them.
func (c *cellCuller) sync(last, next []int32) {
	c.gen++
	n := len(next) / 2
	if n < cellMinBalls {
		c.n = 0
		return
	}
	if cap(c.last) < len(last) {
		c.last = make([]int32, len(last), len(last)+len(last)/4)
		c.next = make([]int32, len(next), len(next)+len(next)/4)
	}
	c.last, c.next = c.last[:len(last)], c.next[:len(next)]
	copy(c.last, last)
	copy(c.next, next)
	c.n = n
}

// bit is the index in bits of row y's word k: the four rows of a band of
// cells lie word by word together, so a cell's 16 pixels are in one
// cache line.
func (c *cellCuller) bit(y, k int) int {
	return ((y/cellSize)*c.words+k)*cellSize + y%cellSize
}

// tableStamps fills c.stamps for the core's radius. Stamp (qy, qx) is
// for a centre in pixel row py and column px, qy/16 to (qy+1)/16 pixel
// down into it and qx/16 to (qx+1)/16 across; its row k is pixel row
// py-stamp+k, and its bit b pixel column px-stamp+b. A bit is set where
// the pixel's centre lies within the core of every centre in that square.
func (c *cellCuller) tableStamps() {
	c.stamp = int(math.Ceil(c.core))
	if c.core <= 0 || 2*c.stamp+1 > 64 || c.stamp > cellMaxReach {
		c.stamp = 0
		return
	}
	n := 2*c.stamp + 1
	c.stamps = make([]uint64, cellStampQ*cellStampQ*n)
	// far is the largest distance from a pixel centre k+0.5 away from the
	// start of the centre's pixel to a centre q/16 to (q+1)/16 into it.
	far := func(k, q int) float64 {
		d := float64(k) + 0.5
		return max(math.Abs(d-float64(q)/cellStampQ), math.Abs(d-float64(q+1)/cellStampQ))
	}
	for qy := 0; qy < cellStampQ; qy++ {
		for qx := 0; qx < cellStampQ; qx++ {
			st := c.stamps[(qy*cellStampQ+qx)*n:][:n]
			for k := range st {
				dy := far(k-c.stamp, qy)
				for b := 0; b < n; b++ {
					dx := far(b-c.stamp, qx)
					if dx*dx+dy*dy <= c.core*c.core {
						st[k] |= 1 << b
					}
				}
			}
		}
	}
}

// resizeCells sizes the grids for the renderer's view and sprite.
func (r *Renderer) resizeCells() {
	c := &r.cells
	rad := float64(r.cfg.Radius) * r.scale
	c.reach = min(rad+0.5, float64(r.pointSize)/2) + cellSlack
	c.core = rad - 0.5 - cellSlack
	c.vw, c.vh = r.view.W, r.view.H
	c.gw, c.gh = (c.vw+cellSize-1)/cellSize, (c.vh+cellSize-1)/cellSize
	// A sprite from p-reach to p+reach spans at most this many cells of
	// a row; two windows of half that from its first and its last cell
	// cover them.
	c.win = (int(2*c.reach)/cellSize + 3) / 2
	c.tw = c.gw + c.win - 1
	c.gen++
	// The projection and viewport's mapping (resizeArea) of world
	// positions into the view's pixels from its top left.
	one := float64(int64(1) << r.cfg.FracBits)
	mu := float64(marginPx) / r.scale * one
	ww, wh := float64(r.cfg.WorldW)*one, float64(r.cfg.WorldH)*one
	c.sx = float64(r.view.W+2*marginPx) / (ww + 2*mu)
	c.sy = float64(r.view.H+2*marginPx) / (wh + 2*mu)
	c.ox, c.oy = mu*c.sx-marginPx, mu*c.sy-marginPx
	if c.tex[0] == 0 || r.view.Empty() {
		c.stamp = 0
		return
	}
	c.tableStamps()
	// 64 pixels left of the view and at least 64 right of it: a stamp of
	// a ball reaching into them needs no clipping.
	c.words = (64+c.gw*cellSize+63)/64 + 1
	rows := c.gh * cellSize
	c.bits, c.bits0 = make([]uint64, rows*c.words), make([]uint64, rows*c.words)
	c.full, c.full0 = make([]uint64, c.gh*c.words), make([]uint64, c.gh*c.words)
	for x := 0; x < c.words*64; x++ {
		in := x >= 64 && x < 64+c.vw
		for row := 0; row < rows; row++ {
			if !in || row >= c.vh {
				c.bits0[c.bit(row, x/64)] |= 1 << (x % 64)
			}
		}
		if x < 64 || x >= 64+c.gw*cellSize {
			for band := 0; band < c.gh; band++ {
				c.full0[band*c.words+x/64] |= 1 << (x % 64)
			}
		}
	}
	c.cells = grow32(c.cells, c.gw*c.gh)
	c.rowMin = grow32(c.rowMin, c.tw*c.gh)
	for _, t := range c.tex {
		gl.BindTexture(gl.TEXTURE_2D, t)
		gl.TexImage2D(gl.TEXTURE_2D, 0, gl.R32I, int32(c.tw), int32(c.gh), 0, gl.RED_INTEGER, gl.INT, nil)
	}
}

func grow32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

func (r *Renderer) initCells() {
	c := &r.cells
	gl.GenTextures(cellTextures, &c.tex[0])
	for _, t := range c.tex {
		gl.BindTexture(gl.TEXTURE_2D, t)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	}
}

func (c *cellCuller) delete() {
	if c.tex[0] != 0 {
		gl.DeleteTextures(cellTextures, &c.tex[0])
		c.tex = [cellTextures]uint32{}
	}
}

// prepareCells finds the hidden balls at mix factor alpha (steps 1 to 3)
// and leaves the windows on texture unit 2. It allocates nothing, and
// finds and uploads nothing when the last windows are still right: the
// same positions and view at the same mix factor (interpolation off,
// or the game paused).
func (r *Renderer) prepareCells(alpha float32) {
	c := &r.cells
	c.used = true
	if c.prepared && c.preparedGen == c.gen && c.alpha == alpha {
		gl.ActiveTexture(gl.TEXTURE2)
		gl.BindTexture(gl.TEXTURE_2D, c.tex[c.ring])
		gl.ActiveTexture(gl.TEXTURE0)
		return
	}
	c.prepared, c.preparedGen, c.alpha = true, c.gen, alpha
	a := float64(alpha)

	// Steps 1 and 2 together, the balls from the last to the first.
	gw, words, n := c.gw, c.words, 2*c.stamp+1
	copy(c.bits, c.bits0)
	copy(c.full, c.full0)
	for i := range c.cells {
		c.cells[i] = -1 // not covered (yet)
	}
	// Positions in 1/256 pixel, offset to stay positive, so that a
	// conversion to int is a floor.
	const off, fix = 1 << 30, 1 << cellFixBits
	fx, fy := c.sx*fix, c.sy*fix
	gx, gy := c.ox*fix+off, c.oy*fix+off
	rows := c.gh * cellSize
	// Stopping early is safe: a cell not yet covered hides nothing. The
	// balls stop when every cell is covered, or when the last stale balls
	// covered none afresh (cells at the view's edges that no ball's core
	// reaches).
	open := gw * c.gh // cells not yet covered
	stale := max(gw*c.gh/8, 256)
	last := c.n - 1 // the last ball that covered a cell afresh
	for j := c.n - 1; j >= 0 && open > 0 && last-j < stale; j-- {
		lx, ly := float64(c.last[2*j]), float64(c.last[2*j+1])
		xq := int((lx+a*(float64(c.next[2*j])-lx))*fx+gx) - off
		yq := int((ly+a*(float64(c.next[2*j+1])-ly))*fy+gy) - off
		q := ((yq&(fix-1))*cellStampQ/fix)*cellStampQ + (xq&(fix-1))*cellStampQ/fix
		st := c.stamps[q*n:][:n]
		// The stamp's first bit in a row, counted from the row's first
		// word (64 pixels left of the view), and its first row.
		p := xq>>cellFixBits - c.stamp + 64
		w, sh := p>>6, uint(p&63)
		y0 := yq>>cellFixBits - c.stamp
		k0, k1 := max(0, -y0), min(n, rows-y0)
		if p < 0 || w+1 >= words || k0 >= k1 {
			continue // too far outside the view to cover any of it: no occluder
		}
		// Every cell the stamp reaches covered already (later balls
		// cover most of the view): the stamp would change nothing that
		// matters.
		b0, b1 := (y0+k0)/cellSize, (y0+k1-1)/cellSize
		lo, hi := p&^(cellSize-1)-w*64, (p+n-1)&^(cellSize-1)-w*64 // first columns of the first and last cell, in words w, w+1
		m0, m1 := cellFirst&(^uint64(0)<<lo), uint64(0)
		if hi < 64 {
			m0 &= ^uint64(0) >> (63 - hi)
		} else {
			m1 = cellFirst & (^uint64(0) >> (127 - hi))
		}
		done := true
		for band := b0; band <= b1 && done; band++ {
			full := c.full[band*words+w:][:2]
			done = full[0]&m0 == m0 && full[1]&m1 == m1
		}
		if done {
			continue
		}
		var changed uint32 // bands the stamp covered a pixel of afresh
		for k := k0; k < k1; k++ {
			y := y0 + k
			i := c.bit(y, w)
			lo, hi := c.bits[i]|st[k]<<sh, c.bits[i+cellSize]|st[k]>>(64-sh)
			if lo != c.bits[i] || hi != c.bits[i+cellSize] {
				changed |= 1 << (y/cellSize - (y0+k0)/cellSize)
			}
			c.bits[i], c.bits[i+cellSize] = lo, hi
		}
		for band := (y0 + k0) / cellSize; changed != 0; band++ {
			if changed&1 == 0 {
				changed >>= 1
				continue
			}
			changed >>= 1
			full := c.full[band*words:][:words]
			for k := w; k <= w+1; k++ {
				b4 := c.bits[c.bit(band*cellSize, k):][:cellSize]
				b := b4[0] & b4[1] & b4[2] & b4[3]
				// A cell's four columns all covered: its nibble's low bit.
				b &= b >> 1
				b &= b >> 2
				b &= cellFirst
				fresh := b &^ full[k]
				full[k] |= fresh
				if fresh != 0 {
					open -= bits.OnesCount64(fresh)
					last = j
				}
				for fresh != 0 {
					cell := band*gw + (k*64+bits.TrailingZeros64(fresh)-64)/cellSize
					c.cells[cell] = int32(j)
					fresh &= fresh - 1
				}
			}
		}
	}

	// Step 3. Window tx of a row stands for its cells from tx-(win-1) to
	// tx; cells outside the view are never drawn, so no ball that matters
	// owns them (MaxInt32).
	gh, win, tw := c.gh, c.win, c.tw
	for cy := 0; cy < gh; cy++ {
		cells := c.cells[cy*gw : (cy+1)*gw]
		out := c.rowMin[cy*tw : (cy+1)*tw]
		for tx := range out {
			m := int32(math.MaxInt32)
			for cx := max(tx-(win-1), 0); cx <= min(tx, gw-1); cx++ {
				m = min(m, cells[cx])
			}
			out[tx] = m
		}
	}
	gl.ActiveTexture(gl.TEXTURE2)
	c.ring = (c.ring + 1) % cellTextures
	gl.BindTexture(gl.TEXTURE_2D, c.tex[c.ring])
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	gl.TexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, int32(c.tw), int32(c.gh), gl.RED_INTEGER, gl.INT, unsafe.Pointer(&c.rowMin[0]))
	gl.ActiveTexture(gl.TEXTURE0)
}

// hiddenCount counts the balls the last prepare hid.
func (c *cellCuller) hiddenCount() int {
	hidden := 0
	for i := 0; i < c.n; i++ {
		if c.hidden(i) {
			hidden++
		}
	}
	return hidden
}

// hidden reports whether the last prepare hid ball i, by ball.vert's test.
func (c *cellCuller) hidden(i int) bool {
	a := float64(c.alpha)
	lx, ly := float64(c.last[2*i]), float64(c.last[2*i+1])
	x := (lx+a*(float64(c.next[2*i])-lx))*c.sx + c.ox
	y := (ly+a*(float64(c.next[2*i+1])-ly))*c.sy + c.oy
	cy0 := int(math.Floor((y - c.reach) / cellSize))
	cy1 := int(math.Floor((y + c.reach) / cellSize))
	for cy := cy0; cy <= cy1; cy++ {
		// The row of cells' nearest pixel centres to the ball's, and the
		// pixel columns whose centres the disc reaches there.
		dy := y - max(float64(cy*cellSize)+0.5, min(y, float64(cy*cellSize)+cellSize-0.5))
		if dy*dy >= c.reach*c.reach {
			continue
		}
		if cy < 0 || cy >= c.gh {
			continue // outside the view: never drawn
		}
		h := math.Sqrt(c.reach*c.reach - dy*dy)
		p0 := int(math.Ceil(x - h - 0.5))
		p1 := int(math.Floor(x + h - 0.5))
		// The first and last cell reached in the view, and the windows
		// from the one and to the other.
		cx0 := max(int(math.Floor(float64(p0)/cellSize)), 0)
		cx1 := min(int(math.Floor(float64(p1)/cellSize)), c.gw-1)
		if cx0 > cx1 {
			continue // outside the view
		}
		row := c.rowMin[cy*c.tw:][:c.tw]
		if min(row[cx0+c.win-1], row[cx1]) <= int32(i) {
			return false
		}
	}
	return true
}
