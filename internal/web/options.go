package web

import "github.com/interpdemo/interpdemo/render/adaptive"

// The ways the page can draw its balls: the options of its one
// adaptive.Choice (adaptive.NewOf), in the list's order, which is the
// choice's hysteresis (cull.go says why points come first).
const (
	optPoints  = iota // point sprites, every ball drawn
	optSquares        // squares of two triangles, every ball drawn (sprites.go)
	optCulled         // point sprites, the hidden balls culled (cull.go)
	optPainted        // one image, the balls painted on the CPU (painted.go)
	numOptions
)

// allowedOptions is the mask (bit i for option i, as adaptive.Scene's
// Options) of the options a frame can draw, for a page asked for cull
// (?cull=), sprites (?sprites=, as demo.SpritesForms names the modes: On
// for points, Off for squares) and paint (?paint=), where the balls can
// be culled now (cullable: culling not off, the culler holding the
// balls, the view usable), squares drawn (squares: their program made)
// and the balls painted (paintable: the painter holding the balls, the
// view usable).
//
// ?paint=on, where the balls can be painted, allows the painted image
// alone, whatever the others say; ?cull=on, where the balls can be
// culled, the culled points alone (culled balls are points); where
// neither can be, the forms ?sprites= allows. ?cull=off never allows
// culling; ?sprites=points never squares, ?sprites=quads never points
// unculled. Painting is allowed beside them only with ?sprites=auto and
// ?paint=auto: a form forced keeps the balls sprites. Never empty:
// points, where nothing else is allowed.
func allowedOptions(cull, sprites, paint adaptive.Mode, cullable, squares, paintable bool) uint8 {
	switch {
	case paintable && paint == adaptive.On:
		return 1 << optPainted
	case cullable && cull == adaptive.On:
		return 1 << optCulled
	}
	var m uint8
	if sprites != adaptive.Off {
		m |= 1 << optPoints
	}
	if squares && sprites != adaptive.On {
		m |= 1 << optSquares
	}
	if cullable && cull != adaptive.Off {
		m |= 1 << optCulled
	}
	if paintable && paint == adaptive.Auto && sprites == adaptive.Auto {
		m |= 1 << optPainted
	}
	if m == 0 {
		m = 1 << optPoints
	}
	return m
}

// choosing reports whether the page makes an adaptive.Choice for cull,
// sprites and paint: with the GPU timer (timer), which alone measures
// what the options cost the GPU, and any mode auto.
func choosing(cull, sprites, paint adaptive.Mode, timer bool) bool {
	return timer && (cull == adaptive.Auto || sprites == adaptive.Auto || paint == adaptive.Auto)
}
