package web

import (
	"time"

	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/render/adaptive"
)

// cullStats is the page's occlusion culling: the choice and the costs
// behind it, as the window's renderer reports them (render.CullStats),
// for -stats and the HUD. Plain Go, so that it builds and is tested
// outside a browser too.
type cullStats struct {
	Mode adaptive.Mode // what the page was asked for (?cull=)
	On   bool          // the option in force is the culled points (false where culling cannot run)
	// Timer says the browser offers EXT_disjoint_timer_query_webgl2:
	// without it, auto stays off (see docs/WEB.md).
	Timer bool
	// Hidden is how many balls the last culled frame hid.
	Hidden int
	// The typical costs of the last comparisons (each part's lower
	// quartile, see adaptive.Choice.Measures), in nanoseconds, -1 where
	// not measured: the culler's time; the ball draw's GPU time with and
	// without culling; a frame's whole cost with and without (the Go
	// frame's wall time and the draw's GPU time: cull.go). Without is
	// the cheaper measured of the two forms unculled, points and squares
	// (options.go), the GPU time its own.
	WalkNs, GPUOnNs, GPUOffNs, CostOnNs, CostOffNs int64
	// Compared and Tried count the frames of the comparisons of culled
	// points with any other option (either form unculled, the painted
	// image), and those of them with the option not in force
	// (adaptive.Choice.ComparedPair).
	Compared, Tried int
}

// newCullStats reads the page's choice's costs (nil where it has none:
// no GPU timer, or every mode forced) into the stats of a page asked for
// mode; on says the culled points are in force, where culling can run.
func newCullStats(mode adaptive.Mode, on, timer bool, hidden int, choice *adaptive.Choice) cullStats {
	s := cullStats{Mode: mode, On: on, Timer: timer, WalkNs: -1, GPUOnNs: -1, GPUOffNs: -1, CostOnNs: -1, CostOffNs: -1}
	if on {
		s.Hidden = hidden
	}
	if choice == nil {
		return s
	}
	s.CostOnNs, s.WalkNs, s.GPUOnNs = choice.Measures(optCulled)
	s.CostOffNs, s.GPUOffNs = cheaperUnculled(choice)
	for _, other := range [3]int{optPoints, optSquares, optPainted} {
		frames, tried := choice.ComparedPair(optCulled, other)
		s.Compared, s.Tried = s.Compared+frames, s.Tried+tried
	}
	return s
}

// cheaperUnculled is the typical frame and the last GPU time of the form
// unculled, points or squares, whose frame measured cheaper (either,
// where only one was measured; -1, -1 where neither was).
func cheaperUnculled(choice *adaptive.Choice) (total, gpu int64) {
	total, _, gpu = choice.Measures(optPoints)
	if q, _, qg := choice.Measures(optSquares); q >= 0 && (total < 0 || q < total) {
		total, gpu = q, qg
	}
	return total, gpu
}

// report adds the culling to -stats, with the window's keys.
func (s cullStats) report(r *report.Stats) {
	r.SetCull(report.Cull{Mode: s.Mode.String(), On: s.On, Hidden: s.Hidden, WalkNs: s.WalkNs,
		GPUOnNs: s.GPUOnNs, GPUOffNs: s.GPUOffNs, CostOnNs: s.CostOnNs, CostOffNs: s.CostOffNs,
		Compared: s.Compared, Tried: s.Tried})
}

// noTimerMode is the HUD's word for auto in a browser without a GPU
// timer, where it stays off.
const noTimerMode = "auto, no GPU timer"

// hud is the culling's line of the HUD's long form. It allocates
// nothing: the mode's name is a constant.
func (s cullStats) hud() hud.Cull {
	mode := s.Mode.String()
	if s.Mode == adaptive.Auto && !s.Timer {
		mode = noTimerMode
	}
	return hud.Cull{Known: true, On: s.On, Mode: mode,
		Walk: time.Duration(s.WalkNs), CostOn: time.Duration(s.CostOnNs), CostOff: time.Duration(s.CostOffNs)}
}
