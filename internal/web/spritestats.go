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
	Quads bool          // the option in force: squares
	// Timer says the browser offers EXT_disjoint_timer_query_webgl2:
	// without it, auto stays with points (sprites.go).
	Timer bool
	// The typical costs of the last comparisons that measured each form
	// unculled (the lower quartile of its frames, see
	// adaptive.Choice.Measures) in nanoseconds, -1 where not measured: a
	// frame's whole cost drawn as squares and as points (the Go frame's
	// wall time and the ball draw's GPU time), and the draw's last GPU
	// time each way.
	CostQuadsNs, CostPointsNs, GPUQuadsNs, GPUPointsNs int64
	// Compared and Tried count the frames of the comparisons of the two
	// forms unculled, and those of them in the form not in force
	// (adaptive.Choice.ComparedPair).
	Compared, Tried int
}

// newSpriteStats reads the page's choice's costs (nil where it has none:
// no GPU timer, or every mode forced) into the stats of a page asked for
// mode; quads says the squares are in force.
func newSpriteStats(mode adaptive.Mode, quads, timer bool, choice *adaptive.Choice) spriteStats {
	s := spriteStats{Mode: mode, Quads: quads, Timer: timer, CostQuadsNs: -1, CostPointsNs: -1, GPUQuadsNs: -1, GPUPointsNs: -1}
	if choice == nil {
		return s
	}
	s.CostQuadsNs, _, s.GPUQuadsNs = choice.Measures(optSquares)
	s.CostPointsNs, _, s.GPUPointsNs = choice.Measures(optPoints)
	s.Compared, s.Tried = choice.ComparedPair(optPoints, optSquares)
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
