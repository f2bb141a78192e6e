package loop

import (
	"fmt"
	"math"
	"math/bits"
	"time"
)

// DefaultMaxDelta is the longest raw frame time Virtual and TimeFactor let
// through by default (MAX_TIME_DIF in the DarkBASIC timer-based movement
// post): a longer frame slows the game down instead of making objects jump.
const DefaultMaxDelta = 100 * time.Millisecond

// MaxSpeed is the largest speed factor Virtual accepts.
const MaxSpeed = 1 << 20

// VirtualConfig sets up a Virtual clock.
type VirtualConfig struct {
	// MaxDelta clamps one frame's raw elapsed time before it is scaled.
	// Zero means DefaultMaxDelta; NoLimit means no clamp, which is what a
	// Fixed loop running on virtual time wants, since Fixed handles stalls
	// itself with MaxLoops. Any other negative value is an error.
	MaxDelta time.Duration
}

// Virtual is game time derived from a raw clock: each frame's raw elapsed
// time is clamped to MaxDelta, then multiplied by a speed factor (the
// clsGameClock post's SpeedFactor: 0.5 is slow motion, 2 fast forward),
// and stops while the Virtual is paused. Virtual is a Clock (Now is the
// virtual time), so every strategy can run on it: a Fixed loop on it keeps
// fixed ticks in slow motion, and pausing the Virtual pauses whatever runs
// on it. Pausing is the Virtual's job alone; no strategy pauses itself.
//
// Scaling is exact: the virtual time since the last speed change is
// floor(clamped raw time since then × speed), computed in 128-bit integer
// arithmetic on the exact binary value of the speed, so no remainder is
// lost from frame to frame and nothing drifts; a pause leaves that sum
// untouched. Virtual time never goes backwards; a raw clock that does
// counts as standing still.
//
// The zero Virtual is ready to use: it behaves like
// NewVirtual(VirtualConfig{}, t), where t is the first raw time it is
// given (its first Advance or Reset), so its virtual time starts there.
type Virtual struct {
	maxDelta time.Duration // NoLimit: no clamp; 0 only in the zero Virtual
	speed    float64       // 0 only in the zero Virtual
	mant     uint64        // speed = mant / 2^shift exactly
	shift    uint
	paused   bool
	started  bool // the Virtual has been given a raw time

	base time.Duration // virtual time at the last speed change
	seg  time.Duration // clamped raw time run since the last speed change
	now  time.Duration // virtual now

	lastRaw          time.Duration // raw time of the last Advance
	prevRaw, prevNow time.Duration // start of the last advanced interval
}

// VirtualDelta is one frame of virtual time.
type VirtualDelta struct {
	// Raw is the raw time elapsed since the last Advance (0 if the raw
	// clock went backwards): the clsGameClock post's DeltaTime_Raw, for
	// what moves at real speed in slow motion and during a pause.
	Raw time.Duration
	// Clamped is Raw after the MaxDelta clamp, before scaling.
	Clamped time.Duration
	// Scaled is the virtual time that passed: Clamped × speed, or 0 while
	// paused.
	Scaled time.Duration
	// Cut is the time the clamp removed: Raw - Clamped.
	Cut time.Duration
}

// NewVirtual returns a Virtual at speed 1, not paused, whose virtual time
// starts equal to rawNow. A MaxDelta below zero other than NoLimit is an
// error wrapping ErrInvalid.
func NewVirtual(cfg VirtualConfig, rawNow time.Duration) (*Virtual, error) {
	v := new(Virtual)
	if err := v.SetMaxDelta(cfg.MaxDelta); err != nil {
		return nil, err
	}
	v.Reset(rawNow)
	return v, nil
}

// ready gives a zero Virtual its default settings.
func (v *Virtual) ready() {
	if v.speed == 0 {
		v.setSpeed(1)
	}
	if v.maxDelta == 0 {
		v.maxDelta = DefaultMaxDelta
	}
}

// start starts the virtual time of a zero Virtual at rawNow.
func (v *Virtual) start(rawNow time.Duration) {
	v.started = true
	v.base, v.seg, v.now = rawNow, 0, rawNow
	v.lastRaw, v.prevRaw, v.prevNow = rawNow, rawNow, rawNow
}

// SetSpeed sets the speed factor from the next Advance: 0.5 is slow
// motion, 2 double speed; the raw time since the last Advance runs at the
// new speed. The speed must be in (0, MaxSpeed]: 0 is an error (stop game
// time with SetPaused, which keeps the speed for the resume), and so are
// NaN, infinities and negative values; an error wraps ErrInvalid and
// changes nothing. The speed is kept while paused.
func (v *Virtual) SetSpeed(s float64) error {
	if s == 0 {
		return fmt.Errorf("%w: speed 0 (use SetPaused to stop game time)", ErrInvalid)
	}
	if math.IsNaN(s) || s < 0 || s > MaxSpeed {
		return fmt.Errorf("%w: speed %v is not in (0, %d]", ErrInvalid, s, MaxSpeed)
	}
	v.ready()
	v.setSpeed(s)
	return nil
}

func (v *Virtual) setSpeed(s float64) {
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
}

// SetPaused pauses or resumes game time from the next Advance: while
// paused, Advance measures the raw time but no virtual time passes, so a
// Fixed loop on the Virtual runs no ticks (but a lockstep debt owed from
// before the pause) and draws at a frozen percentWithinTick, and the other
// strategies see no time pass. The raw time since the last Advance counts
// as paused (or, on resume, as running). The speed factor is kept, and the
// exact sum of scaled time is not disturbed: resuming goes on as if the
// paused frames had not happened. Pausing a paused Virtual does nothing.
func (v *Virtual) SetPaused(paused bool) { v.paused = paused }

// Paused reports whether game time is paused.
func (v *Virtual) Paused() bool { return v.paused }

// SetMaxDelta changes the clamp from the next Advance, as in
// VirtualConfig: 0 means DefaultMaxDelta, NoLimit no clamp; any other
// negative value is an error wrapping ErrInvalid and changes nothing. A
// game switching between a fixed loop (no clamp) and variable steps
// (clamped) keeps one continuous virtual time this way.
func (v *Virtual) SetMaxDelta(d time.Duration) error {
	if err := checkLimit("Virtual MaxDelta", d); err != nil {
		return err
	}
	if d == 0 {
		d = DefaultMaxDelta
	}
	v.maxDelta = d
	return nil
}

// MaxDelta returns the clamp; NoLimit means none.
func (v *Virtual) MaxDelta() time.Duration {
	v.ready()
	return v.maxDelta
}

// Speed returns the speed factor (kept while paused).
func (v *Virtual) Speed() float64 {
	v.ready()
	return v.speed
}

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
// deltas: the raw elapsed time is clamped first, then scaled (or, while
// paused, dropped). On a zero Virtual, the first Advance starts the virtual
// time at rawNow and returns a zero delta.
func (v *Virtual) Advance(rawNow time.Duration) VirtualDelta {
	v.ready()
	if !v.started {
		v.start(rawNow)
		return VirtualDelta{}
	}
	raw := max(0, subSat(rawNow, v.lastRaw))
	clamped := raw
	if v.maxDelta != NoLimit && clamped > v.maxDelta {
		clamped = v.maxDelta
	}
	next := v.now
	if !v.paused {
		v.seg = addSat(v.seg, clamped)
		next = max(v.now, addSat(v.base, v.scale(v.seg)))
	}
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
// While paused the interval is empty: every event maps to the frozen
// virtual time, not before the events of earlier frames nor after those of
// later ones, so a tick after the resume takes them, in order.
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
// where it is; it never jumps. On a zero Virtual, Reset starts the virtual
// time at rawNow.
func (v *Virtual) Reset(rawNow time.Duration) {
	v.ready()
	if !v.started {
		v.start(rawNow)
		return
	}
	v.lastRaw, v.prevRaw, v.prevNow = rawNow, rawNow, v.now
}

// VirtualClock is a Clock that advances Virtual to Raw's time on every
// read and returns the virtual time: give it to a Driver to run a Fixed
// loop on virtual time, reading the raw clock once per frame. A
// VirtualClock missing a field reads 0, and a Driver refuses it with
// ErrIncompleteDriver. It is not a Sleeper: pace frames on the raw clock.
type VirtualClock struct {
	Raw     Clock    // the clock of real time, read once a Now
	Virtual *Virtual // advanced to Raw's time by each Now
}

// Now advances the virtual clock and returns its time.
func (c VirtualClock) Now() time.Duration {
	if c.Raw == nil || c.Virtual == nil {
		return 0
	}
	c.Virtual.Advance(c.Raw.Now())
	return c.Virtual.Now()
}
