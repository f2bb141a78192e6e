package loop

import (
	"fmt"
	"time"
)

// Defaults of SubstepConfig, as in seed 001.
const (
	DefaultMinT      = time.Second / 60
	DefaultMaxT      = time.Second / 10
	DefaultMaxCycles = 5
)

// SubstepConfig sets up a Substep timer.
type SubstepConfig struct {
	// MinT is the shortest frame: the game never runs faster than 1/MinT
	// frames per second. Zero means DefaultMinT; to have no minimum, use
	// 1ns. Negative is an error.
	MinT time.Duration
	// MaxT is the longest sub-step. Zero means DefaultMaxT; negative is an
	// error.
	MaxT time.Duration
	// MaxCycles is the most sub-steps per frame. Zero means
	// DefaultMaxCycles; negative is an error.
	MaxCycles int
}

// Substep is seed 001's "BeautifulTimer": a variable time step T per frame,
// cut into cycles = 1 + floor(T/MaxT) equal sub-steps of CycleT = T/cycles
// (each at most MaxT, so physics never sees a step longer than MaxT), at
// most MaxCycles of them; the time beyond MaxCycles × CycleT is dropped, so
// an overloaded game slows down instead of exploding. Frames shorter than
// MinT are refused with the time left to wait.
//
// CycleT is computed in integer nanoseconds; the remainder of T/cycles (a
// few nanoseconds) is carried into the next frame, so the sub-steps add up
// to the elapsed time exactly, without drift, when nothing is dropped.
type Substep struct {
	minT, maxT time.Duration
	maxCycles  int
	last       time.Duration // latest now seen
	elapsed    time.Duration // forward time since the frame started
}

// SubstepFrame is one frame's plan: run Cycles sub-steps of CycleT each,
// or, when Wait > 0, wait that long and ask again.
type SubstepFrame struct {
	// Wait is how long to wait before calling Step again when T < MinT;
	// then no cycles run and the frame start is not consumed.
	Wait time.Duration
	// T is the frame's elapsed time (plus the few nanoseconds carried from
	// the last frame).
	T time.Duration
	// Cycles is the number of sub-steps to run, 1 to MaxCycles (0 when
	// waiting).
	Cycles int
	// CycleT is the length of each sub-step: T/(1+floor(T/MaxT)), computed
	// before the MaxCycles clamp, so it is always < MaxT.
	CycleT time.Duration
	// Dropped is the time the MaxCycles clamp threw away.
	Dropped time.Duration
}

// NewSubstep returns a Substep whose first frame starts at now.
func NewSubstep(cfg SubstepConfig, now time.Duration) (*Substep, error) {
	if cfg.MinT < 0 || cfg.MaxT < 0 || cfg.MaxCycles < 0 {
		return nil, fmt.Errorf("%w: SubstepConfig %+v has a negative field", ErrInvalid, cfg)
	}
	if cfg.MinT == 0 {
		cfg.MinT = DefaultMinT
	}
	if cfg.MaxT == 0 {
		cfg.MaxT = DefaultMaxT
	}
	if cfg.MaxCycles == 0 {
		cfg.MaxCycles = DefaultMaxCycles
	}
	return &Substep{minT: cfg.MinT, maxT: cfg.MaxT, maxCycles: cfg.MaxCycles, last: now}, nil
}

// Config returns the timer's settings.
func (s *Substep) Config() SubstepConfig {
	return SubstepConfig{MinT: s.minT, MaxT: s.maxT, MaxCycles: s.maxCycles}
}

// Step plans the frame at now. A clock that goes backwards counts as
// standing still.
func (s *Substep) Step(now time.Duration) SubstepFrame {
	if now > s.last {
		s.elapsed = addSat(s.elapsed, subSat(now, s.last))
	}
	s.last = now
	t := s.elapsed
	if t < s.minT {
		return SubstepFrame{Wait: s.minT - t, T: t}
	}
	cycles := 1 + t/s.maxT
	cycleT := t / cycles
	s.elapsed = t - cycles*cycleT // carry the remainder
	fr := SubstepFrame{T: t, CycleT: cycleT}
	if run := time.Duration(s.maxCycles); cycles > run {
		fr.Dropped = (cycles - run) * cycleT
		cycles = run
	}
	fr.Cycles = int(cycles)
	return fr
}

// Reset starts a new frame at now, forgetting the time since the last one.
func (s *Substep) Reset(now time.Duration) { s.last, s.elapsed = now, 0 }
