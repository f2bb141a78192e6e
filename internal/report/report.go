// Package report is the demo's -stats output: one JSON object per run,
// written by the demo and read by the bench command and the end-to-end
// tests, all through the one Stats type, so a renamed key breaks the build
// instead of a type assertion at run time.
package report

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// LaunchedEnv names the environment variable in which a program that
// starts the demo (cmd/bench does) may give the wall-clock time it
// started it at, in nanoseconds since 1970 (Go's time.Now().UnixNano(),
// read just before the exec): StartupMs then counts from it. Without it,
// the demo counts from the start the system keeps, which Linux rounds
// down to its clock tick of 10 ms: over by up to 10 ms from that alone (5
// to 14 ms measured on this project's machine). A
// value that is no such time, or not within the minute before the
// demo's main, is ignored.
const LaunchedEnv = "INTERPDEMO_LAUNCHED_NS"

// Stats is one run's statistics, as -stats prints them on one line.
// Fields with a pointer type are left out when they do not apply.
type Stats struct {
	Frames           int64            `json:"frames"`
	Ticks            int64            `json:"ticks"`
	Seconds          float64          `json:"seconds"`
	FPS              float64          `json:"fps"`
	TPS              float64          `json:"tps"`
	MaxTicksPerFrame int              `json:"max_ticks_per_frame"`
	TicksPerFrame    map[string]int64 `json:"ticks_per_frame"` // "0", "1", …, "128+": frames
	CappedFrames     int64            `json:"capped_frames"`
	DiscardedMs      float64          `json:"discarded_ms"`

	Interp         bool   `json:"interp"`
	Draw           string `json:"draw"`
	VsyncRequested string `json:"vsync_requested"`
	VsyncActual    string `json:"vsync_actual"`

	// Pacing is raw or smooth. RefreshMs is the refresh interval the
	// frame pacer found (while a display paces the frames).
	// DisplayStepErrorMsP99 is the 99th percentile over the frames of
	// |(game time drawn − the last frame's) / speed − (time shown − the
	// last frame's)|: 0 for perfectly even motion. MissedVblanks counts
	// the vblanks no frame was shown at, where the refresh is known.
	// LateWakeups (-vsync-sim only) counts the frames that woke up more
	// than half an interval after the simulated display meant them to:
	// the machine's own scheduling delays, which spoil any pacing.
	Pacing                string   `json:"pacing"`
	RefreshMs             *float64 `json:"refresh_ms,omitempty"`
	DisplayStepErrorMsP99 *float64 `json:"display_step_error_ms_p99,omitempty"`
	MissedVblanks         *int64   `json:"missed_vblanks,omitempty"`
	LateWakeups           *int64   `json:"late_wakeups,omitempty"`

	Balls      int    `json:"balls"`
	StateHash  string `json:"state_hash"`
	WorldTicks uint64 `json:"world_ticks"`

	UploadBytes             int64  `json:"upload_bytes"`
	UploadBytesNoTick       int64  `json:"upload_bytes_no_tick"`
	UploadBytesPerTickFrame *int64 `json:"upload_bytes_per_tick_frame,omitempty"`
	OverlayUploadBytes      int64  `json:"overlay_upload_bytes"`

	FrameMsP50    float64  `json:"frame_ms_p50"`
	FrameMsP99    float64  `json:"frame_ms_p99"`
	FrameMsMax    float64  `json:"frame_ms_max"`
	FPSCap        int      `json:"fps_cap"`
	CapErrorMsP99 *float64 `json:"cap_error_ms_p99,omitempty"`
	CPUFraction   float64  `json:"cpu_fraction"`

	Mode         string   `json:"mode"`
	Speed        float64  `json:"speed"`
	Paused       bool     `json:"paused"`
	RenderLoadMs float64  `json:"render_load_ms"`
	LogicLoadMs  float64  `json:"logic_load_ms"`
	TickMs       float64  `json:"tick_ms"`
	TickMsMean   *float64 `json:"tick_ms_mean,omitempty"` // world update time per tick
	MaxLoops     int      `json:"max_loops"`
	Lockstep     bool     `json:"lockstep"`

	HUD    bool `json:"hud"`
	Graph  bool `json:"graph"`
	Ghosts bool `json:"ghosts"`
	Player bool `json:"player"`

	// StartupMs is the time from the process's start to its first frame
	// presented (see LaunchedEnv).
	StartupMs   float64 `json:"startup_ms"`
	VideoDriver string  `json:"video_driver"`
	// Present is how the last frame reached the screen: "swap" (whole),
	// "parts" (only what changed: GLX_MESA_copy_sub_buffer), "split"
	// (the same, the world in a window of its own) or "split-swap" (the
	// world in a window of its own, swapped; where GLX cannot present
	// parts). None from a page.
	Present    string `json:"present,omitempty"`
	GLRenderer string `json:"gl_renderer"`

	// Cull is the occlusion culling's choice in force at exit, "on" or
	// "off" ("off" too where it cannot run: see render.Renderer.Culling);
	// CullMode how it was chosen (-cull: auto, on or off); CullHidden the
	// balls the last culled frame hid. With auto, what the last comparison
	// measured (in the window the medians of its blocks' mean frames, on
	// the page the lower quartiles of its frames), where measured: the culler's CPU time, the ball draw's
	// GPU time with and without culling, and what a frame cost with and
	// without (its wall time from the ball draw to the end of the frame).
	Cull          string   `json:"cull,omitempty"`
	CullMode      string   `json:"cull_mode,omitempty"`
	CullHidden    *int     `json:"cull_hidden,omitempty"`
	CullWalkMs    *float64 `json:"cull_walk_ms,omitempty"`
	CullGPUOnMs   *float64 `json:"cull_gpu_on_ms,omitempty"`
	CullGPUOffMs  *float64 `json:"cull_gpu_off_ms,omitempty"`
	CullCostOnMs  *float64 `json:"cull_cost_on_ms,omitempty"`
	CullCostOffMs *float64 `json:"cull_cost_off_ms,omitempty"`
	// With auto: the frames its comparisons drew, both options, and
	// those of them that tried the option not in force.
	CullComparedFrames *int `json:"cull_compared_frames,omitempty"`
	CullTriedFrames    *int `json:"cull_tried_frames,omitempty"`

	// Sprites is the balls' form in force at exit where they are not
	// culled, "quads" (squares of two triangles) or "points" (point
	// sprites; "points" too where squares cannot be drawn); SpritesMode
	// how it was chosen (-sprites: auto, points or quads). With auto, as
	// for the culling: what the last comparison measured, where
	// measured, a frame's cost and the ball draw's GPU time each way, and
	// the frames the comparisons drew and tried. A page reports the same.
	Sprites               string   `json:"sprites,omitempty"`
	SpritesMode           string   `json:"sprites_mode,omitempty"`
	SpritesCostQuadsMs    *float64 `json:"sprites_cost_quads_ms,omitempty"`
	SpritesCostPointsMs   *float64 `json:"sprites_cost_points_ms,omitempty"`
	SpritesGPUQuadsMs     *float64 `json:"sprites_gpu_quads_ms,omitempty"`
	SpritesGPUPointsMs    *float64 `json:"sprites_gpu_points_ms,omitempty"`
	SpritesComparedFrames *int     `json:"sprites_compared_frames,omitempty"`
	SpritesTriedFrames    *int     `json:"sprites_tried_frames,omitempty"`

	// Paint is whether the page painted its balls on the CPU at exit,
	// "on" or "off" (a page only: the window never paints); PaintMode how
	// it was chosen (-paint). With auto, what the last comparison that
	// painted measured, as for the culling: the painting's CPU time, the
	// upload and draw's GPU time, a painted frame's whole cost, and the
	// frames the comparisons with painting drew and tried.
	Paint               string   `json:"paint,omitempty"`
	PaintMode           string   `json:"paint_mode,omitempty"`
	PaintMs             *float64 `json:"paint_ms,omitempty"`
	PaintGPUMs          *float64 `json:"paint_gpu_ms,omitempty"`
	PaintCostMs         *float64 `json:"paint_cost_ms,omitempty"`
	PaintComparedFrames *int     `json:"paint_compared_frames,omitempty"`
	PaintTriedFrames    *int     `json:"paint_tried_frames,omitempty"`

	// Heap allocations and GC cycles from the end of the first second to
	// the end of the loop, counted exactly (runtime.ReadMemStats). The GC
	// cycles include the runtime's own periodic one, which it starts when
	// no cycle has run for two minutes, allocations or not.
	AllocsAfterWarmup *uint64 `json:"allocs_after_warmup,omitempty"`
	GCAfterWarmup     *uint64 `json:"gc_after_warmup,omitempty"`
	// ThreadsAfterWarmup is the OS threads the Go scheduler started after
	// the warm-up (runtime.ThreadCreateProfile). Each costs the runtime a
	// few heap allocations of its own (the thread's m and g structures),
	// which allocs_after_warmup counts: a thread is started when the
	// scheduler needs one more at once than ever before, which a loaded
	// machine can cause at any time. The warm-up makes the runtime start
	// the threads a frame can need (threads.go), so this stays 0.
	ThreadsAfterWarmup *uint64 `json:"threads_after_warmup,omitempty"`
	// Resident memory (Linux: /proc/self/statm) in MiB at the end of the
	// warm-up and at the end of the run, so that a slow leak shows, and
	// the most the process ever had resident (VmHWM of
	// /proc/self/status), start-up included.
	RSSMBStart *float64 `json:"rss_mb_start,omitempty"`
	RSSMBEnd   *float64 `json:"rss_mb_end,omitempty"`
	RSSMBPeak  *float64 `json:"rss_mb_peak,omitempty"`

	Record   string `json:"record,omitempty"`
	Replay   string `json:"replay,omitempty"`
	ReplayOK *bool  `json:"replay_ok,omitempty"`

	*Net // a network game's figures, or nothing

	SyncTestTicks *int64 `json:"synctest_ticks,omitempty"` // -synctest: ticks simulated twice
}

// Net is what a peer of a network game reports, in the same JSON object.
type Net struct {
	Role            string    `json:"net_role"` // host, join or spectator
	Players         int       `json:"net_players"`
	Player          int       `json:"net_player"` // this peer's index; the host is 0
	InputDelay      int       `json:"net_input_delay"`
	RTTMs           []float64 `json:"net_rtt_ms"` // per player; 0 for this one
	StallFrames     int64     `json:"net_stall_frames"`
	StallMs         float64   `json:"net_stall_ms"`
	PacketsSent     int64     `json:"net_packets_sent"`
	PacketsReceived int64     `json:"net_packets_received"`
	BytesSent       int64     `json:"net_bytes_sent"`
	SendBytesPerS   float64   `json:"net_send_bytes_per_s"` // over the game, from its first tick to its last frame
	TicksAhead      []int64   `json:"net_ticks_ahead"`      // per player: this peer's ticks run less the player's, as it last reported them
	BadPackets      int64     `json:"net_bad_packets"`
	Desyncs         int       `json:"net_desyncs"`
	Kicked          []int     `json:"net_kicked"` // players kicked
	End             string    `json:"net_end,omitempty"`
	Netcode         string    `json:"net_netcode"`   // lockstep or rollback
	Transport       string    `json:"net_transport"` // udp, or webrtc (through a lobby)
	StartMs         float64   `json:"net_start_ms"`  // from the run's start (its clock's zero) to the game's first tick
	// FrameAdvantage is how many ticks this peer's game was ahead of the
	// game furthest behind at the end, as it estimated it (negative:
	// behind); TimeSyncMs the time its loop did not count so that the
	// others caught up (time sync).
	FrameAdvantage float64 `json:"net_frame_advantage"`
	TimeSyncMs     float64 `json:"net_time_sync_ms"`

	*Rollback  // the rollback netcode's figures, or nothing
	*Spectator // a spectator's figures, or nothing
	// Spectators is the number of spectators a host welcomed.
	Spectators *int64 `json:"net_spectators,omitempty"`
}

// Spectator is what a spectator's joining took.
type Spectator struct {
	StartTick     uint64  `json:"spectator_start_tick"`     // the tick of the snapshot it started from
	SnapshotBytes int     `json:"spectator_snapshot_bytes"` // the snapshot's size
	JoinMs        float64 `json:"spectator_join_ms"`        // from its first Hello to the snapshot loaded
}

// Rollback is what the rollback netcode did.
type Rollback struct {
	Rollbacks        int64   `json:"rollbacks"`          // frames that restored a snapshot
	ResimulatedTicks int64   `json:"resimulated_ticks"`  // ticks simulated again
	MaxRollbackTicks int     `json:"max_rollback_ticks"` // the deepest rollback
	PredictionErrors int64   `json:"prediction_errors"`  // remote inputs that were predicted wrong
	SnapshotBytes    int     `json:"snapshot_bytes"`     // one saved world
	RollbackMsP99    float64 `json:"rollback_ms_p99"`    // time a frame spent re-simulating, over the frames that did
	StallFrames      int64   `json:"rollback_stall_frames"`
}

// Parse reads the Stats of a -stats line. Unknown keys are an error, so a
// reader and a writer that disagree are caught.
func Parse(line []byte) (*Stats, error) {
	dec := json.NewDecoder(strings.NewReader(string(line)))
	dec.DisallowUnknownFields()
	var s Stats
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	return &s, nil
}

// TicksHist returns the ticks-per-frame histogram as counts indexed by
// the number of ticks (the last index counts that many or more).
func (s *Stats) TicksHist() []int64 {
	var h []int64
	for k, n := range s.TicksPerFrame {
		i, err := strconv.Atoi(strings.TrimSuffix(k, "+"))
		if err != nil || i < 0 {
			continue
		}
		for len(h) <= i {
			h = append(h, 0)
		}
		h[i] += n
	}
	return h
}

// Ms rounds a duration in milliseconds to 3 decimals, as every _ms field
// is written.
func Ms(ns int64) float64 { return Round3(float64(ns) / 1e6) }

// Round3 rounds to 3 decimals, half away from zero.
func Round3(v float64) float64 {
	if v < 0 {
		return -Round3(-v)
	}
	return float64(int64(v*1000+0.5)) / 1000
}

// Cull is a renderer's occlusion culling as a front end knows it: the
// mode (-cull), the choice in force, the balls the last culled frame hid,
// and the measured costs in nanoseconds (negative where not measured).
type Cull struct {
	Mode                      string
	On                        bool
	Hidden                    int
	WalkNs, GPUOnNs, GPUOffNs int64
	CostOnNs, CostOffNs       int64
	Compared, Tried           int // frames the comparisons drew, and of them with the option not in force
}

// msOrNil is ns in milliseconds, nil where negative (not measured).
func msOrNil(ns int64) *float64 {
	if ns < 0 {
		return nil
	}
	v := float64(ns) / 1e6
	return &v
}

// Sprites is the balls' form as a renderer chose it, a window's or a
// page's: the mode
// (-sprites), the form in force, and the measured costs in nanoseconds
// (negative where not measured).
type Sprites struct {
	Mode                                               string
	Quads                                              bool
	CostQuadsNs, CostPointsNs, GPUQuadsNs, GPUPointsNs int64
	Compared, Tried                                    int
}

// SetSprites sets the balls' form's keys.
func (r *Stats) SetSprites(s Sprites) {
	r.Sprites, r.SpritesMode = "points", s.Mode
	if s.Quads {
		r.Sprites = "quads"
	}
	r.SpritesCostQuadsMs, r.SpritesCostPointsMs = msOrNil(s.CostQuadsNs), msOrNil(s.CostPointsNs)
	r.SpritesGPUQuadsMs, r.SpritesGPUPointsMs = msOrNil(s.GPUQuadsNs), msOrNil(s.GPUPointsNs)
	if s.Mode == "auto" {
		compared, tried := s.Compared, s.Tried
		r.SpritesComparedFrames, r.SpritesTriedFrames = &compared, &tried
	}
}

// Paint is the page's painting of its balls as its choice made it: the
// mode (-paint), whether it paints, and the measured costs in
// nanoseconds (negative where not measured).
type Paint struct {
	Mode                   string
	On                     bool
	PaintNs, GPUNs, CostNs int64
	Compared, Tried        int
}

// SetPaint sets the painting's keys.
func (r *Stats) SetPaint(p Paint) {
	r.Paint, r.PaintMode = "off", p.Mode
	if p.On {
		r.Paint = "on"
	}
	r.PaintMs, r.PaintGPUMs, r.PaintCostMs = msOrNil(p.PaintNs), msOrNil(p.GPUNs), msOrNil(p.CostNs)
	if p.Mode == "auto" {
		compared, tried := p.Compared, p.Tried
		r.PaintComparedFrames, r.PaintTriedFrames = &compared, &tried
	}
}

// SetCull sets the culling's keys, the same from a window and a page.
func (r *Stats) SetCull(c Cull) {
	r.Cull, r.CullMode = "off", c.Mode
	if c.On {
		r.Cull = "on"
		h := c.Hidden
		r.CullHidden = &h
	}
	r.CullWalkMs = msOrNil(c.WalkNs)
	r.CullGPUOnMs, r.CullGPUOffMs = msOrNil(c.GPUOnNs), msOrNil(c.GPUOffNs)
	r.CullCostOnMs, r.CullCostOffMs = msOrNil(c.CostOnNs), msOrNil(c.CostOffNs)
	if c.Mode == "auto" {
		compared, tried := c.Compared, c.Tried
		r.CullComparedFrames, r.CullTriedFrames = &compared, &tried
	}
}
