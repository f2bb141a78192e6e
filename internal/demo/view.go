package demo

import "time"

// drawMode is where between a ball's last and next logic position it is
// drawn.
type drawMode int

const (
	drawInterp drawMode = iota // at percentWithinTick between last and next
	drawExtrap                 // ahead of next by percentWithinTick
	drawOff                    // at next: steps at the tick rate
	numDrawModes
)

// drawModeNames are each mode's name (-stats), and how the HUD and the
// window title say where the balls are drawn: "off" is interpolation's,
// the balls are drawn all the same, at their next logic position.
var drawModeNames = [numDrawModes]struct{ name, hud, title string }{
	drawInterp: {"interpolate", "interpolated", "interp on"},
	drawExtrap: {"extrapolate", "extrapolated", "interp extrapolate"},
	drawOff:    {"off", "at next position", "interp off"},
}

func (m drawMode) String() string { return drawModeNames[m].name }

// alpha is the shader's mix factor from last (0) to next (1).
func (m drawMode) alpha(percent float64) float32 {
	switch m {
	case drawInterp:
		return float32(percent)
	case drawExtrap:
		return float32(1 + percent)
	}
	return 1
}

// view is what the keys change about the picture and the frame.
type view struct {
	draw               drawMode
	hud, graph, ghosts bool
	help               bool // the HUD's long form: settings, keys, legend
	fpsCap             int
	renderLoad         time.Duration
}

// capInterval is the frame interval the cap asks for; 0 without a cap.
func (v *view) capInterval() time.Duration {
	if v.fpsCap <= 0 {
		return 0
	}
	return time.Second / time.Duration(v.fpsCap)
}

// vsyncState is the vsync asked for and what the display gave.
type vsyncState struct {
	requested Vsync
	actual    string // on, off, adaptive, unsupported, offscreen, simulated N Hz, emulated N Hz
	logged    bool   // the first refusal was logged
}
