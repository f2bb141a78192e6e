// Command ebiten draws package scene's balls with Ebitengine, as an
// Ebitengine user draws many sprites: one image of a ball, drawn with
// DrawImage per ball, tinted by its ColorScale (Ebitengine batches draws
// from one image into few draw calls), in a 640x480 window with vsync off
// and Update once a frame. It prints scene's result line at the end.
// make bench runs it beside the demo; see ../scene.
//
// It is its own Go module, so that the demo does not depend on
// Ebitengine; build it from this folder with GOWORK=off go build (it needs
// the X11 and OpenGL development packages; see the Makefile's
// test-ebiten-deps).
package main

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/interpdemo/interpdemo/cmd/bench/engines/scene"
)

const engine = "Ebitengine v2.8.8"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	s, status := scene.Start("ebiten", args, stderr)
	if s == nil {
		return status
	}
	g := newGame(s)
	ebiten.SetWindowSize(640, 480)
	ebiten.SetWindowTitle("interpdemo's scene on Ebitengine")
	ebiten.SetVsyncEnabled(false)
	ebiten.SetTPS(ebiten.SyncWithFPS)
	if err := ebiten.RunGame(g); err != nil && !errors.Is(err, ebiten.Termination) {
		fmt.Fprintln(stderr, "ebiten:", err)
		return 1
	}
	return s.Finish("ebiten", engine, stdout, stderr)
}

type game struct {
	s      *scene.Scene
	ball   *ebiten.Image
	scales []ebiten.ColorScale
	op     ebiten.DrawImageOptions
}

func newGame(s *scene.Scene) *game {
	d := int(2 * s.Radius)
	ball := ebiten.NewImage(d, d)
	// A white disc with an anti-aliased edge, tinted per ball.
	vector.DrawFilledCircle(ball, s.Radius, s.Radius, s.Radius, color.White, true)
	g := &game{s: s, ball: ball, scales: make([]ebiten.ColorScale, len(s.Pos)/2)}
	for i := range g.scales {
		r, gr, b := scene.Color(i)
		g.scales[i].Scale(float32(r)/255, float32(gr)/255, float32(b)/255, 1)
	}
	return g
}

// Update runs the frame's ticks: Ebitengine calls it once a frame here.
func (g *game) Update() error {
	if !g.s.Frame() {
		return ebiten.Termination
	}
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	for i := range g.scales {
		g.op.GeoM.Reset()
		g.op.GeoM.Translate(float64(g.s.Pos[2*i]-g.s.Radius), float64(g.s.Pos[2*i+1]-g.s.Radius))
		g.op.ColorScale = g.scales[i]
		screen.DrawImage(g.ball, &g.op)
	}
}

func (g *game) Layout(int, int) (int, int) { return 640, 480 }
