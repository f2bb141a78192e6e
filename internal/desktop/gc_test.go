package desktop

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestGCLimitFollowsTheLiveHeap(t *testing.T) {
	for _, c := range []struct {
		live    uint64
		current int64
		want    int64
	}{
		{0, 0, gcHeadroom},
		{10 << 20, 0, 20<<20 + gcHeadroom},
		{10 << 20, 500 << 20, 500 << 20}, // never lower: the limit only grows
		{300 << 20, 100 << 20, 600<<20 + gcHeadroom},
	} {
		if got := gcLimit(c.live, c.current); got != c.want {
			t.Errorf("gcLimit(%d, %d) = %d, want %d", c.live, c.current, got, c.want)
		}
	}
}

// TestGCSteadyState: at the end of the warm-up the proportional trigger
// is off and a memory limit above the heap is set; a live heap that grows
// past half the limit moves it; a user's GOGC is left alone. The test
// puts the process's collector back as it was.
func TestGCSteadyState(t *testing.T) {
	old := debug.SetGCPercent(100)
	t.Cleanup(func() {
		debug.SetGCPercent(old)
		debug.SetMemoryLimit(math.MaxInt64)
	})
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")

	var g gcSteady
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	g.start(time.Second, m.HeapAlloc)
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("after start the GC percent is %d, want -1 (off)", p)
	}
	limit := debug.SetMemoryLimit(-1) // -1 reads it
	if limit != g.limit || limit < int64(m.HeapAlloc)+gcHeadroom {
		t.Fatalf("memory limit %d (kept %d), heap %d: want at least heap + %d", limit, g.limit, m.HeapAlloc, gcHeadroom)
	}

	// A live heap far past the limit: a cycle measures it, the next check
	// raises the limit over it.
	big := make([]byte, 2*limit)
	for i := range big {
		big[i] = 1 // touch it: it counts as live
	}
	runtime.GC()
	g.check(time.Second + gcCheckEvery/2) // too early: nothing
	if g.limit != limit {
		t.Errorf("the limit moved before gcCheckEvery")
	}
	g.check(time.Second + gcCheckEvery)
	if g.limit < 2*int64(len(big)) || debug.SetMemoryLimit(-1) != g.limit {
		t.Errorf("with %d bytes live the limit is %d (runtime %d), want at least twice that", len(big), g.limit, debug.SetMemoryLimit(-1))
	}
	runtime.KeepAlive(big)

	if n := testing.AllocsPerRun(100, func() { g.next = 0; g.check(time.Hour) }); n != 0 {
		t.Errorf("check allocates %v times", n)
	}

	// GOGC set by the user: start changes nothing.
	debug.SetGCPercent(100)
	t.Setenv("GOGC", "100")
	var u gcSteady
	u.start(time.Second, m.HeapAlloc)
	if p := debug.SetGCPercent(100); p != 100 || u.on {
		t.Errorf("with GOGC set, start turned the steady state on (GC percent %d)", p)
	}
}
