//go:build !linux

package cdp

import (
	"errors"
	"time"
)

// CPUTime is the processor time the browser's processes have used so
// far; it is read only on Linux.
func (b *Browser) CPUTime() (time.Duration, error) {
	return 0, errors.New("cdp: the browser's CPU time is read only on Linux")
}
