package render

// Rect is a rectangle in window pixels, origin at the top left.
type Rect struct {
	X, Y, W, H int
}

// Letterbox fits a world of worldW x worldH units into a window of
// winW x winH pixels, keeping the aspect ratio: the world is scaled as large
// as fits and centred, with bars on the two sides that are left over. The
// whole world is always visible. scale is pixels per world unit.
func Letterbox(winW, winH int, worldW, worldH int32) (r Rect, scale float64) {
	if winW <= 0 || winH <= 0 || worldW <= 0 || worldH <= 0 {
		return Rect{}, 0
	}
	sx := float64(winW) / float64(worldW)
	sy := float64(winH) / float64(worldH)
	scale = sx
	if sy < sx {
		scale = sy
	}
	w := int(float64(worldW)*scale + 0.5)
	h := int(float64(worldH)*scale + 0.5)
	if w > winW {
		w = winW
	}
	if h > winH {
		h = winH
	}
	return Rect{X: (winW - w) / 2, Y: (winH - h) / 2, W: w, H: h}, scale
}
