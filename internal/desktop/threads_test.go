package desktop

import (
	"runtime"
	"testing"
)

// threadsStarted is how many OS threads the runtime has started so far.
func threadsStarted() int {
	n, _ := runtime.ThreadCreateProfile(nil)
	return n
}

// TestSpareThreadsServeLaterNeeds: once spareThreads has left threads
// idle, a later moment that needs n threads at once (n goroutines locked
// to threads together) starts none; the first call had to start them.
// The first call leaves GOMAXPROCS more than n: as it returns, that many
// of its threads may still be finishing their goroutines, not idle yet.
func TestSpareThreadsServeLaterNeeds(t *testing.T) {
	before := threadsStarted()
	n := before + spareThreadCount() // more threads than the process has: it must start some
	spareThreads(n + runtime.GOMAXPROCS(0))
	started := threadsStarted() - before
	if started == 0 {
		t.Fatalf("spareThreads(%d) started no thread: the process already had them, the test proves nothing", n)
	}
	spareThreads(n)
	if again := threadsStarted() - before - started; again != 0 {
		t.Errorf("after %d spare threads were left idle, a need for %d at once started %d more", started, n, again)
	}
}
