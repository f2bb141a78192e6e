// Command ebiten is the recipe for a fixed-tick loop with interpolation in
// an engine that owns the main loop, here Ebitengine: the game logic runs
// on a loop.Fixed at 25 ticks per second, whatever the display's rate, and
// every frame draws the ball at percentWithinTick between its last and next
// position. Arrow keys move the ball through per-tick input records
// (package input); Space toggles interpolation, as in the interp_demo
// demo; Q or closing the window quits.
//
// Ebitengine calls Update at a fixed rate of its own (60 ticks per second by
// default) and Draw once per frame, with no interpolation between them
// (Ebitengine issue #1156 asks for it). The recipe turns the two calls into
// the classic loop:
//
//   - ebiten.SetTPS(ebiten.SyncWithFPS) makes Update run once per frame,
//     instead of at Ebitengine's own fixed 60 ticks per second.
//   - Update reads the clock once, turns the key changes Ebitengine
//     reports into input.Events stamped with that reading, and calls
//     Fixed.Step: it runs the ticks the loop says are due, each one fed the
//     input record of its own span of the clock (Sampler.Tick at
//     Span(j).End), and keeps percentWithinTick for Draw.
//   - Draw draws at last + percentWithinTick×(next-last), or at next with
//     interpolation off; it changes no game state.
//
// -ticks N ends the run after N logic ticks (returning ebiten.Termination
// from Update). At exit it prints one line: the ticks and frames run, the
// loop's elapsed time on its own clock from the start of its schedule (the
// first frame after the first Draw) to the last Update, the time debt it
// discarded after stalls (a solo game falls behind real time rather than
// run a burst of ticks), and the resulting ticks per second:
//
//	ticks=100 frames=241 elapsed=4.012s discarded=0s tps=24.93
//
// It is its own Go module, so that the interpdemo module does not depend on
// Ebitengine: run it from this directory with go run . (on Linux it needs
// the X11 and OpenGL development packages; see the Makefile's
// test-ebiten-deps).
package main

import (
	"flag"
	"fmt"
	"image/color"
	"io"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/physics"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the program; it returns the exit status: 0 on success, 1 when
// the game fails, 2 for bad flags.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ebiten", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ticks := fs.Int64("ticks", 0, "exit after this many logic ticks (0: run until Q or the window closes)")
	interp := fs.Bool("interp", true, "start with interpolation on (Space toggles it)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *ticks < 0 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "ebiten: -ticks takes a count >= 0, and there are no arguments")
		return 2
	}
	g, err := newGame(loop.NewRealClock(), *ticks, *interp)
	if err != nil {
		fmt.Fprintln(stderr, "ebiten:", err)
		return 1
	}
	wc := g.world.Config()
	ebiten.SetWindowSize(int(wc.Width), int(wc.Height))
	ebiten.SetWindowTitle("interpdemo on Ebitengine: arrows move, Space toggles interpolation, Q quits")
	ebiten.SetTPS(ebiten.SyncWithFPS) // Update once per frame: the fixed loop does the ticking
	if err := ebiten.RunGame(g); err != nil {
		fmt.Fprintln(stderr, "ebiten:", err)
		return 1
	}
	fmt.Fprintln(stdout, g.summary())
	return 0
}

// game is the ebiten.Game: the fixed-tick loop, the input sampler and the
// world, driven by Ebitengine's Update and Draw.
type game struct {
	clock   loop.Clock
	fixed   *loop.Fixed
	sampler *input.Sampler
	prev    input.Record // the last tick's input record, for Record.Down
	world   *physics.World

	interp  bool
	percent float64 // percentWithinTick of the frame, from Update for Draw

	pressed  []ebiten.Key // reused for the key changes of each Update
	released []ebiten.Key
	started  bool
	start    time.Duration // the clock reading the schedule started at
	now      time.Duration // the latest Update's
	maxTicks int64
	ticks    int64
	frames   int64
}

func newGame(clock loop.Clock, maxTicks int64, interp bool) (*game, error) {
	world, err := physics.New(physics.Config{}) // one ball in 640x480, 16 units a 40 ms tick
	if err != nil {
		return nil, err
	}
	fixed, err := loop.NewFixed(loop.FixedConfig{Tick: world.Config().Tick}, clock.Now())
	if err != nil {
		return nil, err
	}
	return &game{
		clock: clock, fixed: fixed, sampler: input.NewSampler(), world: world,
		interp: interp, maxTicks: maxTicks,
		pressed: make([]ebiten.Key, 0, 16), released: make([]ebiten.Key, 0, 16),
	}, nil
}

// button maps the keys that are game input to the input package's buttons.
// Space and Q are not game input: they change how the game runs, not its
// logic, and act at once.
func button(k ebiten.Key) (input.Button, bool) {
	switch k {
	case ebiten.KeyArrowLeft:
		return input.Left, true
	case ebiten.KeyArrowRight:
		return input.Right, true
	case ebiten.KeyArrowUp:
		return input.Up, true
	case ebiten.KeyArrowDown:
		return input.Down, true
	}
	return 0, false
}

// Update is one frame of the classic loop, up to the drawing: it gathers
// what Ebitengine knows (the clock aside) and hands it to frame.
func (g *game) Update() error {
	g.pressed = inpututil.AppendJustPressedKeys(g.pressed[:0])
	g.released = inpututil.AppendJustReleasedKeys(g.released[:0])
	return g.frame(g.clock.Now(), g.pressed, g.released, ebiten.IsFocused())
}

// frame runs the frame at now, given the keys pressed and released since
// the last one and whether the window has the keyboard focus.
func (g *game) frame(now time.Duration, pressed, released []ebiten.Key, focused bool) error {
	g.now = now
	if !g.started {
		if g.frames == 0 {
			// Ebitengine is still starting: its first Draw (which
			// compiles its shaders) has not run yet.
			return nil
		}
		// The schedule starts at the first frame after that, so that
		// the start-up is not a burst of ticks.
		g.fixed.Reset(now)
		g.start, g.started = now, true
	}

	// Ebitengine reports the key changes since the last Update, without
	// their times: stamp them with this frame's reading. They act from the
	// next tick that ends after it, at most one frame late; a tap still
	// acts on exactly one tick, and a held key on as many ticks as it is
	// held, whatever the frame rate.
	for _, k := range pressed {
		switch k {
		case ebiten.KeySpace:
			g.interp = !g.interp
		case ebiten.KeyQ:
			return ebiten.Termination
		}
		if b, ok := button(k); ok {
			g.sampler.Push(input.Event{Time: now, Button: b, Down: true})
		}
	}
	for _, k := range released {
		if b, ok := button(k); ok {
			g.sampler.Push(input.Event{Time: now, Button: b, Down: false})
		}
	}
	if !focused {
		// Keys released in another window are never reported.
		g.sampler.ReleaseAll(now)
	}

	fr := g.fixed.Step(now)
	for j := 0; j < fr.Ticks; j++ {
		in := g.sampler.Tick(fr.Span(j).End) // the input of this tick's span
		down := in.Down(g.prev)
		g.prev = in
		g.world.Tick(physics.Control{
			X: input.Axis(down, input.Left, input.Right),
			Y: input.Axis(down, input.Up, input.Down),
		})
		g.ticks++
		if g.maxTicks > 0 && g.ticks >= g.maxTicks {
			return ebiten.Termination
		}
	}
	g.percent = fr.Percent
	return nil
}

var (
	background = color.RGBA{0x14, 0x1a, 0x29, 0xff}
	ballColor  = color.RGBA{0xf2, 0x5b, 0x5b, 0xff}
)

// Draw draws the ball between its last and next position. It changes no
// game state: Ebitengine may call it more or less often than Update.
func (g *game) Draw(screen *ebiten.Image) {
	alpha := 1.0 // interpolation off: the newest state
	if g.interp {
		alpha = g.percent
	}
	last, next := g.world.Last, g.world.Next
	x := (float64(last[0]) + alpha*float64(next[0]-last[0])) / physics.One
	y := (float64(last[1]) + alpha*float64(next[1]-last[1])) / physics.One
	screen.Fill(background)
	vector.DrawFilledCircle(screen, float32(x), float32(y), float32(g.world.Config().Radius), ballColor, true)
	if g.interp {
		ebitenutil.DebugPrint(screen, "interpolation on (Space)")
	} else {
		ebitenutil.DebugPrint(screen, "interpolation off (Space)")
	}
	g.frames++
}

// Layout makes the screen the world: one pixel per unit, scaled by
// Ebitengine to the window.
func (g *game) Layout(int, int) (int, int) {
	wc := g.world.Config()
	return int(wc.Width), int(wc.Height)
}

// summary is the exit line.
func (g *game) summary() string {
	elapsed := g.now - g.start
	tps := 0.0
	if elapsed > 0 {
		tps = float64(g.ticks) / elapsed.Seconds()
	}
	return fmt.Sprintf("ticks=%d frames=%d elapsed=%v discarded=%v tps=%.2f",
		g.ticks, g.frames, elapsed, g.fixed.TotalDiscarded(), tps)
}

var _ ebiten.Game = (*game)(nil)
