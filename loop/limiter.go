package loop

import "time"

// Bounds of the Limiter's spin threshold: the stretch before a deadline
// that it spins through instead of sleeping.
const (
	MinSpin = 50 * time.Microsecond
	MaxSpin = 2 * time.Millisecond
)

const (
	// spinK is how many mean deviations above the mean oversleep the spin
	// threshold sits.
	spinK = 3
	// Initial estimate of the oversleep: conservative (the threshold starts
	// at MaxSpin) until the first sleeps are measured.
	initialOverMean = MaxSpin / 2
	initialOverDev  = (MaxSpin - initialOverMean) / spinK
	// Safety bounds for broken sleepers or clocks: a wait never makes more
	// than maxSleeps Sleep calls nor more than maxSpinReads clock reads
	// while spinning.
	maxSleeps    = 64
	maxSpinReads = 1 << 26
	// maxStuckReads consecutive readings without progress while spinning
	// mean the clock does not move on its own (a ManualClock) or moves in
	// coarse steps: the rest of the wait is slept instead.
	maxStuckReads = 64
)

// Limiter caps the frame rate (BeautifulTimer's MinT, the clsGameClock
// post's MinimumDelta): Wait returns at deadlines exactly Interval apart. It sleeps for most of
// the wait and spins, re-reading the clock, only for the last stretch,
// because a sleep can overshoot (Go's time.Sleep on Linux wakes up to a
// millisecond late). The length of that stretch, the spin threshold, is
// learned: the Limiter measures how much each sleep overshoots and keeps
// the threshold at mean + 3 mean deviations of the oversleep (estimated as
// TCP estimates round trips), clamped to [MinSpin, MaxSpin], so that it
// spins as little as the sleeper allows.
//
// The schedule starts at the start of the first frame: call Start with
// the clock's time there (a Driver does), and the first Wait waits until
// one interval after it, like every later Wait. A Limiter that was never
// started starts at its first Wait, which then waits a whole interval from
// that moment: never too short a frame, but one interval plus the first
// frame's work.
//
// It is not safe for concurrent use. The zero value is a Limiter that is
// off (Wait returns at once) and useful once given an interval.
type Limiter struct {
	interval time.Duration
	deadline time.Duration // the last deadline
	started  bool

	overMean, overDev time.Duration // learned oversleep
	threshold         time.Duration
}

// LimiterResult reports one Wait.
type LimiterResult struct {
	// Deadline is the time Wait waited for.
	Deadline time.Duration
	// Woke is the clock's time when Wait returned; never before Deadline
	// with a clock that advances.
	Woke time.Duration
	// Slept is the time spent in Sleep calls, Spun the time spent spinning.
	Slept, Spun time.Duration
	// Rebased says the caller was more than one interval behind: the
	// deadline moved to now instead of running a burst of short frames.
	Rebased bool
}

// NewLimiter returns a Limiter with the given interval. 0 or NoLimit means
// no cap (Wait returns at once); any other negative interval is an error
// wrapping ErrInvalid.
func NewLimiter(interval time.Duration) (*Limiter, error) {
	l := new(Limiter)
	if err := l.SetInterval(interval); err != nil {
		return nil, err
	}
	return l, nil
}

// SetInterval changes the interval from the next Wait: the next deadline is
// the last one (or, after a Wait while off, the time that Wait returned)
// plus the new interval. 0 or NoLimit turns the limiter off; any other
// negative interval is an error wrapping ErrInvalid and changes nothing.
func (l *Limiter) SetInterval(d time.Duration) error {
	if err := checkLimit("Limiter interval", d); err != nil {
		return err
	}
	l.interval = max(d, 0)
	return nil
}

// Interval returns the interval; 0 means off.
func (l *Limiter) Interval() time.Duration { return l.interval }

// SpinThreshold returns the learned spin threshold.
func (l *Limiter) SpinThreshold() time.Duration {
	l.initLearner()
	return l.threshold
}

func (l *Limiter) initLearner() {
	if l.threshold == 0 {
		l.overMean, l.overDev = initialOverMean, initialOverDev
		l.threshold = MaxSpin
	}
}

// learn takes in one observed oversleep.
func (l *Limiter) learn(over time.Duration) {
	over = min(max(over, 0), 4*MaxSpin) // one freak wake-up must not blow the estimate
	err := over - l.overMean
	l.overMean += err / 8
	if err < 0 {
		err = -err
	}
	l.overDev += (err - l.overDev) / 4
	l.threshold = min(max(l.overMean+spinK*l.overDev, MinSpin), MaxSpin)
}

// Start starts a new schedule at now, the start of the frame about to run:
// the next Wait waits until now + Interval. Call it at the start of the
// first frame, and again after a stop in the frame loop that is not a
// frame (a level load), which would otherwise count as one late frame
// (see Wait). What was learned about the sleeper is kept.
func (l *Limiter) Start(now time.Duration) {
	l.started = true
	l.deadline = now
}

// Wait blocks until the next deadline, the last one plus the interval, so
// that deadlines never drift. A Limiter not started yet starts at Wait's
// first reading of the clock (and so waits a whole interval). While the
// limiter is off, Wait returns at once and the time it returned becomes
// the last deadline. A caller more than one interval behind is rebased:
// the deadline becomes now. A clock that went backwards never makes Wait
// wait more than one interval. A nil Sleeper does nothing and returns the
// zero LimiterResult.
func (l *Limiter) Wait(s Sleeper) LimiterResult {
	if s == nil {
		return LimiterResult{}
	}
	now := s.Now()
	if l.interval <= 0 {
		l.Start(now)
		return LimiterResult{Deadline: now, Woke: now}
	}
	if !l.started {
		l.Start(now)
	}
	l.initLearner()
	var r LimiterResult
	dl := addSat(l.deadline, l.interval)
	if subSat(now, dl) > l.interval {
		dl, r.Rebased = now, true
	}
	dl = min(dl, addSat(now, l.interval))
	l.deadline = dl
	w := l.waitUntil(s, now, dl)
	w.Rebased = r.Rebased
	return w
}

// WaitUntil blocks until the clock reaches deadline, the same way Wait
// does (sleep, then spin the learned last stretch), for pacing that is not
// a fixed interval: the adaptive split's PresentAt, a sub-step's MinT. It
// does not touch Wait's schedule. A deadline already past returns at once;
// a nil Sleeper does nothing and returns the zero LimiterResult.
func (l *Limiter) WaitUntil(s Sleeper, deadline time.Duration) LimiterResult {
	if s == nil {
		return LimiterResult{}
	}
	l.initLearner()
	return l.waitUntil(s, s.Now(), deadline)
}

func (l *Limiter) waitUntil(s Sleeper, now, dl time.Duration) LimiterResult {
	var r LimiterResult
	for sleeps := 0; ; sleeps++ {
		rem := dl - now
		if rem <= 0 {
			break
		}
		if rem > l.threshold && sleeps < maxSleeps {
			req := rem - l.threshold
			before := now
			s.Sleep(req)
			now = s.Now()
			got := now - before
			r.Slept += max(0, got)
			l.learn(got - req)
			continue
		}
		var spun, napped time.Duration
		now, spun, napped = spinUntil(s, now, dl)
		r.Spun += spun
		r.Slept += napped
		break
	}
	r.Deadline, r.Woke = dl, now
	return r
}

// spinUntil re-reads the clock from now until dl. It returns the last
// reading, the time spent spinning, and the time slept instead for a clock
// that does not move on its own.
func spinUntil(s Sleeper, now, dl time.Duration) (end, spun, napped time.Duration) {
	start, stuck := now, 0
	for i := 0; now < dl && i < maxSpinReads; i++ {
		prev := now
		if now = s.Now(); now != prev {
			stuck = 0
			continue
		}
		if stuck++; stuck == maxStuckReads {
			s.Sleep(dl - prev)
			now = s.Now()
			napped += max(0, now-prev)
			stuck = 0
		}
	}
	return now, max(0, now-start-napped), napped
}
