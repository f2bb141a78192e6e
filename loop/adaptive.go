package loop

import "time"

// Defaults of AdaptiveConfig: a present 40 times per second, at most 100
// logic cycles per present.
const (
	DefaultTarget            = time.Second / 40
	DefaultAdaptiveMaxCycles = 100
)

// AdaptiveConfig sets up an Adaptive split.
type AdaptiveConfig struct {
	// Target is the time from one present (draw) to the next. Zero means
	// DefaultTarget; negative is an error.
	Target time.Duration
	// MaxCycles is a safety cap on logic cycles per frame. Zero means
	// DefaultAdaptiveMaxCycles; negative is an error.
	MaxCycles int
}

// Adaptive is the clsGameClock post's adaptive split of logic cycles and
// presents: it fits as
// many logic cycles before each draw as the target frame time allows,
// judging from how long the last cycle took and how long ago the last
// draw started, and paces the draws at the target. It is conservative:
// another cycle runs only while (now - lastDrawStart) + lastCycle <
// Target; never fewer than one cycle and one draw per frame.
//
// The frame, with a clock:
//
//	now := clock.Now()
//	for a.NextCycle(now) {
//		update() // one logic cycle; variable-step code uses a Virtual
//		now = clock.Now()
//	}
//	if wait := a.PresentAt() - now; wait > 0 {
//		sleep(wait) // frame pacing
//		now = clock.Now()
//	}
//	a.BeginDraw(now)
//	draw()
//	a.EndDraw(clock.Now())
//
// A clock that goes backwards counts as standing still. The cycles measure
// real work, so Adaptive runs on the raw clock; variable-step logic inside
// a cycle takes its delta from a Virtual, which is also what pauses it.
//
// The zero Adaptive is ready to use: it behaves like
// NewAdaptive(AdaptiveConfig{}, t), where t is the first time it is given
// (its first NextCycle, BeginDraw or EndDraw).
type Adaptive struct {
	target    time.Duration // 0 only in the zero Adaptive
	maxCycles int
	started   bool

	last          time.Duration // latest now seen
	lastDrawStart time.Duration
	drawStart     time.Duration
	cycleStart    time.Duration

	cycles int  // cycles begun this frame
	done   bool // NextCycle has said no this frame
	single bool // the SingleCycleOnce trigger

	lastCycle, lastDraw time.Duration
	cyclesLastFrame     int
}

// NewAdaptive returns an Adaptive whose first frame starts at now, as if a
// draw had started then. As in the post, the first frame runs a single
// cycle to take its first measurements. A negative Target or MaxCycles is
// an error wrapping ErrInvalid.
func NewAdaptive(cfg AdaptiveConfig, now time.Duration) (*Adaptive, error) {
	if err := checkDuration("AdaptiveConfig.Target", cfg.Target); err != nil {
		return nil, err
	}
	if err := checkCount("AdaptiveConfig.MaxCycles", cfg.MaxCycles); err != nil {
		return nil, err
	}
	a := &Adaptive{target: cfg.Target, maxCycles: cfg.MaxCycles}
	a.start(now)
	return a, nil
}

// ready gives a zero Adaptive its default settings.
func (a *Adaptive) ready() {
	if a.target == 0 {
		a.target = DefaultTarget
	}
	if a.maxCycles == 0 {
		a.maxCycles = DefaultAdaptiveMaxCycles
	}
}

// start starts the first frame at now, as if a draw had started then.
func (a *Adaptive) start(now time.Duration) {
	a.ready()
	a.started = true
	a.last, a.lastDrawStart, a.drawStart, a.cycleStart = now, now, now, now
	a.single = true
}

// Config returns the split's settings.
func (a *Adaptive) Config() AdaptiveConfig {
	a.ready()
	return AdaptiveConfig{Target: a.target, MaxCycles: a.maxCycles}
}

// observe treats a backwards jump of the clock as no time at all: the
// stored instants move back with it. The first time a zero Adaptive is
// given starts it.
func (a *Adaptive) observe(now time.Duration) {
	if !a.started {
		a.start(now)
		return
	}
	if now < a.last {
		d := now - a.last
		a.lastDrawStart = addSat(a.lastDrawStart, d)
		a.drawStart = addSat(a.drawStart, d)
		a.cycleStart = addSat(a.cycleStart, d)
	}
	a.last = now
}

// NextCycle says whether to run a logic cycle starting at now. The first
// call of a frame always says yes. Later calls measure the cycle that just
// ended and say yes while another one fits: (now - lastDrawStart) +
// lastCycle < Target, fewer than MaxCycles cycles ran, and SingleCycleOnce
// was not triggered. Once it has said no, it says no until BeginDraw.
func (a *Adaptive) NextCycle(now time.Duration) bool {
	a.observe(now)
	if a.done {
		return false
	}
	if a.cycles == 0 {
		a.cycleStart, a.cycles = now, 1
		return true
	}
	a.lastCycle = max(0, subSat(now, a.cycleStart))
	if a.single || a.cycles >= a.maxCycles ||
		addSat(subSat(now, a.lastDrawStart), a.lastCycle) >= a.target {
		a.done = true
		return false
	}
	a.cycleStart = now
	a.cycles++
	return true
}

// PresentAt returns when the next draw should start: lastDrawStart +
// Target. The post waits until then before drawing; wait PresentAt()-now
// if it is positive, or draw at once. (A zero Adaptive that has not been
// given a time yet answers as if a draw had started at 0.)
func (a *Adaptive) PresentAt() time.Duration {
	a.ready()
	return addSat(a.lastDrawStart, a.target)
}

// BeginDraw records the start of the frame's draw at now. It ends the
// frame's cycles (measuring the last one if NextCycle did not), resets the
// per-frame cycle count and clears the SingleCycleOnce trigger.
func (a *Adaptive) BeginDraw(now time.Duration) {
	a.observe(now)
	if a.cycles > 0 && !a.done {
		a.lastCycle = max(0, subSat(now, a.cycleStart))
	}
	a.cyclesLastFrame = a.cycles
	a.cycles, a.done, a.single = 0, false, false
	a.lastDrawStart, a.drawStart = now, now
}

// EndDraw records the end of the draw at now.
func (a *Adaptive) EndDraw(now time.Duration) {
	a.observe(now)
	a.lastDraw = max(0, subSat(now, a.drawStart))
}

// SingleCycleOnce is the trigger for sudden load changes (a level switch,
// an explosion of new objects): the frame in progress runs no more cycles
// (or, when called between BeginDraw and the next frame, the next frame
// runs exactly one), so that the cycle and draw are measured afresh.
func (a *Adaptive) SingleCycleOnce() { a.single = true }

// LastCycle returns the duration of the last measured logic cycle.
func (a *Adaptive) LastCycle() time.Duration { return a.lastCycle }

// LastDraw returns the duration of the last draw.
func (a *Adaptive) LastDraw() time.Duration { return a.lastDraw }

// CyclesLastFrame returns the number of logic cycles of the last frame
// that was drawn.
func (a *Adaptive) CyclesLastFrame() int { return a.cyclesLastFrame }
