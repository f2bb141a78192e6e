// Package occlusion finds, on the CPU, the balls that later balls hide
// entirely: plain Go, no GL, shared by the window's renderer (package
// render) and the web page, which upload its windows as an integer
// texture that ball.vert reads (CELL_CULL).
//
// At 10,000 balls of 16 px in 640x480 each pixel lies under some seven
// sprites, and four balls in ten lie wholly under the opaque pixels of
// later ones. A Culler finds most of them, at each frame's own mix factor
// (again only when the positions, the mix factor or the view changed):
//
//  1. Coverage, the balls from the last to the first: each pixel row of
//     the world's view is a bitmap of the pixels that the balls so far
//     cover at full opacity (the disc's coverage is 1 where a pixel's
//     centre lies within radius-0.5 of the ball's centre). A ball adds
//     its core, a precomputed stamp of bits, with a shift and an OR a row.
//  2. Cells: a cell of CellSize x CellSize pixels belongs to the ball that
//     covers its last pixel: every ball drawn from that one on covers the
//     whole cell opaquely, so any ball before it is painted over there.
//  3. Windows: for every cell, the first owner of the Win cells of its
//     row up to it. Only these go to the GPU, a texture the size of the
//     view over CellSize squared, whatever the number of balls.
//  4. The balls, as always, but ball.vert moves a ball out of the clip
//     volume when, in every row of cells its disc reaches, the two
//     windows that span the cells it reaches there belong to later balls
//     (Hidden is the same test in Go).
//
// A culled ball is one the painter's algorithm would have painted over
// with opaque pixels everywhere its disc has any coverage, so the picture
// is exactly the painter's. The CPU takes positions to 1/256 pixel (the
// rasterizer's own precision), the stamps hold only the pixels covered
// wherever in its 1/16 pixel the centre lies, and every distance carries
// a margin of Slack pixels over the GPU's float rounding.
//
// Whether finding them pays depends on the machine: on a software
// rasterizer a hidden sprite costs about a microsecond, on a GPU next to
// nothing. Package render/adaptive decides from measurements.
package occlusion

import (
	"math"
	"math/bits"
)

const (
	CellSize = 4 // a cell's side in pixels (Prepare counts on 4)
	// Slack is the margin, in pixels, every distance carries over the
	// GPU's float rounding.
	Slack    = 1.0 / 16
	fixBits  = 8  // positions in 1/256 pixel
	stampQ   = 16 // stamps for every 1/16 pixel of the centre, on each axis
	maxReach = 30 // the farthest, in pixels from the centre's, that a stamp reaches: a row of it fits a word
)

// cellFirst has the bit of each cell's first column in a word of a row.
const cellFirst = 0x1111111111111111

// View is where the world's positions land in pixels, and how large a
// ball is there.
type View struct {
	W, H int // the view in pixels
	// A position (x, y) in the world's fixed-point units is at pixel
	// (x*SX+OX, y*SY+OY) from the view's top left.
	SX, SY, OX, OY float64
	// Radius is a ball's radius in pixels; MaxReach how far from its
	// centre a sprite can have coverage at all (half the point size).
	Radius, MaxReach float64
}

// Culler finds the hidden balls of a view. The zero value culls nothing
// until Resize and Sync.
type Culler struct {
	n          int     // balls in last and next (0: none synced)
	last, next []int32 // the positions of the last Sync

	vw, vh int // the view the buffers are sized for, in pixels
	gw, gh int // cells
	win    int // cells per side of a window
	tw     int // windows a row, from -(win-1) cells on
	// Rows of the view's pixels, one bit each, from 64 pixels left of the
	// view to 64 or more right of it: words words a row, gh*CellSize rows.
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
	stamps []uint64 // stampQ^2 stamps of 2*stamp+1 rows (see tableStamps)
	// stampsCore is the core stamps were tabled for; sized says the
	// grids are sized for the view (Resize leaves both to Prepare).
	stampsCore float64
	sized      bool

	rowMin []int32 // tw*gh: the windows, the first owner over win cells of a row

	sx, sy, ox, oy float64
	// What the windows were found for: the positions' and the view's
	// generation (bumped by Sync and Resize) and the mix factor.
	gen, preparedGen int
	alpha            float32
	prepared         bool
}

// Usable reports whether balls of the view can be culled: a view that is
// not empty, and balls small enough for a stamp (a sprite some four
// times the world's size is not culled).
func (c *Culler) Usable() bool { return c.stamp > 0 && c.vw > 0 && c.vh > 0 }

// Balls is how many balls the last Sync gave.
func (c *Culler) Balls() int { return c.n }

// Sync keeps a copy of the positions: the world's interleaved fixed-point
// last and next positions.
func (c *Culler) Sync(last, next []int32) {
	c.gen++
	n := len(next) / 2
	if cap(c.last) < len(last) {
		c.last = make([]int32, len(last), len(last)+len(last)/4)
		c.next = make([]int32, len(next), len(next)+len(next)/4)
	}
	c.last, c.next = c.last[:len(last)], c.next[:len(next)]
	copy(c.last, last)
	copy(c.next, next)
	c.n = n
}

// Step is Sync after exactly one step of the world since the last Sync,
// which set last to the old next: only next is copied.
func (c *Culler) Step(next []int32) {
	if len(next) != len(c.next) {
		c.n = 0 // not a step of what was synced: cull nothing until a Sync
		return
	}
	c.gen++
	c.last, c.next = c.next, c.last
	copy(c.next, next)
}

// bit is the index in bits of row y's word k: the four rows of a band of
// cells lie word by word together, so a cell's 16 pixels are in one
// cache line.
func (c *Culler) bit(y, k int) int {
	return ((y/CellSize)*c.words+k)*CellSize + y%CellSize
}

// stampOf is how many rows and columns a stamp of a core of radius core
// pixels reaches from the centre's pixel: 0 where there is no stamp (no
// core, or one too wide for a row of a word).
func stampOf(core float64) int {
	s := int(math.Ceil(core))
	if core <= 0 || 2*s+1 > 64 || s > maxReach {
		return 0
	}
	return s
}

// tableStamps fills c.stamps for the core's radius (c.stamp > 0). Stamp
// (qy, qx) is for a centre in pixel row py and column px, qy/16 to
// (qy+1)/16 pixel down into it and qx/16 to (qx+1)/16 across; its row k
// is pixel row py-stamp+k, and its bit b pixel column px-stamp+b. A bit
// is set where the pixel's centre lies within the core of every centre
// in that square. Tabled once for a core.
func (c *Culler) tableStamps() {
	if c.stamps != nil && c.stampsCore == c.core {
		return
	}
	n := 2*c.stamp + 1
	c.stamps, c.stampsCore = make([]uint64, stampQ*stampQ*n), c.core
	// far is the largest distance from a pixel centre k+0.5 away from the
	// start of the centre's pixel to a centre q/16 to (q+1)/16 into it.
	far := func(k, q int) float64 {
		d := float64(k) + 0.5
		return max(math.Abs(d-float64(q)/stampQ), math.Abs(d-float64(q+1)/stampQ))
	}
	for qy := 0; qy < stampQ; qy++ {
		for qx := 0; qx < stampQ; qx++ {
			st := c.stamps[(qy*stampQ+qx)*n:][:n]
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

// Resize sets the view. It allocates nothing: the grids are sized and the
// stamps tabled by Size, or by the next Prepare where no one called it,
// so that the caller chooses when to allocate (package render and the
// page size them at each resize, before the frames whose steady state
// must allocate nothing).
func (c *Culler) Resize(v View) {
	c.reach = min(v.Radius+0.5, v.MaxReach) + Slack
	c.core = v.Radius - 0.5 - Slack
	c.vw, c.vh = max(v.W, 0), max(v.H, 0)
	c.gw, c.gh = (c.vw+CellSize-1)/CellSize, (c.vh+CellSize-1)/CellSize
	// A sprite from p-reach to p+reach spans at most this many cells of
	// a row; two windows of half that from its first and its last cell
	// cover them.
	c.win = (int(2*c.reach)/CellSize + 3) / 2
	c.tw = c.gw + c.win - 1
	c.gen++
	c.sx, c.sy, c.ox, c.oy = v.SX, v.SY, v.OX, v.OY
	c.prepared, c.sized = false, false // nothing is known hidden in the new view
	c.stamp = 0
	if c.vw > 0 && c.vh > 0 {
		c.stamp = stampOf(c.core)
	}
}

// Size sizes the grids for the view of the last Resize and tables its
// stamps, where the view is usable and that is not done yet. Prepare does
// it when first needed; a caller may do it earlier, where allocating
// suits it better (package render and the page: at each resize, so that
// a run's steady state never allocates for a culler first used late).
func (c *Culler) Size() {
	if c.sized || !c.Usable() {
		return
	}
	c.sized = true
	c.tableStamps()
	// 64 pixels left of the view and at least 64 right of it: a stamp of
	// a ball reaching into them needs no clipping.
	c.words = (64+c.gw*CellSize+63)/64 + 1
	rows := c.gh * CellSize
	c.bits, c.bits0 = make([]uint64, rows*c.words), make([]uint64, rows*c.words)
	c.full, c.full0 = make([]uint64, c.gh*c.words), make([]uint64, c.gh*c.words)
	for k := 0; k < c.words; k++ {
		outView := outside(k, 64, 64+c.vw)
		for row := 0; row < rows; row++ {
			if row >= c.vh {
				c.bits0[c.bit(row, k)] = ^uint64(0)
			} else {
				c.bits0[c.bit(row, k)] = outView
			}
		}
		outCells := outside(k, 64, 64+c.gw*CellSize)
		for band := 0; band < c.gh; band++ {
			c.full0[band*c.words+k] = outCells
		}
	}
	c.cells = grow32(c.cells, c.gw*c.gh)
	c.rowMin = grow32(c.rowMin, c.tw*c.gh)
}

// Sized reports whether the grids are sized for the view of the last
// Resize (Size).
func (c *Culler) Sized() bool { return c.sized }

// outside is word k of a row of bits (bit b of word k is column 64k+b)
// with the bits of the columns outside [lo, hi) set.
func outside(k, lo, hi int) uint64 {
	from, to := max(lo-64*k, 0), min(hi-64*k, 64) // [from, to): inside, in this word
	if from >= to {
		return ^uint64(0)
	}
	inside := ^uint64(0) >> (64 - (to - from)) << from
	return ^inside
}

func grow32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// Windows is the texture's size in texels: windows a row (the texture's
// width) and rows of cells (its height).
func (c *Culler) Windows() (w, h int) { return c.tw, c.gh }

// Win is how many cells of a row a window spans (ball.vert's cellWin).
func (c *Culler) Win() int { return c.win }

// Reach is how far from its centre, in pixels, a ball's disc has any
// coverage, slack included (ball.vert's cellReach).
func (c *Culler) Reach() float64 { return c.reach }

// Cells is the grid's size in cells.
func (c *Culler) Cells() (w, h int) { return c.gw, c.gh }

// Owner is the ball that owns cell (cx, cy) after the last Prepare: from
// it on, every ball covers the cell opaquely; -1 for none.
func (c *Culler) Owner(cx, cy int) int32 { return c.cells[cy*c.gw+cx] }

// Prepare finds the hidden balls at mix factor alpha (steps 1 to 3) and
// returns the windows, Windows() texels, row by row: to be uploaded when
// fresh. It allocates nothing, and finds nothing when the last windows
// are still right (fresh false): the same positions and view at the same
// mix factor (interpolation off, or the game paused).
func (c *Culler) Prepare(alpha float32) (windows []int32, fresh bool) {
	if c.prepared && c.preparedGen == c.gen && c.alpha == alpha {
		return c.rowMin, false
	}
	c.prepared, c.preparedGen, c.alpha = true, c.gen, alpha
	if !c.Usable() {
		return c.rowMin, true
	}
	c.Size()
	c.cover(float64(alpha))
	c.fillWindows()
	return c.rowMin, true
}

// cover stamps the balls at mix factor a, from the last to the first,
// and gives each cell its owner (steps 1 and 2 together).
func (c *Culler) cover(a float64) {
	gw, words, n := c.gw, c.words, 2*c.stamp+1
	copy(c.bits, c.bits0)
	copy(c.full, c.full0)
	for i := range c.cells {
		c.cells[i] = -1 // not covered (yet)
	}
	// Positions in 1/256 pixel, offset to stay positive, so that a
	// conversion to int is a floor.
	const off, fix = 1 << 30, 1 << fixBits
	fx, fy := c.sx*fix, c.sy*fix
	gx, gy := c.ox*fix+off, c.oy*fix+off
	rows := c.gh * CellSize
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
		q := ((yq&(fix-1))*stampQ/fix)*stampQ + (xq&(fix-1))*stampQ/fix
		st := c.stamps[q*n:][:n]
		// The stamp's first bit in a row, counted from the row's first
		// word (64 pixels left of the view), and its first row.
		p := xq>>fixBits - c.stamp + 64
		w, sh := p>>6, uint(p&63)
		y0 := yq>>fixBits - c.stamp
		k0, k1 := max(0, -y0), min(n, rows-y0)
		if p < 0 || w+1 >= words || k0 >= k1 {
			continue // too far outside the view to cover any of it: no occluder
		}
		if c.coveredAlready(p, y0+k0, y0+k1-1) {
			continue
		}
		var changed uint32 // bands the stamp covered a pixel of afresh
		for k := k0; k < k1; k++ {
			y := y0 + k
			i := c.bit(y, w)
			lo, hi := c.bits[i]|st[k]<<sh, c.bits[i+CellSize]|st[k]>>(64-sh)
			if lo != c.bits[i] || hi != c.bits[i+CellSize] {
				changed |= 1 << (y/CellSize - (y0+k0)/CellSize)
			}
			c.bits[i], c.bits[i+CellSize] = lo, hi
		}
		if changed != 0 {
			if fresh := c.own(j, w, (y0+k0)/CellSize, changed); fresh > 0 {
				open -= fresh
				last = j
			}
		}
	}
}

// coveredAlready reports whether every cell that a stamp starting at bit
// p of rows y0 to y1 (the rows it reaches in the view) reaches is covered
// already (later balls cover most of the view): the stamp would change
// nothing that matters.
func (c *Culler) coveredAlready(p, y0, y1 int) bool {
	w, words := p>>6, c.words
	b0, b1 := y0/CellSize, y1/CellSize
	lo, hi := p&^(CellSize-1)-w*64, (p+2*c.stamp)&^(CellSize-1)-w*64 // first columns of the first and last cell, in words w, w+1
	m0, m1 := cellFirst&(^uint64(0)<<lo), uint64(0)
	if hi < 64 {
		m0 &= ^uint64(0) >> (63 - hi)
	} else {
		m1 = cellFirst & (^uint64(0) >> (127 - hi))
	}
	for band := b0; band <= b1; band++ {
		full := c.full[band*words+w:][:2]
		if full[0]&m0 != m0 || full[1]&m1 != m1 {
			return false
		}
	}
	return true
}

// own gives ball j the cells of words w and w+1 that its stamp covered
// afresh, in the bands changed names (bit i: band band0+i), and returns
// how many it covered.
func (c *Culler) own(j, w, band0 int, changed uint32) (covered int) {
	gw, words := c.gw, c.words
	for band := band0; changed != 0; band++ {
		if changed&1 == 0 {
			changed >>= 1
			continue
		}
		changed >>= 1
		full := c.full[band*words:][:words]
		for k := w; k <= w+1; k++ {
			b4 := c.bits[c.bit(band*CellSize, k):][:CellSize]
			b := b4[0] & b4[1] & b4[2] & b4[3]
			// A cell's four columns all covered: its nibble's low bit.
			b &= b >> 1
			b &= b >> 2
			b &= cellFirst
			fresh := b &^ full[k]
			full[k] |= fresh
			covered += bits.OnesCount64(fresh)
			for fresh != 0 {
				cell := band*gw + (k*64+bits.TrailingZeros64(fresh)-64)/CellSize
				c.cells[cell] = int32(j)
				fresh &= fresh - 1
			}
		}
	}
	return covered
}

// fillWindows is step 3. Window tx of a row stands for its cells from
// tx-(win-1) to tx; cells outside the view are never drawn, so no ball
// that matters owns them (MaxInt32).
func (c *Culler) fillWindows() {
	gw, gh, win, tw := c.gw, c.gh, c.win, c.tw
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
}

// HiddenCount counts the balls the last Prepare hid.
func (c *Culler) HiddenCount() int {
	hidden := 0
	for i := 0; i < c.n; i++ {
		if c.Hidden(i) {
			hidden++
		}
	}
	return hidden
}

// Hidden reports whether the last Prepare hid ball i, by ball.vert's test.
func (c *Culler) Hidden(i int) bool {
	if !c.prepared || !c.Usable() {
		return false
	}
	a := float64(c.alpha)
	lx, ly := float64(c.last[2*i]), float64(c.last[2*i+1])
	x := (lx+a*(float64(c.next[2*i])-lx))*c.sx + c.ox
	y := (ly+a*(float64(c.next[2*i+1])-ly))*c.sy + c.oy
	cy0 := int(math.Floor((y - c.reach) / CellSize))
	cy1 := int(math.Floor((y + c.reach) / CellSize))
	for cy := cy0; cy <= cy1; cy++ {
		// The row of cells' nearest pixel centres to the ball's, and the
		// pixel columns whose centres the disc reaches there.
		dy := y - max(float64(cy*CellSize)+0.5, min(y, float64(cy*CellSize)+CellSize-0.5))
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
		cx0 := max(int(math.Floor(float64(p0)/CellSize)), 0)
		cx1 := min(int(math.Floor(float64(p1)/CellSize)), c.gw-1)
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
