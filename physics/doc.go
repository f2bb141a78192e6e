// Package physics is the deterministic world of interpdemo: balls bouncing
// in a box, advanced by fixed logic ticks, with the lastPosition and
// nextPosition of every ball kept for render interpolation, as in the
// original interp_demo.
//
// # Units
//
// The world has its own fixed logical size in units (640x480 by default),
// whatever the window's size in pixels. Positions are integers in Q23.8
// fixed point: 1 unit is One = 256, so the ball's centre moves in steps of
// 1/256 unit. Directions are unit vectors in Q14 (length DirOne = 16384).
// Each tick a ball moves
//
//	Next += Dir * K >> DirBits
//
// where K = Displacement() = Speed*One*Tick/1s is computed once from the
// configuration (4096, that is 16 units per 40 ms tick, by default) and >>
// rounds toward minus infinity. A ball's centre stays within [Radius,
// Width-Radius] x [Radius, Height-Radius]: a move that overshoots a wall is
// reflected (p = 2*wall - p) and that direction component negated, on each
// axis independently. Landing exactly on a wall is not an overshoot; the
// ball bounces on the next tick. A move longer than the box (only at absurd
// speeds) is folded in by as many reflections as it takes, so no input
// ever puts a ball outside the box, and none sticks to a wall.
//
// # Last and Next
//
// Each tick first sets Last = Next, then computes the new Next. A renderer
// that is a fraction alpha = percentWithinTick into the next tick draws
// each ball at
//
//	Last + alpha*(Next - Last)
//
// so motion is smooth at any frame rate while the logic runs at 25 ticks a
// second. Anything that puts a ball somewhere other than where its motion
// takes it (Teleport, Reset, new balls from SetBalls) sets Last = Next:
// otherwise the renderer would draw the ball sliding across the screen from
// where it was to where it was put during the next tick.
//
// # Layout
//
// The state is a struct of arrays: World.Last, World.Next and World.Dir are
// flat []int32 with x and y interleaved (ball i at indices 2i and 2i+1), so
// a renderer uploads them as they are (two GL_INT components per ball), and
// the tick is one tight loop over contiguous memory with no allocation; it
// runs at close to the speed of memory from 1 to MaxBalls balls. A renderer
// that keeps Last and Next on the GPU can, after a tick, reuse its old Next
// buffer as Last and upload only the new Next, as long as Moved() has not
// changed since its last upload.
//
// # Determinism
//
// The state and its evolution are integers only: no floating point, not
// even to spawn balls (directions are normalised with an integer square
// root). Ball 0 starts at the centre heading (3/5, 4/5), as in the original
// demo; ball i > 0 gets a position and direction that are a pure function
// of (Seed, i), from a counter-based splitmix64. So the same Config and the
// same sequence of calls (Tick with its Control, SetTick, SetBalls,
// Teleport, Reset) give the same state, bit for bit, on every run, machine,
// architecture and frame rate; Hash names that state. Step, for the
// variable-time modes, is deterministic too, but its dt comes from the
// clock, so runs that use it are not reproducible across frame rates.
//
// # Player
//
// Ball 0 is autonomous until the first tick whose Control is non-zero; from
// then until Reset it is player-controlled, moving K per tick along each
// held axis, so a held key moves it at the same speed whatever the frame
// rate.
//
// # Sketch
//
//	w, err := physics.New(physics.Config{Balls: 1000, Seed: 7})
//	if err != nil {
//		return err
//	}
//	for each frame {
//		for each tick due {
//			w.Tick(controlForThisTick)
//		}
//		draw(w.Last, w.Next, percentWithinTick)
//	}
//	fmt.Printf("%016x\n", w.Hash())
//
// A World is not safe for concurrent use.
package physics
