package physics_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/physics"
)

// box is the region a ball's centre may occupy, Q8, derived from a Config
// by the definition: [Radius, Width-Radius] x [Radius, Height-Radius].
type box struct{ lox, hix, loy, hiy int32 }

func boxOf(c physics.Config) box {
	return box{
		lox: c.Radius * physics.One, hix: (c.Width - c.Radius) * physics.One,
		loy: c.Radius * physics.One, hiy: (c.Height - c.Radius) * physics.One,
	}
}

func (b box) contains(x, y int32) bool {
	return x >= b.lox && x <= b.hix && y >= b.loy && y <= b.hiy
}

func mustNew(t testing.TB, c physics.Config) *physics.World {
	t.Helper()
	w, err := physics.New(c)
	if err != nil {
		t.Fatalf("New(%+v): %v", c, err)
	}
	return w
}

// ball is one ball's whole state.
type ball struct{ lx, ly, nx, ny, dx, dy int32 }

func ballOf(w *physics.World, i int) ball {
	return ball{
		w.Last[2*i], w.Last[2*i+1],
		w.Next[2*i], w.Next[2*i+1],
		w.Dir[2*i], w.Dir[2*i+1],
	}
}

// checkInBox fails if any ball's Last or Next is outside the box.
func checkInBox(t *testing.T, w *physics.World, b box, when string) {
	t.Helper()
	for i := range w.N() {
		if !b.contains(w.Next[2*i], w.Next[2*i+1]) || !b.contains(w.Last[2*i], w.Last[2*i+1]) {
			t.Fatalf("%s: ball %d at last (%d,%d) next (%d,%d), outside box %+v",
				when, i, w.Last[2*i], w.Last[2*i+1], w.Next[2*i], w.Next[2*i+1], b)
		}
	}
}

// randomConfig draws a valid configuration: sizes from tiny to large,
// radii up to just under half the smaller side, speeds from crawling to
// many box widths per tick (which exercises the fold path).
func randomConfig(r *rand.Rand) physics.Config {
	var c physics.Config
	c.Width = 3 + r.Int32N(2000)
	c.Height = 3 + r.Int32N(2000)
	c.Radius = 1 + r.Int32N((min(c.Width, c.Height)-1)/2)
	c.Tick = time.Duration(1+r.IntN(100)) * time.Millisecond
	switch r.IntN(4) {
	case 0: // absurd: up to tens of box sizes per tick
		c.Speed = 1 + r.Int32N(1_000_000)
	default:
		c.Speed = 50 + r.Int32N(2000)
	}
	c.Balls = 1 + r.IntN(200)
	c.Seed = r.Uint64()
	return c
}

// triangle is the position, in [0, L], of a point that travels along an
// unbounded line to the unfolded coordinate u while reflected between walls
// at 0 and L: the triangle wave of period 2L. It also returns the direction
// (+1 or -1) the point moves in on arrival, for a point whose unfolded
// coordinate moves in direction s: the one-sided slope of the wave on the
// side the point comes from, times s. (Arriving exactly on a wall is not a
// bounce: the slope on the arrival side still holds there.)
func triangle(u, l int64, s int64) (pos, dir int64) {
	m := ((u % (2 * l)) + 2*l) % (2 * l)
	pos = m
	if m > l {
		pos = 2*l - m
	}
	var rising bool // slope +1 on the arrival side
	if s > 0 {
		rising = m > 0 && m <= l // left-hand slope
	} else {
		rising = m < l // right-hand slope
	}
	if rising {
		return pos, s
	}
	return pos, -s
}
