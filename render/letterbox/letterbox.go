// Package letterbox fits a world into a window the way every front end of
// the demo does: as large as fits, keeping its aspect ratio, centred. It
// is plain Go with no GL, so that the window's renderer (package render)
// and the web page's (internal/web) lay the world out alike.
package letterbox

// Fit fits a world of worldW x worldH units into a window of winW x winH
// pixels: the world is scaled as large as fits and centred, with bars on
// the two sides that are left over, and is always whole. It returns the
// world's rectangle in window pixels from the top left and the scale in
// pixels per world unit; all zero for an empty window or world.
func Fit(winW, winH int, worldW, worldH int32) (x, y, w, h int, scale float64) {
	if winW <= 0 || winH <= 0 || worldW <= 0 || worldH <= 0 {
		return 0, 0, 0, 0, 0
	}
	scale = min(float64(winW)/float64(worldW), float64(winH)/float64(worldH))
	w = min(int(float64(worldW)*scale+0.5), winW)
	h = min(int(float64(worldH)*scale+0.5), winH)
	return (winW - w) / 2, (winH - h) / 2, w, h, scale
}
