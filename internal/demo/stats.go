package demo

import (
	"time"

	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/internal/stats"
	"github.com/interpdemo/interpdemo/internal/trace"
)

// Warmup is how long after the first frame's start a run's steady-state
// figures start: the front ends' allocation, GC and thread counts, and
// the frame-cap error. The first second opens the window, compiles the
// shaders and fills caches and buffers; its frames are not the run's
// pace.
const Warmup = time.Second

// maxTickHist is the largest ticks-per-frame count the histogram tells
// apart; frames with more count in its last bucket.
const maxTickHist = 128

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
	capErr   stats.Histogram // |interval - 1/cap| while a cap is set, after the warm-up

	prev      trace.Row // the frame whose interval is not known yet
	prevCap   time.Duration
	havePrev  bool
	end       time.Duration
	lastStart time.Duration
	wallStart time.Duration
	// gameStart is the start of the first frame of a network game that
	// saw the game running (gameStarted): its tick rate counts from
	// there, not from the lobby.
	gameStart     time.Duration
	gameStarted   bool
	gameLastTicks time.Duration // the start of the last frame that ran ticks
}

// frameStart closes the books on the previous frame, now that its
// interval is known, and returns it.
func (s *runStats) frameStart(now time.Duration) (prev trace.Row, ok bool) {
	if s.frames == 0 {
		s.wallStart = now
	}
	s.lastStart = now
	return s.closePrev(now, true)
}

// closePrev closes the previous frame at now: the next frame's start
// (next), or the run's end, which no cap paced.
func (s *runStats) closePrev(now time.Duration, next bool) (trace.Row, bool) {
	if !s.havePrev {
		return trace.Row{}, false
	}
	s.havePrev = false
	s.prev.Dur = now - s.prev.Start
	s.interval.Add(s.prev.Dur)
	if next && s.prevCap > 0 && s.prev.Start-s.wallStart >= Warmup {
		e := s.prev.Dur - s.prevCap
		s.capErr.Add(max(e, -e))
	}
	return s.prev, true
}

// frameDone counts a frame once drawn.
func (s *runStats) frameDone(start time.Duration, info sim.FrameInfo, uploaded int, renderLoad time.Duration, mode sim.Mode, capInterval time.Duration, ball0X, ball0NextX float64) {
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
	return s.closePrev(s.end, false)
}

// frameOf is a trace row as the graph's ring keeps it.
func frameOf(r *trace.Row) hud.Frame {
	return hud.Frame{Start: r.Start, Dur: r.Dur, Ticks: r.Ticks, Capped: r.Capped, Discarded: r.Discarded}
}

// traceWriter streams one CSV row per frame into a file written
// atomically: nothing appears at the path until the run ends well.
type traceWriter struct {
	f   File
	buf []byte
	err error
}

func newTraceWriter(files Files, path string) (*traceWriter, error) {
	f, err := files.Create(path)
	if err != nil {
		return nil, err
	}
	t := &traceWriter{f: f, buf: make([]byte, 0, 256)}
	_, t.err = f.Write([]byte(trace.Header))
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
