// Package scene is the demo's scene for other engines: N balls bouncing in
// the 640x480 world of package physics, ticked at 25 ticks a second by a
// loop.Fixed and drawn at percentWithinTick between their last and next
// positions, as the demo draws them. make bench draws it with Ebitengine
// (../ebiten) and raylib-go (../raylib), each the way that engine's users
// draw many sprites, to set the demo's frame rate beside theirs in the
// same X server.
//
// An engine's program starts with Start, calls Frame once per frame and
// draws Pos, and ends with Finish, which prints the result line.
package scene

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/physics"
)

// Options are the flags every engine's program takes.
type Options struct {
	Balls    int
	Duration time.Duration
}

// Parse parses args into Options; a bad flag is a one-line error.
func Parse(name string, args []string, stderr io.Writer) (Options, error) {
	var o Options
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.Balls, "balls", 1, "number of balls, 1.."+fmt.Sprint(physics.MaxBalls))
	fs.DurationVar(&o.Duration, "duration", 4*time.Second, "how long to run, then print the result line and exit")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("%s: no arguments are taken, got %q", name, fs.Arg(0))
	case o.Balls < 1 || o.Balls > physics.MaxBalls:
		return o, fmt.Errorf("%s: -balls %d: want 1..%d", name, o.Balls, physics.MaxBalls)
	case o.Duration <= 0:
		return o, fmt.Errorf("%s: -duration %v: want a positive duration", name, o.Duration)
	}
	return o, nil
}

// Scene is the world, its loop and the positions of the frame.
type Scene struct {
	World *physics.World
	// Pos holds each ball's centre in the frame, x and y interleaved, in
	// pixels of a 640x480 view (one pixel a unit), y down.
	Pos []float32
	// Radius is a ball's radius in pixels.
	Radius float32

	clock  loop.Clock
	fixed  *loop.Fixed
	dur    time.Duration
	first  time.Duration // the first frame's time
	last   time.Duration
	frames int64
}

// New makes the scene of o on clock; its schedule starts at the first Frame.
func New(o Options, clock loop.Clock) (*Scene, error) {
	w, err := physics.New(physics.Config{Balls: o.Balls})
	if err != nil {
		return nil, err
	}
	f, err := loop.NewFixed(loop.FixedConfig{Tick: w.Config().Tick}, 0)
	if err != nil {
		return nil, err
	}
	return &Scene{World: w, Pos: make([]float32, 2*o.Balls), Radius: float32(w.Config().Radius),
		clock: clock, fixed: f, dur: o.Duration}, nil
}

// Frame runs the frame's ticks and fills Pos; it returns false once the
// run has lasted its duration (that frame is not to be drawn).
func (s *Scene) Frame() bool {
	now := s.clock.Now()
	if s.frames == 0 {
		s.first = now
		s.fixed.Reset(now)
	} else if now-s.first >= s.dur {
		return false
	}
	s.frames++
	s.last = now
	fr := s.fixed.Step(now)
	for range fr.Ticks {
		s.World.Tick(physics.Control{})
	}
	a := float32(fr.Percent)
	h := float32(s.World.Config().Height)
	last, next := s.World.Last, s.World.Next
	for i := 0; i < len(s.Pos); i += 2 {
		x := float32(last[i]) + a*float32(next[i]-last[i])
		y := float32(last[i+1]) + a*float32(next[i+1]-last[i+1])
		s.Pos[i] = x / physics.One
		s.Pos[i+1] = h - y/physics.One
	}
	return true
}

// Color is ball i's colour: the demo's palette (shaders/ball.vert), a hue
// picked by an integer hash of the index.
func Color(i int) (r, g, b uint8) {
	h := uint32(i) * 2654435761
	h ^= h >> 15
	t := float64(h&1023) / 1023
	c := func(phase float64) uint8 { return uint8(255 * (0.55 + 0.4*math.Cos(2*math.Pi*(t+phase)))) }
	return c(0), c(0.33), c(0.67)
}

// Result is the line an engine's program prints at the end, the fields
// named as in the demo's -stats.
type Result struct {
	Engine  string  `json:"engine"`
	Balls   int     `json:"balls"`
	Frames  int64   `json:"frames"`
	Ticks   int64   `json:"ticks"`
	Seconds float64 `json:"seconds"`
	FPS     float64 `json:"fps"`
	TPS     float64 `json:"tps"`
}

// ErrNoFrames is Result's error for a run that drew under two frames.
var ErrNoFrames = errors.New("fewer than two frames: no frame rate")

// Result is the run's result: frames over the span from the first frame
// to the last, as the demo's fps.
func (s *Scene) Result(engine string) (Result, error) {
	span := (s.last - s.first).Seconds()
	if s.frames < 2 || span <= 0 {
		return Result{}, ErrNoFrames
	}
	return Result{Engine: engine, Balls: len(s.Pos) / 2, Frames: s.frames, Ticks: s.fixed.TotalTicks(),
		Seconds: span, FPS: float64(s.frames-1) / span, TPS: float64(s.fixed.TotalTicks()) / span}, nil
}

// Line is r as the one JSON line printed.
func (r Result) Line() string {
	b, _ := json.Marshal(r) // a struct of numbers and a string: no error
	return string(b)
}

// Start parses an engine's program's flags and makes its scene on the
// real clock; on failure it has said why on stderr and returns the exit
// status (2 for bad flags, 1 otherwise) with a nil Scene.
func Start(name string, args []string, stderr io.Writer) (*Scene, int) {
	o, err := Parse(name, args, stderr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, 2
	}
	s, err := New(o, loop.NewRealClock())
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return nil, 1
	}
	return s, 0
}

// Finish prints the run's result line, as engine, and returns the exit
// status: 0, or 1 after saying why on stderr.
func (s *Scene) Finish(name, engine string, stdout, stderr io.Writer) int {
	r, err := s.Result(engine)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	fmt.Fprintln(stdout, r.Line())
	return 0
}
