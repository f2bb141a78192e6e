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
	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/replay"
)

// config is everything the flags set. Every value is validated by
// parseFlags before SDL is touched.
type config struct {
	settings sim.Settings // the world and the fixed loop

	interp      bool
	extrapolate bool
	vsync       platform.Vsync
	pacing      pacingMode    // -pacing: raw or smooth
	vsyncSim    int           // -vsync-sim: a simulated display's rate in Hz, 0 for none
	vsyncJitter time.Duration // -vsync-jitter: its wake-up delay, uniform in [0, D]

	width, height int
	headless      bool

	duration time.Duration
	ticks    int64
	fast     bool

	mode       sim.Mode
	speed      float64
	fpsCap     int
	renderLoad time.Duration
	logicLoad  time.Duration
	paused     bool

	hud, graph, ghosts bool
	hudHelp            bool

	stats      bool
	stateFile  string
	screenshot string
	gifFile    string
	traceFile  string
	recordFile string
	replayFile string
	cpuProfile string
	memProfile string

	replay *replay.Recording // -replay, read while the flags are checked

	syncTest int // -synctest

	net netConfig       // -host, -join and the other network flags
	set map[string]bool // the flags given on the command line
}

const (
	maxLoad   = 2 * time.Second
	maxFPSCap = 1000
)

// usageError is a bad flag value: exit status 2.
type usageError struct {
	msg  string
	hint bool // follow the message with usageHint: the flags did not parse
}

func (e usageError) Error() string { return e.msg }

func flagErr(name, format string, args ...any) error {
	return usageError{msg: fmt.Sprintf("-%s: %s", name, fmt.Sprintf(format, args...))}
}

// errHelp is returned for -h: print usage, exit 0.
var errHelp = errors.New("help requested")

// usageHint follows a flag error: the whole usage is long, and the
// error is what the user needs to see.
const usageHint = "run interpdemo -h for help"

// parseFlags reads and validates the command line, and reads the -replay
// file. Errors are usageError values with a one-line message naming the
// flag.
func parseFlags(args []string, usageOut io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("interpdemo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)

	def := sim.DefaultSettings()
	var tick time.Duration
	var maxLoops, balls, radius int
	var seed uint64
	var lockstep bool
	fs.DurationVar(&tick, "tick", def.Tick, "logic tick length (tick_time); 40ms = 25 ticks per second")
	fs.IntVar(&maxLoops, "max-loops", int(def.MaxLoops), "most logic ticks run in one frame to catch up (MAX_LOOPS)")
	fs.BoolVar(&lockstep, "lockstep", false, "keep time debt instead of discarding it, as a network game must")
	fs.IntVar(&balls, "balls", int(def.Balls), fmt.Sprintf("number of balls (0 to %d)", physics.MaxBalls))
	fs.Uint64Var(&seed, "seed", def.Seed, "seed of the balls' starting positions and directions")
	fs.IntVar(&radius, "radius", int(def.Radius), fmt.Sprintf("ball radius in world units (the world is %dx%d units)", def.Width, def.Height))
	fs.BoolVar(&c.interp, "interp", true, "draw balls between their last and next logic positions (Space)")
	fs.BoolVar(&c.extrapolate, "extrapolate", false, "draw balls ahead of their next position instead (E)")
	vsync := fs.String("vsync", "on", "vsync: on, off or adaptive (V)")
	pacing := fs.String("pacing", "", "frame pacing: raw (the original loop: the time the frame wakes up) or smooth (the time of the vblank it follows, and stable tick counts); default smooth with vsync on, raw with vsync off (J)")
	fs.IntVar(&c.vsyncSim, "vsync-sim", 0, fmt.Sprintf("simulate a vsynced display of this many Hz (1 to %d): each frame waits for the next vblank of a 1/HZ grid on the loop's clock, for headless runs and Xvfb (0: off)", maxVsyncSim))
	fs.DurationVar(&c.vsyncJitter, "vsync-jitter", 0, "with -vsync-sim: a random wake-up delay after each simulated vblank, uniform in [0, D], as a compositor adds (seeded by -seed)")
	fs.IntVar(&c.width, "width", 640, "window width in pixels")
	fs.IntVar(&c.height, "height", 480, "window height in pixels")
	fs.BoolVar(&c.headless, "headless", false, "render offscreen (SDL offscreen driver): no window, no X server needed")
	fs.DurationVar(&c.duration, "duration", 0, "quit after this much wall time (0: run until quit)")
	fs.Int64Var(&c.ticks, "ticks", 0, "quit after exactly this many logic ticks (0: no limit)")
	fs.BoolVar(&c.fast, "fast", false, "run logic as fast as possible, MAX_LOOPS ticks every frame, not in real time (replays, tests)")
	mode := fs.String("mode", "fixed", "timing mode: "+sim.ModeNames()+" (M)")
	fs.Float64Var(&c.speed, "speed", 1, fmt.Sprintf("speed factor, %v to %v: slow motion below 1 ([ and ])", sim.MinSpeed, sim.MaxSpeed))
	fs.IntVar(&c.fpsCap, "fps-cap", 0, "frame cap in frames per second, 0 for none (C)")
	fs.DurationVar(&c.renderLoad, "render-load", 0, "busy-wait this long in every frame's draw, to act like a slow machine (L)")
	fs.DurationVar(&c.logicLoad, "logic-load", 0, "busy-wait this long in every logic tick (K)")
	fs.BoolVar(&c.paused, "paused", false, "start paused (P)")
	fs.BoolVar(&c.hud, "hud", true, "show the HUD (H)")
	fs.BoolVar(&c.hudHelp, "hud-help", false, "start with the HUD's long form: every setting, the keys, the graph's legend (? or F1)")
	fs.BoolVar(&c.graph, "graph", true, "show the frame-time graph (F)")
	fs.BoolVar(&c.ghosts, "ghosts", false, "show rings at every ball's last and next position, and rollback's predicted and corrected positions (G)")
	fs.BoolVar(&c.stats, "stats", false, "on exit, print one JSON line of statistics to stdout")
	fs.StringVar(&c.stateFile, "state", "", "on exit, write the world as JSON to this file")
	fs.StringVar(&c.screenshot, "screenshot", "", "on exit, write the last frame as PNG to this file")
	fs.StringVar(&c.gifFile, "gif", "", fmt.Sprintf("on exit, write the run's frames (the first %d) as an animated GIF to this file", maxGIFFrames))
	fs.StringVar(&c.traceFile, "trace", "", "write one CSV row per frame to this file")
	fs.StringVar(&c.recordFile, "record", "", "record the seed, settings and per-tick input to this file")
	fs.StringVar(&c.replayFile, "replay", "", "replay a recording, checking its state hashes")
	c.net.flags(fs)
	fs.IntVar(&c.syncTest, "synctest", 0, fmt.Sprintf("roll the world back this many ticks after every tick and simulate them again, failing on any difference (1 to %d; 0: off)", sim.MaxSyncTest))
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile (pprof) of the run to this file")
	fs.StringVar(&c.memProfile, "memprofile", "", "write an allocation profile (pprof) of the run to this file")

	// The flag package calls Usage on every parse error too; the whole
	// usage is printed for -h only, and an error gets one line.
	fs.Usage = func() {}
	usage := func() {
		fmt.Fprintf(usageOut, "Usage: interpdemo [flags]\n\nA fixed-tick game loop with render interpolation: logic at 25 ticks per\nsecond, drawing as fast as the display allows.\n\n%s\nFlags:\n", keyHelp())
		fs.SetOutput(usageOut)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage()
			return c, errHelp
		}
		return c, usageError{msg: oneLine(err.Error()), hint: true}
	}
	if fs.NArg() > 0 {
		return c, usageError{msg: fmt.Sprintf("unexpected argument %q (flags start with -)", fs.Arg(0)), hint: true}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	c.set = set

	var err error
	if c.vsync, err = platform.ParseVsync(*vsync); err != nil {
		return c, flagErr("vsync", "%v", err)
	}
	if c.pacing = pacingRaw; c.vsync != platform.VsyncOff {
		c.pacing = pacingSmooth
	}
	if *pacing != "" {
		if c.pacing, err = parsePacing(*pacing); err != nil {
			return c, flagErr("pacing", "%v", err)
		}
	}
	switch {
	case c.vsyncSim < 0 || c.vsyncSim > maxVsyncSim:
		return c, flagErr("vsync-sim", "must be between 0 (off) and %d Hz (got %d)", maxVsyncSim, c.vsyncSim)
	case c.vsyncJitter < 0:
		return c, flagErr("vsync-jitter", "must not be negative (got %v)", c.vsyncJitter)
	case c.vsyncJitter > 0 && c.vsyncSim == 0:
		return c, flagErr("vsync-jitter", "needs -vsync-sim")
	case c.vsyncSim > 0 && c.vsyncJitter >= time.Second/time.Duration(c.vsyncSim):
		return c, flagErr("vsync-jitter", "must be less than the simulated refresh interval %v (got %v)", time.Second/time.Duration(c.vsyncSim), c.vsyncJitter)
	}
	if c.mode, err = sim.ParseMode(*mode); err != nil {
		return c, flagErr("mode", "%v", err)
	}
	switch {
	case balls < 0 || balls > physics.MaxBalls:
		return c, flagErr("balls", "must be between 0 and %d (got %d)", physics.MaxBalls, balls)
	case maxLoops < 1 || maxLoops > sim.MaxMaxLoops:
		return c, flagErr("max-loops", "must be between 1 and %d (got %d)", sim.MaxMaxLoops, maxLoops)
	case radius < 1 || radius > sim.MaxRadius:
		return c, flagErr("radius", "must be between 1 and %d units (got %d)", sim.MaxRadius, radius)
	}
	c.settings = def
	c.settings.Tick, c.settings.MaxLoops, c.settings.Lockstep = tick, uint32(maxLoops), lockstep
	c.settings.Balls, c.settings.Seed, c.settings.Radius = uint32(balls), seed, int32(radius)
	if err := sim.CheckSettings(c.settings); err != nil {
		return c, usageError{msg: err.Error()}
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
	case !(c.speed >= sim.MinSpeed && c.speed <= sim.MaxSpeed): // also NaN
		return c, flagErr("speed", "must be between %v and %v (got %v)", sim.MinSpeed, sim.MaxSpeed, c.speed)
	case c.fpsCap < 0 || c.fpsCap > maxFPSCap:
		return c, flagErr("fps-cap", "must be between 0 (none) and %d (got %d)", maxFPSCap, c.fpsCap)
	case c.renderLoad < 0 || c.renderLoad > maxLoad:
		return c, flagErr("render-load", "must be between 0 and %v (got %v)", maxLoad, c.renderLoad)
	case c.logicLoad < 0 || c.logicLoad > maxLoad:
		return c, flagErr("logic-load", "must be between 0 and %v (got %v)", maxLoad, c.logicLoad)
	case c.recordFile != "" && c.replayFile != "":
		return c, flagErr("replay", "cannot be combined with -record")
	case c.recordFile != "" && !c.mode.Deterministic():
		return c, flagErr("record", "only -mode fixed is deterministic; %s mode steps by measured time", c.mode)
	case c.replayFile != "" && !c.mode.Deterministic():
		return c, flagErr("replay", "only -mode fixed is deterministic; %s mode steps by measured time", c.mode)
	case c.fast && c.mode != sim.ModeFixed:
		return c, flagErr("fast", "only applies to -mode fixed")
	}
	if err := c.net.check(&c, set); err != nil {
		return c, err
	}
	switch {
	case c.syncTest < 0 || c.syncTest > sim.MaxSyncTest:
		return c, flagErr("synctest", "must be between 0 and %d ticks (got %d)", sim.MaxSyncTest, c.syncTest)
	case c.syncTest > 0 && (c.net.on() || c.mode != sim.ModeFixed):
		return c, flagErr("synctest", "runs the fixed loop on one machine")
	}
	for _, f := range []struct{ name, path string }{
		{"state", c.stateFile},
		{"screenshot", c.screenshot},
		{"gif", c.gifFile},
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
	if c.replayFile != "" {
		// The recording decides the world and the loop.
		for _, name := range []string{"tick", "max-loops", "lockstep", "balls", "seed", "radius"} {
			if set[name] {
				return c, flagErr(name, "cannot be set with -replay: the recording sets it")
			}
		}
		if c.replay, err = replay.ReadFile(c.replayFile); err != nil {
			return c, err // a runtime error (status 1): the file, not the flag
		}
		if err := sim.CheckSettings(c.replay.Settings); err != nil {
			return c, fmt.Errorf("%s: the recording's settings: %v", c.replayFile, err)
		}
		c.settings = c.replay.Settings
	}
	return c, nil
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
