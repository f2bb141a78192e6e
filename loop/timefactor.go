package loop

import "time"

// Defaults of TimeFactorConfig, as in the DarkBASIC timer-based movement
// post.
const (
	DefaultFullUpdate     = 20 * time.Millisecond
	DefaultMaxFullUpdates = 10
)

// TimeFactorConfig sets up a TimeFactor timer.
type TimeFactorConfig struct {
	// FullUpdate is the time one discrete full update stands for
	// (GAME__MS_PER_FULL_UPDATE). Zero means DefaultFullUpdate; negative
	// is an error.
	FullUpdate time.Duration
	// MaxDelta clamps one frame's elapsed time (GAME__MAX_TIME_DIF). Zero
	// means DefaultMaxDelta; NoLimit means no clamp (a stall then gives a
	// huge time factor, and MaxFullUpdates full updates); any other
	// negative value is an error.
	MaxDelta time.Duration
	// MaxFullUpdates is the most full updates one frame gets before the
	// schedule is resynchronised. Zero means DefaultMaxFullUpdates;
	// negative is an error.
	MaxFullUpdates int
}

// TimeFactor is the time factor with full updates of the DarkBASIC
// timer-based movement post: each frame gives a float timeFactor =
// delta/FullUpdate to scale continuous values with, and an integer number
// of discrete full updates due, which adds up to exactly one per
// FullUpdate of runtime (50 per second at 20 ms) whatever the frame rate.
// The post's algorithm runs unchanged, in integer nanoseconds.
//
// TimeFactor does not pause: give it the time of a Virtual, and while the
// Virtual is paused every frame has a zero delta and no full update.
//
// The zero TimeFactor is ready to use: it behaves like
// NewTimeFactor(TimeFactorConfig{}, t), where t is the first time it is
// given (its first Step or Reset), so its runtime starts there.
type TimeFactor struct {
	fullUpdate time.Duration // 0 only in the zero TimeFactor
	maxDelta   time.Duration // NoLimit: no clamp
	maxFull    int
	started    bool

	last    time.Duration // raw time of the last Step
	runtime time.Duration // sum of the clamped deltas
	next    time.Duration // runtime of the next full update
	sum     int64
}

// TimeFactorFrame is one frame of a TimeFactor.
type TimeFactorFrame struct {
	// RawDelta is the time since the last Step (0 if the clock went
	// backwards).
	RawDelta time.Duration
	// Delta is RawDelta clamped to MaxDelta: the time the game advances.
	Delta time.Duration
	// TimeFactor is Delta/FullUpdate: multiply continuous changes by it.
	TimeFactor float64
	// FullUpdates is the number of discrete updates due this frame
	// (usually 0 or 1 on a fast machine).
	FullUpdates int
	// Resynced says that more than MaxFullUpdates were due: MaxFullUpdates
	// ran and the schedule restarted from the current runtime.
	Resynced bool
	// Runtime is the game's running time since start or Reset: the sum of
	// the clamped deltas.
	Runtime time.Duration
	// FullUpdateSum is the total of FullUpdates since start or Reset.
	FullUpdateSum int64
}

// NewTimeFactor returns a TimeFactor whose runtime starts at 0 at now. A
// negative FullUpdate or MaxFullUpdates, or a negative MaxDelta other than
// NoLimit, is an error wrapping ErrInvalid.
func NewTimeFactor(cfg TimeFactorConfig, now time.Duration) (*TimeFactor, error) {
	if err := checkDuration("TimeFactorConfig.FullUpdate", cfg.FullUpdate); err != nil {
		return nil, err
	}
	if err := checkLimit("TimeFactorConfig.MaxDelta", cfg.MaxDelta); err != nil {
		return nil, err
	}
	if err := checkCount("TimeFactorConfig.MaxFullUpdates", cfg.MaxFullUpdates); err != nil {
		return nil, err
	}
	t := &TimeFactor{fullUpdate: cfg.FullUpdate, maxDelta: cfg.MaxDelta, maxFull: cfg.MaxFullUpdates}
	t.Reset(now)
	return t, nil
}

// ready gives a zero TimeFactor its default settings.
func (t *TimeFactor) ready() {
	if t.fullUpdate == 0 {
		t.fullUpdate = DefaultFullUpdate
	}
	if t.maxDelta == 0 {
		t.maxDelta = DefaultMaxDelta
	}
	if t.maxFull == 0 {
		t.maxFull = DefaultMaxFullUpdates
	}
}

// Config returns the timer's settings (MaxDelta is NoLimit when there is
// no clamp).
func (t *TimeFactor) Config() TimeFactorConfig {
	t.ready()
	return TimeFactorConfig{FullUpdate: t.fullUpdate, MaxDelta: t.maxDelta, MaxFullUpdates: t.maxFull}
}

// Step measures the frame at now (game_update in the post).
func (t *TimeFactor) Step(now time.Duration) TimeFactorFrame {
	if !t.started {
		t.Reset(now)
	}
	raw := max(0, subSat(now, t.last))
	t.last = now
	delta := raw
	if t.maxDelta != NoLimit {
		delta = min(raw, t.maxDelta)
	}
	t.runtime = addSat(t.runtime, delta)
	fr := TimeFactorFrame{
		RawDelta:   raw,
		Delta:      delta,
		TimeFactor: float64(delta) / float64(t.fullUpdate),
	}
	if t.runtime >= t.next {
		updates := 1 + (t.runtime-t.next)/t.fullUpdate
		if updates > time.Duration(t.maxFull) {
			fr.FullUpdates = t.maxFull
			fr.Resynced = true
			t.next = addSat(t.runtime, t.fullUpdate)
		} else {
			fr.FullUpdates = int(updates)
			t.next = addSat(t.next, mulSat(t.fullUpdate, int64(updates)))
		}
	}
	t.sum += int64(fr.FullUpdates)
	fr.Runtime = t.runtime
	fr.FullUpdateSum = t.sum
	return fr
}

// Reset sets the runtime and the full-update schedule and sum back to 0 at
// now (game_reset in the post: after loading a level).
func (t *TimeFactor) Reset(now time.Duration) {
	t.ready()
	t.started = true
	t.last, t.runtime, t.next, t.sum = now, 0, 0, 0
}
