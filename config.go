package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/atomicfile"
	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/physics"
)

// config is everything the flags set. Every value is validated by
// parseFlags before SDL is touched.
type config struct {
	tick     time.Duration
	maxLoops int
	lockstep bool

	balls  int
	seed   uint64
	radius int

	interp bool
	vsync  platform.Vsync

	width, height int
	headless      bool

	duration time.Duration
	ticks    int64

	stats      bool
	stateFile  string
	screenshot string
}

// usageError is a bad flag value: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func flagErr(name, format string, args ...any) error {
	return usageError{fmt.Sprintf("-%s: %s", name, fmt.Sprintf(format, args...))}
}

// errHelp is returned for -h: print usage, exit 0.
var errHelp = errors.New("help requested")

const keyHelp = `Keys:
  Space        interpolation on/off
  V            vsync on/off
  Q, Escape    quit
`

// parseFlags reads and validates the command line. Errors are usageError
// values with a one-line message naming the flag.
func parseFlags(args []string, usageOut io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("interpdemo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)

	fs.DurationVar(&c.tick, "tick", 40*time.Millisecond, "logic tick length (tick_time); 40ms = 25 ticks per second")
	fs.IntVar(&c.maxLoops, "max-loops", 5, "most logic ticks run in one frame to catch up (MAX_LOOPS)")
	fs.BoolVar(&c.lockstep, "lockstep", false, "keep time debt instead of discarding it, as a network game must")
	fs.IntVar(&c.balls, "balls", 1, fmt.Sprintf("number of balls (0 to %d)", physics.MaxBalls))
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the balls' starting positions and directions")
	fs.IntVar(&c.radius, "radius", 8, "ball radius in world units (the world is 640x480 units)")
	fs.BoolVar(&c.interp, "interp", true, "draw balls interpolated between their last and next logic positions")
	vsync := fs.String("vsync", "on", "vsync: on, off or adaptive")
	fs.IntVar(&c.width, "width", 640, "window width in pixels")
	fs.IntVar(&c.height, "height", 480, "window height in pixels")
	fs.BoolVar(&c.headless, "headless", false, "render offscreen (SDL offscreen driver): no window, no X server needed")
	fs.DurationVar(&c.duration, "duration", 0, "quit after this much wall time (0: run until quit)")
	fs.Int64Var(&c.ticks, "ticks", 0, "quit after exactly this many logic ticks (0: no limit)")
	fs.BoolVar(&c.stats, "stats", false, "on exit, print one JSON line of statistics to stdout")
	fs.StringVar(&c.stateFile, "state", "", "on exit, write the world as JSON to this file")
	fs.StringVar(&c.screenshot, "screenshot", "", "on exit, write the last frame as PNG to this file")

	fs.Usage = func() {
		fmt.Fprintf(usageOut, "Usage: interpdemo [flags]\n\nA fixed-tick game loop with render interpolation: logic at 25 ticks per\nsecond, drawing as fast as the display allows.\n\n%s\nFlags:\n", keyHelp)
		fs.SetOutput(usageOut)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.Usage()
			return c, errHelp
		}
		return c, usageError{oneLine(err.Error())}
	}
	if fs.NArg() > 0 {
		return c, usageError{fmt.Sprintf("unexpected argument %q (flags start with -)", fs.Arg(0))}
	}

	var err error
	if c.vsync, err = platform.ParseVsync(*vsync); err != nil {
		return c, flagErr("vsync", "%v", err)
	}
	switch {
	case c.tick <= 0:
		return c, flagErr("tick", "must be positive (got %v)", c.tick)
	case c.tick < time.Millisecond || c.tick > 10*time.Second:
		return c, flagErr("tick", "must be between 1ms and 10s (got %v)", c.tick)
	case c.maxLoops < 1 || c.maxLoops > 1000:
		return c, flagErr("max-loops", "must be between 1 and 1000 (got %d)", c.maxLoops)
	case c.balls < 0 || c.balls > physics.MaxBalls:
		return c, flagErr("balls", "must be between 0 and %d (got %d)", physics.MaxBalls, c.balls)
	case c.radius < 1 || c.radius > 200:
		return c, flagErr("radius", "must be between 1 and 200 units (got %d)", c.radius)
	case c.width < 16 || c.width > 16384:
		return c, flagErr("width", "must be between 16 and 16384 pixels (got %d)", c.width)
	case c.height < 16 || c.height > 16384:
		return c, flagErr("height", "must be between 16 and 16384 pixels (got %d)", c.height)
	case c.duration < 0:
		return c, flagErr("duration", "must not be negative (got %v)", c.duration)
	case c.ticks < 0 || c.ticks > math.MaxInt32:
		return c, flagErr("ticks", "must be between 0 and %d (got %d)", math.MaxInt32, c.ticks)
	}
	if _, err := physics.New(c.physicsConfig(0)); err != nil {
		return c, flagErr("radius", "%v", err)
	}
	for _, f := range []struct{ name, path string }{
		{"state", c.stateFile},
		{"screenshot", c.screenshot},
	} {
		if f.path == "" {
			continue
		}
		if err := atomicfile.CheckWritable(f.path); err != nil {
			return c, flagErr(f.name, "%v", err)
		}
	}
	return c, nil
}

// physicsConfig is the world the flags describe, with n balls.
func (c config) physicsConfig(n int) physics.Config {
	return physics.Config{
		Width: 640, Height: 480,
		Radius: int32(c.radius),
		Speed:  400,
		Tick:   c.tick,
		Balls:  n,
		Seed:   c.seed,
	}
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
