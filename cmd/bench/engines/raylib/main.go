// Command raylib draws package scene's balls with raylib-go, as a raylib
// user draws many sprites: one texture of a ball, drawn with DrawTextureV
// per ball (raylib batches them into few draw calls), in a 640x480 window
// with vsync off and no frame cap. It prints scene's result line at the
// end. make bench runs it beside the demo; see ../scene.
//
// It is its own Go module, so that the demo does not depend on raylib;
// build it from this folder with GOWORK=off go build (it needs the X11 and
// OpenGL development packages, as the Ebitengine example does).
package main

import (
	"fmt"
	"io"
	"os"

	rl "github.com/gen2brain/raylib-go/raylib"

	"github.com/interpdemo/interpdemo/cmd/bench/engines/scene"
)

const engine = "raylib-go v0.55.1"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	s, status := scene.Start("raylib", args, stderr)
	if s == nil {
		return status
	}
	rl.SetTraceLogLevel(rl.LogWarning)
	rl.SetConfigFlags(0) // no vsync hint: frames as fast as they come
	rl.InitWindow(640, 480, "interpdemo's scene on raylib-go")
	if !rl.IsWindowReady() {
		fmt.Fprintln(stderr, "raylib: no window")
		return 1
	}
	defer rl.CloseWindow()
	rl.SetTargetFPS(0)

	// The ball: a white disc with an anti-aliased edge, tinted per ball.
	d := int32(2 * s.Radius)
	img := rl.GenImageColor(int(d), int(d), rl.Blank)
	rl.ImageDrawCircleV(img, rl.Vector2{X: s.Radius, Y: s.Radius}, int32(s.Radius), rl.White)
	tex := rl.LoadTextureFromImage(img)
	rl.UnloadImage(img)
	defer rl.UnloadTexture(tex)
	colors := make([]rl.Color, len(s.Pos)/2)
	for i := range colors {
		r, g, b := scene.Color(i)
		colors[i] = rl.Color{R: r, G: g, B: b, A: 255}
	}

	for !rl.WindowShouldClose() && s.Frame() {
		rl.BeginDrawing()
		rl.ClearBackground(rl.Black)
		for i, c := range colors {
			rl.DrawTextureV(tex, rl.Vector2{X: s.Pos[2*i] - s.Radius, Y: s.Pos[2*i+1] - s.Radius}, c)
		}
		rl.EndDrawing()
	}
	return s.Finish("raylib", engine, stdout, stderr)
}
