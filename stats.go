package main

import (
	"runtime"
	"time"

	"github.com/interpdemo/interpdemo/internal/atomicfile"
	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/internal/stats"
	"github.com/interpdemo/interpdemo/internal/trace"
)

// maxTickHist is the largest ticks-per-frame count the histogram tells
// apart; frames with more count in its last bucket.
const maxTickHist = 128

// warmup is how long after the first frame the allocation and GC counts
// start: the first second builds caches and buffers.
const warmup = time.Second

// runStats are the measurements behind -stats and -trace, kept in fixed
// memory. It is given the values it counts.
type runStats struct {
	frames            int64
	maxTicksPerFrame  int
	cappedFrames      int64
	discarded         time.Duration
	uploadBytes       int64
	uploadBytesNoTick int64
	tickFrames        int64 // frames that ran at least one tick
	ticksPerFrame     [maxTickHist + 1]int64

	interval stats.Histogram // frame start to next frame start
	capErr   stats.Histogram // |interval - 1/cap| while a cap is set

	firstShow time.Duration // process start to the first frame presented
	mainStart time.Time

	prev      trace.Row // the frame whose interval is not known yet
	prevCap   time.Duration
	havePrev  bool
	end       time.Duration
	lastStart time.Duration
	cpuStart  int64 // ns of CPU time at the start
	wallStart time.Duration

	warm    bool    // the warm-up is over and its counts taken
	stopped bool    // the loop ended and the end counts were taken
	start   memMark // at the end of the warm-up
	stop    memMark // when the loop ended
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

func (s *runStats) init(mainStart time.Time) {
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
func (s *runStats) readAllocs() (allocs uint64, gcs uint32) {
	runtime.ReadMemStats(&s.mem)
	return s.mem.Mallocs, s.mem.NumGC
}

// readRSS reads the resident memory and its peak. It allocates: read it
// before the warm-up's allocation count and after the end's.
func readRSS(m *memMark) {
	m.rss, _ = platform.ResidentBytes()
	m.peak, _ = platform.PeakResidentBytes()
}

// stopCounting takes the end counts, once: call it when the loop ends,
// before the files and profiles are written, whose allocations are not
// the run's.
func (s *runStats) stopCounting() {
	if s.stopped {
		return
	}
	s.stopped = true
	s.stop.allocs, s.stop.gcs = s.readAllocs()
	s.stop.threads, _ = runtime.ThreadCreateProfile(nil)
	readRSS(&s.stop)
}

// frameStart closes the books on the previous frame, now that its
// interval is known, and returns it. runStart is the first frame's start.
func (s *runStats) frameStart(now, runStart time.Duration) (prev trace.Row, ok bool) {
	if s.frames == 0 {
		s.wallStart = now
	}
	s.lastStart = now
	if !s.warm && s.frames > 0 && now-runStart >= warmup {
		s.warm = true
		spareThreads(spareThreadCount()) // before the counts: starting threads allocates
		readRSS(&s.start)
		s.start.threads, _ = runtime.ThreadCreateProfile(nil)
		s.readAllocs()                   // the heap's size, for the collector's limit
		s.gc.start(now, s.mem.HeapAlloc) // before the counts: setting the collector allocates
		s.start.allocs, s.start.gcs = s.readAllocs()
	}
	s.gc.check(now)
	return s.closePrev(now)
}

func (s *runStats) closePrev(now time.Duration) (trace.Row, bool) {
	if !s.havePrev {
		return trace.Row{}, false
	}
	s.havePrev = false
	s.prev.Dur = now - s.prev.Start
	s.interval.Add(s.prev.Dur)
	if s.prevCap > 0 {
		e := s.prev.Dur - s.prevCap
		s.capErr.Add(max(e, -e))
	}
	return s.prev, true
}

// frameDone counts a frame once drawn.
func (s *runStats) frameDone(start time.Duration, info sim.FrameInfo, uploaded int, renderLoad time.Duration, mode sim.Mode, capInterval time.Duration, ball0X, ball0NextX float64) {
	if s.frames == 0 {
		s.firstShow = time.Since(s.mainStart) + preMain(s.mainStart)
	}
	s.uploadBytes += int64(uploaded)
	if info.Ticks == 0 {
		s.uploadBytesNoTick += int64(uploaded)
	} else {
		s.tickFrames++
	}
	s.ticksPerFrame[min(info.Ticks, maxTickHist)]++
	s.maxTicksPerFrame = max(s.maxTicksPerFrame, info.Ticks)
	if info.Capped {
		s.cappedFrames++
	}
	s.discarded += info.Discarded
	s.prev = trace.Row{
		Frame: s.frames, Start: start, Ticks: info.Ticks, Percent: info.Percent,
		Discarded: info.Discarded, Capped: info.Capped, RenderLoad: renderLoad, Mode: mode.String(),
		Ball0X: ball0X, Ball0NextX: ball0NextX,
	}
	s.prevCap = capInterval
	s.havePrev = true
	s.frames++
}

// finish closes the last frame at the end of the run and returns it.
func (s *runStats) finish(now time.Duration) (trace.Row, bool) {
	s.end = now
	s.stopCounting()
	return s.closePrev(s.end)
}

// frame is a trace row as the graph's ring keeps it.
func frameOf(r *trace.Row) hud.Frame {
	return hud.Frame{Start: r.Start, Dur: r.Dur, Ticks: r.Ticks, Capped: r.Capped, Discarded: r.Discarded}
}

// traceWriter streams one CSV row per frame into a file written
// atomically: nothing appears at the path until the run ends well.
type traceWriter struct {
	f   *atomicfile.File
	buf []byte
	err error
}

func newTraceWriter(path string) (*traceWriter, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	t := &traceWriter{f: f, buf: make([]byte, 0, 256)}
	_, t.err = f.WriteString(trace.Header)
	return t, nil
}

func (t *traceWriter) row(r *trace.Row) {
	if t.err != nil {
		return
	}
	t.buf = trace.AppendRow(t.buf[:0], r)
	_, t.err = t.f.Write(t.buf)
}

// commit puts the trace in place.
func (t *traceWriter) commit() error {
	if t.err != nil {
		t.f.Abort()
		return t.err
	}
	return t.f.Commit()
}

func (t *traceWriter) abort() { t.f.Abort() }
