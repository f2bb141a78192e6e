package desktop

import (
	"os"
	"strings"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/render"
)

// overlays draw the demo's Scene: the balls, the HUD's and the graph's
// panels as textures (only the parts that changed are uploaded), and the
// rollback ghosts' rings.
type overlays struct {
	hud, graph *render.Overlay
	markers    *render.Markers
	layers     [2]render.Layer
	rings      [render.MaxMarkers]render.Marker
	frame      render.Frame
}

func newOverlays(r *render.Renderer) *overlays {
	return &overlays{
		hud:   r.NewOverlay(demo.HUDMaxWidth, demo.HUDMaxHeight),
		graph: r.NewOverlay(demo.GraphMaxWidth, demo.GraphHeight),
	}
}

func (o *overlays) delete() {
	if o.markers != nil {
		o.markers.Delete()
	}
}

// uploadedBytes is what the overlays sent to the GPU (texture data, apart
// from the balls' buffers).
func (o *overlays) uploadedBytes() int64 {
	return o.hud.UploadedBytes() + o.graph.UploadedBytes()
}

// draw draws the scene; it fails only where the markers' program, made
// on first use, cannot be.
func (o *overlays) draw(r *render.Renderer, sc *demo.Scene) error {
	if sc.Highlight {
		r.SetHighlight(sc.HighlightBall)
	} else {
		r.SetHighlight(-1)
	}
	w, h := r.WindowSize()
	r.ResizeArea(w, h, render.Rect(sc.World))
	f := &o.frame
	*f = render.Frame{Alpha: sc.Alpha, Ghosts: sc.Ghosts, Layers: o.layers[:0]}
	for _, l := range []struct {
		p   *demo.Panel
		tex *render.Overlay
	}{{sc.HUD, o.hud}, {sc.Graph, o.graph}} {
		if l.p == nil {
			continue
		}
		for _, part := range l.p.Changed {
			l.tex.Upload(l.p.Img, part)
		}
		f.Layers = append(f.Layers, render.Layer{Overlay: l.tex, X: l.p.X, Y: l.p.Y, W: l.p.W, H: l.p.H, Opaque: true})
	}
	r.Draw(f)
	if len(sc.Markers) > 0 {
		if o.markers == nil {
			m, err := render.NewMarkers()
			if err != nil {
				return err
			}
			o.markers = m
		}
		rings := o.rings[:0]
		for _, m := range sc.Markers {
			x, y := r.WorldToPixel(m.X, m.Y)
			rings = append(rings, render.Marker{X: float32(x), Y: float32(y), R: m.R, G: m.G, B: m.B, A: m.A})
		}
		_, scale := r.View()
		o.markers.Draw(r, rings, float32(sc.MarkerRadius*scale+3))
	}
	return nil
}

// renderEnv is a hidden switch for measuring the renderer against its
// references (cmd/bench): a comma-separated list of
//
//	painter   draw the balls in one pass, every fragment shaded and blended
//	redraw    paint every frame whole, even where the drawable keeps its
//	          pixels
//	retained  where the drawable keeps its pixels (headless), repaint only
//	          what changed (the default)
const renderEnv = "INTERPDEMO_RENDER"

// renderChoice is what renderEnv asks for.
type renderChoice struct {
	painter, redraw bool
}

// renderChoiceFromEnv reads renderEnv.
func renderChoiceFromEnv() renderChoice {
	var c renderChoice
	for _, w := range strings.Split(os.Getenv(renderEnv), ",") {
		switch strings.TrimSpace(w) {
		case "painter":
			c.painter = true
		case "redraw":
			c.redraw = true
		case "retained":
			c.redraw = false
		}
	}
	return c
}

// renderConfig is the renderer's configuration for the world wc drawn in
// win. Where the drawable keeps its pixels from one frame to the next
// (headless), only what changed is repainted; a window's back buffer is
// undefined after a swap, so there every frame is painted whole.
func renderConfig(wc physics.Config, win *platform.Window, c renderChoice) render.Config {
	return render.Config{
		WorldW: wc.Width, WorldH: wc.Height, Radius: wc.Radius, FracBits: physics.FracBits,
		Painter: c.painter, Retained: win.Preserved() && !c.redraw,
	}
}
