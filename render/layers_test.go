package render

import (
	"image"
	"testing"
)

// TestLayersAloneRepaintOnlyWhatChanged: the renderer of the layers alone
// (Config.LayersOnly), around a world that has a window of its own,
// repaints only what the layers changed, however much: never the world's
// area (the world's window covers it, and the X server would clip it
// away after the copy), and, under an opaque layer, the layer alone, with
// nothing cleared beneath it. What it paints is what a whole frame of the
// layers shows there.
func TestLayersAloneRepaintOnlyWhatChanged(t *testing.T) {
	const winW, winH = 900, 600
	win := withGL(t, winW, winH)
	area := Rect{260, 0, 640, 480}
	cfg := Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, LayersOnly: true, Retained: true, PaintedOnly: true}
	lay := newRendererConfig(t, win, cfg)
	lay.ResizeArea(winW, winH, area)
	cfg.Retained, cfg.PaintedOnly = false, false
	ref := newRendererConfig(t, win, cfg)
	ref.ResizeArea(winW, winH, area)
	hud, graph := lay.NewOverlay(250, 600), lay.NewOverlay(640, 100)
	hudImg, graphImg := image.NewRGBA(image.Rect(0, 0, 250, 600)), image.NewRGBA(image.Rect(0, 0, 640, 100))
	stripesAlpha(hudImg, 0, true)
	stripesAlpha(graphImg, 0, true)
	hud.Upload(hudImg, hudImg.Rect)
	graph.Upload(graphImg, graphImg.Rect)
	f := Frame{Layers: []Layer{
		{Overlay: hud, W: 250, H: 600, Opaque: true},
		{Overlay: graph, X: 260, Y: 490, W: 640, H: 100, Opaque: true},
	}}
	lay.Draw(&f) // the first: whole
	for k, c := range []struct {
		name  string
		hud   image.Rectangle // what the HUD's texture gets anew
		graph image.Rectangle // the graph's
	}{
		{"a graph column", image.Rectangle{}, image.Rect(300, 0, 307, 100)},
		{"a line of the HUD and a graph column", image.Rect(0, 0, 230, 60), image.Rect(307, 0, 314, 100)},
		// The whole HUD: before, this repainted the world's area,
		// with the whole drawable cleared first.
		{"the whole HUD", image.Rect(0, 0, 250, 600), image.Rectangle{}},
		{"the whole HUD and graph", image.Rect(0, 0, 250, 600), image.Rect(0, 0, 640, 100)},
	} {
		stripesAlpha(hudImg, k+1, true)
		stripesAlpha(graphImg, k+1, true)
		changed := 0
		if !c.hud.Empty() {
			hud.Upload(hudImg, c.hud)
			changed += c.hud.Dx() * c.hud.Dy()
		}
		if !c.graph.Empty() {
			graph.Upload(graphImg, c.graph)
			changed += c.graph.Dx() * c.graph.Dy()
		}
		lay.Draw(&f)
		painted := append([]Rect(nil), lay.Painted()...)
		if px := lay.RepaintedPixels(); px != changed {
			t.Errorf("%s: repainted %d pixels, want the %d that changed", c.name, px, changed)
		}
		for _, p := range painted {
			if !p.Intersect(area).Empty() {
				t.Errorf("%s: repainted %v, in the world's area %v", c.name, p, area)
			}
		}
		if p := lay.Passes(); p != len(painted) {
			t.Errorf("%s: %d passes for %d rectangles under opaque layers, want one each (the layer, nothing cleared)", c.name, p, len(painted))
		}
		got := lay.ReadPixels()
		ref.Draw(&f)
		want := ref.ReadPixels()
		for _, p := range painted {
			if d, n := diffIn(got, want, image.Rect(p.X, p.Y, p.X+p.W, p.Y+p.H)); d > 0 {
				t.Fatalf("%s: in %v, %d pixels differ from the whole frame, by up to %d", c.name, p, n, d)
			}
		}
		// The reference drew the same layers over the whole drawable:
		// what the layers' renderer holds is unchanged, outside the
		// world's area.
	}
}
