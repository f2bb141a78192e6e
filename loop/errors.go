package loop

import (
	"errors"
	"fmt"
	"time"
)

// ErrInvalid is wrapped by every error this package returns for a setting
// out of range or a value missing: test for it with errors.Is.
var ErrInvalid = errors.New("loop: invalid setting")

// NoLimit, given as a duration limit, turns the limit off: no clamp of a
// frame's delta (VirtualConfig.MaxDelta, Virtual.SetMaxDelta,
// TimeFactorConfig.MaxDelta), no shortest frame (SubstepConfig.MinT), no
// frame cap (NewLimiter, Limiter.SetInterval). Zero means the default, and
// any other negative value is an error.
const NoLimit time.Duration = -1

// checkLimit validates a duration limit that accepts NoLimit: d must be
// NoLimit, zero (the default) or positive.
func checkLimit(name string, d time.Duration) error {
	if d < 0 && d != NoLimit {
		return fmt.Errorf("%w: %s %v is negative (use loop.NoLimit for no limit, 0 for the default)", ErrInvalid, name, d)
	}
	return nil
}

// checkDuration validates a duration setting that has no "none": zero (the
// default) or positive.
func checkDuration(name string, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("%w: %s %v is negative (0 means the default)", ErrInvalid, name, d)
	}
	return nil
}

// checkCount validates a count setting: zero (the default) or positive.
func checkCount(name string, n int) error {
	if n < 0 {
		return fmt.Errorf("%w: %s %d is negative (0 means the default)", ErrInvalid, name, n)
	}
	return nil
}
