package desktop

import (
	"runtime"
	"time"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/internal/report"
)

// warmup is how long after the first frame the allocation and GC counts
// start: the demo's one warm-up, after which it counts the frame-cap
// error too.
const warmup = demo.Warmup

// memStats are the process's own figures for -stats: CPU time, start-up
// time, and the heap allocations, GC cycles, OS threads and resident
// memory from the end of the warm-up to the end of the loop. It also sets
// the collector's steady state at the end of the warm-up.
type memStats struct {
	mainStart time.Time
	cpuStart  int64 // ns of CPU time at the start
	firstShow time.Duration
	frames    int64
	start     time.Duration // the first frame's start

	warm    bool    // the warm-up is over and its counts taken
	stopped bool    // the loop ended and the end counts were taken
	begin   memMark // at the end of the warm-up
	end     memMark // when the loop ended
	mem     runtime.MemStats
	gc      gcSteady // the collector's steady state, from the end of the warm-up
}

// memMark is the process's memory at one moment: the exact count of heap
// allocations, of GC cycles and of the runtime's OS threads so far, the
// resident memory and its peak (bytes; 0 where the system does not tell).
type memMark struct {
	allocs    uint64
	gcs       uint32
	threads   int // OS threads the runtime has started (its Ms)
	rss, peak int64
}

func (s *memStats) init(mainStart time.Time) {
	s.mainStart = mainStart
	s.cpuStart = cpuTime()
}

// readAllocs counts the heap allocations and GC cycles so far, exactly.
// runtime.ReadMemStats stops the world for a moment (microseconds), and
// flushes every P's cache of spans first. runtime/metrics'
// /gc/heap/allocs:objects does not: it counts a span's allocations only
// when the span leaves its cache, so allocations made during the warm-up
// would appear after it, in a burst at the first GC cycle (the runtime's
// periodic one, two minutes in, if nothing else), and allocations of the
// run's last moments would not appear at all. It allocates nothing.
func (s *memStats) readAllocs() (allocs uint64, gcs uint32) {
	runtime.ReadMemStats(&s.mem)
	return s.mem.Mallocs, s.mem.NumGC
}

// readRSS reads the resident memory and its peak. It allocates: read it
// before the warm-up's allocation count and after the end's.
func readRSS(m *memMark) {
	m.rss, _ = platform.ResidentBytes()
	m.peak, _ = platform.PeakResidentBytes()
}

// frameStart takes the warm-up's counts once the first second is over,
// and keeps the collector's limit in step with the live heap.
func (s *memStats) frameStart(now time.Duration) {
	if s.frames == 0 {
		s.start = now
	}
	if s.warmsAt(now) {
		s.warm = true
		spareThreads(spareThreadCount()) // before the counts: starting threads allocates
		readRSS(&s.begin)
		s.begin.threads, _ = runtime.ThreadCreateProfile(nil)
		s.readAllocs()                   // the heap's size, for the collector's limit
		s.gc.start(now, s.mem.HeapAlloc) // before the counts: setting the collector allocates
		s.begin.allocs, s.begin.gcs = s.readAllocs()
	}
	s.gc.check(now)
}

// warmsAt reports whether the frame starting at now ends the warm-up:
// frameStart takes the counts there.
func (s *memStats) warmsAt(now time.Duration) bool {
	return !s.warm && s.frames > 0 && now-s.start >= warmup
}

// frameDone counts a frame; the first one's end is the start-up time.
func (s *memStats) frameDone() {
	if s.frames == 0 {
		s.firstShow = time.Since(s.mainStart) + platform.PreMain(s.mainStart)
	}
	s.frames++
}

// stopCounting takes the end counts, once: call it when the loop ends,
// before the files and profiles are written, whose allocations are not
// the run's.
func (s *memStats) stopCounting() {
	if s.stopped {
		return
	}
	s.stopped = true
	s.end.allocs, s.end.gcs = s.readAllocs()
	s.end.threads, _ = runtime.ThreadCreateProfile(nil)
	readRSS(&s.end)
}

// mib is a byte count in MiB, rounded to 3 decimals; nil when unknown (0).
func mib(b int64) *float64 {
	if b <= 0 {
		return nil
	}
	v := report.Round3(float64(b) / (1 << 20))
	return &v
}

// report adds the figures to -stats, for a run of wall time.
func (s *memStats) report(r *report.Stats, wall time.Duration) {
	s.stopCounting()
	r.StartupMs = report.Ms(int64(s.firstShow))
	if wall > 0 {
		r.CPUFraction = report.Round3(float64(cpuTime()-s.cpuStart) / float64(wall))
	}
	if s.warm {
		allocs, gcs := s.end.allocs-s.begin.allocs, uint64(s.end.gcs-s.begin.gcs)
		r.AllocsAfterWarmup, r.GCAfterWarmup = &allocs, &gcs
		threads := uint64(max(0, s.end.threads-s.begin.threads))
		r.ThreadsAfterWarmup = &threads
		r.RSSMBStart, r.RSSMBEnd, r.RSSMBPeak = mib(s.begin.rss), mib(s.end.rss), mib(s.end.peak)
	}
}
