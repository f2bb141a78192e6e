package paint

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/interpdemo/interpdemo/render/occlusion"
)

var world = [3]float64{20.0 / 255, 26.0 / 255, 41.0 / 255}

// scene is n balls at random positions (fixed-point, 1/256 pixel at
// scale 1) in a w×h view, radius r pixels, a margin of 64 pixels.
func scene(seed uint64, n, w, h int, r float64) (occlusion.View, []int32, []int32) {
	rng := rand.New(rand.NewPCG(seed, 1))
	v := occlusion.View{W: w, H: h, SX: 1.0 / 256, SY: 1.0 / 256, OX: -0.3, OY: 0.7, Radius: r, MaxReach: (2*r + 1) / 2}
	last, next := make([]int32, 2*n), make([]int32, 2*n)
	for i := range n {
		x, y := rng.IntN((w+40)*256)-20*256, rng.IntN((h+40)*256)-20*256
		last[2*i], last[2*i+1] = int32(x), int32(y)
		next[2*i], next[2*i+1] = int32(x+rng.IntN(2000)-1000), int32(y+rng.IntN(2000)-1000)
	}
	return v, last, next
}

// backToFront is the GPU's picture: every ball from the first to the
// last blended over the world (premultiplied, one over minus alpha), each
// step rounded to bytes, coverage clamp(radius+0.5-d, 0, 1).
func backToFront(v occlusion.View, last, next []int32, alpha float32, hl int) []uint32 {
	img := make([][3]float32, v.W*v.H)
	for i := range img {
		img[i] = [3]float32{float32(math.Round(world[0] * 255)), float32(math.Round(world[1] * 255)), float32(math.Round(world[2] * 255))}
	}
	rad := float32(v.Radius)
	for i := range len(next) / 2 {
		lx, ly := float32(last[2*i]), float32(last[2*i+1])
		x := float32(float64(lx+(float32(next[2*i])-lx)*alpha)*v.SX + v.OX)
		y := float32(float64(ly+(float32(next[2*i+1])-ly)*alpha)*v.SY + v.OY)
		c := Palette(i)
		if i == hl {
			c = Highlight
		}
		for py := max(0, int(y-rad-2)); py < min(v.H, int(y+rad+2)); py++ {
			for px := max(0, int(x-rad-2)); px < min(v.W, int(x+rad+2)); px++ {
				dx, dy := float32(px)+0.5-x, float32(py)+0.5-y
				a := min(max(rad+0.5-float32(math.Sqrt(float64(dx*dx+dy*dy))), 0), 1)
				if a == 0 {
					continue
				}
				d := &img[py*v.W+px]
				for k := range 3 {
					d[k] = float32(math.Round(float64(c[k]*a*255 + d[k]*(1-a))))
				}
			}
		}
	}
	out := make([]uint32, len(img))
	for i, d := range img {
		out[i] = uint32(d[0]) | uint32(d[1])<<8 | uint32(d[2])<<16 | 255<<24
	}
	return out
}

func TestPaintedMatchesBackToFront(t *testing.T) {
	for _, tc := range []struct {
		n, w, h int
		r       float64
	}{{1, 64, 48, 8}, {300, 160, 120, 6.4}, {3000, 200, 150, 3.2}, {500, 320, 200, 12.5}, {2000, 100, 80, 0.7}} {
		v, last, next := scene(uint64(tc.n), tc.n, tc.w, tc.h, tc.r)
		p := New(world)
		p.Resize(v)
		if !p.Usable() {
			t.Fatalf("%+v: not usable", tc)
		}
		hl := tc.n / 2
		p.Sync(last, next)
		p.SetHighlight(hl)
		for _, alpha := range []float32{0, 0.37, 1} {
			got, _ := p.Paint(alpha)
			want := backToFront(v, last, next, alpha, hl)
			worst, sum := 0, 0
			for i := range want {
				for k := 0; k < 32; k += 8 {
					d := int(got[i]>>k&255) - int(want[i]>>k&255)
					worst, sum = max(worst, d, -d), sum+max(d, -d)
				}
			}
			// Front to back in bytes rounds otherwise than back to front: a
			// level or so, at the discs' edges only.
			if mean := float64(sum) / float64(3*len(want)); worst > 3 || mean > 0.3 {
				t.Errorf("%+v alpha %v: channels differ by up to %d levels, %.3f on average", tc, alpha, worst, mean)
			}
		}
	}
}

// A ball differs from the world: painting draws it at all, at its
// colour, where it lies.
func TestPaintedBallIsWhereItIs(t *testing.T) {
	v := occlusion.View{W: 40, H: 30, SX: 1.0 / 256, SY: 1.0 / 256, Radius: 5, MaxReach: 5.5}
	p := New(world)
	p.Resize(v)
	last := []int32{10 * 256, 12 * 256, 30 * 256, 15 * 256}
	next := []int32{20 * 256, 12 * 256, 30 * 256, 15 * 256}
	p.SetHighlight(1)
	p.Sync(last, next)
	img, _ := p.Paint(0.5)
	if got, want := img[12*40+15], pack(Palette(0)); got != want {
		t.Errorf("ball 0's centre at (15, 12) = %08x, want its colour %08x", got, want)
	}
	if got, want := img[15*40+30], pack(Highlight); got != want {
		t.Errorf("ball 1's centre = %08x, want the player's colour %08x", got, want)
	}
	if got, want := img[2*40+2], pack([3]float32{float32(world[0]), float32(world[1]), float32(world[2])}); got != want {
		t.Errorf("a corner = %08x, want the world's colour %08x", got, want)
	}
	p.SetHighlight(-1)
	if img, _ := p.Paint(0.5); img[15*40+30] != pack(Palette(1)) {
		got, want := img[15*40+30], pack(Palette(1))
		t.Errorf("ball 1 unhighlighted = %08x, want %08x", got, want)
	}
}

// Paint paints again only where its image would change: new positions,
// a new view, another highlighted ball or another mix factor; else it
// says the last image is still right, and leaves it as it was.
func TestPaintOnlyWhatChanged(t *testing.T) {
	v, last, next := scene(5, 300, 160, 120, 6.4)
	p := New(world)
	p.Resize(v)
	p.Sync(last, next)
	first, fresh := p.Paint(0.25)
	want := append([]uint32(nil), first...)
	if !fresh {
		t.Fatal("the first Paint: not fresh")
	}
	if img, fresh := p.Paint(0.25); fresh || !slices.Equal(img, want) {
		t.Errorf("the same mix factor again: fresh %v, image kept %v", fresh, slices.Equal(img, want))
	}
	for _, c := range []struct {
		what   string
		change func()
		alpha  float32
	}{
		{"another mix factor", func() {}, 0.5},
		{"new positions", func() { p.Sync(next, last) }, 0.5},
		{"another highlighted ball", func() { p.SetHighlight(3) }, 0.5},
		{"the same highlighted ball", func() { p.SetHighlight(3) }, 0.5},
		{"a new view", func() { p.Resize(v) }, 0.5},
	} {
		c.change()
		_, fresh := p.Paint(c.alpha)
		if want := c.what != "the same highlighted ball"; fresh != want {
			t.Errorf("%s: fresh %v, want %v", c.what, fresh, want)
		}
	}
}

func TestPaintAllocatesNothing(t *testing.T) {
	v, last, next := scene(7, 2000, 320, 240, 6.4)
	p := New(world)
	p.Resize(v)
	p.Sync(last, next)
	a := float32(0)
	if n := testing.AllocsPerRun(20, func() { a += 0.05; p.Paint(a) }); n != 0 {
		t.Errorf("Paint allocates %v times a frame, want 0", n)
	}
}

func TestUnusable(t *testing.T) {
	for _, v := range []occlusion.View{
		{W: 0, H: 10, Radius: 4, MaxReach: 4.5},
		{W: 10, H: 10, Radius: 40, MaxReach: 40.5},
	} {
		p := New(world)
		p.Resize(v)
		if p.Usable() {
			t.Errorf("%+v: usable, want not", v)
		}
	}
}

func BenchmarkPaint(b *testing.B) {
	v, last, next := scene(1, 10000, 640, 480, 6.4)
	p := New(world)
	p.Resize(v)
	p.Sync(last, next)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.Paint(float32(i%10) / 10)
	}
}

// Balls is what the last Sync gave: none where last and next disagree.
func TestBallsSynced(t *testing.T) {
	p := New(world)
	p.Sync([]int32{1, 2, 3, 4}, []int32{5, 6, 7, 8})
	if p.Balls() != 2 {
		t.Errorf("2 balls synced: Balls() = %d", p.Balls())
	}
	p.Sync([]int32{1, 2}, []int32{5, 6, 7, 8})
	if p.Balls() != 0 {
		t.Errorf("last and next of different lengths: Balls() = %d, want 0", p.Balls())
	}
}
