//go:build !linux

package platform

import "time"

// PreMain is how long the process ran before main; only Linux says
// (startup_linux.go), elsewhere the start-up time counts from main.
func PreMain(time.Time) time.Duration { return 0 }
