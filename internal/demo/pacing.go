package demo

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/internal/stats"
	"github.com/interpdemo/interpdemo/loop"
)

// Frame pacing on real displays: the time the simulation is given each
// frame, a simulated vsynced display for headless runs, and the
// measurement of how evenly the frames show motion.
//
// On a vsynced display two things spoil smooth motion that a display
// without vsync (Xvfb, the offscreen driver) never shows. The frame's
// time is read when the loop wakes up after the vblank, late by the
// timer's and the compositor's jitter, so with 60 ticks a second on a
// 60 Hz display the frames wobble across the tick boundaries and run 0 or
// 2 ticks instead of 1; and the picture, drawn for the wake-up time but
// shown at the next vblank, steps unevenly. Smooth pacing gives the
// simulation the time of the vblank the frame follows (loop.Pacer) and
// turns on the fixed loop's tick-count stabilisation
// (loop.FixedConfig.Stabilize); raw pacing is the original loop.

// Vsync is a swap-interval request.
type Vsync int

// Vsync modes, as the -vsync flag spells them.
const (
	VsyncOff Vsync = iota
	VsyncOn
	VsyncAdaptive
)

func (v Vsync) String() string {
	switch v {
	case VsyncOff:
		return "off"
	case VsyncOn:
		return "on"
	case VsyncAdaptive:
		return "adaptive"
	}
	return fmt.Sprintf("Vsync(%d)", int(v))
}

// SwapInterval is the swap interval that asks for v, as SDL and GL
// number them: 0 off, 1 every vblank, -1 adaptive.
func (v Vsync) SwapInterval() int {
	switch v {
	case VsyncOn:
		return 1
	case VsyncAdaptive:
		return -1
	}
	return 0
}

// ParseVsync reads "on", "off" or "adaptive".
func ParseVsync(s string) (Vsync, error) {
	switch s {
	case "on":
		return VsyncOn, nil
	case "off":
		return VsyncOff, nil
	case "adaptive":
		return VsyncAdaptive, nil
	}
	return 0, fmt.Errorf("unknown vsync mode %q (want on, off or adaptive)", s)
}

// Display is the front end's display: what it can do about vsync.
type Display interface {
	// SetVsync asks for a swap interval and reports the state actually
	// in force ("on", "off", "adaptive", "unsupported", "offscreen", or
	// a front end's own word), with the refusal as err.
	SetVsync(v Vsync) (actual string, err error)
	// RefreshInterval is the display's refresh interval, 0 if unknown.
	RefreshInterval() time.Duration
}

// PacingMode is the time the simulation is given.
type PacingMode int

const (
	PacingRaw    PacingMode = iota // the frame's clock reading: the original loop
	PacingSmooth                   // the vblank the frame follows, and stable tick counts
	numPacingModes
)

var pacingNames = [numPacingModes]string{"raw", "smooth"}

func (m PacingMode) String() string {
	if m < 0 || m >= numPacingModes {
		return "pacing(" + strconv.Itoa(int(m)) + ")"
	}
	return pacingNames[m]
}

// ParsePacing reads "raw" or "smooth".
func ParsePacing(s string) (PacingMode, error) {
	for i, n := range pacingNames {
		if n == s {
			return PacingMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown pacing %q (want raw or smooth)", s)
}

// stabilizeWindow is the tick-count stabilisation window smooth pacing
// gives the fixed loop: a quarter of a tick, at most 4 ms. It must cover
// the spread of the frames' times around their steady grid: the pacer's
// own corrections (a fraction of a millisecond), or the wake-up jitter of
// frames it does not snap (1 to 2 ms on a desktop compositor). The loop
// runs at most that far behind the clock.
func stabilizeWindow(tick time.Duration) time.Duration {
	return min(tick/4, 4*time.Millisecond)
}

// pacing is the demo's frame pacing. It is given the values it needs.
type pacing struct {
	mode  PacingMode
	pacer loop.Pacer
	vsim  *vsyncSim // -vsync-sim, the emulated vsync, or nil
	// emulated says vsim emulates the vsync the driver refused (not
	// -vsync-sim).
	emulated bool
	synced   bool // a display paces the frames: vsync on, or the simulated display waiting
	meter    stepMeter
}

// newPacing sets up the pacing the flags ask for.
func newPacing(cfg *Config) *pacing {
	p := &pacing{mode: cfg.Pacing}
	if cfg.VsyncSim > 0 {
		p.vsim = newVsyncSim(cfg.VsyncSim, cfg.VsyncJitter, cfg.Settings.Seed)
	}
	return p
}

// start places the simulated display's vblanks, at the loop's start.
func (p *pacing) start(now time.Duration) {
	if p.vsim != nil {
		p.vsim.start(now)
	}
}

// setVsync asks the display for a vsync mode at now and tells the pacer
// whether a display paces the frames, and at what rate. With a simulated
// display the display's vsync is turned off (the simulated one waits
// instead) and the vsync in force reads "simulated N Hz". Where the
// driver refuses vsync (Xvfb), a user who asked for it still gets no
// more pictures than the display shows: the same simulated display, at
// the display mode's refresh rate (60 Hz where it reports none), waits
// after each frame, and the vsync in force reads "emulated N Hz".
func (p *pacing) setVsync(d Display, v Vsync, now time.Duration) (actual string, err error) {
	if p.vsim != nil && !p.emulated {
		d.SetVsync(VsyncOff) // whatever the driver says: it must not wait too
		p.synced = v != VsyncOff
		actual = "off"
		if p.synced {
			actual = "simulated " + strconv.Itoa(p.vsim.hz) + " Hz"
		}
		p.pacer.SetRefresh(p.vsim.interval()) // > 0: no error
	} else {
		actual, err = d.SetVsync(v)
		p.vsim, p.emulated = nil, false
		p.synced = actual == "on" || actual == "adaptive"
		refresh := d.RefreshInterval()
		if err != nil && v != VsyncOff {
			hz := emulatedHz(refresh)
			p.vsim, p.emulated, p.synced = newVsyncSim(hz, 0, 0), true, true
			p.vsim.start(now)
			actual = "emulated " + strconv.Itoa(hz) + " Hz"
			refresh = p.vsim.interval()
		}
		p.pacer.SetRefresh(refresh) // >= 0: no error
	}
	p.pacer.SetVsync(p.synced)
	return actual, err
}

// emulatedHz is the rate vsync is emulated at for a display whose refresh
// interval is refresh (0 when unknown: 60 Hz), in whole hertz, between 1
// and MaxVsyncSim.
func emulatedHz(refresh time.Duration) int {
	if refresh <= 0 {
		return 60
	}
	return min(max(int((time.Second+refresh/2)/refresh), 1), MaxVsyncSim)
}

// setMode switches the pacing, and the fixed loop's stabilisation with it.
func (p *pacing) setMode(m PacingMode, s *sim.Sim) {
	p.mode = m
	p.stabilize(s)
}

// stabilize gives the fixed loop the stabilisation window of the pacing
// and the current tick (which the keys change).
func (p *pacing) stabilize(s *sim.Sim) {
	w := time.Duration(0)
	if p.mode == PacingSmooth {
		w = stabilizeWindow(s.Tick())
	}
	if s.Stabilize() != w {
		s.SetStabilize(w) // w >= 0: no error
	}
}

// frameTime is the time the simulation is given for the frame whose clock
// reading is now: now itself with raw pacing (and in the adaptive mode,
// which measures real work), the pacer's time with smooth pacing. The
// pacer sees every frame either way, so it keeps its grid across a switch.
func (p *pacing) frameTime(now time.Duration, s *sim.Sim) time.Duration {
	p.stabilize(s)
	fr := p.pacer.Step(now)
	if p.mode == PacingRaw || s.Mode() == sim.ModeAdaptive {
		return now
	}
	return fr.Time
}

// vblankWait is what the front end waits for after the swap: with a
// simulated display, the wake-up time after the next vblank after now
// (vblank is that vblank, when the frame shows); ok is false otherwise.
func (p *pacing) vblankWait(now time.Duration) (wake, vblank time.Duration, ok bool) {
	if p.vsim == nil || !p.synced {
		return 0, 0, false
	}
	wake, vblank = p.vsim.nextWake(now)
	return wake, vblank, true
}

// present measures the frame's step: shown is when the frame is shown
// (the simulated vblank, or the swap's return); woke, with a simulated
// display, is when the front end woke up from the wait vblankWait asked
// for (wake).
func (p *pacing) present(info sim.FrameInfo, s *sim.Sim, shown time.Duration) {
	var interval time.Duration
	switch {
	case p.vsim != nil && p.synced:
		interval = p.vsim.interval()
	case p.synced:
		interval = p.pacer.Interval()
	}
	p.meter.add(info.Drawn, shown, s.Speed(), s.Paused(), interval)
}

// vsyncSim is a simulated vsynced display (-vsync-sim): vblanks on a grid
// of 1/hz on the loop's clock, and after each a random wake-up delay,
// uniform in [0, jitter], as a compositor adds. The grid is placed so that
// a loop ticking at the display's rate from its start has its tick
// boundaries in the middle of the wake-up delays: the phase where real
// vsync shows tick counts wobbling, which with equal rates lasts the whole
// session.
type vsyncSim struct {
	hz     int
	jitter time.Duration
	origin time.Duration // vblank 0
	rng    *rand.Rand
	// late counts the wake-ups that came more than half an interval after
	// the simulated one: the machine's own scheduling delays, which no
	// pacing can tell from a missed vblank.
	late int64
}

func newVsyncSim(hz int, jitter time.Duration, seed uint64) *vsyncSim {
	return &vsyncSim{hz: hz, jitter: jitter, rng: rand.New(rand.NewPCG(seed, 0x76737963))}
}

// start puts vblank 0 half the jitter before the loop's start.
func (v *vsyncSim) start(now time.Duration) { v.origin = now - v.jitter/2 }

// interval is the refresh interval, to the nanosecond (the vblanks
// themselves are exact: vblank m is at origin + m/hz s).
func (v *vsyncSim) interval() time.Duration { return time.Second / time.Duration(v.hz) }

// vblank is the time of vblank m.
func (v *vsyncSim) vblank(m int64) time.Duration {
	hz := int64(v.hz)
	return v.origin + time.Duration(m/hz)*time.Second + time.Duration(m%hz*int64(time.Second)/hz)
}

// next is the first vblank after now.
func (v *vsyncSim) next(now time.Duration) int64 {
	hz := int64(v.hz)
	d := int64(now - v.origin)
	if d < 0 {
		return 0
	}
	m := d/int64(time.Second)*hz + d%int64(time.Second)*hz/int64(time.Second)
	for v.vblank(m) <= now {
		m++
	}
	return m
}

// nextWake is the first vblank after now, and when the loop wakes up
// after it: the vblank plus the wake-up delay.
func (v *vsyncSim) nextWake(now time.Duration) (wake, vblank time.Duration) {
	vb := v.vblank(v.next(now))
	wake = vb
	if v.jitter > 0 {
		wake += time.Duration(v.rng.Int64N(int64(v.jitter) + 1))
	}
	return wake, vb
}

// woke counts a late wake-up: the front end meant to wake at wake and
// woke at woke.
func (v *vsyncSim) woke(wake, woke time.Duration) {
	if woke-wake > v.interval()/2 {
		v.late++
	}
}

// stepMeter measures how evenly the frames show motion: for each frame,
// |(game time drawn − the last frame's) / speed − (time shown − the last
// frame's)|, where the game time drawn is time0 + percentWithinTick ×
// tick (sim.FrameInfo.Drawn) and the time shown is the vblank the frame
// is shown at. Perfect pacing gives 0. The first two frames (the first
// one's drawing is start-up time), frames drawn while paused, and the
// first after a pause, are left out.
type stepMeter struct {
	hist         stats.Histogram
	drawn, shown time.Duration // the last frame's
	have         bool
	missed       int64 // vblanks no frame was shown at
	frames       int64
}

func (m *stepMeter) add(drawn, shown time.Duration, speed float64, paused bool, interval time.Duration) {
	if paused {
		m.have = false
		return
	}
	if m.have && m.frames > 1 {
		dg := time.Duration(float64(drawn-m.drawn) / speed)
		ds := shown - m.shown
		m.hist.Add(max(dg-ds, ds-dg))
		if interval > 0 {
			if n := int64((ds + interval/2) / interval); n > 1 {
				m.missed += n - 1
			}
		}
	}
	m.drawn, m.shown, m.have = drawn, shown, true
	m.frames++
}

// p99 is the 99th percentile of the step errors; ok is false before
// there are any.
func (m *stepMeter) p99() (d time.Duration, ok bool) {
	if m.hist.Count() == 0 {
		return 0, false
	}
	return m.hist.Quantile(0.99), true
}

// report adds the pacing's figures to the -stats.
func (p *pacing) report(r *report.Stats) {
	r.Pacing = p.mode.String()
	if iv := p.pacer.Interval(); p.synced && iv > 0 {
		v := report.Ms(int64(iv))
		r.RefreshMs = &v
	}
	if d, ok := p.meter.p99(); ok {
		v := report.Ms(int64(d))
		r.DisplayStepErrorMsP99 = &v
	}
	if p.synced && (p.vsim != nil || p.pacer.Interval() > 0) {
		n := p.meter.missed
		r.MissedVblanks = &n
	}
	if p.vsim != nil {
		n := p.vsim.late
		r.LateWakeups = &n
	}
}

// snapshot adds the pacing's figures to the HUD's.
func (p *pacing) snapshot(s *hud.Snapshot) {
	s.Pacing = p.mode.String()
	if p.synced {
		s.Refresh = p.pacer.Interval()
	}
	s.StepErrorP99, s.StepErrorKnown = p.meter.p99()
}
