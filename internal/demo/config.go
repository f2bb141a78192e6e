package demo

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/cmdline"

	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/render/adaptive"
	"github.com/interpdemo/interpdemo/replay"
)

// Config is everything the flags set. Parse validates every value before
// a front end opens anything.
type Config struct {
	Settings sim.Settings // the world and the fixed loop

	Interp      bool
	Extrapolate bool
	Vsync       Vsync
	Pacing      PacingMode    // -pacing: raw or smooth
	VsyncSim    int           // -vsync-sim: a simulated display's rate in Hz, 0 for none
	VsyncJitter time.Duration // -vsync-jitter: its wake-up delay, uniform in [0, D]

	Width, Height int
	Headless      bool
	// Cull is how the renderer chooses its occlusion culling (-cull):
	// by measurement (auto), or forced on or off.
	Cull adaptive.Mode
	// Sprites is how it chooses the balls' form where they are not
	// culled (-sprites): by measurement (auto), or forced to points
	// (adaptive.On) or squares (adaptive.Off).
	Sprites adaptive.Mode
	// Paint is how the page chooses to paint the balls on the CPU into
	// one texture instead of drawing them (-paint): by measurement
	// (auto), or forced on or off. The window never paints.
	Paint adaptive.Mode

	Duration time.Duration
	Ticks    int64
	Fast     bool

	Mode       sim.Mode
	Speed      float64
	FPSCap     int
	RenderLoad time.Duration
	LogicLoad  time.Duration
	Paused     bool

	HUD, Graph, Ghosts bool
	HUDHelp            bool

	Stats      bool
	StateFile  string
	Screenshot string
	GIFFile    string
	TraceFile  string
	RecordFile string
	ReplayFile string
	CPUProfile string
	MemProfile string

	Replay *replay.Recording // -replay, read while the flags are checked

	SyncTest int // -synctest

	Net NetConfig       // -host, -join and the other network flags
	Set map[string]bool // the flags given on the command line
}

// Bounds of the flags.
const (
	MaxLoad     = 2 * time.Second
	MaxFPSCap   = 1000
	MaxVsyncSim = 1000 // Hz
	// maxGIFBytes bounds the memory -gif's frames take, the world's part
	// of them: a byte a pixel a frame.
	maxGIFBytes = 1 << 30
	// MaxGIFFrames bounds what -gif keeps: 300 frames, 10 s at 30 FPS.
	MaxGIFFrames = 300
)

// UsageError is a bad flag value: exit status 2.
type UsageError struct {
	Msg  string
	Hint bool // follow the message with UsageHint: the flags did not parse
}

func (e UsageError) Error() string { return e.Msg }

func flagErr(name, format string, args ...any) error {
	return UsageError{Msg: fmt.Sprintf("-%s: %s", name, fmt.Sprintf(format, args...))}
}

// ErrHelp is returned for -h: the usage was printed; exit 0.
var ErrHelp = errors.New("help requested")

// UsageHint follows a flag error: the whole usage is long, and the
// error is what the user needs to see.
const UsageHint = "run interpdemo -h for help"

// Files is what the demo needs of a file system: the desktop's (atomic
// files on disk), a browser's (none), a test's.
type Files interface {
	// CheckWritable tells early whether a later write to path can
	// succeed.
	CheckWritable(path string) error
	// Create starts writing path; nothing appears there until Commit.
	Create(path string) (File, error)
	// WriteFile writes path at once, atomically, with what write
	// produces.
	WriteFile(path string, write func(io.Writer) error) error
	// ReadRecording reads the recording at path (a file name, a URL),
	// with an error of one line naming it.
	ReadRecording(path string) (*replay.Recording, error)
	// SameFile reports whether a and b name one file that writing one of
	// them would replace: the same regular file, or the same path not
	// made yet. A device or a FIFO (/dev/stdout) is never the same file:
	// writing it replaces nothing.
	SameFile(a, b string) bool
}

// File is a file being written: Commit puts it in place, Abort leaves
// nothing behind.
type File interface {
	io.Writer
	Commit() error
	Abort()
}

// flagGroup is a heading of -h.
type flagGroup int

const (
	groupWorld flagGroup = iota
	groupDrawing
	groupLoad
	groupOutput
	groupNetwork
	numFlagGroups
)

var flagGroupTitles = [numFlagGroups]string{
	groupWorld:   "The world and the loop",
	groupDrawing: "Drawing",
	groupLoad:    "Load and pacing",
	groupOutput:  "Output files and statistics",
	groupNetwork: "Network play",
}

// Examples end -h: command lines to start from.
var Examples = []struct{ Cmd, What string }{
	{"interpdemo -tick 200ms -ghosts", "five ticks a second: watch the ball between its rings, press Space, L, E, ?"},
	{"interpdemo -headless -ticks 250 -stats", "no window: 250 ticks, then one line of JSON statistics"},
	{"interpdemo -host :7777", "host a network game, then in a second terminal:"},
	{"interpdemo -join 127.0.0.1:7777", "join it: player 1 moves ball 1"},
}

// flags is the demo's flag set and where each flag goes in -h.
type flags struct {
	fs    *flag.FlagSet
	group map[string]flagGroup
	cur   flagGroup
}

func (f *flags) in(g flagGroup) *flag.FlagSet {
	f.cur = g
	return f.fs
}

// note records the group of every flag defined since the last call.
func (f *flags) note() {
	f.fs.VisitAll(func(fl *flag.Flag) {
		if _, ok := f.group[fl.Name]; !ok {
			f.group[fl.Name] = f.cur
		}
	})
}

// rawFlags are the values as the flag package parses them, before the
// checks that turn them into a Config.
type rawFlags struct {
	tick                    time.Duration
	maxLoops, balls, radius int
	seed                    uint64
	lockstep                bool
	vsync, pacing, mode     string
	cull                    string
	sprites                 string
	paint                   string
}

// define defines every flag on a new flag set, c and r taking the values.
func define(c *Config, r *rawFlags) *flags {
	f := &flags{fs: flag.NewFlagSet("interpdemo", flag.ContinueOnError), group: map[string]flagGroup{}}
	f.fs.SetOutput(io.Discard)
	def := sim.DefaultSettings()

	fs := f.in(groupWorld)
	fs.DurationVar(&r.tick, "tick", def.Tick, "logic tick length (tick_time) `DURATION`; 40ms = 25 ticks per second")
	fs.IntVar(&r.maxLoops, "max-loops", int(def.MaxLoops), "most logic ticks, `N`, run in one frame to catch up (MAX_LOOPS)")
	fs.BoolVar(&r.lockstep, "lockstep", false, "keep time debt instead of discarding it, as a network game must")
	fs.IntVar(&r.balls, "balls", int(def.Balls), fmt.Sprintf("`N` balls (0 to %d; a hosted network game: at least -players, one for each player)", physics.MaxBalls))
	fs.Uint64Var(&r.seed, "seed", def.Seed, "`SEED` of the balls' starting positions and directions")
	fs.IntVar(&r.radius, "radius", int(def.Radius), fmt.Sprintf("ball radius in world `UNITS` (the world is %dx%d units)", def.Width, def.Height))
	fs.StringVar(&r.mode, "mode", "fixed", "timing `MODE`: "+sim.ModeNames()+" (M)")
	fs.Float64Var(&c.Speed, "speed", 1, fmt.Sprintf("speed `FACTOR`, %v to %v: slow motion below 1 ([ and ])", sim.MinSpeed, sim.MaxSpeed))
	fs.BoolVar(&c.Paused, "paused", false, "start paused (P)")
	fs.DurationVar(&c.Duration, "duration", 0, "quit after this much wall time, a `DURATION` (0: run until quit)")
	fs.Int64Var(&c.Ticks, "ticks", 0, "quit after exactly `N` logic ticks (0: no limit)")
	fs.BoolVar(&c.Fast, "fast", false, "run logic as fast as possible, MAX_LOOPS ticks every frame, not in real time (replays, tests)")
	fs.IntVar(&c.SyncTest, "synctest", 0, fmt.Sprintf("roll the world back `N` ticks after every tick and simulate them again, failing on any difference (1 to %d; 0: off)", sim.MaxSyncTest))
	f.note()

	fs = f.in(groupDrawing)
	fs.BoolVar(&c.Interp, "interp", true, "draw balls between their last and next logic positions (Space)")
	fs.BoolVar(&c.Extrapolate, "extrapolate", false, "draw balls ahead of their next position instead (E)")
	fs.BoolVar(&c.HUD, "hud", true, "show the HUD (H)")
	fs.BoolVar(&c.HUDHelp, "hud-help", false, "start with the HUD's long form: every setting, the keys, the graph's legend (? or F1)")
	fs.BoolVar(&c.Graph, "graph", true, "show the frame-time graph (F)")
	fs.BoolVar(&c.Ghosts, "ghosts", false, "show rings at every ball's last and next position, and rollback's predicted and corrected positions (G)")
	fs.IntVar(&c.Width, "width", 640, "the world's width in the window, `PIXELS` (the HUD's column adds 280 at its left, 420 for its long form or a network game)")
	fs.IntVar(&c.Height, "height", 480, "the world's height in the window, `PIXELS` (the graph's strip adds 108 below it)")
	fs.StringVar(&r.cull, "cull", "auto", "occlusion culling of hidden balls, `MODE`: auto (used while it measures cheaper on this machine), on or off")
	fs.StringVar(&r.sprites, "sprites", "auto", "how balls are drawn where not culled, `FORM`: auto (whichever measures cheaper on this machine), points (point sprites) or quads (squares of two triangles)")
	fs.StringVar(&r.paint, "paint", "auto", "the page only: paint the balls on the CPU into one texture instead of drawing them, `MODE`: auto (used while it measures cheaper on this machine), on or off (the window never paints)")
	fs.BoolVar(&c.Headless, "headless", false, "render offscreen (SDL offscreen driver): no window, no X server needed")
	f.note()

	fs = f.in(groupLoad)
	fs.StringVar(&r.vsync, "vsync", "on", "vsync `MODE`: on, off or adaptive (V)")
	fs.StringVar(&r.pacing, "pacing", "", "frame pacing `MODE`: raw (the original loop: the time the frame wakes up) or smooth (the time of the vblank it follows, and stable tick counts); default smooth with vsync on, raw with vsync off (J)")
	fs.IntVar(&c.VsyncSim, "vsync-sim", 0, fmt.Sprintf("simulate a vsynced display of `HZ` (1 to %d): each frame waits for the next vblank of a 1/HZ grid on the loop's clock, for headless runs and Xvfb (0: off)", MaxVsyncSim))
	fs.DurationVar(&c.VsyncJitter, "vsync-jitter", 0, "with -vsync-sim: a random wake-up delay after each simulated vblank, uniform in [0, `DURATION`], as a compositor adds (seeded by -seed)")
	fs.IntVar(&c.FPSCap, "fps-cap", 0, "frame cap in `FPS`, frames per second, 0 for none (C)")
	fs.DurationVar(&c.RenderLoad, "render-load", 0, "busy-wait this `DURATION` in every frame's draw, to act like a slow machine (L)")
	fs.DurationVar(&c.LogicLoad, "logic-load", 0, "busy-wait this `DURATION` in every logic tick (K)")
	f.note()

	fs = f.in(groupOutput)
	fs.BoolVar(&c.Stats, "stats", false, "on exit, print one JSON line of statistics to stdout")
	fs.StringVar(&c.StateFile, "state", "", "on exit, write the world as JSON to `FILE`")
	fs.StringVar(&c.Screenshot, "screenshot", "", "on exit, write the last frame as PNG to `FILE`")
	fs.StringVar(&c.GIFFile, "gif", "", fmt.Sprintf("on exit, write the run's frames (the first %d) as an animated GIF to `FILE`", MaxGIFFrames))
	fs.StringVar(&c.TraceFile, "trace", "", "write one CSV row per frame to `FILE`")
	fs.StringVar(&c.RecordFile, "record", "", "record the seed, settings and per-tick input to `FILE`")
	fs.StringVar(&c.ReplayFile, "replay", "", "replay the recording in `FILE`, checking its state hashes")
	fs.StringVar(&c.CPUProfile, "cpuprofile", "", "write a CPU profile (pprof) of the run to `FILE`")
	fs.StringVar(&c.MemProfile, "memprofile", "", "write an allocation profile (pprof) of the run to `FILE`")
	f.note()

	f.in(groupNetwork)
	c.Net.define(f.fs)
	f.note()
	return f
}

// usage writes -h: what the demo is, the keys, the flags by group, and
// examples, folded to cmdline.HelpWidth columns.
func (f *flags) usage(out io.Writer) {
	w := new(strings.Builder)
	defer func() { io.WriteString(out, cmdline.Fold(w.String(), cmdline.HelpWidth)) }()
	fmt.Fprintf(w, "Usage: interpdemo [flags]\n\nA fixed-tick game loop with render interpolation: logic at 25 ticks per\nsecond, drawing as fast as the display allows.\n\n%s", KeyHelp())
	for g := range numFlagGroups {
		fmt.Fprintf(w, "\n%s:\n", flagGroupTitles[g])
		f.fs.VisitAll(func(fl *flag.Flag) {
			if f.group[fl.Name] == g {
				writeFlag(w, fl)
			}
		})
	}
	fmt.Fprintf(w, "\nExamples:\n")
	for _, e := range Examples {
		fmt.Fprintf(w, "  %s\n      %s\n", e.Cmd, e.What)
	}
}

// writeFlag writes one flag as the flag package's PrintDefaults does (it
// is PrintDefaults, on a set of that flag alone): the name and the
// placeholder of what it takes, then the usage and the default.
func writeFlag(w io.Writer, fl *flag.Flag) {
	one := flag.NewFlagSet("", flag.ContinueOnError)
	one.Var(fl.Value, fl.Name, fl.Usage)
	one.SetOutput(w)
	one.PrintDefaults()
}

// Usage is -h's text.
func Usage() string {
	var c Config
	var r rawFlags
	var b strings.Builder
	define(&c, &r).usage(&b)
	return b.String()
}

// FlagNames lists every flag, in -h's order.
func FlagNames() []string {
	var c Config
	var r rawFlags
	f := define(&c, &r)
	var names []string
	for g := range numFlagGroups {
		f.fs.VisitAll(func(fl *flag.Flag) {
			if f.group[fl.Name] == g {
				names = append(names, fl.Name)
			}
		})
	}
	return names
}

// ArgsFromQuery turns name/value pairs (a URL's query, in order) into
// command-line flags: a name with no value is a bare flag (?ghosts is
// -ghosts), anything else is -name=value. Parse then checks them as it
// checks a command line.
func ArgsFromQuery(pairs [][2]string, bare func(name string) bool) []string {
	args := make([]string, 0, len(pairs))
	for _, p := range pairs {
		if p[1] == "" && bare(p[0]) {
			args = append(args, "-"+p[0])
			continue
		}
		args = append(args, "-"+p[0]+"="+p[1])
	}
	return args
}

// Parse reads and validates the command line, and reads the -replay
// recording, with the platform's files and network (either may be nil:
// then the flags that need them are refused). A bad flag is a UsageError
// with a one-line message naming the flag; -h writes the usage to
// usageOut and returns ErrHelp.
//
// The checks run in a fixed order, so that a command line with several
// mistakes is told the same first one every time; a failed check returns
// the Config as far as it got.
func Parse(args []string, usageOut io.Writer, p Platform) (Config, error) {
	var c Config
	var r rawFlags
	if err := c.parseArgs(&r, args, usageOut); err != nil {
		return c, err
	}
	if err := c.checkDisplay(&r); err != nil {
		return c, err
	}
	if err := c.checkWorld(&r); err != nil {
		return c, err
	}
	if err := c.checkRun(); err != nil {
		return c, err
	}
	if err := c.Net.check(&c, c.Set); err != nil {
		return c, err
	}
	if err := c.Net.checkJoin(p.Network, p.stop()); err != nil {
		return c, err
	}
	switch {
	case c.SyncTest < 0 || c.SyncTest > sim.MaxSyncTest:
		return c, flagErr("synctest", "must be between 0 and %d ticks (got %d)", sim.MaxSyncTest, c.SyncTest)
	case c.SyncTest > 0 && (c.Net.On() || c.Mode != sim.ModeFixed):
		return c, flagErr("synctest", "runs the fixed loop on one machine")
	}
	if err := c.checkFiles(p.Files); err != nil {
		return c, err
	}
	if c.ReplayFile != "" {
		if err := c.readReplay(p.Files); err != nil {
			return c, err
		}
	}
	return c, nil
}

// parseArgs parses args into c and r, and records in c.Set the flags
// given: -h writes the usage to usageOut and is ErrHelp, a flag the flag
// package refuses a one-line UsageError.
func (c *Config) parseArgs(r *rawFlags, args []string, usageOut io.Writer) error {
	fs := define(c, r).fs
	// The flag package calls Usage on every parse error too; the whole
	// usage is printed for -h only, and an error gets one line.
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(usageOut, Usage()) // the defaults, whatever came before -h
			return ErrHelp
		}
		if m := cmdline.Misspelt(fs, err); m != "" {
			return UsageError{Msg: fmt.Sprintf("%s (did you mean -%s?)", oneLine(err.Error()), m)}
		}
		return UsageError{Msg: oneLine(err.Error()), Hint: true}
	}
	if fs.NArg() > 0 {
		return UsageError{Msg: fmt.Sprintf("unexpected argument %q (flags start with -)", fs.Arg(0)), Hint: true}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	c.Set = set
	return nil
}

// checkDisplay parses and checks how the game is drawn and paced: -cull,
// -sprites, -vsync, -pacing (smooth by default with vsync), and the
// simulated vsync.
func (c *Config) checkDisplay(r *rawFlags) error {
	var err error
	if c.Cull, err = adaptive.ParseMode(r.cull); err != nil {
		return flagErr("cull", "%v (got %q)", err, r.cull)
	}
	if c.Sprites, err = ParseSprites(r.sprites); err != nil {
		return flagErr("sprites", "%v (got %q)", err, r.sprites)
	}
	if c.Paint, err = adaptive.ParseMode(r.paint); err != nil {
		return flagErr("paint", "%v (got %q)", err, r.paint)
	}
	if c.Vsync, err = ParseVsync(r.vsync); err != nil {
		return flagErr("vsync", "%v", err)
	}
	if c.Pacing = PacingRaw; c.Vsync != VsyncOff {
		c.Pacing = PacingSmooth
	}
	if r.pacing != "" {
		if c.Pacing, err = ParsePacing(r.pacing); err != nil {
			return flagErr("pacing", "%v", err)
		}
	}
	switch {
	case c.VsyncSim < 0 || c.VsyncSim > MaxVsyncSim:
		return flagErr("vsync-sim", "must be between 0 (off) and %d Hz (got %d)", MaxVsyncSim, c.VsyncSim)
	case c.VsyncJitter < 0:
		return flagErr("vsync-jitter", "must not be negative (got %v)", c.VsyncJitter)
	case c.VsyncJitter > 0 && c.VsyncSim == 0:
		return flagErr("vsync-jitter", "needs -vsync-sim")
	case c.VsyncSim > 0 && c.VsyncJitter >= time.Second/time.Duration(c.VsyncSim):
		return flagErr("vsync-jitter", "must be less than the simulated refresh interval %v (got %v)", time.Second/time.Duration(c.VsyncSim), c.VsyncJitter)
	}
	return nil
}

// checkWorld parses -mode and makes the world's settings from the flags,
// checked.
func (c *Config) checkWorld(r *rawFlags) error {
	var err error
	if c.Mode, err = sim.ParseMode(r.mode); err != nil {
		return flagErr("mode", "%v", err)
	}
	switch {
	case r.balls < 0 || r.balls > physics.MaxBalls:
		return flagErr("balls", "must be between 0 and %d (got %d)", physics.MaxBalls, r.balls)
	case r.maxLoops < 1 || r.maxLoops > sim.MaxMaxLoops:
		return flagErr("max-loops", "must be between 1 and %d (got %d)", sim.MaxMaxLoops, r.maxLoops)
	case r.radius < 1 || r.radius > sim.MaxRadius:
		return flagErr("radius", "must be between 1 and %d units (got %d)", sim.MaxRadius, r.radius)
	}
	c.Settings = sim.DefaultSettings()
	c.Settings.Tick, c.Settings.MaxLoops, c.Settings.Lockstep = r.tick, uint32(r.maxLoops), r.lockstep
	c.Settings.Balls, c.Settings.Seed, c.Settings.Radius = uint32(r.balls), r.seed, int32(r.radius)
	if err := sim.CheckSettings(c.Settings); err != nil {
		return UsageError{Msg: err.Error()}
	}
	return nil
}

// checkRun checks the run's window, length, speed and loads, and what
// -record, -replay and -fast combine with.
func (c *Config) checkRun() error {
	switch {
	case c.Width < 16 || c.Width > 16384:
		return flagErr("width", "must be between 16 and 16384 pixels (got %d)", c.Width)
	case c.Height < 16 || c.Height > 16384:
		return flagErr("height", "must be between 16 and 16384 pixels (got %d)", c.Height)
	case c.Duration < 0:
		return flagErr("duration", "must not be negative (got %v)", c.Duration)
	case c.Ticks < 0 || c.Ticks > math.MaxInt32:
		return flagErr("ticks", "must be between 0 and %d (got %d)", math.MaxInt32, c.Ticks)
	case !(c.Speed >= sim.MinSpeed && c.Speed <= sim.MaxSpeed): // also NaN
		return flagErr("speed", "must be between %v and %v (got %v)", sim.MinSpeed, sim.MaxSpeed, c.Speed)
	case c.FPSCap < 0 || c.FPSCap > MaxFPSCap:
		return flagErr("fps-cap", "must be between 0 (none) and %d (got %d)", MaxFPSCap, c.FPSCap)
	case c.RenderLoad < 0 || c.RenderLoad > MaxLoad:
		return flagErr("render-load", "must be between 0 and %v (got %v)", MaxLoad, c.RenderLoad)
	case c.LogicLoad < 0 || c.LogicLoad > MaxLoad:
		return flagErr("logic-load", "must be between 0 and %v (got %v)", MaxLoad, c.LogicLoad)
	case c.RecordFile != "" && c.ReplayFile != "":
		return flagErr("replay", "cannot be combined with -record")
	case c.RecordFile != "" && !c.Mode.Deterministic():
		return flagErr("record", "only -mode fixed is deterministic; %s mode steps by measured time", c.Mode)
	case c.ReplayFile != "" && !c.Mode.Deterministic():
		return flagErr("replay", "only -mode fixed is deterministic; %s mode steps by measured time", c.Mode)
	case c.Fast && c.Mode != sim.ModeFixed:
		return flagErr("fast", "only applies to -mode fixed")
	}
	return nil
}

// checkFiles checks the files the flags name: each named, no two outputs
// one file, none the recording read, the GIF within its memory, every
// output writable (files nil: none can be).
func (c *Config) checkFiles(files Files) error {
	for _, f := range append(c.outputs(), output{"replay", c.ReplayFile}) {
		if c.Set[f.flag] && f.path == "" {
			return flagErr(f.flag, "needs a file name")
		}
	}
	if files != nil {
		// Two flags that name one file would lose what one of them
		// wrote; an output that names the recording read would destroy
		// it.
		outs := c.outputs()
		for i, a := range outs {
			for _, b := range outs[i+1:] {
				if a.path != "" && b.path != "" && files.SameFile(a.path, b.path) {
					return flagErr(b.flag, "names the file -%s writes: one would replace the other", a.flag)
				}
			}
			if a.path != "" && c.ReplayFile != "" && files.SameFile(a.path, c.ReplayFile) {
				return flagErr(a.flag, "names the recording -replay reads: writing it would destroy it")
			}
		}
	}
	if c.GIFFile != "" && int64(c.Width)*int64(c.Height)*MaxGIFFrames > maxGIFBytes {
		return flagErr("gif", "keeps up to %d frames, a byte a pixel: a world of %dx%d pixels would take %.1f GiB, more than %d GiB (use a smaller -width and -height)",
			MaxGIFFrames, c.Width, c.Height, float64(int64(c.Width)*int64(c.Height)*MaxGIFFrames)/(1<<30), maxGIFBytes>>30)
	}
	if c.Paused && c.Headless && c.Duration == 0 {
		return flagErr("paused", "with -headless no key can resume the game: add -duration")
	}
	for _, f := range c.outputs() {
		if f.path == "" {
			continue
		}
		if files == nil {
			return flagErr(f.flag, "no files can be written here")
		}
		if err := files.CheckWritable(f.path); err != nil {
			return flagErr(f.flag, "%v", err)
		}
	}
	return nil
}

// readReplay reads the -replay recording, which decides the world and the
// loop: the world's flags cannot be set with it.
func (c *Config) readReplay(files Files) error {
	for _, name := range []string{"tick", "max-loops", "lockstep", "balls", "seed", "radius"} {
		if c.Set[name] {
			return flagErr(name, "cannot be set with -replay: the recording sets it")
		}
	}
	if files == nil {
		return flagErr("replay", "no recording can be read here")
	}
	var err error
	if c.Replay, err = files.ReadRecording(c.ReplayFile); err != nil {
		return err // a runtime error (status 1): the file, not the flag
	}
	if err := sim.CheckSettings(c.Replay.Settings); err != nil {
		return fmt.Errorf("%s: the recording's settings: %v", c.ReplayFile, err)
	}
	c.Settings = c.Replay.Settings
	return nil
}

// output is a file a flag names.
type output struct{ flag, path string }

// outputs are the files the flags ask to be written.
func (c *Config) outputs() []output {
	return []output{
		{"state", c.StateFile},
		{"screenshot", c.Screenshot},
		{"gif", c.GIFFile},
		{"trace", c.TraceFile},
		{"record", c.RecordFile},
		{"cpuprofile", c.CPUProfile},
		{"memprofile", c.MemProfile},
	}
}

// IsBoolFlag reports whether the flag name takes no value (-ghosts).
func IsBoolFlag(name string) bool {
	var c Config
	var r rawFlags
	fl := define(&c, &r).fs.Lookup(name)
	if fl == nil {
		return false
	}
	b, ok := fl.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// FileErr names the flag of a file that could not be written. The errors
// of package atomicfile and replay already name the file.
func FileErr(flag string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("-%s: %v", flag, err)
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// ErrSprites is returned by ParseSprites for a name that is not a form.
var ErrSprites = errors.New("want auto, points or quads")

// SpritesForms names the modes as -sprites takes them: points is
// adaptive.On (the point sprites, the option the renderer's choice takes
// up where it measures cheaper), quads adaptive.Off.
var SpritesForms = [...]string{adaptive.Auto: "auto", adaptive.On: "points", adaptive.Off: "quads"}

// ParseSprites parses -sprites: auto, points or quads.
func ParseSprites(s string) (adaptive.Mode, error) {
	for m, name := range SpritesForms {
		if s == name {
			return adaptive.Mode(m), nil
		}
	}
	return adaptive.Auto, ErrSprites
}
