package main

import (
	"image"
	"image/gif"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	core "github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/internal/sim"
)

// TestOverlaysNeverHideTheBall reads back every frame of a real run with
// the HUD's long form and the graph on (the demo's own -gif: each frame
// read from the GPU), while one ball crosses the world at 4x speed, and
// finds the ball whole in every frame: as many pixels as its disc has,
// wherever it is, under where the HUD and the graph used to lie (the
// top-left corner and the bottom 108 pixels) included. The world's part
// of the window is the layout's (core.Layout); the run must take the ball
// through those places, or the test says it proved nothing.
func TestOverlaysNeverHideTheBall(t *testing.T) {
	// 10 s at 30 FPS of one ball, a fifth of a core: it runs beside the
	// network games, and what it checks is in each frame it reads back.
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.gif")
	d := runDemo(t, "", 60*time.Second, "-headless", "-hud-help", "-speed", "4", "-fps-cap", "30", "-duration", "10s", "-gif", path)
	if d.code() != 0 {
		t.Fatalf("exit %d: %s", d.code(), d.stderr.String())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	anim, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	b := anim.Image[0].Bounds()
	cfg := &core.Config{Width: 640, Height: 480, HUD: true, Graph: true, HUDHelp: true}
	world, hud, graph := core.Layout(b.Dx(), b.Dy(), cfg.HUDColumn(), true)
	if w, h := cfg.WindowSize(); b.Dx() != w || b.Dy() != h || world.W != 640 || world.H != 480 {
		t.Fatalf("a %v window, world %+v; want %dx%d with the world 640x480", b, world, w, h)
	}
	r := float64(sim.DefaultSettings().Radius) // pixels: the world is drawn at scale 1
	disc := math.Pi * r * r
	var underHUD, underGraph int
	for i, img := range anim.Image {
		// The world's background is its colour in the middle of the
		// frame's emptiest row; a pixel of any other colour is the ball.
		bg := background(img, world)
		n, sx, sy := 0, 0, 0
		for y := world.Y; y < world.Y+world.H; y++ {
			for x := world.X; x < world.X+world.W; x++ {
				if img.ColorIndexAt(x, y) != bg {
					n, sx, sy = n+1, sx+x, sy+y
				}
			}
		}
		if float64(n) < 0.9*disc || float64(n) > 1.6*disc {
			t.Fatalf("frame %d: the ball covers %d pixels of the world, want its disc's %.0f (and its edge)", i, n, disc)
		}
		cx, cy := sx/n-world.X, sy/n-world.Y // world pixels
		if cx < hud.W && cy < 100 {
			underHUD++
		}
		if cy > world.H-graph.H {
			underGraph++
		}
	}
	if underHUD == 0 || underGraph == 0 {
		t.Fatalf("of %d frames, %d had the ball where the HUD lay and %d where the graph lay: the run proves nothing", len(anim.Image), underHUD, underGraph)
	}
	t.Logf("%d frames, the ball whole in each: %d where the HUD lay, %d where the graph lay", len(anim.Image), underHUD, underGraph)
}

// background is the colour index most pixels of the world's first row
// have.
func background(img *image.Paletted, world core.Rect) uint8 {
	var count [256]int
	for x := world.X; x < world.X+world.W; x++ {
		count[img.ColorIndexAt(x, world.Y)]++
	}
	best := 0
	for i := range count {
		if count[i] > count[best] {
			best = i
		}
	}
	return uint8(best)
}
