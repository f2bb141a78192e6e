package web

import (
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/render/adaptive"
)

// paintStats is the page's painting of its balls (painted.go): the choice
// and the costs behind it, for -stats and the HUD. Plain Go, so that it
// builds and is tested outside a browser too.
type paintStats struct {
	Mode adaptive.Mode // what the page was asked for (?paint=)
	On   bool          // the option in force is the painted image
	// What the last comparison that painted measured (lower quartiles,
	// see adaptive.Choice.Measures), in nanoseconds, -1 where not
	// measured: the painting's own time, the upload and draw's last GPU
	// time, and a painted frame's whole cost.
	PaintNs, GPUNs, CostNs int64
	// Compared and Tried count the frames of the comparisons of the
	// painted image with any other option, and those of them with the
	// option not in force (adaptive.Choice.ComparedPair).
	Compared, Tried int
}

// newPaintStats reads the page's choice's costs (nil where it has none)
// into the stats of a page asked for mode; on says the painted image is
// in force.
func newPaintStats(mode adaptive.Mode, on bool, choice *adaptive.Choice) paintStats {
	s := paintStats{Mode: mode, On: on, PaintNs: -1, GPUNs: -1, CostNs: -1}
	if choice == nil {
		return s
	}
	s.CostNs, s.PaintNs, s.GPUNs = choice.Measures(optPainted)
	for other := range optPainted {
		frames, tried := choice.ComparedPair(other, optPainted)
		s.Compared, s.Tried = s.Compared+frames, s.Tried+tried
	}
	return s
}

// report adds the painting to -stats.
func (s paintStats) report(r *report.Stats) {
	r.SetPaint(report.Paint{Mode: s.Mode.String(), On: s.On, PaintNs: s.PaintNs, GPUNs: s.GPUNs, CostNs: s.CostNs,
		Compared: s.Compared, Tried: s.Tried})
}

// costHUD is a painted frame's cost for the HUD's form line, -1 where not
// measured.
func (s paintStats) costHUD() time.Duration { return time.Duration(s.CostNs) }
