package physics

import (
	"fmt"
	"time"
)

// Control is the player's input for one tick: -1, 0 or +1 per axis (+X is
// right, +Y is down, in the same orientation as positions). Any other value
// counts as its sign.
type Control struct{ X, Y int8 }

// World is a box of bouncing balls. Its state is the three exported
// slices, the tick counter, the player flag and the step remainder; all of
// it is integers, so it evolves bit for bit the same everywhere.
//
// Last, Next and Dir hold x and y interleaved per ball (ball i is at
// indices 2i and 2i+1) and always have length 2*N(). They may be read
// freely between calls, and uploaded as they are. Methods may replace the
// backing arrays (SetBalls), so read the fields again after a call rather
// than keeping the slices. Writing their elements directly is allowed (but
// bypasses the clamping of Teleport and the Moved counter; a position
// written outside the box is folded back in by the next tick); never
// reassign or reslice the fields themselves.
//
// A World is not safe for concurrent use.
type World struct {
	// Last is every ball's lastPosition, Q8 (x, y interleaved).
	Last []int32
	// Next is every ball's nextPosition, Q8 (x, y interleaved).
	Next []int32
	// Dir is every ball's unit direction, Q14 (x, y interleaved); its
	// length is DirOne, within the rounding of Q14. If you write it, keep
	// each component within [-DirOne, DirOne]: beyond, the displacement
	// may wrap (deterministically, and the ball still stays in the box).
	Dir []int32

	cfg Config // with defaults and the current Tick; Balls is stale (see N)

	// The box the centres stay in, Q8: [loX, loX+spanX] x [loY, loY+spanY].
	loX, spanX int32
	loY, spanY int32

	k       int64  // Q8 displacement per tick, from cfg.Speed and cfg.Tick
	ticks   uint64 // logic ticks since New or Reset
	steps   uint64 // variable steps since New or Reset
	stepRem uint64 // sub-Q8 remainder carried between Steps, < 1s
	players uint8  // bit i: ball i is player-controlled (TickPlayers); ball 0 alone in Tick
	moved   uint64 // bumped whenever Last/Next are set other than by Tick/Step
}

// New returns a world in its initial state for cfg, whose zero fields take
// their defaults. It fails with Validate's error.
func New(cfg Config) (*World, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	k, _ := tickDisplacement(cfg.Speed, cfg.Tick) // checked by Validate
	w := &World{
		cfg:   cfg,
		loX:   cfg.Radius << FracBits,
		spanX: (cfg.Width - 2*cfg.Radius) << FracBits,
		loY:   cfg.Radius << FracBits,
		spanY: (cfg.Height - 2*cfg.Radius) << FracBits,
		k:     k,
		moved: 1,
	}
	w.resize(cfg.Balls)
	w.spawn(0, cfg.Balls)
	return w, nil
}

// N returns the number of balls.
func (w *World) N() int { return len(w.Next) / 2 }

// Config returns the world's configuration with defaults filled in, the
// current Tick (see SetTick) and the current number of balls.
func (w *World) Config() Config {
	c := w.cfg
	c.Balls = w.N()
	return c
}

// Ticks returns the number of logic ticks since New or the last Reset.
func (w *World) Ticks() uint64 { return w.ticks }

// Steps returns the number of variable steps (Step calls) since New or the
// last Reset. Steps do not count as ticks.
func (w *World) Steps() uint64 { return w.steps }

// Displacement returns K, the distance in Q8 a ball travels in one tick:
// Speed*One*Tick/1s rounded to the nearest integer (4096, 16 units, by
// default). A player-controlled ball moves K per tick along each held axis.
func (w *World) Displacement() int32 { return int32(w.k) }

// Player reports whether ball 0 is under player control (see Tick).
func (w *World) Player() bool { return w.players&1 != 0 }

// Moved returns a counter that changes every time Last or Next is set by
// anything other than Tick or Step: Teleport, Reset, and SetBalls when the
// number of balls changes. After a Tick or Step, Last holds exactly the
// Next of before the call, so a renderer that keeps both arrays on the GPU
// may turn its old Next buffer into Last and upload only the new Next; when
// Moved differs from the value it saw at its last upload, it must upload
// both (and resize them to N). It starts at 1, so a renderer that
// remembers 0 uploads on first sight. It is not part of the state and not
// hashed.
func (w *World) Moved() uint64 { return w.moved }

// SetTick sets the tick length and recomputes the per-tick displacement so
// that the speed in units per second is kept (within the rounding of K to
// 1/256 unit per tick). The state and the tick counter are unchanged. On
// error nothing changes.
func (w *World) SetTick(d time.Duration) error {
	if err := validTick(d); err != nil {
		return err
	}
	k, err := tickDisplacement(w.cfg.Speed, d)
	if err != nil {
		return err
	}
	w.cfg.Tick, w.k = d, k
	return nil
}

// SetBalls changes the number of balls to n, 0..MaxBalls. Balls below n
// keep their state; balls added get their initial state, a pure function of
// the seed and their index, with Last = Next (they appear, not streak), so
// shrinking and growing back brings the same balls back as they started.
// Removing ball 0 (n = 0) ends player control. Moved changes when n differs
// from N. On error nothing changes.
func (w *World) SetBalls(n int) error {
	if err := validBalls(n); err != nil {
		return err
	}
	old := w.N()
	if n == old {
		return nil
	}
	w.resize(n)
	if n > old {
		w.spawn(old, n)
	}
	if n < 8 {
		w.players &= uint8(1<<n - 1) // removed balls end their player's control
	}
	w.moved++
	return nil
}

// resize sets the length of the three slices to 2n, keeping the first
// min(n, N) balls and reallocating only when the capacity is too small.
func (w *World) resize(n int) {
	l := 2 * n
	if l <= cap(w.Next) {
		w.Last, w.Next, w.Dir = w.Last[:l], w.Next[:l], w.Dir[:l]
		return
	}
	c := max(l, 2*cap(w.Next))
	if c > 2*MaxBalls {
		c = 2 * MaxBalls
	}
	grow := func(s []int32) []int32 {
		t := make([]int32, l, c)
		copy(t, s)
		return t
	}
	w.Last, w.Next, w.Dir = grow(w.Last), grow(w.Next), grow(w.Dir)
}

// Reset puts every ball back in its initial state for the current number
// of balls and seed, with Last = Next, ends player control, and sets the
// tick and step counters to 0. The tick length set by SetTick is kept.
// Moved changes.
func (w *World) Reset() {
	w.spawn(0, w.N())
	w.ticks, w.steps, w.stepRem = 0, 0, 0
	w.players = 0
	w.moved++
}

// Teleport puts ball i at (x, y), Q8, clamped into the box its centre may
// occupy, with Last = Next so that the renderer draws it there at once
// instead of streaking it across the screen. Its direction is kept. Moved
// changes. It panics if i is not in [0, N).
func (w *World) Teleport(i int, x, y int32) {
	if i < 0 || i >= w.N() {
		panic(fmt.Sprintf("physics: Teleport of ball %d in a world of %d", i, w.N()))
	}
	x = min(max(x, w.loX), w.loX+w.spanX)
	y = min(max(y, w.loY), w.loY+w.spanY)
	w.Last[2*i], w.Last[2*i+1] = x, y
	w.Next[2*i], w.Next[2*i+1] = x, y
	w.moved++
}
