package web

import (
	"time"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/render/adaptive"
)

// spriteStats is the page's form of the balls: the choice and the costs
// behind it, as the window's renderer reports them (render.SpriteStats),
// for -stats and the HUD. Plain Go, so that it builds and is tested
// outside a browser too.
type spriteStats struct {
	Mode  adaptive.Mode // what the page was asked for (?sprites=; On: points, Off: squares, as demo.SpritesForms names them)
	Quads bool          // the form in force: squares
	// Timer says the browser offers EXT_disjoint_timer_query_webgl2:
	// without it, auto stays with points (sprites.go).
	Timer bool
	// The typical costs of the last comparison (each form's lower
	// quartile, see adaptive.Choice.Costs) in nanoseconds, -1 where not
	// measured: a frame's whole cost drawn as squares and as points (the
	// Go frame's wall time and the ball draw's GPU time), and the draw's
	// GPU time each way.
	CostQuadsNs, CostPointsNs, GPUQuadsNs, GPUPointsNs int64
	// Compared and Tried count the comparisons' frames, and those of
	// them in the form not in force.
	Compared, Tried int
}

// squaresMode is the page's choice's mode for ?sprites= (as
// demo.SpritesForms names the modes, On for points): its choice is of
// squares, on drawing them, so that auto starts with points (sprites.go).
func squaresMode(m adaptive.Mode) adaptive.Mode {
	switch m {
	case adaptive.On:
		return adaptive.Off
	case adaptive.Off:
		return adaptive.On
	}
	return m
}

// newSpriteStats reads choice's costs into the stats of a page asked for
// mode; choice is of squares (squaresMode).
func newSpriteStats(mode adaptive.Mode, quads, timer bool, choice *adaptive.Choice) spriteStats {
	s := spriteStats{Mode: mode, Quads: quads, Timer: timer, CostQuadsNs: -1, CostPointsNs: -1, GPUQuadsNs: -1, GPUPointsNs: -1}
	if choice == nil {
		return s
	}
	m := choice.Summary() // "on" draws squares
	s.CostQuadsNs, s.CostPointsNs, s.GPUQuadsNs, s.GPUPointsNs = m.OnTotal, m.OffTotal, m.OnGPU, m.OffGPU
	s.Compared, s.Tried = m.Compared, m.Tried
	return s
}

// report adds the form to -stats, with the window's keys.
func (s spriteStats) report(r *report.Stats) {
	r.SetSprites(report.Sprites{Mode: demo.SpritesForms[s.Mode], Quads: s.Quads,
		CostQuadsNs: s.CostQuadsNs, CostPointsNs: s.CostPointsNs, GPUQuadsNs: s.GPUQuadsNs, GPUPointsNs: s.GPUPointsNs,
		Compared: s.Compared, Tried: s.Tried})
}

// hud is the form's line of the HUD's long form. It allocates nothing:
// the mode's name is a constant.
func (s spriteStats) hud() hud.Sprites {
	mode := demo.SpritesForms[s.Mode]
	if s.Mode == adaptive.Auto && !s.Timer {
		mode = noTimerMode
	}
	return hud.Sprites{Known: true, Quads: s.Quads, Mode: mode,
		CostQuads: time.Duration(s.CostQuadsNs), CostPoints: time.Duration(s.CostPointsNs)}
}
