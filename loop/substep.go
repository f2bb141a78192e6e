package loop

import "time"

// Defaults of SubstepConfig, as in BeautifulTimer.
const (
	DefaultMinT      = time.Second / 60
	DefaultMaxT      = time.Second / 10
	DefaultMaxCycles = 5
)

// SubstepConfig sets up a Substep timer.
type SubstepConfig struct {
	// MinT is the shortest frame: the game never runs faster than 1/MinT
	// frames per second. Zero means DefaultMinT; NoLimit means no minimum
	// (every Step runs, even one with T = 0, as one sub-step of 0: pace the
	// frames with a Limiter instead). Any other negative value is an error.
	MinT time.Duration
	// MaxT is the longest sub-step. Zero means DefaultMaxT; negative is an
	// error (sub-steps without a longest one are a plain variable step:
	// use VirtualDelta.Scaled).
	MaxT time.Duration
	// MaxCycles is the most sub-steps per frame. Zero means
	// DefaultMaxCycles; negative is an error.
	MaxCycles int
}

// Substep is sub-stepping as in BeautifulTimer: a variable time step T per
// frame, cut into cycles = 1 + floor(T/MaxT) equal sub-steps of CycleT =
// T/cycles (each shorter than MaxT, so physics never sees a step of MaxT or
// more), at most MaxCycles of them; the time beyond MaxCycles × CycleT is
// dropped, so an overloaded game slows down instead of exploding. Frames
// shorter than MinT are refused with the time left to wait.
//
// CycleT is computed in integer nanoseconds; the remainder of T/cycles (a
// few nanoseconds) is carried into the next frame, so the sub-steps add up
// to the elapsed time exactly, without drift, when nothing is dropped.
//
// Substep does not pause: give it the time of a Virtual. While the Virtual
// is paused no time passes, so every Step says Wait; a game that must keep
// drawing during a pause draws anyway, and paces with a Limiter on the raw
// clock.
//
// The zero Substep is ready to use: it behaves like
// NewSubstep(SubstepConfig{}, t), where t is the first time it is given
// (its first Step or Reset), so its first frame starts there.
type Substep struct {
	minT, maxT time.Duration // 0 only in the zero Substep
	maxCycles  int
	started    bool
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

// NewSubstep returns a Substep whose first frame starts at now. A negative
// MaxT or MaxCycles, or a negative MinT other than NoLimit, is an error
// wrapping ErrInvalid.
func NewSubstep(cfg SubstepConfig, now time.Duration) (*Substep, error) {
	if err := checkLimit("SubstepConfig.MinT", cfg.MinT); err != nil {
		return nil, err
	}
	if err := checkDuration("SubstepConfig.MaxT", cfg.MaxT); err != nil {
		return nil, err
	}
	if err := checkCount("SubstepConfig.MaxCycles", cfg.MaxCycles); err != nil {
		return nil, err
	}
	s := &Substep{minT: cfg.MinT, maxT: cfg.MaxT, maxCycles: cfg.MaxCycles}
	s.Reset(now)
	return s, nil
}

// ready gives a zero Substep its default settings.
func (s *Substep) ready() {
	if s.minT == 0 {
		s.minT = DefaultMinT
	}
	if s.maxT == 0 {
		s.maxT = DefaultMaxT
	}
	if s.maxCycles == 0 {
		s.maxCycles = DefaultMaxCycles
	}
}

// Config returns the timer's settings (MinT is NoLimit when there is no
// minimum).
func (s *Substep) Config() SubstepConfig {
	s.ready()
	return SubstepConfig{MinT: s.minT, MaxT: s.maxT, MaxCycles: s.maxCycles}
}

// Step plans the frame at now. A clock that goes backwards counts as
// standing still.
func (s *Substep) Step(now time.Duration) SubstepFrame {
	s.ready()
	if !s.started {
		s.Reset(now)
	}
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
func (s *Substep) Reset(now time.Duration) {
	s.ready()
	s.started, s.last, s.elapsed = true, now, 0
}
