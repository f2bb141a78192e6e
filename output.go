package main

import (
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"strconv"
	"time"

	"github.com/interpdemo/interpdemo/internal/atomicfile"
	"github.com/interpdemo/interpdemo/physics"
)

// finish writes what the flags asked for at exit. The files are all
// written even if one fails; the first error is returned.
func (a *app) finish(stdout io.Writer) error {
	a.st.finish(a)
	var errs []error
	if a.trace != nil {
		errs = append(errs, a.trace.commit())
		a.trace = nil
	}
	if a.rec != nil {
		errs = append(errs, a.rec.save())
	}
	if a.cfg.screenshot != "" && a.lastImg != nil {
		errs = append(errs, atomicfile.WriteFile(a.cfg.screenshot, func(w io.Writer) error {
			return png.Encode(w, a.lastImg)
		}))
	}
	if a.cfg.stateFile != "" {
		errs = append(errs, atomicfile.WriteFile(a.cfg.stateFile, a.writeState))
	}
	if a.cfg.stats {
		b, err := json.Marshal(a.statsMap())
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
	}
	if a.rep != nil && a.rep.err != nil {
		errs = append([]error{a.rep.err}, errs...)
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func ms(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }

func (a *app) statsMap() map[string]any {
	s := &a.st
	wall := s.end - s.wallStart
	secs := wall.Seconds()
	// Rates are counted over the frames' starts: the ticks up to the last
	// frame's start, and the frame intervals between the first and the
	// last start. The last frame's own drawing time is not logic time.
	span := (s.lastStart - s.wallStart).Seconds()
	rate := func(n int64) float64 {
		if span <= 0 {
			return 0
		}
		return round3(float64(n) / span)
	}
	hist := map[string]int64{}
	for n, c := range s.ticksPerFrame {
		if c > 0 {
			k := strconv.Itoa(n)
			if n == maxTickHist {
				k += "+"
			}
			hist[k] = c
		}
	}
	m := map[string]any{
		"frames":               s.frames,
		"ticks":                s.ticks,
		"seconds":              round3(secs),
		"fps":                  rate(s.frames - 1),
		"tps":                  rate(s.ticks),
		"max_ticks_per_frame":  s.maxTicksPerFrame,
		"capped_frames":        s.cappedFrames,
		"discarded_ms":         ms(s.discarded),
		"interp":               a.draw != drawOff,
		"draw":                 a.draw.String(),
		"vsync_requested":      a.vsync.String(),
		"vsync_actual":         a.vsyncActual,
		"balls":                a.world.N(),
		"state_hash":           fmt.Sprintf("%016x", a.world.Hash()),
		"world_ticks":          a.world.Ticks(),
		"upload_bytes":         s.uploadBytes,
		"upload_bytes_no_tick": s.uploadBytesNoTick,
		"overlay_upload_bytes": a.ov.uploadedBytes(),
		"frame_ms_p50":         ms(s.interval.Quantile(0.5)),
		"frame_ms_p99":         ms(s.interval.Quantile(0.99)),
		"frame_ms_max":         ms(s.interval.Max()),
		"ticks_per_frame":      hist,
		"fps_cap":              a.fpsCap,
		"cpu_fraction":         0.0,
		"mode":                 a.mode.String(),
		"speed":                a.speed,
		"paused":               a.paused,
		"render_load_ms":       ms(a.renderLoad),
		"logic_load_ms":        ms(a.logicLoad),
		"tick_ms":              ms(a.world.Config().Tick),
		"max_loops":            a.cfg.maxLoops,
		"lockstep":             a.cfg.lockstep,
		"hud":                  a.hudOn,
		"graph":                a.graphOn,
		"ghosts":               a.ghostsOn,
		"player":               a.world.Player(),
		"startup_ms":           ms(s.firstShow),
		"video_driver":         a.win.Driver(),
		"gl_renderer":          a.glInfo,
	}
	if s.capErr.Count() > 0 {
		m["cap_error_ms_p99"] = ms(s.capErr.Quantile(0.99))
	}
	if wall > 0 {
		m["cpu_fraction"] = round3(float64(cpuTime()-s.cpuStart) / float64(wall))
	}
	if s.warm {
		m["allocs_after_warmup"] = s.lastAllocs - s.warmAllocs
		m["gc_after_warmup"] = s.lastGC - s.warmGC
	}
	if s.logic.Count() > 0 {
		m["tick_ms_mean"] = round3(float64(s.logic.Mean()) / 1e6)
	}
	if s.tickFrames > 0 {
		m["upload_bytes_per_tick_frame"] = (s.uploadBytes - s.uploadBytesNoTick) / s.tickFrames
	}
	if a.rec != nil {
		m["record"] = a.cfg.recordFile
	}
	if a.rep != nil {
		m["replay"] = a.cfg.replayFile
		m["replay_ok"] = a.rep.done && a.rep.err == nil
	}
	return m
}

func round3(v float64) float64 {
	if v < 0 {
		return -round3(-v)
	}
	return float64(int64(v*1000+0.5)) / 1000
}

// stateJSON is the world as -state writes it.
type stateJSON struct {
	Tick  uint64     `json:"tick"`
	Hash  string     `json:"state_hash"`
	Units string     `json:"units"`
	Balls []ballJSON `json:"balls"`
}

type ballJSON struct {
	Last [2]int32 `json:"last"`
	Next [2]int32 `json:"next"`
	Vel  [2]int32 `json:"velocity"`
}

func (a *app) writeState(w io.Writer) error {
	s := stateJSON{
		Tick:  a.world.Ticks(),
		Hash:  fmt.Sprintf("%016x", a.world.Hash()),
		Units: "positions in 1/256 world units; velocity in 1/256 world units per tick",
		Balls: make([]ballJSON, a.world.N()),
	}
	k := int64(a.world.Displacement())
	for i := range s.Balls {
		s.Balls[i] = ballJSON{
			Last: [2]int32{a.world.Last[2*i], a.world.Last[2*i+1]},
			Next: [2]int32{a.world.Next[2*i], a.world.Next[2*i+1]},
			Vel:  [2]int32{velocity(a.world.Dir[2*i], k), velocity(a.world.Dir[2*i+1], k)},
		}
	}
	return json.NewEncoder(w).Encode(s)
}

// velocity is the displacement per tick of a direction component, as the
// world computes it.
func velocity(dir int32, k int64) int32 {
	return int32(int64(dir) * k >> physics.DirBits)
}
