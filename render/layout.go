package render

import "github.com/interpdemo/interpdemo/render/letterbox"

// Rect is a rectangle in window pixels, origin at the top left.
type Rect struct {
	X, Y, W, H int
}

// Letterbox fits a world of worldW x worldH units into a window of
// winW x winH pixels, keeping the aspect ratio (letterbox.Fit): the world
// is scaled as large as fits and centred, with bars on the two sides that
// are left over. The whole world is always visible. scale is pixels per
// world unit.
func Letterbox(winW, winH int, worldW, worldH int32) (r Rect, scale float64) {
	r.X, r.Y, r.W, r.H, scale = letterbox.Fit(winW, winH, worldW, worldH)
	return r, scale
}
