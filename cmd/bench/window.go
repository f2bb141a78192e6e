package main

import (
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/internal/xvfb"
)

// windowResults are runs in a real window, under Xvfb.
type windowResults struct {
	secs     string
	emulated *report.Stats // -vsync on, which Xvfb refuses: emulated
}

// window measures the demo in a window: vsync on where the driver
// refuses it.
func window(o *options, r *results) error {
	x, err := xvfb.Start(15 * time.Second)
	if err != nil {
		return fmt.Errorf("%v (make test-deps installs Xvfb)", err)
	}
	defer x.Stop()
	w := &windowResults{secs: o.dur("10s")}
	if w.emulated, err = nativeIn(o, x.Display, "-vsync", "on", "-duration", w.secs, "-stats"); err != nil {
		return err
	}
	r.window = w
	return nil
}

func (w *windowResults) write(p func(string, ...any)) {
	if w == nil {
		return
	}
	s := w.emulated
	p("## Refused vsync, in a window\n\n")
	p("`bin/interpdemo -vsync on -duration %s -stats` in a window under Xvfb, whose GL refuses every swap interval, 1 ball, HUD and graph on: vsync is emulated, each frame waiting for the next vblank of a grid at the display mode's rate.\n\n", w.secs)
	p("| vsync | refresh ms | FPS | within 5%% of the refresh rate | CPU (cores) | missed vblanks | display step error p99 ms |\n|---|---:|---:|---|---:|---:|---:|\n")
	rate := 0.0
	if s.RefreshMs != nil && *s.RefreshMs > 0 {
		rate = 1000 / *s.RefreshMs
	}
	within := rate > 0 && s.FPS >= 0.95*rate && s.FPS <= 1.05*rate
	p("| %s | %s | %.1f | %s | %.3f | %s | %s |\n\n", s.VsyncActual, floatOr(s.RefreshMs, "%.3f"), s.FPS, map[bool]string{true: "yes", false: "**no**"}[within],
		s.CPUFraction, intOr(s.MissedVblanks), floatOr(s.DisplayStepErrorMsP99, "%.3f"))
}
