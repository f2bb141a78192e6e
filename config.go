package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
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

	worldW, worldH int32 // world size in units: 640x480 (a replay may differ)
	ballSpeed      int32 // units per second: 400 (16 units per 40 ms tick)

	interp      bool
	extrapolate bool
	vsync       platform.Vsync

	width, height int
	headless      bool

	duration time.Duration
	ticks    int64
	fast     bool

	mode       timingMode
	speed      float64
	fpsCap     int
	renderLoad time.Duration
	logicLoad  time.Duration
	paused     bool

	hud, graph, ghosts bool

	stats      bool
	stateFile  string
	screenshot string
	traceFile  string
	recordFile string
	replayFile string
	cpuProfile string
	memProfile string

	set map[string]bool // flags given on the command line
}

// The steps the keys move through; the flags accept any value in range.
var (
	loadSteps  = []time.Duration{0, 10 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}
	capSteps   = []int{0, 30, 60, 144}
	speedSteps = []float64{0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4}
	tickSteps  = []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 25 * time.Millisecond, 40 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond}
)

const (
	minSpeed, maxSpeed = 0.25, 4
	maxLoad            = 2 * time.Second
	maxFPSCap          = 1000
)

// usageError is a bad flag value: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func flagErr(name, format string, args ...any) error {
	return usageError{fmt.Sprintf("-%s: %s", name, fmt.Sprintf(format, args...))}
}

// errHelp is returned for -h: print usage, exit 0.
var errHelp = errors.New("help requested")

const keyHelp = `Keys:
  Space          interpolation on/off
  E              cycle drawing: interpolate -> extrapolate -> off
  V              vsync on/off
  H              HUD on/off
  F              frame-time graph on/off
  G              ghosts: rings at every ball's last and next position
  L / Shift+L    render load up/down (busy-wait per frame: 0 10 20 50 100 200 400 ms)
  K / Shift+K    logic load up/down (busy-wait per tick, same steps)
  C              frame cap: off, 30, 60, 144 FPS
  M              timing mode: fixed, substep, timefactor, adaptive, variable
  [ and ]        speed factor down/up (0.25x to 4x)
  P              pause
  R              reset the world
  + and -        ball count x10 / /10 (1 to 1,000,000)
  PageUp/PageDn  tick time up/down (10 20 25 40 50 100 200 ms)
  arrows, WASD   move ball 0 (it becomes the player's on the first press)
  Q, Escape      quit
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
	fs.BoolVar(&c.interp, "interp", true, "draw balls between their last and next logic positions (Space)")
	fs.BoolVar(&c.extrapolate, "extrapolate", false, "draw balls ahead of their next position instead (E)")
	vsync := fs.String("vsync", "on", "vsync: on, off or adaptive (V)")
	fs.IntVar(&c.width, "width", 640, "window width in pixels")
	fs.IntVar(&c.height, "height", 480, "window height in pixels")
	fs.BoolVar(&c.headless, "headless", false, "render offscreen (SDL offscreen driver): no window, no X server needed")
	fs.DurationVar(&c.duration, "duration", 0, "quit after this much wall time (0: run until quit)")
	fs.Int64Var(&c.ticks, "ticks", 0, "quit after exactly this many logic ticks (0: no limit)")
	fs.BoolVar(&c.fast, "fast", false, "run logic as fast as possible, MAX_LOOPS ticks every frame, not in real time (replays, tests)")
	mode := fs.String("mode", "fixed", "timing mode: fixed, substep, timefactor, adaptive or variable (M)")
	fs.Float64Var(&c.speed, "speed", 1, "speed factor, 0.25 to 4: slow motion below 1 ([ and ])")
	fs.IntVar(&c.fpsCap, "fps-cap", 0, "frame cap in frames per second, 0 for none (C)")
	fs.DurationVar(&c.renderLoad, "render-load", 0, "busy-wait this long in every frame's draw, to act like a slow machine (L)")
	fs.DurationVar(&c.logicLoad, "logic-load", 0, "busy-wait this long in every logic tick (K)")
	fs.BoolVar(&c.paused, "paused", false, "start paused (P)")
	fs.BoolVar(&c.hud, "hud", true, "show the HUD (H)")
	fs.BoolVar(&c.graph, "graph", true, "show the frame-time graph (F)")
	fs.BoolVar(&c.ghosts, "ghosts", false, "show rings at every ball's last and next position (G)")
	fs.BoolVar(&c.stats, "stats", false, "on exit, print one JSON line of statistics to stdout")
	fs.StringVar(&c.stateFile, "state", "", "on exit, write the world as JSON to this file")
	fs.StringVar(&c.screenshot, "screenshot", "", "on exit, write the last frame as PNG to this file")
	fs.StringVar(&c.traceFile, "trace", "", "write one CSV row per frame to this file")
	fs.StringVar(&c.recordFile, "record", "", "record the seed, settings and per-tick input to this file")
	fs.StringVar(&c.replayFile, "replay", "", "replay a recording, checking its state hashes")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile (pprof) of the run to this file")
	fs.StringVar(&c.memProfile, "memprofile", "", "write an allocation profile (pprof) of the run to this file")

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
	c.worldW, c.worldH, c.ballSpeed = 640, 480, 400
	c.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { c.set[f.Name] = true })

	var err error
	if c.vsync, err = platform.ParseVsync(*vsync); err != nil {
		return c, flagErr("vsync", "%v", err)
	}
	if c.mode, err = parseMode(*mode); err != nil {
		return c, flagErr("mode", "%v", err)
	}
	if err := c.checkWorld(); err != nil {
		return c, err
	}
	switch {
	case c.width < 16 || c.width > 16384:
		return c, flagErr("width", "must be between 16 and 16384 pixels (got %d)", c.width)
	case c.height < 16 || c.height > 16384:
		return c, flagErr("height", "must be between 16 and 16384 pixels (got %d)", c.height)
	case c.duration < 0:
		return c, flagErr("duration", "must not be negative (got %v)", c.duration)
	case c.ticks < 0 || c.ticks > math.MaxInt32:
		return c, flagErr("ticks", "must be between 0 and %d (got %d)", math.MaxInt32, c.ticks)
	case math.IsNaN(c.speed) || c.speed < minSpeed || c.speed > maxSpeed:
		return c, flagErr("speed", "must be between %v and %v (got %v)", minSpeed, maxSpeed, c.speed)
	case c.fpsCap < 0 || c.fpsCap > maxFPSCap:
		return c, flagErr("fps-cap", "must be between 0 (none) and %d (got %d)", maxFPSCap, c.fpsCap)
	case c.renderLoad < 0 || c.renderLoad > maxLoad:
		return c, flagErr("render-load", "must be between 0 and %v (got %v)", maxLoad, c.renderLoad)
	case c.logicLoad < 0 || c.logicLoad > maxLoad:
		return c, flagErr("logic-load", "must be between 0 and %v (got %v)", maxLoad, c.logicLoad)
	case c.recordFile != "" && c.replayFile != "":
		return c, flagErr("replay", "cannot be combined with -record")
	case c.recordFile != "" && c.mode != modeFixed:
		return c, flagErr("record", "only -mode fixed is deterministic; %s mode steps by measured time", c.mode)
	case c.replayFile != "" && c.mode != modeFixed:
		return c, flagErr("replay", "only -mode fixed is deterministic; %s mode steps by measured time", c.mode)
	case c.fast && c.mode != modeFixed:
		return c, flagErr("fast", "only applies to -mode fixed")
	}
	if c.replayFile != "" {
		// The recording decides the world and the loop.
		for _, name := range []string{"tick", "max-loops", "lockstep", "balls", "seed", "radius"} {
			if c.set[name] {
				return c, flagErr(name, "cannot be set with -replay: the recording sets it")
			}
		}
	}
	for _, f := range []struct{ name, path string }{
		{"state", c.stateFile},
		{"screenshot", c.screenshot},
		{"trace", c.traceFile},
		{"record", c.recordFile},
		{"cpuprofile", c.cpuProfile},
		{"memprofile", c.memProfile},
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

// checkWorld checks the settings of the world and the loop: the flags'
// values, or a recording's (a file can claim anything its format allows).
func (c config) checkWorld() error {
	switch {
	case c.tick <= 0:
		return flagErr("tick", "must be positive (got %v)", c.tick)
	case c.tick < time.Millisecond || c.tick > 10*time.Second:
		return flagErr("tick", "must be between 1ms and 10s (got %v)", c.tick)
	case c.maxLoops < 1 || c.maxLoops > 1000:
		return flagErr("max-loops", "must be between 1 and 1000 (got %d)", c.maxLoops)
	case c.balls < 0 || c.balls > physics.MaxBalls:
		return flagErr("balls", "must be between 0 and %d (got %d)", physics.MaxBalls, c.balls)
	case c.radius < 1 || c.radius > 200:
		return flagErr("radius", "must be between 1 and 200 units (got %d)", c.radius)
	}
	if err := c.physicsConfig(0).Validate(); err != nil {
		return flagErr("radius", "%v", err)
	}
	return nil
}

// physicsConfig is the world the flags describe, with n balls.
func (c config) physicsConfig(n int) physics.Config {
	return physics.Config{
		Width: c.worldW, Height: c.worldH,
		Radius: int32(c.radius),
		Speed:  c.ballSpeed,
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

// timingMode is one of the loop strategies the demo can run on.
type timingMode int

const (
	modeFixed      timingMode = iota // fixed ticks with interpolation (seed 002)
	modeSubstep                      // BeautifulTimer sub-steps (seed 001)
	modeTimeFactor                   // time factor + full updates (seed 000)
	modeAdaptive                     // adaptive update/present split (seed 004)
	modeVariable                     // one variable step per frame, delta clamped
	numModes
)

var modeNames = []string{"fixed", "substep", "timefactor", "adaptive", "variable"}

func (m timingMode) String() string { return modeNames[m] }

func parseMode(s string) (timingMode, error) {
	i := slices.Index(modeNames, s)
	if i < 0 {
		return 0, fmt.Errorf("unknown mode %q (want %s)", s, strings.Join(modeNames, ", "))
	}
	return timingMode(i), nil
}
