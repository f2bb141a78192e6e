package main

import (
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"time"

	"github.com/interpdemo/interpdemo/internal/atomicfile"
	"github.com/interpdemo/interpdemo/physics"
)

// finish writes what the flags asked for at exit.
func (a *app) finish(stdout io.Writer) error {
	if a.cfg.screenshot != "" && a.lastImg != nil {
		if err := atomicfile.WriteFile(a.cfg.screenshot, func(w io.Writer) error {
			return png.Encode(w, a.lastImg)
		}); err != nil {
			return err
		}
	}
	if a.cfg.stateFile != "" {
		if err := atomicfile.WriteFile(a.cfg.stateFile, a.writeState); err != nil {
			return err
		}
	}
	if a.cfg.stats {
		b, err := json.Marshal(a.statsMap())
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
	}
	return nil
}

func (a *app) statsMap() map[string]any {
	secs := (a.st.end - a.start).Seconds()
	rate := func(n int64) float64 {
		if secs <= 0 {
			return 0
		}
		return round3(float64(n) / secs)
	}
	return map[string]any{
		"frames":               a.st.frames,
		"ticks":                a.st.ticks,
		"seconds":              round3(secs),
		"fps":                  rate(a.st.frames),
		"tps":                  rate(a.st.ticks),
		"max_ticks_per_frame":  a.st.maxTicksPerFrame,
		"capped_frames":        a.st.cappedFrames,
		"discarded_ms":         round3(float64(a.st.discarded) / float64(time.Millisecond)),
		"interp":               a.interp,
		"vsync_requested":      a.vsync.String(),
		"vsync_actual":         a.vsyncActual,
		"balls":                a.world.N(),
		"state_hash":           fmt.Sprintf("%016x", a.world.Hash()),
		"upload_bytes":         a.st.uploadBytes,
		"upload_bytes_no_tick": a.st.uploadBytesNoTick,
		"video_driver":         a.win.Driver(),
	}
}

func round3(v float64) float64 {
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
	enc := json.NewEncoder(w)
	return enc.Encode(s)
}

// velocity is the displacement per tick of a direction component, as the
// world computes it.
func velocity(dir int32, k int64) int32 {
	return int32(int64(dir) * k >> physics.DirBits)
}
