// Command interpdemo is the classic interp_demo, ported to Go: a ball
// bouncing around an SDL2 window with an OpenGL 3.3 core context, its logic
// running at a fixed 25 ticks per second while the renderer draws it at
// percentWithinTick between its last and next logic positions, as smoothly
// as the display allows.
//
// Space toggles interpolation, V toggles vsync, Q quits; run with -h for
// every key and flag. What the demo decides is package internal/demo; the
// SDL window around it is package internal/desktop.
package main

import (
	"os"
	"runtime"

	"github.com/interpdemo/interpdemo/internal/desktop"
	_ "github.com/interpdemo/interpdemo/internal/platform/preloadon" // the GL driver loaded beside the start (platform's preload.go)
)

func init() {
	// SDL's video functions and the OpenGL context belong to the thread
	// that created them. Locking the main goroutine to the main OS thread
	// before main runs keeps every SDL and GL call on that thread.
	runtime.LockOSThread()
}

func main() {
	// Run returns instead of exiting, so that its deferred cleanup (GL
	// objects, the context, SDL) happens before the process ends.
	os.Exit(desktop.Run(os.Args[1:]))
}
