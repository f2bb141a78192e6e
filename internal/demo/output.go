package demo

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/physics"
)

// Finish ends the run at now and writes what the flags asked for: the
// trace, the recording, the state and, on stdout, the -stats line, which
// fill completes with the front end's own figures (nil: none). The files
// are all written even if one fails; the first error is returned, a
// failed replay or network game first of all.
func (d *Demo) Finish(now time.Duration, stdout io.Writer, fill func(*report.Stats)) error {
	if last, ok := d.st.finish(now); ok && d.trace != nil {
		d.trace.row(&last)
	}
	if d.net != nil {
		d.net.announce(d.p.Log) // an end the last frame did not see
	}
	var errs []error
	if d.net != nil && d.net.failed != nil {
		errs = append(errs, d.net.failed)
	}
	if err := d.sim.Err(); err != nil {
		if d.sim.Replaying() {
			err = fmt.Errorf("%s: %v", d.cfg.ReplayFile, err)
		}
		errs = append(errs, err) // a divergence, a desync, a kick, a silent peer
		errs = append(errs, d.writeDesyncReport(err))
	}
	if d.trace != nil {
		errs = append(errs, FileErr("trace", d.trace.commit()))
		d.trace = nil
	}
	if d.sim.Recording() {
		errs = append(errs, FileErr("record", d.writeRecording()))
	}
	if d.cfg.StateFile != "" {
		errs = append(errs, FileErr("state", d.p.Files.WriteFile(d.cfg.StateFile, d.writeState)))
	}
	if d.cfg.Stats {
		r := d.Report()
		if fill != nil {
			fill(r)
		}
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(stdout, "%s\n", b); err != nil {
			errs = append(errs, fmt.Errorf("-stats: %v", err))
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// writeRecording writes the recording so far.
func (d *Demo) writeRecording() error {
	rec := d.sim.RecordingSoFar()
	return d.p.Files.WriteFile(d.cfg.RecordFile, func(w io.Writer) error {
		_, err := rec.WriteTo(w)
		return err
	})
}

// Wall is the run's wall time: from the first frame's start to the end
// (Finish), or to the latest frame's start before it.
func (d *Demo) Wall() time.Duration {
	if d.st.end > 0 {
		return d.st.end - d.st.wallStart
	}
	return d.st.lastStart - d.st.wallStart
}

func ms(d time.Duration) float64 { return report.Ms(int64(d)) }

// Report is the run's statistics as -stats prints them, apart from what
// only the front end knows (its costs, its memory, its GL): those fields
// are left zero.
func (d *Demo) Report() *report.Stats {
	s := &d.st
	w := d.sim.World()
	set := d.sim.Settings()
	wall := s.end - s.wallStart
	// Rates are counted over the frames' starts: the ticks up to the last
	// frame's start, and the frame intervals between the first and the
	// last start. The last frame's own drawing time is not logic time.
	span := (s.lastStart - s.wallStart).Seconds()
	rate := func(n int64) float64 {
		if span <= 0 {
			return 0
		}
		return report.Round3(float64(n) / span)
	}
	tps := rate(d.sim.Ticks())
	if s.gameStarted {
		// A network game's ticks run from its start: the lobby, however
		// long the players took to come, is not in its tick rate.
		if g := (s.gameLastTicks - s.gameStart).Seconds(); g > 0 {
			tps = report.Round3(float64(d.sim.Ticks()) / g)
		}
	}
	r := &report.Stats{
		Frames:            s.frames,
		Ticks:             d.sim.Ticks(),
		Seconds:           report.Round3(wall.Seconds()),
		FPS:               rate(s.frames - 1),
		TPS:               tps,
		MaxTicksPerFrame:  s.maxTicksPerFrame,
		TicksPerFrame:     s.ticksPerFrameHist(),
		CappedFrames:      s.cappedFrames,
		DiscardedMs:       ms(s.discarded),
		Interp:            d.view.draw != drawOff,
		Draw:              d.view.draw.String(),
		VsyncRequested:    d.vsync.requested.String(),
		VsyncActual:       d.vsync.actual,
		Balls:             w.N(),
		StateHash:         fmt.Sprintf("%016x", w.Hash()),
		WorldTicks:        w.Ticks(),
		UploadBytes:       s.uploadBytes,
		UploadBytesNoTick: s.uploadBytesNoTick,
		FrameMsP50:        ms(s.interval.Quantile(0.5)),
		FrameMsP99:        ms(s.interval.Quantile(0.99)),
		FrameMsMax:        ms(s.interval.Max()),
		FPSCap:            d.view.fpsCap,
		Mode:              d.sim.Mode().String(),
		Speed:             d.sim.Speed(),
		Paused:            d.sim.Paused(),
		RenderLoadMs:      ms(d.view.renderLoad),
		LogicLoadMs:       ms(d.sim.LogicLoad()),
		TickMs:            ms(d.sim.Tick()),
		MaxLoops:          int(set.MaxLoops),
		Lockstep:          set.Lockstep,
		HUD:               d.view.hud,
		Graph:             d.view.graph,
		Ghosts:            d.view.ghosts,
		Player:            w.Player(),
	}
	d.pace.report(r)
	d.reportOptional(r)
	return r
}

// ticksPerFrameHist is -stats' count of frames by the ticks each ran:
// "0", "1", ..., and "N+" for maxTickHist and more; counts of 0 left out.
func (s *runStats) ticksPerFrameHist() map[string]int64 {
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
	return hist
}

// reportOptional fills the fields of r that only some runs have: the frame
// cap's error, the ticks' cost, the upload of a tick's frame, the
// recording and the replay, the network game, the sync test.
func (d *Demo) reportOptional(r *report.Stats) {
	if d.st.capErr.Count() > 0 {
		v := ms(d.st.capErr.Quantile(0.99))
		r.CapErrorMsP99 = &v
	}
	if h := d.sim.TickTimes(); h.Count() > 0 {
		v := report.Round3(float64(h.Mean()) / 1e6)
		r.TickMsMean = &v
	}
	if d.st.tickFrames > 0 {
		v := (d.st.uploadBytes - d.st.uploadBytesNoTick) / d.st.tickFrames
		r.UploadBytesPerTickFrame = &v
	}
	if d.sim.Recording() {
		r.Record = d.cfg.RecordFile
	}
	if d.sim.Replaying() {
		ok := d.sim.ReplayOK()
		r.Replay, r.ReplayOK = d.cfg.ReplayFile, &ok
	}
	if d.net != nil {
		r.Net = d.net.report(d.sim)
		if g := (d.st.lastStart - d.st.gameStart).Seconds(); d.st.gameStarted && g > 0 {
			r.Net.SendBytesPerS = report.Round3(float64(r.Net.BytesSent) / g)
		}
	}
	if d.cfg.SyncTest > 0 {
		n := d.sim.SyncTestTicks()
		r.SyncTestTicks = &n
	}
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

func (d *Demo) writeState(out io.Writer) error {
	w := d.sim.World()
	s := stateJSON{
		Tick:  w.Ticks(),
		Hash:  fmt.Sprintf("%016x", w.Hash()),
		Units: "positions in 1/256 world units; velocity in 1/256 world units per tick",
		Balls: make([]ballJSON, w.N()),
	}
	k := int64(w.Displacement())
	for i := range s.Balls {
		s.Balls[i] = ballJSON{
			Last: [2]int32{w.Last[2*i], w.Last[2*i+1]},
			Next: [2]int32{w.Next[2*i], w.Next[2*i+1]},
			Vel:  [2]int32{velocity(w.Dir[2*i], k), velocity(w.Dir[2*i+1], k)},
		}
	}
	return json.NewEncoder(out).Encode(s)
}

// velocity is the displacement per tick of a direction component, as the
// world computes it.
func velocity(dir int32, k int64) int32 {
	return int32(int64(dir) * k >> physics.DirBits)
}

// writeDesyncReport writes the report of a desync (-desync-report) into
// its folder, desync-<who>-tick<N>.txt, and says where on the log.
func (d *Demo) writeDesyncReport(err error) error {
	var e *netplay.Error
	if d.cfg.Net.Report == "" || d.net == nil || !errors.As(err, &e) || e.Reason != netplay.ErrDesync || e.Report == "" {
		return nil
	}
	who := strings.NewReplacer(", ", "-", " ", "").Replace(string(d.net.appendWho(nil)))
	path := filepath.Join(d.cfg.Net.Report, fmt.Sprintf("desync-%s-tick%d.txt", who, e.Tick))
	text := e.Error() + "\n" + e.Report
	if err := d.p.Files.WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, text); return err }); err != nil {
		return fmt.Errorf("-desync-report: %v", err)
	}
	fmt.Fprintf(d.p.Log, "interpdemo: desync report: %s\n", path)
	return nil
}
