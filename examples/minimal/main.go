// Command minimal is the interp_demo game loop in the fewest lines that
// open a window: one ball, its logic on a fixed 40 ms tick (25 ticks per
// second, 16 units a tick), drawn every frame at percentWithinTick between
// its last and next position, so it glides at the display's rate although
// it only moves 25 times a second. Space toggles interpolation (off, it
// jumps from position to position); Q or closing the window quits.
//
// The whole loop is the for statement in play: read the clock once, let
// loop.Fixed say how many ticks are due and how far into the next one the
// frame is, run the ticks, draw. The ball is a physics.World (it keeps the
// last and next positions) and render draws it, interpolating on the GPU.
//
// -frames N or -ticks N end the run after N frames or N logic ticks. At exit
// it prints one line: the ticks and frames run, where the ball was drawn last
// (world units) and the colour of the pixels there and in the world's corner.
// It runs without a display under SDL's offscreen driver:
//
//	SDL_VIDEODRIVER=offscreen go run ./examples/minimal -ticks 10
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/veandco/go-sdl2/sdl"

	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/render"
)

// SDL and OpenGL belong to the thread that made the window and the context:
// keep the main goroutine on the main thread.
func init() { runtime.LockOSThread() }

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run returns the exit status, so that play's deferred cleanup (GL objects,
// the context, SDL) has run before the process exits.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("minimal", flag.ContinueOnError)
	fs.SetOutput(stderr)
	frames := fs.Int("frames", 0, "exit after this many frames (0: run until Q)")
	ticks := fs.Int("ticks", 0, "exit after this many logic ticks (0: run until Q)")
	interp := fs.Bool("interp", true, "start with interpolation on (Space toggles it)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *frames < 0 || *ticks < 0 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "minimal: -frames and -ticks take a count >= 0, and there are no arguments")
		return 2
	}
	if err := play(*frames, *ticks, *interp, stdout); err != nil {
		fmt.Fprintln(stderr, "minimal:", err)
		return 1
	}
	return 0
}

func play(maxFrames, maxTicks int, interp bool, stdout io.Writer) error {
	if err := sdl.Init(sdl.INIT_VIDEO); err != nil {
		return fmt.Errorf("no OpenGL 3.3 window: %v", err)
	}
	defer sdl.Quit()
	// An OpenGL 3.3 core context. (A refused attribute shows up as a
	// failure to create the context, or in render.New's version check.)
	sdl.GLSetAttribute(sdl.GL_CONTEXT_MAJOR_VERSION, 3)
	sdl.GLSetAttribute(sdl.GL_CONTEXT_MINOR_VERSION, 3)
	sdl.GLSetAttribute(sdl.GL_CONTEXT_PROFILE_MASK, sdl.GL_CONTEXT_PROFILE_CORE)
	win, err := sdl.CreateWindow("minimal: Space toggles interpolation, Q quits",
		sdl.WINDOWPOS_CENTERED, sdl.WINDOWPOS_CENTERED, 640, 480, sdl.WINDOW_OPENGL)
	if err != nil {
		return fmt.Errorf("no OpenGL 3.3 window: %v", err)
	}
	defer win.Destroy()
	ctx, err := win.GLCreateContext()
	if err != nil {
		return fmt.Errorf("no OpenGL 3.3 window: %v", err)
	}
	defer sdl.GLDeleteContext(ctx)
	sdl.GLSetSwapInterval(1) // vsync where the driver has it; without, frames just run faster

	world, err := physics.New(physics.Config{}) // one ball in 640x480 units, 16 units a 40 ms tick
	if err != nil {
		return err
	}
	wc := world.Config()
	r, err := render.New(render.Config{WorldW: wc.Width, WorldH: wc.Height, Radius: wc.Radius, FracBits: physics.FracBits})
	if err != nil {
		return err
	}
	defer r.Delete()
	w, h := win.GLGetDrawableSize()
	r.Resize(int(w), int(h))

	clock := loop.NewRealClock()
	fixed, err := loop.NewFixed(loop.FixedConfig{Tick: wc.Tick}, clock.Now())
	if err != nil {
		return err
	}
	var nTicks, nFrames int
	for quit := false; !quit; {
		nFrames++
		for ev := sdl.PollEvent(); ev != nil; ev = sdl.PollEvent() {
			switch e := ev.(type) {
			case *sdl.QuitEvent:
				quit = true
			case *sdl.KeyboardEvent:
				if e.Type == sdl.KEYDOWN && e.Repeat == 0 {
					switch e.Keysym.Sym {
					case sdl.K_SPACE:
						interp = !interp
					case sdl.K_q:
						quit = true
					}
				}
			}
		}
		fr := fixed.Step(clock.Now()) // the frame's one clock reading
		for j := 0; j < fr.Ticks; j++ {
			world.Tick(physics.Control{}) // last = next; next moves 16 units
			nTicks++
		}
		alpha := float32(1) // interpolation off: draw the newest state
		if interp {
			alpha = float32(fr.Percent) // last + percentWithinTick*(next-last)
		}
		r.Sync(world.Last, world.Next, world.Ticks(), world.Moved())
		r.Clear()
		r.DrawBalls(alpha)
		quit = quit || (maxFrames > 0 && nFrames >= maxFrames) || (maxTicks > 0 && nTicks >= maxTicks)
		if quit {
			summary(stdout, r, world, alpha, nTicks, nFrames) // read back before the swap
		}
		win.GLSwap()
		r.EndFrame()
	}
	return r.Err()
}

// summary prints the exit line: where the last frame drew the ball and the
// colours read back from the GPU at that place and in the world's top-left
// corner (the background).
func summary(out io.Writer, r *render.Renderer, w *physics.World, alpha float32, ticks, frames int) {
	const one = physics.One
	x := (float64(w.Last[0]) + float64(alpha)*float64(w.Next[0]-w.Last[0])) / one
	y := (float64(w.Last[1]) + float64(alpha)*float64(w.Next[1]-w.Last[1])) / one
	img := r.ReadPixels()
	px, py := r.WorldToPixel(x, y)
	bx, by := r.WorldToPixel(2, 2)
	ball, bg := img.RGBAAt(int(px), int(py)), img.RGBAAt(int(bx), int(by))
	fmt.Fprintf(out, "ticks=%d frames=%d alpha=%.4f ball=%.3f,%.3f pixel=%d,%d,%d background=%d,%d,%d\n",
		ticks, frames, alpha, x, y, ball.R, ball.G, ball.B, bg.R, bg.G, bg.B)
}
