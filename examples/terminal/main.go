// Command terminal shows the fixed-tick loop with interpolation in a plain
// terminal, with no SDL, no OpenGL and no cgo: a ball bounces along a line
// of 60 cells. Its logic runs on a fixed 40 ms tick (25 ticks per second),
// moving 16 units, 4 cells, a tick; the line is redrawn 60 times a second
// at percentWithinTick between the ball's last and next position, so the
// ball visits the cells in between. Press Space to turn interpolation off:
// the ball then jumps 4 cells at a time, 25 times a second, and the
// difference is plain to see. Q (or Ctrl-C) quits.
//
// The loop is a loop.Driver: a loop.Fixed says how many ticks each frame
// runs and how far into the next tick it draws, the game's Tick, Independent
// and Draw do the rest, and a loop.Limiter paces the frames at 60 per
// second. When stdin is a terminal it is put in raw (non-canonical,
// no-echo) mode so that single key presses arrive at once, and restored on
// exit and on Ctrl-C.
//
//	go run ./examples/terminal
//
// Flags bound the run and slow it down: -frames N exits after N frames, -tick
// sets the tick length and -fps the frame rate. -manual-clock runs the same
// loop on a loop.ManualClock that the Limiter's waits advance instead of
// sleeping: the output is then a pure function of the flags, which is how
// the example's test checks it.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/interpdemo/interpdemo/loop"
)

const (
	cols         = 60                         // cells on the line
	unitsPerCell = 4                          // world units per cell
	maxX         = (cols - 1) * unitsPerCell  // the ball's x is in [0, maxX]
	speed        = 16                         // units a tick: 4 cells
	lineLen      = 1 + 1 + cols + 1 + len(on) // "\r|" cells "|" status
	on, off      = " interpolation on ", " interpolation off"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// run is the program; it returns the exit status (0, 1 for a failure,
// 2 for bad flags) so that the terminal is restored before the process
// exits.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("terminal", flag.ContinueOnError)
	fs.SetOutput(stderr)
	frames := fs.Int("frames", 0, "exit after this many frames (0: run until Q)")
	tick := fs.Duration("tick", loop.DefaultTick, "logic tick length")
	fps := fs.Int("fps", 60, "frames per second")
	interp := fs.Bool("interp", true, "start with interpolation on (Space toggles it)")
	manual := fs.Bool("manual-clock", false, "run on a manual clock that the frame waits advance (deterministic output)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *frames < 0 || *tick <= 0 || *fps <= 0 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "terminal: -frames takes a count >= 0, -tick and -fps positive values, and there are no arguments")
		return 2
	}
	var clock loop.Sleeper = loop.NewRealClock()
	if *manual {
		clock = loop.NewManualClock(0)
	}
	g := &game{interp: *interp, out: stdout, line: make([]byte, lineLen), b: newBall()}
	ticks, err := play(g, clock, *tick, time.Second/time.Duration(*fps), *frames, stdin, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "terminal:", err)
		return 1
	}
	fmt.Fprintf(stdout, "\nticks=%d frames=%d\n", ticks, g.frames)
	return 0
}

// play runs the game until Q, Ctrl-C or maxFrames frames, and returns the
// number of logic ticks run.
func play(g *game, clock loop.Sleeper, tick, frame time.Duration, maxFrames int, stdin io.Reader, stdout io.Writer) (int64, error) {
	fixed, err := loop.NewFixed(loop.FixedConfig{Tick: tick}, clock.Now())
	if err != nil {
		return 0, err
	}
	limiter, err := loop.NewLimiter(frame)
	if err != nil {
		return 0, err
	}
	// Ctrl-C: the loop stops and the deferred calls restore the terminal.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	g.sig = sig
	if f, ok := stdin.(*os.File); ok {
		restore, err := rawMode(f)
		if err != nil {
			return 0, err
		}
		defer restore()
	}
	if f, ok := stdout.(*os.File); ok && isTerminal(f) {
		io.WriteString(f, "\x1b[?25l")       // hide the cursor
		defer io.WriteString(f, "\x1b[?25h") // and show it again
	}
	keys := make(chan byte, 16)
	go readKeys(stdin, keys)
	g.keys = keys

	d := loop.Driver{Clock: clock, Loop: fixed, Game: g, Limiter: limiter}
	err = d.Run(func() bool { return g.quit || (maxFrames > 0 && g.frames >= maxFrames) })
	if err == nil {
		err = g.err
	}
	return fixed.TotalTicks(), err
}

// readKeys sends the bytes read from r to keys until r ends.
func readKeys(r io.Reader, keys chan<- byte) {
	var b [1]byte
	for {
		n, err := r.Read(b[:])
		if n == 1 {
			keys <- b[0]
		}
		if err != nil {
			return
		}
	}
}

// ball is the world: a position on the line, in units, with the last and
// next state that drawing interpolates between.
type ball struct {
	last, next int
	dir        int // +1 or -1
}

// newBall returns the ball at the left end, one tick's move apart (last 0,
// next 16) so that it moves from the first frame on.
func newBall() ball { return ball{last: 0, next: speed, dir: 1} }

// tick is one logic tick: last becomes next, and next moves speed units,
// reflected off the ends of the line.
func (b *ball) tick() {
	b.last = b.next
	x := b.next + b.dir*speed
	if x > maxX {
		x, b.dir = 2*maxX-x, -b.dir
	} else if x < 0 {
		x, b.dir = -x, -b.dir
	}
	b.next = x
}

// game is the loop.Game the Driver runs.
type game struct {
	b      ball
	interp bool
	quit   bool
	frames int

	keys <-chan byte
	sig  <-chan os.Signal
	out  io.Writer
	line []byte
	err  error // the first failed write of the line
}

// Tick runs one logic tick.
func (g *game) Tick(loop.TickSpan) { g.b.tick() }

// Independent handles the keys typed since the last frame: they change
// how the game is shown, not its logic, so they need no tick.
func (g *game) Independent(loop.FixedFrame) {
	for {
		select {
		case k := <-g.keys:
			switch k {
			case ' ':
				g.interp = !g.interp
			case 'q', 'Q', 3: // 3 is Ctrl-C, should the terminal deliver it as a byte
				g.quit = true
			}
		case <-g.sig:
			g.quit = true
		default:
			return
		}
	}
}

// Draw draws the line with the ball at percentWithinTick between its last
// and next position (interpolation on), or at its next position (off).
// It does not allocate.
func (g *game) Draw(percentWithinTick float64) {
	x := float64(g.b.next)
	if g.interp {
		x = float64(g.b.last) + percentWithinTick*float64(g.b.next-g.b.last)
	}
	cell := int(math.Round(x / unitsPerCell))
	l := g.line[:0]
	l = append(l, '\r', '|')
	for i := range cols {
		c := byte('-')
		if i == cell {
			c = 'O'
		}
		l = append(l, c)
	}
	l = append(l, '|')
	if g.interp {
		l = append(l, on...)
	} else {
		l = append(l, off...)
	}
	if _, err := g.out.Write(l); err != nil && g.err == nil {
		g.err, g.quit = err, true
	}
	g.frames++
}
