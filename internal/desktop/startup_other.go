//go:build !linux

package desktop

import "time"

// preMain is how long the process ran before main; only Linux says
// (startup_linux.go), elsewhere the start-up time counts from main.
func preMain(time.Time) time.Duration { return 0 }
