package physics

import (
	"fmt"
	"math/bits"
	"time"
)

// Fixed-point formats.
const (
	// FracBits is the number of fractional bits of a position: positions
	// are signed Q23.8 fixed point, in 1/256 of a world unit.
	FracBits = 8
	// One is one world unit in position fixed point.
	One = 1 << FracBits
	// DirBits is the number of fractional bits of a direction component:
	// a unit direction vector has length 1<<DirBits = 16384.
	DirBits = 14
	// DirOne is the length of a unit direction vector.
	DirOne = 1 << DirBits
)

// Limits enforced by Config.Validate, SetBalls and SetTick.
const (
	// MaxBalls is the largest number of balls a World holds (2^20, a bit
	// over a million): 24 MiB of state.
	MaxBalls = 1 << 20
	// MaxSize is the largest Width or Height in units (2^20). With it every
	// position fits in 28 bits, so every intermediate of a tick fits in an
	// int32 with room to spare.
	MaxSize = 1 << 20
	// MaxDisplacement is the largest distance, in Q8 (1/256 unit), a ball
	// may travel in one tick or one step: 2^30, that is 4,194,304 units.
	// Config.Validate rejects a Speed and Tick that would exceed it; Step
	// clamps a longer dt to it.
	MaxDisplacement = 1 << 30
)

// Defaults used for the zero fields of a Config.
const (
	DefaultWidth  = 640
	DefaultHeight = 480
	DefaultRadius = 8
	DefaultSpeed  = 400 // units per second: 16 units per 40 ms tick
	DefaultTick   = 40 * time.Millisecond
	DefaultBalls  = 1
)

// Config describes a world. The zero value of every field means its
// default, so Config{} is the original demo: one ball in a 640x480 world,
// 16 units per 40 ms tick.
type Config struct {
	// Width and Height are the world's size in units (default 640x480),
	// 1..MaxSize.
	Width, Height int32
	// Radius is the ball radius in units (default 8). A ball's centre stays
	// in [Radius, Width-Radius] x [Radius, Height-Radius], so 2*Radius must
	// be less than both Width and Height.
	Radius int32
	// Speed is every ball's speed in units per second (default 400).
	Speed int32
	// Tick is the fixed logic tick (default 40 ms).
	Tick time.Duration
	// Balls is the number of balls, 0..MaxBalls. Zero means the default
	// (one ball); for an empty world call SetBalls(0) after New.
	Balls int
	// Seed selects the pseudo-random positions and directions of balls
	// 1..N-1. Every value, 0 included, is a valid seed.
	Seed uint64
}

// DefaultConfig returns the configuration of the original demo with every
// default filled in.
func DefaultConfig() Config { return Config{}.withDefaults() }

func (c Config) withDefaults() Config {
	if c.Width == 0 {
		c.Width = DefaultWidth
	}
	if c.Height == 0 {
		c.Height = DefaultHeight
	}
	if c.Radius == 0 {
		c.Radius = DefaultRadius
	}
	if c.Speed == 0 {
		c.Speed = DefaultSpeed
	}
	if c.Tick == 0 {
		c.Tick = DefaultTick
	}
	if c.Balls == 0 {
		c.Balls = DefaultBalls
	}
	return c
}

// Validate reports, as a one-line error naming the field, the first thing
// wrong with c once its zero fields are replaced by the defaults.
func (c Config) Validate() error {
	c = c.withDefaults()
	if c.Width < 1 || c.Width > MaxSize {
		return fmt.Errorf("physics: Width %d out of range 1..%d", c.Width, MaxSize)
	}
	if c.Height < 1 || c.Height > MaxSize {
		return fmt.Errorf("physics: Height %d out of range 1..%d", c.Height, MaxSize)
	}
	if c.Radius < 0 {
		return fmt.Errorf("physics: Radius %d is negative", c.Radius)
	}
	if 2*int64(c.Radius) >= int64(min(c.Width, c.Height)) {
		return fmt.Errorf("physics: Radius %d too big for a %dx%d world (2*Radius must be less than Width and Height)",
			c.Radius, c.Width, c.Height)
	}
	if err := validBalls(c.Balls); err != nil {
		return err
	}
	if c.Speed < 0 {
		return fmt.Errorf("physics: Speed %d is negative", c.Speed)
	}
	if err := validTick(c.Tick); err != nil {
		return err
	}
	_, err := tickDisplacement(c.Speed, c.Tick)
	return err
}

func validBalls(n int) error {
	if n < 0 || n > MaxBalls {
		return fmt.Errorf("physics: Balls %d out of range 0..%d", n, MaxBalls)
	}
	return nil
}

func validTick(d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("physics: Tick %v is not positive", d)
	}
	return nil
}

// tickDisplacement returns K, the distance in Q8 that a ball travels in one
// tick of length d at speed units per second: speed*One*d/1s rounded to the
// nearest integer, computed exactly in 128-bit integer arithmetic.
func tickDisplacement(speed int32, d time.Duration) (int64, error) {
	hi, lo := bits.Mul64(uint64(speed)<<FracBits, uint64(d))
	lo, carry := bits.Add64(lo, uint64(time.Second/2), 0)
	hi += carry
	if hi >= uint64(time.Second) {
		return 0, fmt.Errorf("physics: Speed %d units/s too fast for Tick %v (more than %d units per tick)",
			speed, d, MaxDisplacement/One)
	}
	k, _ := bits.Div64(hi, lo, uint64(time.Second))
	switch {
	case k > MaxDisplacement:
		return 0, fmt.Errorf("physics: Speed %d units/s too fast for Tick %v (more than %d units per tick)",
			speed, d, MaxDisplacement/One)
	case k == 0:
		return 0, fmt.Errorf("physics: Speed %d units/s too slow for Tick %v (less than 1/%d unit per tick)",
			speed, d, One)
	}
	return int64(k), nil
}

// stepDisplacement returns the distance in Q8 travelled in dt at speed
// units per second, floored, together with the sub-Q8 remainder (in units
// of 1/(One*1s)) to carry into the next step, so that a run of steps
// travels exactly floor(speed*One*sum(dt)/1s) whatever the split of dt.
// rem is the remainder carried from the previous step, 0 <= rem < 1s. A dt
// that would move more than MaxDisplacement is clamped to it and drops the
// remainder.
func stepDisplacement(speed int32, dt time.Duration, rem uint64) (k int64, newRem uint64) {
	if dt <= 0 {
		return 0, rem
	}
	hi, lo := bits.Mul64(uint64(speed)<<FracBits, uint64(dt))
	lo, carry := bits.Add64(lo, rem, 0)
	hi += carry
	if hi >= uint64(time.Second) {
		return MaxDisplacement, 0
	}
	q, r := bits.Div64(hi, lo, uint64(time.Second))
	if q > MaxDisplacement {
		return MaxDisplacement, 0
	}
	return int64(q), r
}
