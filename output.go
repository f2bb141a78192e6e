package main

import (
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"strconv"
	"time"

	"github.com/interpdemo/interpdemo/internal/atomicfile"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/physics"
)

// finish writes what the flags asked for at exit. The files are all
// written even if one fails; the first error is returned, a failed replay
// first of all.
func (a *app) finish(stdout io.Writer) error {
	if last, ok := a.st.finish(a.clock.Now()); ok && a.trace != nil {
		a.trace.row(&last)
	}
	var errs []error
	if err := a.rend.DebugErr(); err != nil {
		errs = append(errs, err) // the first GL error of a debug context
	}
	if err := a.sim.Err(); err != nil {
		if a.sim.Replaying() {
			err = fmt.Errorf("%s: %v", a.cfg.replayFile, err)
		}
		errs = append(errs, err) // a divergence, a desync, a kick, a silent peer
	}
	if a.trace != nil {
		errs = append(errs, fileErr("trace", a.cfg.traceFile, a.trace.commit()))
		a.trace = nil
	}
	if rec := a.sim.RecordingSoFar(); rec != nil {
		errs = append(errs, fileErr("record", a.cfg.recordFile, rec.WriteFile(a.cfg.recordFile)))
	}
	if a.cfg.screenshot != "" && a.capture.last != nil {
		errs = append(errs, fileErr("screenshot", a.cfg.screenshot, atomicfile.WriteFile(a.cfg.screenshot, func(w io.Writer) error {
			return png.Encode(w, a.capture.last)
		})))
	}
	if g := a.capture.gif; g != nil {
		errs = append(errs, fileErr("gif", a.cfg.gifFile, atomicfile.WriteFile(a.cfg.gifFile, g.write)))
	}
	if a.cfg.stateFile != "" {
		errs = append(errs, fileErr("state", a.cfg.stateFile, atomicfile.WriteFile(a.cfg.stateFile, a.writeState)))
	}
	if a.cfg.stats {
		b, err := json.Marshal(a.stats())
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// fileErr names the flag of a file that could not be written. The errors
// of package atomicfile and replay already name the file.
func fileErr(flag, path string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("-%s: %v", flag, err)
}

func ms(d time.Duration) float64 { return report.Ms(int64(d)) }

// mib is a byte count in MiB, rounded to 3 decimals; nil when unknown (0).
func mib(b int64) *float64 {
	if b <= 0 {
		return nil
	}
	v := report.Round3(float64(b) / (1 << 20))
	return &v
}

// stats are the run's statistics for -stats.
func (a *app) stats() *report.Stats {
	s := &a.st
	w := a.sim.World()
	set := a.sim.Settings()
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
	r := &report.Stats{
		Frames:             s.frames,
		Ticks:              a.sim.Ticks(),
		Seconds:            report.Round3(wall.Seconds()),
		FPS:                rate(s.frames - 1),
		TPS:                rate(a.sim.Ticks()),
		MaxTicksPerFrame:   s.maxTicksPerFrame,
		TicksPerFrame:      hist,
		CappedFrames:       s.cappedFrames,
		DiscardedMs:        ms(s.discarded),
		Interp:             a.view.draw != drawOff,
		Draw:               a.view.draw.String(),
		VsyncRequested:     a.vsync.requested.String(),
		VsyncActual:        a.vsync.actual,
		Balls:              w.N(),
		StateHash:          fmt.Sprintf("%016x", w.Hash()),
		WorldTicks:         w.Ticks(),
		UploadBytes:        s.uploadBytes,
		UploadBytesNoTick:  s.uploadBytesNoTick,
		OverlayUploadBytes: a.ov.uploadedBytes(),
		FrameMsP50:         ms(s.interval.Quantile(0.5)),
		FrameMsP99:         ms(s.interval.Quantile(0.99)),
		FrameMsMax:         ms(s.interval.Max()),
		FPSCap:             a.view.fpsCap,
		Mode:               a.sim.Mode().String(),
		Speed:              a.sim.Speed(),
		Paused:             a.sim.Paused(),
		RenderLoadMs:       ms(a.view.renderLoad),
		LogicLoadMs:        ms(a.sim.LogicLoad()),
		TickMs:             ms(a.sim.Tick()),
		MaxLoops:           int(set.MaxLoops),
		Lockstep:           set.Lockstep,
		HUD:                a.view.hud,
		Graph:              a.view.graph,
		Ghosts:             a.view.ghosts,
		Player:             w.Player(),
		StartupMs:          ms(s.firstShow),
		VideoDriver:        a.win.Driver(),
		GLRenderer:         a.ov.glInfo,
	}
	a.pace.report(r)
	if s.capErr.Count() > 0 {
		v := ms(s.capErr.Quantile(0.99))
		r.CapErrorMsP99 = &v
	}
	if wall > 0 {
		r.CPUFraction = report.Round3(float64(cpuTime()-s.cpuStart) / float64(wall))
	}
	if s.warm {
		allocs, gcs := s.stop.allocs-s.start.allocs, uint64(s.stop.gcs-s.start.gcs)
		r.AllocsAfterWarmup, r.GCAfterWarmup = &allocs, &gcs
		threads := uint64(max(0, s.stop.threads-s.start.threads))
		r.ThreadsAfterWarmup = &threads
		r.RSSMBStart, r.RSSMBEnd, r.RSSMBPeak = mib(s.start.rss), mib(s.stop.rss), mib(s.stop.peak)
	}
	if h := a.sim.TickTimes(); h.Count() > 0 {
		v := report.Round3(float64(h.Mean()) / 1e6)
		r.TickMsMean = &v
	}
	if s.tickFrames > 0 {
		v := (s.uploadBytes - s.uploadBytesNoTick) / s.tickFrames
		r.UploadBytesPerTickFrame = &v
	}
	if a.sim.Recording() {
		r.Record = a.cfg.recordFile
	}
	if a.sim.Replaying() {
		ok := a.sim.ReplayOK()
		r.Replay, r.ReplayOK = a.cfg.replayFile, &ok
	}
	if a.net != nil {
		st := a.net.sess.Stats()
		r.Net = &report.Net{
			Role: st.Role.String(), Players: st.Players, Player: st.Index, InputDelay: st.Delay,
			RTTMs: rttMs(&st), StallFrames: st.StallFrames, StallMs: ms(st.StallTime),
			PacketsSent: st.PacketsSent, PacketsReceived: st.PacketsReceived, BadPackets: st.BadPackets,
			Desyncs: st.Desyncs, Kicked: kicked(&st), End: st.End, Netcode: a.cfg.net.netcode,
		}
		if rb, ok := a.sim.Rollback(); ok {
			r.Net.Rollback = &report.Rollback{
				Rollbacks: rb.Rollbacks, ResimulatedTicks: rb.Resimulated, MaxRollbackTicks: rb.MaxRollback,
				PredictionErrors: rb.PredictionErrors, SnapshotBytes: rb.SnapshotBytes,
				RollbackMsP99: ms(rb.ResimTime.Quantile(0.99)), StallFrames: rb.StallFrames,
			}
		}
	}
	if a.cfg.syncTest > 0 {
		n := a.sim.SyncTestTicks()
		r.SyncTestTicks = &n
	}
	return r
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

func (a *app) writeState(out io.Writer) error {
	w := a.sim.World()
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
