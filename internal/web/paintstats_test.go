package web

import (
	"strings"
	"testing"

	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/render/adaptive"
)

// The painted option's costs as -stats and the HUD report them: with all
// four options measured, painted frames (3 ms of painting, 1 ms more,
// the GPU 0.5 ms) cheapest, the choice paints; dearest, it does not, and
// the painting's figures stay what was measured.
func TestPaintStats(t *testing.T) {
	var r report.Stats
	newPaintStats(adaptive.Auto, false, nil).report(&r)
	if r.Paint != "off" || r.PaintMode != "auto" || r.PaintCostMs != nil || r.PaintComparedFrames == nil || *r.PaintComparedFrames != 0 {
		t.Errorf("auto, no choice: %q %q cost %v compared %v", r.Paint, r.PaintMode, r.PaintCostMs, r.PaintComparedFrames)
	}
	cost := [numOptions]adaptive.Cost{{Busy: 10e6}, {Busy: 12e6}, {Strategy: 1e6, Busy: 8e6}, {Strategy: 3e6, Busy: 1e6}}
	gpu := [numOptions]int64{9e6, 11e6, 6e6, 5e5}
	c := measuredChoice(0, cost, gpu)
	s := newPaintStats(adaptive.Auto, c.Option() == optPainted, c)
	all, _ := c.Compared()
	if !s.On || s.CostNs != 4e6 || s.PaintNs != 3e6 || s.GPUNs != 5e5 || s.Compared == 0 || s.Compared > all {
		t.Errorf("painted cheapest: %+v (all compared %d)", s, all)
	}
	r = report.Stats{}
	s.report(&r)
	if r.Paint != "on" || *r.PaintCostMs != 4 || *r.PaintMs != 3 || *r.PaintGPUMs != 0.5 || *r.PaintComparedFrames != s.Compared {
		t.Errorf("report: %q cost %v paint %v gpu %v compared %v", r.Paint, *r.PaintCostMs, *r.PaintMs, *r.PaintGPUMs, *r.PaintComparedFrames)
	}
	line := string(hud.AppendText(nil, &hud.Snapshot{Help: true, Sprites: hud.Sprites{Known: true, Mode: "auto", CostQuads: -1, CostPoints: -1,
		Painted: s.On, PaintMode: s.Mode.String(), CostPainted: s.costHUD()}}))
	if !strings.Contains(line, "sprites painted (paint auto)  frame 4ms painted") {
		t.Errorf("HUD: %q", line)
	}

	cost[optPainted] = adaptive.Cost{Strategy: 30e6, Busy: 1e6}
	c = measuredChoice(0, cost, gpu)
	if s := newPaintStats(adaptive.Auto, c.Option() == optPainted, c); s.On || c.Option() == optPainted || s.CostNs != 31e6 {
		t.Errorf("painted dearest: option %d, %+v", c.Option(), s)
	}
}
