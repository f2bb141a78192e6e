package main

import (
	"testing"
	"time"
)

// The painted image on the page (internal/web/painted.go): the balls
// painted on the CPU into one texture, chosen by measurement or forced
// with ?paint=.

// The painted image is the points' picture but for edge pixels: after
// the same ticks, the canvas painted (?paint=on) differs from the one of
// points (?paint=off&cull=off&sprites=points) by at most 16 levels, at
// the tick itself (alpha 0), at alpha 1 (interpolation off), with balls
// of radius 1 to 20; and the stats and info() report the painting
// forced. SwiftShader snaps a point sprite's centre to 1/16 of a pixel,
// and the disc's edge falls off by 255 levels a pixel (16 levels are
// 1/16 px); the painter does not snap, and blends front to back in bytes
// (a level or so: package render/paint). So most pixels of the discs'
// edges differ a little (2026-12-06: 6 to 22 % of the pixels, by up to
// 11 levels), the discs' insides not at all. A painter that drops a
// ball, or paints one a pixel off, fails it.
func TestWebPaintKeepsThePicture(t *testing.T) {
	for _, world := range []string{
		"balls=1000&seed=4&ticks=60&fast",
		"balls=10000&seed=9&ticks=45&fast&interp=false",
		"balls=3000&seed=2&ticks=30&fast&radius=1",
		"balls=500&seed=3&ticks=20&fast&radius=20",
	} {
		var pics [2][]byte
		for i, paint := range []string{"off", "on"} {
			q := world + "&hud=false&graph=false&stats&cull=off&sprites=points&paint=" + paint
			w := openPage(t, 120*time.Second, q)
			s := w.stats()
			pics[i] = w.pixels()
			var painted bool
			w.eval(`window.interpdemo.info().painted === true`, &painted)
			if s.WorldTicks == 0 || s.PaintMode != paint || s.Paint != paint || painted != (paint == "on") {
				t.Errorf("?%s: %d ticks, paint %q (mode %q), info's painted %v: want %s", q, s.WorldTicks, s.Paint, s.PaintMode, painted, paint)
			}
			if s.PaintCostMs != nil || s.PaintMs != nil || s.PaintComparedFrames != nil {
				t.Errorf("?%s: a forced mode measured costs %v, %v, %v frames", q, s.PaintCostMs, s.PaintMs, s.PaintComparedFrames)
			}
		}
		k, d := pictureDiff(t, world, pics[0], pics[1])
		if d > 16 || k > len(pics[0])/4/3 {
			t.Errorf("%s: %d pixels differ between painted and points, by up to %d; want up to 16 levels, in under a third of them", world, k, d)
		}
	}
}

// A browser without EXT_disjoint_timer_query_webgl2 has nothing to
// weigh painting against drawing with: auto never paints, and reports no
// costs; ?paint=on still paints.
func TestWebPaintWithoutTimer(t *testing.T) {
	file := noTimerPage(t)
	for _, c := range []struct{ query, want string }{
		{"balls=10000&vsync=off&duration=3s&stats", "off"},
		{"balls=10000&vsync=off&duration=3s&stats&paint=on", "on"},
	} {
		w := openPageFile(t, 60*time.Second, file, c.query)
		s := w.stats()
		if s.Paint != c.want || s.PaintCostMs != nil || (s.PaintComparedFrames != nil && *s.PaintComparedFrames > 0) {
			t.Errorf("?%s without a GPU timer: paint %q (want %s), cost %v, compared %v",
				c.query, s.Paint, c.want, s.PaintCostMs, s.PaintComparedFrames)
		}
	}
}
