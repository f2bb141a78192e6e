package desktop

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Steady-state garbage collection. After its warm-up the demo allocates
// nothing per frame or per tick, so the collector has nothing to collect;
// yet the Go runtime starts a cycle every two minutes on its own when none
// ran (its forced periodic GC), and that cycle is the only one a long run
// sees. Once warmed up, the demo turns the collector's proportional
// trigger off (debug.SetGCPercent(-1), what GOGC=off does) and keeps a
// soft memory limit (debug.SetMemoryLimit) as the trigger instead: twice
// the live heap plus gcHeadroom. Nothing collects until the program's
// memory nears the limit; the periodic cycle does not run with the
// trigger off. Whatever does allocate (more balls, a resize) is collected
// when the limit is reached, and the limit follows the live heap, checked
// every gcCheckEvery, so a larger world does not make the collector run
// back to back. A user's GOGC or GOMEMLIMIT is left alone.
const (
	gcHeadroom   = 64 << 20
	gcCheckEvery = 250 * time.Millisecond
)

type gcSteady struct {
	on     bool
	limit  int64
	next   time.Duration
	sample [1]metrics.Sample // the live heap as of the last cycle
}

// gcUserSet says whether the user chose the collector's settings.
func gcUserSet() bool {
	return os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != ""
}

// gcLimit is the memory limit for a live heap of live bytes, never below
// the current limit: the limit only grows with the world.
func gcLimit(live uint64, current int64) int64 {
	return max(current, int64(2*live)+gcHeadroom)
}

// start turns the steady state on (at the end of the warm-up). heap is
// the bytes on the heap now (runtime.MemStats.HeapAlloc), garbage
// included: no cycle may have run yet to measure the live heap.
func (g *gcSteady) start(now time.Duration, heap uint64) {
	if g.on || gcUserSet() {
		return
	}
	g.on = true
	g.sample[0].Name = "/gc/heap/live:bytes"
	metrics.Read(g.sample[:])
	g.limit = gcLimit(max(value(g.sample[0]), heap), 0)
	debug.SetMemoryLimit(g.limit)
	debug.SetGCPercent(-1)
	g.next = now + gcCheckEvery
}

// check moves the limit with the live heap (as of the last cycle), every
// gcCheckEvery. It allocates nothing.
func (g *gcSteady) check(now time.Duration) {
	if !g.on || now < g.next {
		return
	}
	g.next = now + gcCheckEvery
	metrics.Read(g.sample[:])
	if l := gcLimit(value(g.sample[0]), g.limit); l != g.limit {
		g.limit = l
		debug.SetMemoryLimit(l)
	}
}

// value is a sample's value, 0 where the runtime does not have it.
func value(s metrics.Sample) uint64 {
	if s.Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s.Value.Uint64()
}
