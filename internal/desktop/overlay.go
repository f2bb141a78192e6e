package desktop

import (
	"image"
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
	lframe     render.Frame // the layers' frame, where the world has a window of its own
	nLayers    int          // layers in the last frame
	moved      bool         // a layer moved, came or went since the layers were last drawn apart
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

// draw draws the scene in a drawable of w x h pixels, the world in its
// part of it and the layers around; it fails only where the markers'
// program, made on first use, cannot be.
func (o *overlays) draw(r *render.Renderer, sc *demo.Scene, w, h int) error {
	return o.drawWorld(r, sc, w, h, render.Rect(sc.World), o.layersOf(sc))
}

// drawWorld draws the balls, the ghosts, the layers ls (if any) and the
// rings of the scene in a drawable of w x h pixels, the world at area.
func (o *overlays) drawWorld(r *render.Renderer, sc *demo.Scene, w, h int, area render.Rect, ls []render.Layer) error {
	if sc.Highlight {
		r.SetHighlight(sc.HighlightBall)
	} else {
		r.SetHighlight(-1)
	}
	r.ResizeArea(w, h, area)
	f := &o.frame
	f.Alpha, f.Ghosts, f.Layers = sc.Alpha, sc.Ghosts, ls
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

// layersOf uploads what changed in the scene's panels and returns them
// as the frame's layers.
func (o *overlays) layersOf(sc *demo.Scene) []render.Layer {
	o.upload(sc)
	return o.place(sc)
}

// upload uploads what changed in the scene's panels, in the current
// context: the one that draws them (an upload in another context waits
// for the frame that context is drawing).
func (o *overlays) upload(sc *demo.Scene) {
	for _, part := range panelChanges(sc.HUD) {
		o.hud.Upload(sc.HUD.Img, part)
	}
	for _, part := range panelChanges(sc.Graph) {
		o.graph.Upload(sc.Graph.Img, part)
	}
}

// panelChanges is what changed in panel p, if any.
func panelChanges(p *demo.Panel) []image.Rectangle {
	if p == nil {
		return nil
	}
	return p.Changed
}

// changed reports whether the scene's panels have changes to upload.
func (o *overlays) changed(sc *demo.Scene) bool {
	return len(panelChanges(sc.HUD)) > 0 || len(panelChanges(sc.Graph)) > 0
}

// place returns the scene's panels as the frame's layers; moved says
// whether a layer moved, came or went since the last frame.
func (o *overlays) place(sc *demo.Scene) []render.Layer {
	n := o.layer(0, sc.HUD, o.hud)
	n += o.layer(n, sc.Graph, o.graph)
	if n != o.nLayers {
		o.nLayers, o.moved = n, true
	}
	return o.layers[:n]
}

// layerFrame is the frame of the layers alone, for the window around a
// world drawn in a window of its own; what changed in them is uploaded
// by upload.
func (o *overlays) layerFrame(sc *demo.Scene) *render.Frame {
	o.lframe.Layers = o.place(sc)
	return &o.lframe
}

// layer makes panel p, if any, the frame's layer i, drawn from texture
// tex, and returns how many layers it made (0 or 1). The layer is kept
// from frame to frame, written only when the panel moves: a frame at a
// million a second spends nothing on it.
func (o *overlays) layer(i int, p *demo.Panel, tex *render.Overlay) int {
	if p == nil {
		return 0
	}
	if l := &o.layers[i]; l.Overlay != tex || l.X != p.X || l.Y != p.Y || l.W != p.W || l.H != p.H {
		*l = render.Layer{Overlay: tex, X: p.X, Y: p.Y, W: p.W, H: p.H, Opaque: true}
		o.moved = true
	}
	return 1
}

// renderEnv is a hidden switch for measuring the renderer against its
// references (cmd/bench): a comma-separated list of
//
//	painter   draw the balls in one pass, every fragment shaded and blended
//	redraw    paint every frame whole, even where the drawable keeps its
//	          pixels
//	retained  where the drawable keeps its pixels (headless), repaint only
//	          what changed (the default)
//	swap      in a window, present by swaps alone, as where GLX cannot
//	          present parts of the back buffer (NVIDIA's)
const renderEnv = "INTERPDEMO_RENDER"

// renderChoice is what renderEnv asks for.
type renderChoice struct {
	painter, redraw, swap bool
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
		case "swap":
			c.swap = true
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
