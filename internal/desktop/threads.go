package desktop

import (
	"runtime"
	"sync"
)

// Spare OS threads. The Go runtime starts an OS thread (an M) whenever it
// needs one more than it has: a goroutine became runnable while every
// thread was busy, or the main thread sat in a C call (SDL, GL) long
// enough for the runtime to hand its P to another thread. Starting a
// thread allocates on the heap (the M and its goroutine records, seven
// objects), so one started minutes into a run is an allocation the run
// did not make itself, at a moment no one chose. Threads the runtime has
// are never given back: a thread that is no longer needed waits, idle,
// for the next time one is. So at the end of the warm-up the demo makes
// the runtime start the threads a frame can ever need at once, then lets
// them go idle; later needs are met from them.

// spareThreadCount is how many threads the warm-up leaves: one for each P
// that can run Go code at once, the main thread's own while it waits in a
// C call, and a few for goroutines blocked in system calls.
func spareThreadCount() int { return runtime.GOMAXPROCS(0) + 4 }

// spareThreads makes the runtime hold at least n OS threads, idle once it
// returns. Each of n goroutines locks itself to a thread and waits until
// all n hold theirs, so n threads exist at the same moment; then they
// unlock and end, and their threads join the runtime's idle ones (a
// thread is ended only when a goroutine exits still locked to it). It
// allocates (the goroutines), so it belongs in the warm-up.
func spareThreads(n int) {
	var locked, done sync.WaitGroup
	release := make(chan struct{})
	locked.Add(n)
	done.Add(n)
	for range n {
		go func() {
			defer done.Done()
			runtime.LockOSThread()
			locked.Done()
			<-release
			runtime.UnlockOSThread()
		}()
	}
	locked.Wait()
	close(release)
	done.Wait()
}
