//go:build !unix

package desktop

// cpuTime is the process's CPU time where the system tells it; elsewhere
// 0, and -stats reports a cpu_fraction of 0.
func cpuTime() int64 { return 0 }
