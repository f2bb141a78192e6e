package loop

import (
	"fmt"
	"math"
	"math/bits"
	"time"
)

// DefaultMaxDelta is the longest raw frame time Virtual and TimeFactor let
// through by default (MAX_TIME_DIF in seed 000): a longer frame slows the
// game down instead of making objects jump.
const DefaultMaxDelta = 100 * time.Millisecond

// MaxSpeed is the largest speed factor Virtual accepts.
const MaxSpeed = 1 << 20

// VirtualConfig sets up a Virtual clock.
type VirtualConfig struct {
	// MaxDelta clamps one frame's raw elapsed time before it is scaled.
	// Zero means DefaultMaxDelta; a negative value means no clamp, which
	// is what a Fixed loop running on virtual time wants, since Fixed
	// handles stalls itself with MaxLoops.
	MaxDelta time.Duration
}

// Virtual is game time derived from a raw clock: each frame's raw elapsed
// time is clamped to MaxDelta, then multiplied by a speed factor (seed
// 004's SpeedFactor: 0 is paused, 0.5 slow motion, 2 fast forward).
// Virtual is a Clock (Now is the virtual time), so a Fixed loop can run on
// it and slow motion keeps fixed ticks.
//
// Scaling is exact: the virtual time since the last speed change is
// floor(clamped raw time since then × speed), computed in 128-bit integer
// arithmetic on the exact binary value of the speed, so no remainder is
// lost from frame to frame and nothing drifts. Virtual time never goes
// backwards; a raw clock that does counts as standing still.
type Virtual struct {
	maxDelta time.Duration // < 0: no clamp
	speed    float64
	mant     uint64 // speed = mant / 2^shift exactly
	shift    uint

	base time.Duration // virtual time at the last speed change
	seg  time.Duration // clamped raw time since the last speed change
	now  time.Duration // virtual now

	lastRaw          time.Duration // raw time of the last Advance
	prevRaw, prevNow time.Duration // start of the last advanced interval
}

// VirtualDelta is one frame of virtual time.
type VirtualDelta struct {
	// Raw is the raw time elapsed since the last Advance (0 if the raw
	// clock went backwards): seed 004's DeltaTime_Raw.
	Raw time.Duration
	// Clamped is Raw after the MaxDelta clamp, before scaling.
	Clamped time.Duration
	// Scaled is the virtual time that passed: Clamped × speed.
	Scaled time.Duration
	// Cut is the time the clamp removed: Raw - Clamped.
	Cut time.Duration
}

// NewVirtual returns a Virtual at speed 1 whose virtual time starts equal
// to rawNow. The current configuration has no invalid value; the error is
// there for settings to come.
func NewVirtual(cfg VirtualConfig, rawNow time.Duration) (*Virtual, error) {
	if cfg.MaxDelta == 0 {
		cfg.MaxDelta = DefaultMaxDelta
	}
	v := &Virtual{
		maxDelta: cfg.MaxDelta,
		base:     rawNow,
		now:      rawNow,
		lastRaw:  rawNow,
		prevRaw:  rawNow,
		prevNow:  rawNow,
	}
	if err := v.SetSpeed(1); err != nil {
		return nil, err
	}
	return v, nil
}

// SetSpeed sets the speed factor from the next Advance: 0 pauses, 0.5 is
// slow motion, 2 is double speed. NaN, infinities, negative values and
// values above MaxSpeed are errors and change nothing.
func (v *Virtual) SetSpeed(s float64) error {
	if math.IsNaN(s) || s < 0 || s > MaxSpeed {
		return fmt.Errorf("%w: speed %v is not in [0, %d]", ErrInvalid, s, MaxSpeed)
	}
	v.speed = s
	v.base, v.seg = v.now, 0
	// s = frac × 2^exp with frac in [0.5, 1): mant = frac × 2^53 is an
	// integer, and s = mant / 2^(53-exp). s <= 2^20 makes the shift >= 32.
	frac, exp := math.Frexp(s)
	v.mant = uint64(math.Ldexp(frac, 53))
	if sh := 53 - exp; sh < 128 {
		v.shift = uint(sh)
	} else {
		v.mant, v.shift = 0, 0 // too small to ever reach a nanosecond
	}
	return nil
}

// SetMaxDelta changes the clamp from the next Advance, as in
// VirtualConfig: 0 means DefaultMaxDelta, a negative value no clamp. A
// game switching between a fixed loop (no clamp) and variable steps
// (clamped) keeps one continuous virtual time this way.
func (v *Virtual) SetMaxDelta(d time.Duration) {
	if d == 0 {
		d = DefaultMaxDelta
	}
	v.maxDelta = d
}

// MaxDelta returns the clamp; negative means none.
func (v *Virtual) MaxDelta() time.Duration { return v.maxDelta }

// Speed returns the speed factor.
func (v *Virtual) Speed() float64 { return v.speed }

// scale returns floor(d × speed) for d >= 0, saturated.
func (v *Virtual) scale(d time.Duration) time.Duration {
	hi, lo := bits.Mul64(uint64(d), v.mant)
	if v.shift >= 64 {
		lo, hi = hi>>(v.shift-64), 0
	} else if v.shift > 0 {
		lo = lo>>v.shift | hi<<(64-v.shift)
		hi >>= v.shift
	}
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(lo)
}

// Advance moves virtual time to the raw time rawNow and returns the frame's
// deltas: the raw elapsed time is clamped first, then scaled.
func (v *Virtual) Advance(rawNow time.Duration) VirtualDelta {
	raw := max(0, subSat(rawNow, v.lastRaw))
	clamped := raw
	if v.maxDelta >= 0 && clamped > v.maxDelta {
		clamped = v.maxDelta
	}
	v.seg = addSat(v.seg, clamped)
	next := max(v.now, addSat(v.base, v.scale(v.seg)))
	d := VirtualDelta{Raw: raw, Clamped: clamped, Scaled: next - v.now, Cut: raw - clamped}
	v.prevRaw, v.prevNow = subSat(rawNow, raw), v.now
	v.lastRaw, v.now = rawNow, next
	return d
}

// Now returns the virtual time: the Clock a Fixed loop runs on.
func (v *Virtual) Now() time.Duration { return v.now }

// Map maps a raw timestamp in the last advanced interval to virtual time,
// linearly from the interval's start to its end; a timestamp outside the
// interval is clamped to it. Input events are stamped on the raw clock and
// must be mapped to the virtual time the loop runs on; events queued during
// a clamped stall are squeezed, in order, into the short virtual interval.
func (v *Virtual) Map(raw time.Duration) time.Duration {
	if raw <= v.prevRaw {
		return v.prevNow
	}
	if raw >= v.lastRaw {
		return v.now
	}
	return v.prevNow + mulDiv(raw-v.prevRaw, v.now-v.prevNow, v.lastRaw-v.prevRaw, false)
}

// Reset forgets the raw time since the last Advance (after loading a
// level): the next Advance measures from rawNow. Virtual time goes on from
// where it is; it never jumps.
func (v *Virtual) Reset(rawNow time.Duration) {
	v.lastRaw, v.prevRaw, v.prevNow = rawNow, rawNow, v.now
}

// VirtualClock is a Clock that advances Virtual to Raw's time on every
// read and returns the virtual time: give it to a Driver to run a Fixed
// loop on virtual time, reading the raw clock once per frame. A
// VirtualClock missing a field reads 0.
type VirtualClock struct {
	Raw     Clock
	Virtual *Virtual
}

// Now advances the virtual clock and returns its time.
func (c VirtualClock) Now() time.Duration {
	if c.Raw == nil || c.Virtual == nil {
		return 0
	}
	c.Virtual.Advance(c.Raw.Now())
	return c.Virtual.Now()
}
