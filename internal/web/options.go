package web

import "github.com/interpdemo/interpdemo/render/adaptive"

// The ways the page can draw its balls: the options of its one
// adaptive.Choice (adaptive.NewOf), in the list's order, which is the
// choice's hysteresis (cull.go says why points come first).
const (
	optPoints  = iota // point sprites, every ball drawn
	optSquares        // squares of two triangles, every ball drawn (sprites.go)
	optCulled         // point sprites, the hidden balls culled (cull.go)
	numOptions
)

// allowedOptions is the mask (bit i for option i, as adaptive.Scene's
// Options) of the options a frame can draw, for a page asked for cull
// (?cull=) and sprites (?sprites=, as demo.SpritesForms names the modes:
// On for points, Off for squares), where the balls can be culled now
// (cullable: culling not off, the culler holding the balls, the view
// usable) and squares drawn (squares: their program made).
//
// ?cull=on, where the balls can be culled, allows the culled points
// alone, whatever ?sprites= says (culled balls are points); where they
// cannot be, the forms ?sprites= allows. ?cull=off never allows culling;
// ?sprites=points never squares, ?sprites=quads never points unculled.
// Never empty: points, where nothing else is allowed.
func allowedOptions(cull, sprites adaptive.Mode, cullable, squares bool) uint8 {
	if cullable && cull == adaptive.On {
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
	if m == 0 {
		m = 1 << optPoints
	}
	return m
}

// choosing reports whether the page makes an adaptive.Choice for cull
// and sprites: with the GPU timer (timer), which alone measures what the
// options cost the GPU, and either mode auto.
func choosing(cull, sprites adaptive.Mode, timer bool) bool {
	return timer && (cull == adaptive.Auto || sprites == adaptive.Auto)
}
