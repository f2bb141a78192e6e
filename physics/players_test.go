package physics_test

import (
	"math/rand/v2"
	"testing"

	"github.com/interpdemo/interpdemo/physics"
)

func newWorld(t *testing.T, balls int, seed uint64) *physics.World {
	t.Helper()
	w, err := physics.New(physics.Config{Balls: balls, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestTickPlayersIsTickForOnePlayer: one control, or several that are all
// zero, give exactly Tick's world (the autonomous balls 1..3 moved one by
// one match the hot loop bit for bit, bounces included).
func TestTickPlayersIsTickForOnePlayer(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, balls := range []int{1, 2, 4, 50} {
		a, b, c := newWorld(t, balls, 9), newWorld(t, balls, 9), newWorld(t, balls, 9)
		for i := 0; i < 3000; i++ {
			var ctl physics.Control
			if i > 1000 && rng.IntN(4) == 0 {
				ctl = physics.Control{X: int8(rng.IntN(3) - 1), Y: int8(rng.IntN(3) - 1)}
			}
			a.Tick(ctl)
			b.TickPlayers([]physics.Control{ctl})
			if i <= 1000 {
				c.TickPlayers(make([]physics.Control, 4))
			} else {
				c.Tick(ctl)
			}
		}
		if a.Hash() != b.Hash() || a.Hash() != c.Hash() {
			t.Errorf("%d balls: Tick %016x, TickPlayers(1) %016x, TickPlayers(4 zero) %016x", balls, a.Hash(), b.Hash(), c.Hash())
		}
	}
}

func TestPlayersMoveTheirOwnBalls(t *testing.T) {
	w := newWorld(t, 10, 5)
	k := w.Displacement()
	w.TickPlayers([]physics.Control{{}, {}, {}, {}})
	before := append([]int32(nil), w.Next...)
	w.TickPlayers([]physics.Control{{}, {X: 1}, {}, {Y: -1}})
	if w.Players() != 0b1010 {
		t.Fatalf("players %04b, want 1010", w.Players())
	}
	if w.Player() {
		t.Error("ball 0 became a player's without input")
	}
	if w.Next[2]-before[2] != k && w.Next[2] != before[2] { // clamped at a wall is the only other outcome
		t.Errorf("ball 1 moved %d in x, want %d", w.Next[2]-before[2], k)
	}
	if before[7]-w.Next[7] != k && w.Next[7] != before[7] {
		t.Errorf("ball 3 moved %d in y, want %d", before[7]-w.Next[7], k)
	}
	// A player-controlled ball stands still without input.
	x1, y3 := w.Next[2], w.Next[7]
	w.TickPlayers([]physics.Control{{}, {}, {}, {}})
	if w.Next[2] != x1 || w.Next[7] != y3 {
		t.Error("a player's ball moved without input")
	}
	// Release: autonomous again, from where it is.
	if err := w.Release(1); err != nil {
		t.Fatal(err)
	}
	if w.Players() != 0b1000 {
		t.Fatalf("players %04b after Release(1)", w.Players())
	}
	w.TickPlayers([]physics.Control{{}, {}, {}, {}})
	if w.Next[2] == x1 && w.Next[3] == w.Last[3] {
		t.Error("the released ball did not move on its own")
	}
	if err := w.Release(physics.MaxPlayers); err == nil {
		t.Error("Release out of range accepted")
	}
	// Fewer balls than players: the removed balls' control ends.
	if err := w.SetBalls(2); err != nil {
		t.Fatal(err)
	}
	if w.Players() != 0 {
		t.Errorf("players %04b with 2 balls, want none (ball 1 was released, ball 3 removed)", w.Players())
	}
}

// TestHashNamesEveryPlayer: two worlds that differ only in who controls
// which ball hash differently.
func TestHashNamesEveryPlayer(t *testing.T) {
	a, b := newWorld(t, 4, 1), newWorld(t, 4, 1)
	a.TickPlayers([]physics.Control{{}, {X: 1}, {}})
	b.TickPlayers([]physics.Control{{}, {X: 1}, {}})
	a.TickPlayers([]physics.Control{{}, {}, {}})
	b.TickPlayers([]physics.Control{{}, {}, {}})
	if a.Hash() != b.Hash() {
		t.Fatal("same inputs, different hashes")
	}
	b.Release(1)
	if a.Hash() == b.Hash() {
		t.Error("the hash does not see who is a player")
	}
}

func TestTickPlayersAllocatesNothing(t *testing.T) {
	w := newWorld(t, 1000, 2)
	cs := []physics.Control{{X: 1}, {}, {Y: 1}, {}}
	if n := testing.AllocsPerRun(100, func() { w.TickPlayers(cs) }); n != 0 {
		t.Errorf("%v allocations per tick", n)
	}
}
