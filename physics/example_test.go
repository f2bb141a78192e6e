package physics_test

import (
	"fmt"

	"github.com/interpdemo/interpdemo/physics"
)

// The original demo: one ball in a 640x480 world moving 16 units per
// 40 ms tick, drawn between its last and next positions.
func Example() {
	w, err := physics.New(physics.Config{}) // all defaults
	if err != nil {
		panic(err)
	}
	units := func(q int32) float64 { return float64(q) / physics.One }
	fmt.Printf("K = %d (%.0f units per tick)\n", w.Displacement(), units(w.Displacement()))
	for range 3 {
		w.Tick(physics.Control{})
	}
	fmt.Printf("tick %d: last (%.2f, %.2f) next (%.2f, %.2f)\n", w.Ticks(),
		units(w.Last[0]), units(w.Last[1]), units(w.Next[0]), units(w.Next[1]))

	// What a renderer draws halfway into the next tick (percentWithinTick
	// = 0.5): last + 0.5*(next - last).
	alpha := 0.5
	x := units(w.Last[0]) + alpha*(units(w.Next[0])-units(w.Last[0]))
	y := units(w.Last[1]) + alpha*(units(w.Next[1])-units(w.Last[1]))
	fmt.Printf("drawn at (%.2f, %.2f)\n", x, y)

	// A teleport: Last = Next, so nothing streaks across the screen.
	w.Teleport(0, 100*physics.One, 100*physics.One)
	fmt.Printf("teleported: last (%.0f, %.0f) next (%.0f, %.0f)\n",
		units(w.Last[0]), units(w.Last[1]), units(w.Next[0]), units(w.Next[1]))
	// Output:
	// K = 4096 (16 units per tick)
	// tick 3: last (339.20, 265.59) next (348.79, 278.39)
	// drawn at (343.99, 271.99)
	// teleported: last (100, 100) next (100, 100)
}

// A player takes ball 0 over by holding a key: from the first tick with a
// non-zero Control it moves exactly K per tick along each held axis.
func ExampleWorld_Tick_player() {
	w, _ := physics.New(physics.Config{})
	w.Teleport(0, 320*physics.One, 240*physics.One)
	for range 5 {
		w.Tick(physics.Control{X: -1}) // left held for 5 ticks
	}
	w.Tick(physics.Control{}) // released: the ball stays
	fmt.Println(w.Player(), w.Next[0]/physics.One, w.Next[1]/physics.One)
	// Output: true 240 240
}
