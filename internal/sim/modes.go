package sim

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/loop"
)

// Mode is one of the timing strategies the simulation can run on.
type Mode int

const (
	ModeFixed      Mode = iota // fixed ticks with interpolation: the interp_demo loop
	ModeSubstep                // BeautifulTimer's sub-steps
	ModeTimeFactor             // time factor with full updates (DarkBASIC timer-based movement)
	ModeAdaptive               // adaptive split of logic cycles and presents (clsGameClock)
	ModeVariable               // one variable step per frame, delta clamped
	NumModes
)

var modeNames = [NumModes]string{"fixed", "substep", "timefactor", "adaptive", "variable"}

func (m Mode) String() string {
	if m < 0 || m >= NumModes {
		return "mode(" + strconv.Itoa(int(m)) + ")"
	}
	return modeNames[m]
}

// ModeNames lists the modes' names in order, for help texts.
func ModeNames() string { return strings.Join(modeNames[:], ", ") }

// ParseMode returns the mode with the given name.
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown mode %q (want %s)", s, ModeNames())
}

// Deterministic says whether the mode's results depend only on the inputs
// per tick, not on the frame times: only such a mode can be recorded,
// replayed or played over a network.
func (m Mode) Deterministic() bool { return m == ModeFixed }

// strategy is one timing mode: it runs a frame's logic at raw time now.
type strategy interface {
	frame(s *Sim, now time.Duration) FrameInfo
}

// fixedMode is the classic loop: up to MaxLoops fixed ticks, each with the
// input of its own span of time.
type fixedMode struct {
	f       *loop.Fixed
	fastNow time.Duration // Config.Fast: the synthetic loop time
}

func (m *fixedMode) frame(s *Sim, now time.Duration) FrameInfo {
	if s.net.sess != nil || s.net.spectator != nil {
		info := s.netFrame(m, now)
		info.Drawn = m.f.Time0() + time.Duration(info.Percent*float64(s.Tick()))
		return info
	}
	vnow := s.virt.Now()
	if s.fast && !s.virt.Paused() {
		// Not real time: every frame owes exactly MaxLoops ticks.
		m.fastNow += time.Duration(s.settings.MaxLoops) * s.Tick()
		vnow = m.fastNow
	}
	plan := m.f.Step(vnow)
	ran := 0
	for ; ran < plan.Ticks && !s.finished; ran++ {
		if !s.fixedTick(plan.Span(ran)) {
			break
		}
	}
	s.modeLine = s.modeLine[:0]
	return FrameInfo{Ticks: ran, Percent: plan.Percent, Discarded: plan.Discarded, Capped: plan.Capped, Drawn: plan.DrawTime()}
}

// substepMode is BeautifulTimer: the frame's time cut into 1 + floor(T/MaxT)
// equal sub-steps, at most MaxCycles.
type substepMode struct{ sub *loop.Substep }

func (m *substepMode) frame(s *Sim, now time.Duration) FrameInfo {
	// MinT, "never faster than 1/MinT", is a frame cap on real time: the
	// shell's limiter keeps it (LimiterInterval), so slow motion keeps the
	// frame rate and gets smaller steps. The Substep itself runs with no
	// minimum on game time, and only waits (no cycles) while paused.
	f := m.sub.Step(s.virt.Now())
	for i := 0; i < f.Cycles; i++ {
		s.step(f.CycleT)
		s.burn()
	}
	b := append(s.modeLine[:0], "substep: "...)
	b = strconv.AppendInt(b, int64(f.Cycles), 10)
	b = append(b, " cycles of "...)
	b = hud.AppendMs(b, f.CycleT)
	b = append(b, ", T "...)
	b = hud.AppendMs(b, f.T)
	b = append(b, ", dropped "...)
	b = hud.AppendMs(b, f.Dropped)
	s.modeLine = b
	return FrameInfo{Ticks: f.Cycles, Percent: 1, Discarded: f.Dropped, Capped: f.Dropped > 0}
}

// timeFactorMode is timer-based movement: continuous motion scaled by the
// frame's clamped delta (timeFactor), and an integer count of discrete
// full updates (50 per second) for what cannot be scaled.
type timeFactorMode struct{ tf *loop.TimeFactor }

func (m *timeFactorMode) frame(s *Sim, now time.Duration) FrameInfo {
	f := m.tf.Step(s.virt.Now())
	s.step(f.Delta)
	for i := 0; i < f.FullUpdates; i++ {
		s.burn() // the logic load is per discrete update
	}
	b := append(s.modeLine[:0], "timefactor "...)
	b = strconv.AppendFloat(b, f.TimeFactor, 'f', 2, 64)
	b = append(b, ", full updates "...)
	b = strconv.AppendInt(b, int64(f.FullUpdates), 10)
	b = append(b, " (sum "...)
	b = strconv.AppendInt(b, f.FullUpdateSum, 10)
	b = append(b, ", runtime "...)
	b = strconv.AppendFloat(b, f.Runtime.Seconds(), 'f', 1, 64)
	b = append(b, " s)"...)
	s.modeLine = b
	return FrameInfo{Ticks: f.FullUpdates, Percent: 1, Discarded: f.RawDelta - f.Delta, Capped: f.Resynced}
}

// adaptiveMode is the clsGameClock split: as many variable logic cycles as
// fit before the next present, which it paces itself (PresentAt).
type adaptiveMode struct{ a *loop.Adaptive }

func (m *adaptiveMode) frame(s *Sim, now time.Duration) FrameInfo {
	n := 0
	d := s.vdelta.Scaled // the first cycle covers the time since the last frame's
	for m.a.NextCycle(now) {
		if n > 0 {
			d = s.virt.Advance(now).Scaled
		}
		s.step(d)
		s.burn()
		n++
		now = s.clock.Now()
	}
	b := append(s.modeLine[:0], "adaptive: "...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, " cycles, last cycle "...)
	b = hud.AppendMs(b, m.a.LastCycle())
	b = append(b, ", last draw "...)
	b = hud.AppendMs(b, m.a.LastDraw())
	b = append(b, ", target "...)
	b = hud.AppendMs(b, m.a.Config().Target)
	s.modeLine = b
	return FrameInfo{Ticks: n, Percent: 1}
}

// variableMode is the plain variable time step: one step per frame of the
// frame's delta, clamped to 100 ms so a stall slows the game instead of
// making things jump.
type variableMode struct{}

func (variableMode) frame(s *Sim, now time.Duration) FrameInfo {
	d := s.vdelta.Scaled
	s.step(d)
	s.burn()
	b := append(s.modeLine[:0], "variable: dt "...)
	b = hud.AppendMs(b, d)
	s.modeLine = b
	return FrameInfo{Ticks: 1, Percent: 1}
}
