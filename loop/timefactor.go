package loop

import (
	"fmt"
	"time"
)

// Defaults of TimeFactorConfig, as in seed 000.
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
	// means DefaultMaxDelta; negative is an error.
	MaxDelta time.Duration
	// MaxFullUpdates is the most full updates one frame gets before the
	// schedule is resynchronised. Zero means DefaultMaxFullUpdates;
	// negative is an error.
	MaxFullUpdates int
}

// TimeFactor is seed 000's timer-based movement: each frame gives a float
// timeFactor = delta/FullUpdate to scale continuous values with, and an
// integer number of discrete full updates due, which adds up to exactly
// one per FullUpdate of runtime (50 per second at 20 ms) whatever the frame
// rate. The seed's algorithm runs unchanged, in integer nanoseconds.
type TimeFactor struct {
	fullUpdate time.Duration
	maxDelta   time.Duration
	maxFull    int

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

// NewTimeFactor returns a TimeFactor whose runtime starts at 0 at now.
func NewTimeFactor(cfg TimeFactorConfig, now time.Duration) (*TimeFactor, error) {
	if cfg.FullUpdate < 0 || cfg.MaxDelta < 0 || cfg.MaxFullUpdates < 0 {
		return nil, fmt.Errorf("%w: TimeFactorConfig %+v has a negative field", ErrInvalid, cfg)
	}
	if cfg.FullUpdate == 0 {
		cfg.FullUpdate = DefaultFullUpdate
	}
	if cfg.MaxDelta == 0 {
		cfg.MaxDelta = DefaultMaxDelta
	}
	if cfg.MaxFullUpdates == 0 {
		cfg.MaxFullUpdates = DefaultMaxFullUpdates
	}
	return &TimeFactor{fullUpdate: cfg.FullUpdate, maxDelta: cfg.MaxDelta, maxFull: cfg.MaxFullUpdates, last: now}, nil
}

// Config returns the timer's settings.
func (t *TimeFactor) Config() TimeFactorConfig {
	return TimeFactorConfig{FullUpdate: t.fullUpdate, MaxDelta: t.maxDelta, MaxFullUpdates: t.maxFull}
}

// Step measures the frame at now (game_update in the seed).
func (t *TimeFactor) Step(now time.Duration) TimeFactorFrame {
	raw := max(0, subSat(now, t.last))
	t.last = now
	delta := min(raw, t.maxDelta)
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
			t.next = addSat(t.next, updates*t.fullUpdate)
		}
	}
	t.sum += int64(fr.FullUpdates)
	fr.Runtime = t.runtime
	fr.FullUpdateSum = t.sum
	return fr
}

// Reset sets the runtime and the full-update schedule and sum back to 0 at
// now (game_reset in the seed: after loading a level).
func (t *TimeFactor) Reset(now time.Duration) {
	t.last, t.runtime, t.next, t.sum = now, 0, 0, 0
}
