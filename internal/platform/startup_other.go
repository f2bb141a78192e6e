//go:build !linux

package platform

import "time"

// procPreMain is how long the process ran before main as the system
// says; only Linux does (startup_linux.go): elsewhere, unless a launcher
// says when it started the process, the start-up time counts from main.
func procPreMain(time.Time) time.Duration { return 0 }
