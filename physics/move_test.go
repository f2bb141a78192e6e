package physics

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestVectorMoveIsScalarMove: the vector hot loop (where the CPU has one)
// leaves Last, Next and Dir bit for bit as the scalar loop does, for
// worlds at sane settings, in small boxes where most balls bounce, at
// speeds where some overshoot the whole box (the fold bail-out), at every
// ball count around the vector width (the tail), and for positions and
// directions written by hand outside their contract (the wrapped
// arithmetic).
func TestVectorMoveIsScalarMove(t *testing.T) {
	probe, err := New(Config{Balls: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !moveAllVec(probe, 1, 0) {
		t.Skip("no vector loop on this machine (or built with -tags purego): the scalar loop is the only one")
	}
	r := rand.New(rand.NewPCG(1, 2))
	garbage := []int32{-1 << 31, 1<<31 - 1, -1 << 30, 1 << 30, 0, 7, -DirOne, DirOne, DirOne + 1, -DirOne - 1}
	for trial := range 400 {
		cfg := Config{Balls: trial%40 + 1, Seed: r.Uint64()}
		switch trial % 4 {
		case 1: // a small box: most balls bounce every tick
			cfg.Width, cfg.Height, cfg.Radius = 40+r.Int32N(40), 30+r.Int32N(40), 1+r.Int32N(8)
		case 2: // fast: some balls cross the box more than once (fold)
			cfg.Width, cfg.Height, cfg.Radius = 20+r.Int32N(100), 20+r.Int32N(100), 1
			cfg.Speed = 100 + r.Int32N(12_000) // k < 2^17 at 40 ms: the int32 loop
		}
		a, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if trial%4 == 3 {
			for i := range a.Next {
				if r.IntN(4) == 0 {
					a.Next[i] = garbage[r.IntN(len(garbage))]
				}
				if r.IntN(4) == 0 {
					a.Dir[i] = garbage[r.IntN(len(garbage))]
				}
			}
		}
		if a.k >= 1<<(31-DirBits) {
			t.Fatalf("trial %d: k %d takes the int64 loop", trial, a.k)
		}
		b := &World{Last: slices.Clone(a.Last), Next: slices.Clone(a.Next), Dir: slices.Clone(a.Dir),
			loX: a.loX, spanX: a.spanX, loY: a.loY, spanY: a.spanY}
		first := trial % 2 // with and without ball 0 under control
		for tick := range 20 {
			moveAllVec(a, int32(a.k), first)
			moveAll(b, int32(a.k), first)
			for _, s := range []struct {
				name      string
				vec, scal []int32
			}{{"Last", a.Last, b.Last}, {"Next", a.Next, b.Next}, {"Dir", a.Dir, b.Dir}} {
				if i := firstDiff(s.vec, s.scal); i >= 0 {
					t.Fatalf("trial %d (%+v), tick %d: %s[%d] = %d with the vector loop, %d with the scalar one",
						trial, cfg, tick, s.name, i, s.vec[i], s.scal[i])
				}
			}
		}
	}
}

func firstDiff(a, b []int32) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}
