package render

import "math"

// Where a few balls are drawn, frame by frame. The occupancy grid
// (frame.go) bounds where the balls can be during a whole tick: at one
// ball, a region of some thousands of pixels repainted on every frame,
// although the ball's sprite covers a few hundred and moves a pixel or
// less between two frames. With a few balls, their positions are kept on
// the CPU as well (a few hundred bytes, copied by Sync), and a frame
// repaints, per ball, the rectangle holding its sprite where the last
// frame drew it and where this frame draws it: a software rasterizer pays
// per pixel, and so do overlays over the balls, whose pixels must be
// blended again wherever a ball moved beneath them.

// spriteMaxBalls is the most balls whose sprites are tracked one by one;
// with more, the occupancy grid is used.
const spriteMaxBalls = 16

// spritePad is the margin, in pixels, around a sprite's computed square:
// the GPU places it in single precision, the CPU in double, and rounds
// its own way.
const spritePad = 2

// sprites is the balls' positions for the current tick, and the sprite
// rectangles drawn by the last Draw.
type sprites struct {
	n     int // balls tracked: r.pos.N() when it is at most spriteMaxBalls
	last  [2 * spriteMaxBalls]int32
	next  [2 * spriteMaxBalls]int32
	drawn [spriteMaxBalls]Rect // by the last Draw, if valid
	valid bool
}

// sync copies the positions given to Sync, if there are few enough.
func (s *sprites) sync(last, next []int32) {
	n := len(next) / 2
	if n > spriteMaxBalls {
		s.n, s.valid = 0, false
		return
	}
	if n != s.n {
		s.valid = false
	}
	s.n = n
	copy(s.last[:], last)
	copy(s.next[:], next)
}

// tracked reports whether the balls' sprites are tracked one by one for a
// frame (ghost rings, drawn at the ends of the tick, use the grid).
func (r *Renderer) tracked(f *Frame) bool {
	return r.pos.N() > 0 && r.pos.N() == r.spr.n && !f.Ghosts && r.scale > 0
}

// sprite is the window rectangle that holds ball i's sprite at mix
// factor alpha, within the world's view.
func (r *Renderer) sprite(i int, alpha float32) Rect {
	s := &r.spr
	one := float64(int64(1) << r.cfg.FracBits)
	a := float64(alpha)
	x := (float64(s.last[2*i]) + (float64(s.next[2*i])-float64(s.last[2*i]))*a) / one
	y := (float64(s.last[2*i+1]) + (float64(s.next[2*i+1])-float64(s.last[2*i+1]))*a) / one
	px, py := r.WorldToPixel(x, y)
	h := float64(r.pointSize)/2 + spritePad
	x0, y0 := int(math.Floor(px-h)), int(math.Floor(py-h))
	x1, y1 := int(math.Ceil(px+h)), int(math.Ceil(py+h))
	return Rect{x0, y0, x1 - x0, y1 - y0}.Intersect(r.view)
}

// addSprites adds to g, per ball, where the last Draw drew its sprite and
// where this frame draws it: one rectangle holding both where they are
// close (they usually overlap), two otherwise.
func (r *Renderer) addSprites(g *region, alpha float32) {
	s := &r.spr
	for i := 0; i < s.n; i++ {
		cur := r.sprite(i, alpha)
		if !s.valid {
			g.add(cur)
			continue
		}
		old := s.drawn[i]
		if u := old.Union(cur); u.area() <= 2*(old.area()+cur.area()) {
			g.add(u)
			continue
		}
		g.add(old)
		g.add(cur)
	}
}

// keepSprites records where this frame drew the sprites (and adds them
// to balls, the region the next frame repaints in any case).
func (r *Renderer) keepSprites(balls *region, alpha float32) {
	s := &r.spr
	for i := 0; i < s.n; i++ {
		s.drawn[i] = r.sprite(i, alpha)
		balls.add(s.drawn[i])
	}
	s.valid = true
}
