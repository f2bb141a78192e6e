package loop

import (
	"fmt"
	"math"
	"time"
)

// Bounds of the refresh interval the Pacer measures by itself: displays
// from 1 Hz to 1000 Hz. (A Refresh hint may be anything positive.)
const (
	MinMeasuredRefresh = time.Millisecond
	MaxMeasuredRefresh = time.Second
)

const (
	// pacerBoot is the number of frame intervals the Pacer measures before
	// it snaps to an interval of its own finding.
	pacerBoot = 32
	// pacerInliers of them must lie within an eighth of a whole number of
	// intervals.
	pacerInliers = 24
	// A frame that wakes up more than an eighth of the interval before
	// its grid point, or more than half an interval after it, or on the
	// same grid point as the last frame, is a misfit; it adds
	// pacerMisfitCost to a score that every fitting frame lowers by 1, and
	// the Pacer gives up the grid when the score reaches pacerMisfitLimit
	// (3 misfits in a row, or 1 in 4 frames for long).
	pacerMisfitCost  = 4
	pacerMisfitLimit = 12
	// pacerBlock frames make a block. The frame of each block that woke
	// up closest to the grid is a point of the lower envelope; the
	// interval is the slope between the first such point and the latest,
	// and after each block the grid creeps forward by a quarter of the
	// least lag in it.
	pacerBlock = 16
)

// PacerConfig sets up a Pacer.
type PacerConfig struct {
	// Refresh is the display's refresh interval when it is known (from
	// the display mode: time.Second/60 at 60 Hz): the pacer snaps from
	// its second frame on, and refines the interval from the frames.
	// Zero means unknown: the pacer measures it over its first frames.
	// Negative is an error.
	Refresh time.Duration
	// NoVsync says the frames are not paced by a display (vsync off): the
	// pacer passes every time through unchanged until SetVsync(true).
	NoVsync bool
}

// Pacer is frame pacing for a vsynced display: it turns the time each
// frame measures when it wakes up into the time of the vblank the frame
// follows, so that a game animating by that time moves by exactly one
// refresh interval per refresh.
//
// The problem it solves is delta jitter. With vsync on, the display shows
// frames at exact intervals, but the loop reads the clock when it wakes up
// after the vblank, late by a varying amount (the timer's and the
// compositor's jitter). A ball at constant speed drawn by that time steps
// unevenly, although the display's steps are even: every frame draws it
// off by its own jitter. Godot 4 smooths frame deltas toward the refresh
// interval ("delta smoothing"), Unity has smoothDeltaTime, and Alen
// Ladavac's GDC 2019 talk "The Elusive Frame Timing" explains the cause.
//
// The Pacer keeps a grid of vblanks: the last paced Time plus whole
// refresh intervals. A frame wakes up after the vblank it follows, never
// before it, so the pacer puts the frame that wakes up at now on the last
// grid point before it (or on one up to a quarter of an interval after
// it: the grid's own error), Steps intervals after the last frame's
// Time: one normally, two or more when the frame missed vblanks (it took
// two intervals or more), and Time moves by exactly that many intervals.
// The grid follows the frames' earliest wake-ups, the lower envelope,
// which bounds how far Time is from now:
//
//   - Time is never after now: a frame that wakes up before its grid
//     point moves the grid back onto itself (a step shorter by that much,
//     reported as a negative Correction);
//   - Time is less than three quarters of an interval before now. After
//     each block of 16 frames that all woke up some time after the grid,
//     the grid creeps forward over the next block by a quarter of the
//     least of those delays, a 64th of it each frame (a positive
//     Correction), so that it stays on the vblanks instead of drifting
//     behind.
//
// The interval is the Refresh hint, or measured when there is none: over
// the first 32 frame intervals (passed through meanwhile), the median,
// refined to the slope between the earliest wake-ups of the two halves.
// Either way it is then refined from the frames, as the slope of the
// lower envelope: from the earliest wake-up of the first block of 16
// frames on the grid to that of the latest block. The error left is the
// jitter of those earliest wake-ups (a 17th of the jitter's spread, for
// uniform jitter) divided by the number of intervals between them, so a
// hint from a display mode, which rounds 59.94 Hz to 60, is corrected
// within a second.
//
// A frame that wakes up more than an eighth of an interval before its
// grid point, more than half an interval after it, or on the same grid
// point as the last frame, does not fit. One such frame moves no grid: if
// it came early for its point, it is taken for a very late wake-up after
// the point before, and its Time is now. It ends a stretch of the
// envelope (the steps across it may be miscounted), and the next block
// starts another; the interval is the slope over the stretches added up
// (their times over their steps), so the machine waking the program late
// now and then costs the estimate only the frames around each late one.
// A block's point counts only once the frame after it fits (a frame
// woken nearly a whole interval late looks early for the next vblank),
// and the measured start's points only when all 32 intervals fitted.
//
// When three frames in a row, or one in four for a while, do not fit
// (vsync turned off behind the program's back, a display whose rate
// changed), the pacer gives the grid up, passes the times through,
// measures the interval again and snaps again once the frames fit one.
// A change of rate the program hears of is given with SetRefresh, and
// snaps to the new grid at once. A display at half the rate the pacer
// thinks (60 Hz taken for 120) looks like one whose frames each miss a
// vblank: the steps of Time are right either way.
//
// Everything is integer nanoseconds; Step reads no clock, allocates
// nothing and takes any time: a clock going backwards restarts the pacer
// there (Time goes back with it, and the loop downstream counts that as
// standing still), and within a quarter interval of the end of
// time.Duration the grid point may lie up to a whole interval before now.
// It is not safe for concurrent use.
//
// The zero Pacer is ready to use: no hint, vsync on.
type Pacer struct {
	hint     time.Duration
	vsyncOff bool

	started bool
	locked  bool // snapping to the grid
	trust   bool // the interval is believed: lock without measuring
	last    time.Duration
	time    time.Duration // the last paced time: a point of the grid
	shown   time.Duration // the last frame's Time, for one at the same time (now, where that one woke up very late)
	period  time.Duration // the refresh interval; 0 while unknown
	n       int64         // grid steps since the grid was found

	misfit int

	boot  [pacerBoot + 1]time.Duration // the last wake-up times, measuring
	nboot int

	// The lower envelope: first is its first point (valid when hasFirst),
	// blk the best point of the block in progress, of nblk frames.
	first    envPoint
	hasFirst bool
	blk      envPoint
	blkR     time.Duration // blk's time against the line n × period
	hasBlk   bool
	// pend is the last block's point, held for one frame: it counts
	// only if the frame after it fits (a frame woken nearly a whole
	// interval late looks early for the next vblank, and the next frame
	// on the same grid point gives it away).
	pend    envPoint
	hasPend bool
	floor   time.Duration // least lag in the block
	nblk    int
	slew    time.Duration // how far the grid creeps forward each frame
	// The envelope's stretches that a misfit closed since the grid was
	// found: their time and their grid steps, first point to last.
	// tip is the open stretch's latest point (valid when hasTip).
	doneNow time.Duration
	doneN   int64
	tip     envPoint
	hasTip  bool

	frames, missed int64
}

// envPoint is a frame that woke up close to the grid: its time and its
// grid step.
type envPoint struct {
	now time.Duration
	n   int64
}

// PacedFrame is one frame's paced time.
type PacedFrame struct {
	// Now is the time the frame measured.
	Now time.Duration
	// Time is the paced time: on the grid of vblanks while Snapped (but
	// for a frame that woke up very late: then Now), else Now. Never
	// after Now, and less than three quarters of an Interval before.
	Time time.Duration
	// Interval is the refresh interval the pacer snaps to; 0 while it
	// is unknown.
	Interval time.Duration
	// Snapped says Time is a point of the grid.
	Snapped bool
	// Steps is the number of refresh intervals between the last frame's
	// Time and this one's: 1, or k > 1 when the frame missed k-1
	// vblanks; 0 on a frame that is not snapped (or first on the grid).
	Steps int
	// Correction is how far Time was moved off the grid point Steps
	// intervals after the last Time: negative when the frame woke up
	// before that point (the grid moved back onto it), positive when the
	// grid crept forward or the frame woke up very late. It is the
	// pacer's own error in the frame's step.
	Correction time.Duration
}

// Lag is Now - Time: how far the paced time is behind the measured one.
func (f PacedFrame) Lag() time.Duration { return f.Now - f.Time }

// NewPacer returns a Pacer. A negative Refresh is an error wrapping
// ErrInvalid.
func NewPacer(cfg PacerConfig) (*Pacer, error) {
	p := &Pacer{vsyncOff: cfg.NoVsync}
	if err := p.SetRefresh(cfg.Refresh); err != nil {
		return nil, err
	}
	return p, nil
}

// Config returns the pacer's settings: the Refresh hint (0 if none) and
// whether vsync is off.
func (p *Pacer) Config() PacerConfig { return PacerConfig{Refresh: p.hint, NoVsync: p.vsyncOff} }

// SetRefresh gives the pacer a new refresh interval hint (the display
// mode changed, the window moved to another display): the pacer snaps to
// it from the next frame, with the grid starting there. Zero forgets the
// hint and keeps what was measured. A negative d is an error wrapping
// ErrInvalid and changes nothing.
func (p *Pacer) SetRefresh(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("%w: refresh interval %v is negative (0: measure it)", ErrInvalid, d)
	}
	p.hint = d
	if d > 0 {
		p.period, p.trust = d, true
		p.unlock()
	}
	return nil
}

// SetVsync tells the pacer whether the display paces the frames. With
// vsync off the pacer passes every time through; turned on, it snaps again
// from the next frame.
func (p *Pacer) SetVsync(on bool) {
	if on == !p.vsyncOff {
		return
	}
	p.vsyncOff = !on
	p.unlock()
}

// Interval returns the refresh interval the pacer snaps to, 0 while it
// is unknown.
func (p *Pacer) Interval() time.Duration { return p.period }

// Snapping says the pacer is snapping the frames to its grid.
func (p *Pacer) Snapping() bool { return p.locked && !p.vsyncOff }

// TotalFrames returns the number of Step calls.
func (p *Pacer) TotalFrames() int64 { return p.frames }

// TotalMissed returns the vblanks the frames missed (the sum of Steps-1
// over the snapped frames).
func (p *Pacer) TotalMissed() int64 { return p.missed }

// unlock leaves the grid: the next frame starts a new one (at once if the
// interval is trusted, else after measuring).
func (p *Pacer) unlock() {
	p.locked = false
	p.nboot = 0
}

// lock starts a grid at now with the given interval.
func (p *Pacer) lock(now, period time.Duration) {
	p.locked, p.period, p.time, p.n = true, period, now, 0
	p.misfit = 0
	p.hasFirst, p.hasBlk, p.hasTip, p.hasPend = false, false, false, false
	p.nblk, p.slew = 0, 0
	p.doneNow, p.doneN = 0, 0
}

// Step paces the frame that measured the time now.
func (p *Pacer) Step(now time.Duration) PacedFrame {
	p.frames++
	fr := PacedFrame{Now: now, Time: now}
	if !p.started || now < p.last {
		// The first frame, or the clock went backwards: start over there.
		p.started, p.last, p.time = true, now, now
		p.unlock()
		p.measure(now)
		fr.Interval = p.period
		return fr
	}
	d := now - p.last
	p.last = now
	switch {
	case p.vsyncOff:
		p.time = now
	case d == 0 && p.locked:
		// The same time again: the last frame's, which is not the grid's
		// point where that frame woke up very late (before, Time went
		// back to the point, up to an interval and an eighth before
		// now; found by FuzzPacer).
		fr.Time, fr.Snapped = p.shown, true
	case d == 0:
		// Off the grid (a new hint, vsync turned on: it starts with the
		// next frame), the time passes through, as it does until then.
	case !p.locked:
		p.time = now
		if p.trust && p.period > 0 {
			p.lock(now, p.period)
			fr.Snapped = true
		} else if p.measure(now) {
			p.trust = true
			fr.Snapped = true
		}
	default:
		p.snap(now, &fr)
	}
	fr.Interval = p.period
	p.shown = fr.Time
	return fr
}

// snap puts the frame at now on the grid.
func (p *Pacer) snap(now time.Duration, fr *PacedFrame) {
	per := p.period
	k, pred := latest(p.time, now, per)
	eps := now - pred // in [-per/4, 3per/4), but at the very end of time
	fits := k >= 1 && eps >= -per/8 && eps <= per/2
	late := !fits && eps < 0 && k >= 1
	if late {
		// Early for its grid point by more than the grid's error: more
		// likely a frame that woke up very late for the one before.
		k, pred = k-1, pred-per
	}
	p.n = int64(addSat(time.Duration(p.n), k))
	if p.hasPend && fits {
		p.envelope(p.pend)
	}
	p.hasPend = false
	if fits {
		p.misfit = max(0, p.misfit-1)
	} else {
		p.misfit += pacerMisfitCost
		if p.misfit >= pacerMisfitLimit {
			// The frames do not follow this grid: pass the time through
			// and measure again.
			p.trust = false
			p.unlock()
			p.measure(now)
			p.time = now
			return
		}
		// One frame off, perhaps by a wrong number of steps: keep the
		// grid, close the envelope's stretch (its steps are counted
		// right) and start a new one from here.
		p.closeStretch()
	}
	grid, t := pred, pred
	switch {
	case late:
		t = now // less than three quarters of an interval behind the clock
	case eps < 0:
		grid, t = now, now // the grid was late: it moves back onto the frame
	case fits && p.slew > 0:
		grid += min(p.slew, eps) // creep forward, never past now
		t = grid
	}
	if lag := max(eps, 0); p.nblk == 0 || lag < p.floor {
		p.floor = lag
	}
	// The block's envelope point is its fitting frame earliest against a
	// line of slope period (the grid itself moves when pulled back).
	if r := now - mulSat(per, p.n); fits && (!p.hasBlk || r < p.blkR) {
		p.blk, p.blkR, p.hasBlk = envPoint{now, p.n}, r, true
	}
	if p.nblk++; p.nblk == pacerBlock {
		// Every frame of the block woke at least floor after the grid:
		// over the next block, the grid creeps forward by a quarter of it,
		// a little every frame.
		p.slew = p.floor / (4 * pacerBlock)
		p.pend, p.hasPend = p.blk, p.hasBlk
		p.nblk, p.hasBlk = 0, false
	}
	p.time = grid
	if k > 1 {
		p.missed = int64(addSat(time.Duration(p.missed), k-1))
	}
	fr.Time, fr.Snapped, fr.Steps, fr.Correction = t, true, int(min(k, math.MaxInt32)), t-pred
}

// latest returns the grid point of a grid through t0 with interval per
// that the frame at now (>= t0) follows: the last one at or before now,
// or one up to a quarter interval after now (the grid's own error): k
// intervals after t0. Within a quarter interval of the end of
// time.Duration it may be the one before.
func latest(t0, now, per time.Duration) (k, point time.Duration) {
	e := uint64(now) - uint64(t0) // exact: 0 <= now-t0 < 2^64
	q, r := e/uint64(per), e%uint64(per)
	if r >= uint64(per)-uint64(per)/4 && now <= math.MaxInt64-per/4 {
		q++
	}
	// t0 + q×per lies in [t0, now+per/4]: exact in wrapping arithmetic.
	point = time.Duration(uint64(t0) + q*uint64(per))
	return time.Duration(min(q, math.MaxInt64)), point
}

// envelope ends a block: the interval is the slope of the lower envelope
// from its first point to the block's, together with the stretches a
// misfit closed before (their times and steps added up: a late wake-up
// does not throw away what the frames before it measured).
func (p *Pacer) envelope(pt envPoint) {
	if !p.hasFirst {
		p.first, p.hasFirst = pt, true
		return
	}
	if est, ok := slope(p.first, pt); ok && est-p.period <= p.period/8 && p.period-est <= p.period/8 {
		p.tip, p.hasTip = pt, true
		if p.doneN == 0 {
			p.period = est
			return
		}
		k := time.Duration(p.doneN + pt.n - p.first.n)
		p.period = (p.doneNow + pt.now - p.first.now + k/2) / k
	}
}

// closeStretch ends the envelope's open stretch at its latest point and
// adds it to the closed ones; a new block starts with the next frame, and
// the new stretch with that block (its steps may count from another
// origin than those before the misfit).
func (p *Pacer) closeStretch() {
	if p.hasFirst && p.hasTip {
		p.doneNow = addSat(p.doneNow, p.tip.now-p.first.now)
		p.doneN = int64(addSat(time.Duration(p.doneN), time.Duration(p.tip.n-p.first.n)))
	}
	p.hasFirst, p.hasTip, p.hasBlk = false, false, false
	p.nblk = 0
}

// slope is the interval between two envelope points, rounded to the
// nanosecond.
func slope(a, b envPoint) (time.Duration, bool) {
	dn := b.n - a.n
	if dn <= 0 || b.now <= a.now {
		return 0, false
	}
	k := time.Duration(dn)
	return (b.now - a.now + k/2) / k, true
}

// measure adds a wake-up time while no interval is trusted, and says
// whether a grid was found and locked: the median of the last pacerBoot
// intervals, when at least pacerInliers of them lie within an eighth of a
// whole number of it and it is a plausible refresh interval, refined to the
// slope between the earliest wake-ups of the two halves, which the grid
// then goes on refining.
func (p *Pacer) measure(now time.Duration) bool {
	if p.nboot < len(p.boot) {
		p.boot[p.nboot] = now
		p.nboot++
	} else {
		copy(p.boot[:], p.boot[1:])
		p.boot[len(p.boot)-1] = now
	}
	if p.nboot < len(p.boot) {
		return false
	}
	var sorted [pacerBoot]time.Duration
	for i := range sorted {
		sorted[i] = p.boot[i+1] - p.boot[i]
	}
	for i := 1; i < len(sorted); i++ { // insertion sort: 32 values
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	med := sorted[pacerBoot/2]
	if med < MinMeasuredRefresh || med > MaxMeasuredRefresh {
		return false
	}
	// Walk the wake-ups on a grid of med: each interval is a whole number
	// of steps; the earliest wake-up (against the grid) of each half is a
	// point of the lower envelope.
	var halves [2]envPoint
	var best [2]time.Duration
	var found [2]bool
	n, inliers := int64(0), 0
	for i := 1; i < len(p.boot); i++ {
		d := p.boot[i] - p.boot[i-1]
		k := (d + med/2) / med
		n += int64(k)
		if dev := d - k*med; k < 1 || dev > med/8 || -dev > med/8 {
			continue
		}
		inliers++
		h := 0
		if i > pacerBoot/2 {
			h = 1
		}
		if r := p.boot[i] - mulSat(med, n); !found[h] || r < best[h] {
			halves[h], best[h], found[h] = envPoint{p.boot[i], n}, r, true
		}
	}
	if inliers < pacerInliers || !found[0] || !found[1] {
		return false
	}
	per := med
	if est, ok := slope(halves[0], halves[1]); ok && est-med <= med/8 && med-est <= med/8 {
		per = est
	}
	p.lock(now, per)
	if inliers == pacerBoot {
		// The grid's steps count from here; the halves' points carry
		// over as the envelope's first stretch. (Not after an outlier:
		// a frame woken more than an interval late may have been
		// counted a step short or long.)
		p.first, p.hasFirst = envPoint{halves[0].now, halves[0].n - n}, true
		p.tip, p.hasTip = envPoint{halves[1].now, halves[1].n - n}, true
	}
	return true
}
