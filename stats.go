package main

import (
	"runtime/metrics"
	"strconv"
	"syscall"
	"time"

	"github.com/interpdemo/interpdemo/internal/atomicfile"
	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/stats"
)

// maxTickHist is the largest ticks-per-frame count the histogram tells
// apart; frames with more count in its last bucket.
const maxTickHist = 128

// warmup is how long after the first frame the allocation and GC counts
// start: the first second builds caches and buffers.
const warmup = time.Second

// runStats are the measurements behind -stats and -trace, kept in fixed
// memory.
type runStats struct {
	frames, ticks     int64
	maxTicksPerFrame  int
	cappedFrames      int64
	discarded         time.Duration
	uploadBytes       int64
	uploadBytesNoTick int64
	tickFrames        int64 // frames that ran at least one tick
	ticksPerFrame     [maxTickHist + 1]int64

	interval stats.Histogram // frame start to next frame start
	capErr   stats.Histogram // |interval - 1/cap| while a cap is set
	logic    stats.Histogram // logic time per tick, fixed mode

	firstShow time.Duration // process start to the first frame presented
	mainStart time.Time

	prev        hud.Frame // the frame whose interval is not known yet
	prevPercent float64
	prevLoad    time.Duration
	prevMode    timingMode
	prevCap     time.Duration
	havePrev    bool
	end         time.Duration
	lastStart   time.Duration
	cpuStart    time.Duration
	wallStart   time.Duration

	warm       bool
	samples    [2]metrics.Sample
	warmAllocs uint64
	warmGC     uint64
	lastAllocs uint64
	lastGC     uint64
}

func (s *runStats) init() {
	s.samples[0].Name = "/gc/heap/allocs:objects"
	s.samples[1].Name = "/gc/cycles/total:gc-cycles"
	s.cpuStart = cpuTime()
}

func (s *runStats) readMetrics() (allocs, gcs uint64) {
	metrics.Read(s.samples[:])
	return s.samples[0].Value.Uint64(), s.samples[1].Value.Uint64()
}

// frameStart closes the books on the previous frame, now that its interval
// is known.
func (s *runStats) frameStart(now time.Duration, a *app) {
	if s.frames == 0 {
		s.wallStart = now
	}
	s.lastStart = now
	if !s.warm && s.frames > 0 && now-a.start >= warmup {
		s.warm = true
		s.warmAllocs, s.warmGC = s.readMetrics()
	}
	s.closePrev(now, a)
}

func (s *runStats) closePrev(now time.Duration, a *app) {
	if !s.havePrev {
		return
	}
	s.havePrev = false
	f := s.prev
	f.Dur = now - f.Start
	s.interval.Add(f.Dur)
	if s.prevCap > 0 {
		e := f.Dur - s.prevCap
		s.capErr.Add(max(e, -e))
	}
	a.ov.ring.Add(f)
	if a.trace != nil {
		a.trace.row(a.frameIdx-1, f, a)
	}
}

// frameDone counts a frame once drawn.
func (s *runStats) frameDone(start time.Duration, info frameInfo, uploaded int, a *app) {
	if s.frames == 0 {
		s.firstShow = time.Since(s.mainStart) + preMain(s.mainStart)
	}
	s.frames++
	if a.mode != modeFixed {
		s.ticks += int64(info.ticks)
		a.tickLimitReached()
	}
	s.uploadBytes += int64(uploaded)
	if info.ticks == 0 {
		s.uploadBytesNoTick += int64(uploaded)
	} else {
		s.tickFrames++
	}
	s.ticksPerFrame[min(info.ticks, maxTickHist)]++
	s.maxTicksPerFrame = max(s.maxTicksPerFrame, info.ticks)
	if info.capped {
		s.cappedFrames++
	}
	s.discarded += info.discarded
	s.prev = hud.Frame{Start: start, Ticks: info.ticks, Capped: info.capped, Discarded: info.discarded}
	s.prevPercent, s.prevLoad, s.prevMode = info.percent, a.renderLoad, a.mode
	s.prevCap = a.capInterval()
	s.havePrev = true
}

// finish closes the last frame at the end of the run.
func (s *runStats) finish(a *app) {
	s.end = a.clock.Now()
	s.closePrev(s.end, a)
	s.lastAllocs, s.lastGC = s.readMetrics()
}

// cpuTime is the process's user plus system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// traceWriter streams one CSV row per frame into a file written
// atomically: nothing appears at the path until the run ends well.
type traceWriter struct {
	f   *atomicfile.File
	buf []byte
	err error
}

const traceHeader = "frame,start_ns,duration_ns,ticks,percent_within_tick,discarded_ns,max_loops_hit,render_load_ns,mode\n"

func newTraceWriter(path string) (*traceWriter, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	t := &traceWriter{f: f, buf: make([]byte, 0, 256)}
	_, t.err = f.WriteString(traceHeader)
	return t, nil
}

func (t *traceWriter) row(idx int64, f hud.Frame, a *app) {
	if t.err != nil {
		return
	}
	b := t.buf[:0]
	b = strconv.AppendInt(b, idx, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(f.Start), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(f.Dur), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(f.Ticks), 10)
	b = append(b, ',')
	b = strconv.AppendFloat(b, a.st.prevPercent, 'f', 4, 64)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(f.Discarded), 10)
	b = append(b, ',')
	b = strconv.AppendBool(b, f.Capped)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(a.st.prevLoad), 10)
	b = append(b, ',')
	b = append(b, a.st.prevMode.String()...)
	b = append(b, '\n')
	t.buf = b
	_, t.err = t.f.Write(b)
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
