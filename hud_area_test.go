package main

import (
	"image"
	"path/filepath"
	"testing"
	"time"
)

// TestDefaultHUDLeavesTheBallsVisible reads back the default window with
// the HUD on (and nothing else: no balls, no graph): the pixels the HUD
// covers are at most a fifth of the window. With the help key's long form
// (-hud-help is what ? / F1 toggles) it covers more: the test can tell.
func TestDefaultHUDLeavesTheBallsVisible(t *testing.T) {
	dir := t.TempDir()
	shot := func(name string, args ...string) image.Image {
		path := filepath.Join(dir, name+".png")
		d := runDemo(t, "", 30*time.Second, append([]string{"-headless", "-balls", "0", "-graph=false", "-ticks", "10", "-screenshot", path}, args...)...)
		if d.code() != 0 {
			t.Fatalf("%s: exit %d: %s", name, d.code(), d.stderr.String())
		}
		return readPNG(t, path)
	}
	bare := shot("bare", "-hud=false")
	covered := func(img image.Image) (n, total int) {
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r1, g1, b1, _ := img.At(x, y).RGBA()
				r2, g2, b2, _ := bare.At(x, y).RGBA()
				if r1 != r2 || g1 != g2 || b1 != b2 {
					n++
				}
			}
		}
		return n, b.Dx() * b.Dy()
	}
	n, total := covered(shot("hud"))
	if n == 0 {
		t.Fatal("the HUD covers no pixel: it was not drawn")
	}
	if n*5 > total {
		t.Errorf("the default HUD covers %d of %d pixels (%.1f%%), want at most a fifth", n, total, 100*float64(n)/float64(total))
	}
	t.Logf("default HUD: %d of %d pixels (%.1f%%)", n, total, 100*float64(n)/float64(total))
	if long, _ := covered(shot("help", "-hud-help")); long <= n {
		t.Errorf("the HUD's long form covers %d pixels, the default %d: want more", long, n)
	}
}
