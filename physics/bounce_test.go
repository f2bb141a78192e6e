package physics_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/physics"
)

// TestTriangleWave moves a ball along one axis and checks it against the
// analytic triangle wave after every tick, across many wall hits: exact
// landings on walls, displacements that do not divide the box, and
// displacements longer than the box (several reflections per tick).
func TestTriangleWave(t *testing.T) {
	const T40 = 40 * time.Millisecond
	cases := []struct {
		name          string
		w, h, r       int32
		speed         int32
		tick          time.Duration
		k             int64 // expected K: speed*256*tick/1s, chosen exact
		axis          int   // 0: x, 1: y
		s             int32 // +1 or -1
		start         int32 // start along the axis, Q8
		other         int32 // the other coordinate, Q8
		ticks         int
		minWallCounts int // the case must really hit walls this often
	}{
		{"demo from the low wall lands on walls", 640, 480, 8, 400, T40, 4096, 0, +1, 8 * 256, 240 * 256, 400, 9},
		{"demo from the centre leftwards", 640, 480, 8, 400, T40, 4096, 0, -1, 320 * 256, 240 * 256, 400, 9},
		{"17 units a tick does not divide 624", 640, 480, 8, 425, T40, 4352, 0, +1, 100*256 + 77, 100 * 256, 500, 12},
		{"vertical, downwards", 640, 480, 8, 425, T40, 4352, 1, +1, 8 * 256, 320 * 256, 500, 12},
		{"vertical, upwards", 640, 480, 8, 425, T40, 4352, 1, -1, 472 * 256, 320 * 256, 500, 12},
		{"K = L: every tick on a wall", 100, 100, 5, 2250, T40, 90 * 256, 0, +1, 5 * 256, 50 * 256, 50, 40},
		{"K = 2L: back to the start", 100, 100, 5, 4500, T40, 180 * 256, 0, +1, 30 * 256, 50 * 256, 50, 40},
		{"K = 250/90 of the box", 100, 100, 5, 6250, T40, 250 * 256, 0, -1, 17 * 256, 50 * 256, 200, 100},
		{"K = 100000 units at 1 s ticks", 640, 480, 8, 100_000, time.Second, 100_000 * 256, 1, +1, 9 * 256, 9 * 256, 100, 100},
		{"20 ms ticks", 640, 480, 8, 400, 20 * time.Millisecond, 2048, 0, +1, 8 * 256, 240 * 256, 800, 9},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := physics.Config{Width: tc.w, Height: tc.h, Radius: tc.r, Speed: tc.speed, Tick: tc.tick}
			w := mustNew(t, cfg)
			if got := w.Displacement(); int64(got) != tc.k {
				t.Fatalf("Displacement() = %d, want %d", got, tc.k)
			}
			lo := int64(tc.r) * physics.One
			hi := int64([]int32{tc.w, tc.h}[tc.axis]-tc.r) * physics.One
			l := hi - lo
			// Put the ball at the start, moving along the axis only.
			pos := [2]int32{}
			pos[tc.axis], pos[1-tc.axis] = tc.start, tc.other
			w.Teleport(0, pos[0], pos[1])
			w.Dir[2*0+tc.axis], w.Dir[1-tc.axis] = tc.s*physics.DirOne, 0

			u0 := int64(tc.start) - lo
			walls := 0
			for k := 1; k <= tc.ticks; k++ {
				w.Tick(physics.Control{})
				u := u0 + int64(tc.s)*int64(k)*tc.k
				want, wantDir := triangle(u, l, int64(tc.s))
				got := int64(w.Next[tc.axis])
				gotDir := int64(w.Dir[tc.axis])
				if got != lo+want || gotDir != wantDir*physics.DirOne {
					t.Fatalf("tick %d: pos %d dir %d, want pos %d dir %d (u=%d, L=%d)",
						k, got, gotDir, lo+want, wantDir*physics.DirOne, u, l)
				}
				if w.Next[1-tc.axis] != tc.other || w.Dir[1-tc.axis] != 0 {
					t.Fatalf("tick %d: the other axis moved: %d", k, w.Next[1-tc.axis])
				}
				// Walls passed or reached: multiples of L between the
				// previous unfolded coordinate and this one.
				walls += int(max(floorDiv(u, l)-floorDiv(u-int64(tc.s)*tc.k, l),
					floorDiv(u-int64(tc.s)*tc.k, l)-floorDiv(u, l)))
			}
			if walls < tc.minWallCounts {
				t.Fatalf("only %d wall contacts in %d ticks: the case does not test bouncing", walls, tc.ticks)
			}
		})
	}
}

// TestOriginalBallTriangleWave: ball 0 of the original demo, from the
// centre along (3/5, 4/5), at a speed where both Q14 components times K
// divide exactly by 2^14 (K = 16384), so that each axis is an exact
// triangle wave with per-tick steps 9830 and 13107.
func TestOriginalBallTriangleWave(t *testing.T) {
	w := mustNew(t, physics.Config{Speed: 1600}) // 1600*256*0.04 = 16384
	if w.Displacement() != 16384 {
		t.Fatalf("Displacement() = %d, want 16384", w.Displacement())
	}
	b := boxOf(w.Config())
	if w.Next[0] != 320*256 || w.Next[1] != 240*256 || w.Dir[0] != 9830 || w.Dir[1] != 13107 {
		t.Fatalf("ball 0 starts at (%d,%d) dir (%d,%d), want the centre and (9830,13107)",
			w.Next[0], w.Next[1], w.Dir[0], w.Dir[1])
	}
	lx, ly := int64(b.hix-b.lox), int64(b.hiy-b.loy)
	ux0, uy0 := int64(320*256-b.lox), int64(240*256-b.loy)
	for k := int64(1); k <= 1000; k++ {
		w.Tick(physics.Control{})
		px, dx := triangle(ux0+k*9830, lx, 1)
		py, dy := triangle(uy0+k*13107, ly, 1)
		if int64(w.Next[0]) != int64(b.lox)+px || int64(w.Next[1]) != int64(b.loy)+py ||
			int64(w.Dir[0]) != dx*9830 || int64(w.Dir[1]) != dy*13107 {
			t.Fatalf("tick %d: ball 0 at (%d,%d) dir (%d,%d), want (%d,%d) dir (%d,%d)", k,
				w.Next[0], w.Next[1], w.Dir[0], w.Dir[1], int64(b.lox)+px, int64(b.loy)+py, dx*9830, dy*13107)
		}
	}
}

// TestBounceRule checks every ball of random worlds, every tick, against
// the bounce rule itself: the move p+d (d = Dir*K>>14) is kept if inside;
// if it overshoots a wall it is reflected off that wall and only then is
// that direction component negated: exactly at the overshoot, never
// before (no early flip) and never left unflipped (no sticking: the ball is
// always moving back into the box after a bounce).
func TestBounceRule(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for run := range 30 {
		cfg := randomConfig(r)
		cfg.Speed = 50 + r.Int32N(2000) // no folds: the rule below is one reflection
		w := mustNew(t, cfg)
		b := boxOf(w.Config())
		k := int64(w.Displacement())
		lo := [2]int32{b.lox, b.loy}
		hi := [2]int32{b.hix, b.hiy}
		if k > int64(min(hi[0]-lo[0], hi[1]-lo[1])) {
			continue // a tiny box: a move could need two reflections
		}
		flips := 0
		for tick := range 100 {
			prevNext := append([]int32(nil), w.Next...)
			prevDir := append([]int32(nil), w.Dir...)
			w.Tick(physics.Control{})
			for j := range prevNext {
				a := j & 1
				q := int64(prevNext[j]) + int64(prevDir[j])*k>>physics.DirBits
				want, wantDir := q, prevDir[j]
				switch {
				case q > int64(hi[a]):
					want, wantDir = 2*int64(hi[a])-q, -prevDir[j]
				case q < int64(lo[a]):
					want, wantDir = 2*int64(lo[a])-q, -prevDir[j]
				}
				if w.Last[j] != prevNext[j] || int64(w.Next[j]) != want || w.Dir[j] != wantDir {
					t.Fatalf("run %d (%+v) tick %d ball %d axis %d: last %d next %d dir %d; want %d %d %d",
						run, cfg, tick, j/2, a, w.Last[j], w.Next[j], w.Dir[j], prevNext[j], want, wantDir)
				}
				if wantDir != prevDir[j] {
					flips++
				}
			}
		}
		if flips == 0 && cfg.Balls > 50 {
			t.Errorf("run %d: no bounce at all in 100 ticks of %d balls", run, cfg.Balls)
		}
	}
}

// TestAlwaysInBox is the property: whatever the configuration (absurd
// speeds included), the seed, the number of balls and the mix of ticks and
// variable steps (dt from zero, negative, to hours), every ball's Last and
// Next stay inside the box, Last is the previous Next, and the direction
// components keep their magnitudes.
func TestAlwaysInBox(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for run := range 60 {
		cfg := randomConfig(r)
		w := mustNew(t, cfg)
		b := boxOf(w.Config())
		checkInBox(t, w, b, "initial")
		absDir := make([]int32, len(w.Dir))
		for j, d := range w.Dir {
			absDir[j] = max(d, -d)
		}
		for step := range 150 {
			prev := append([]int32(nil), w.Next...)
			if r.IntN(3) == 0 {
				var dt time.Duration
				switch r.IntN(4) {
				case 0:
					dt = -time.Duration(r.Int64N(int64(time.Second)))
				case 1:
					dt = time.Duration(r.Int64N(int64(100 * time.Hour)))
				default:
					dt = time.Duration(r.Int64N(int64(100 * time.Millisecond)))
				}
				w.Step(dt, physics.Control{})
			} else {
				w.Tick(physics.Control{})
			}
			checkInBox(t, w, b, "run "+itoa(run)+" step "+itoa(step))
			for j := range prev {
				if w.Last[j] != prev[j] {
					t.Fatalf("run %d step %d: Last[%d] = %d, want the previous Next %d", run, step, j, w.Last[j], prev[j])
				}
				if max(w.Dir[j], -w.Dir[j]) != absDir[j] {
					t.Fatalf("run %d step %d: |Dir[%d]| changed: %d, was %d", run, step, j, w.Dir[j], absDir[j])
				}
			}
		}
	}
}

// TestHandWrittenGarbageStaysInBox: even positions and directions written
// by hand outside their contract (positions outside the box, directions far
// longer than a unit vector) come back inside the box in one tick.
func TestHandWrittenGarbageStaysInBox(t *testing.T) {
	w := mustNew(t, physics.Config{Balls: 6})
	b := boxOf(w.Config())
	extremes := []int32{-1 << 31, 1<<31 - 1, -1 << 30, 1 << 30, 0, 7}
	for i := range w.N() {
		w.Next[2*i], w.Next[2*i+1] = extremes[i], extremes[(i+1)%6]
		w.Dir[2*i], w.Dir[2*i+1] = extremes[(i+2)%6], extremes[(i+3)%6]
	}
	for range 3 {
		w.Tick(physics.Control{})
		for i := range w.N() {
			if !b.contains(w.Next[2*i], w.Next[2*i+1]) {
				t.Fatalf("ball %d at (%d,%d), outside %+v", i, w.Next[2*i], w.Next[2*i+1], b)
			}
		}
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for ; i > 0; i /= 10 {
		n--
		b[n] = byte('0' + i%10)
	}
	return string(b[n:])
}

// FuzzTick: no configuration, seed, tick count or step puts a ball outside
// the box.
func FuzzTick(f *testing.F) {
	f.Add(uint64(1), int32(640), int32(480), int32(8), int32(400), int64(40e6), uint16(10), uint16(100), int64(0))
	f.Add(uint64(2), int32(17), int32(5), int32(2), int32(1_000_000), int64(1e9), uint16(3), uint16(7), int64(3e12))
	f.Fuzz(func(t *testing.T, seed uint64, width, height, radius, speed int32, tick int64, balls, ticks uint16, dt int64) {
		cfg := physics.Config{Width: width, Height: height, Radius: radius, Speed: speed,
			Tick: time.Duration(tick), Balls: int(balls % 512), Seed: seed}
		w, err := physics.New(cfg)
		if err != nil {
			return // invalid configurations are Validate's business
		}
		b := boxOf(w.Config())
		checkInBox(t, w, b, "initial")
		for i := range int(ticks % 256) {
			if i%3 == 2 {
				w.Step(time.Duration(dt), physics.Control{X: int8(i % 3), Y: -1})
			} else {
				w.Tick(physics.Control{})
			}
			checkInBox(t, w, b, "tick "+itoa(i))
		}
	})
}
