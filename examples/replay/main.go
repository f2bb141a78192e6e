// Command replay records a deterministic game and replays it: a physics
// world of bouncing balls, played on a fixed 40 ms tick by a scripted player
// whose key presses become one input record per tick, is recorded with a
// replay.Recorder and written to a file; the file is read back and replayed
// tick by tick with nothing but the library (no clock, no frames, no
// window), checking the world's state hash against the recorded one every
// few ticks and at the end. It prints both final hashes, which match.
//
// The recording holds no times: the player's events are stamped on the
// loop's clock, and each tick takes the events of its own span (package
// input), so the record of every tick, and so the replay, does not depend on
// the frame rate. Here the frames come at uneven intervals, with a stall
// that makes one frame run several ticks, on a loop.ManualClock: the
// recording is the same on every run and every machine.
//
//	go run ./examples/replay               # record to a temporary file, replay it
//	go run ./examples/replay -o game.rec   # keep the file
//	go run ./examples/replay -replay game.rec
//
// A recording whose inputs were changed replays to another state, and the
// replay stops at the first checkpoint that differs with a
// *replay.DivergenceError ("state diverges at tick 40: ..."), exit status 1.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/replay"
)

const ms = time.Millisecond

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the program; it returns the exit status: 0 when the replay
// matches, 1 when something fails, 2 for bad flags.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the recording to this file (default: a temporary file, removed at exit)")
	ticks := fs.Int("ticks", 100, "logic ticks to record")
	every := fs.Int("every", 10, "a state-hash checkpoint every this many ticks")
	only := fs.String("replay", "", "replay this recording instead of making one")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *ticks < 1 || *every < 1 || int64(*every) > math.MaxUint32 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "replay: -ticks and -every take a count >= 1 (-every at most 2^32-1), and there are no arguments")
		return 2
	}
	if err := recordAndReplay(*out, *only, *ticks, uint32(*every), stdout); err != nil {
		fmt.Fprintln(stderr, "replay:", err)
		return 1
	}
	return 0
}

func recordAndReplay(path, only string, ticks int, every uint32, stdout io.Writer) error {
	if only != "" {
		hash, err := play(only)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "replayed hash %016x\n", hash)
		return nil
	}
	where := path
	if path == "" {
		dir, err := os.MkdirTemp("", "replay-example-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "game.rec")
		where = "a temporary file"
	}
	recorded, err := record(path, ticks, every)
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "recorded %d ticks to %s (%d bytes)\n", ticks, where, st.Size())
	fmt.Fprintf(stdout, "recorded hash %016x\n", recorded)
	replayed, err := play(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "replayed hash %016x\n", replayed)
	return nil
}

// newWorld makes the world a recording's settings describe.
func newWorld(s replay.Settings) (*physics.World, error) {
	return physics.New(physics.Config{
		Width: s.Width, Height: s.Height, Radius: s.Radius, Speed: s.Speed,
		Tick: s.Tick, Balls: int(s.Balls), Seed: s.Seed,
	})
}

// apply carries out a command, the same way when recording and replaying.
func apply(w *physics.World, c replay.Command) error {
	switch c.Kind {
	case replay.CmdReset:
		w.Reset()
		return nil
	case replay.CmdSetBalls:
		return w.SetBalls(int(c.Arg))
	case replay.CmdSetTick:
		return w.SetTick(time.Duration(c.Arg))
	}
	return fmt.Errorf("unknown command %v", c)
}

// step runs one tick of the world with the buttons the tick acts on.
func step(w *physics.World, down input.Buttons) {
	w.Tick(physics.Control{
		X: input.Axis(down, input.Left, input.Right),
		Y: input.Axis(down, input.Up, input.Down),
	})
}

// record plays the scripted game for n ticks on the fixed-tick loop,
// recording every tick's input, and writes the recording to path. It
// returns the final state hash.
func record(path string, n int, every uint32) (uint64, error) {
	// The game: 3 balls in the demo's 640x480 box, 16 units a 40 ms tick,
	// at most 5 ticks a frame.
	settings := replay.Settings{
		Seed: 7, Balls: 3, Width: 640, Height: 480, Radius: 8, Speed: 400,
		Tick: 40 * ms, MaxLoops: 5,
	}
	// The player: Right held for 600 ms, a tap on Down shorter than a
	// tick, Up held while Left is tapped twice, all stamped on the loop's
	// clock; and, besides the buttons, five balls instead of three after
	// 50 ticks.
	events := []input.Event{
		{Time: 100 * ms, Button: input.Right, Down: true},
		{Time: 700 * ms, Button: input.Right},
		{Time: 751 * ms, Button: input.Down, Down: true},
		{Time: 763 * ms, Button: input.Down},
		{Time: 900 * ms, Button: input.Up, Down: true},
		{Time: 1210 * ms, Button: input.Left, Down: true},
		{Time: 1290 * ms, Button: input.Left},
		{Time: 1330 * ms, Button: input.Left, Down: true},
		{Time: 1400 * ms, Button: input.Left},
		{Time: 1500 * ms, Button: input.Up},
	}
	commands := []replay.TimedCommand{{At: 50, Command: replay.Command{Kind: replay.CmdSetBalls, Arg: 5}}}
	// The times between frames, in turn: a display at about 60 FPS, one
	// fast frame, and a 130 ms stall that runs three ticks at once.
	frameGaps := []time.Duration{16 * ms, 17 * ms, 7 * ms, 16 * ms, 130 * ms}

	world, err := newWorld(settings)
	if err != nil {
		return 0, err
	}
	clock := loop.NewManualClock(0)
	fixed, err := loop.NewFixed(loop.FixedConfig{Tick: settings.Tick, MaxLoops: int(settings.MaxLoops)}, clock.Now())
	if err != nil {
		return 0, err
	}
	sampler := input.NewSampler()
	rec := replay.NewRecorder(settings, every)
	var prev input.Record
	for frame := 0; rec.Ticks() < uint64(n); frame++ {
		clock.Advance(frameGaps[frame%len(frameGaps)])
		now := clock.Now()
		// The platform delivers the events that happened before the frame.
		for len(events) > 0 && events[0].Time <= now {
			sampler.Push(events[0])
			events = events[1:]
		}
		fr := fixed.Step(now)
		for j := 0; j < fr.Ticks && rec.Ticks() < uint64(n); j++ {
			for len(commands) > 0 && commands[0].At == rec.Ticks() {
				if err := apply(world, commands[0].Command); err != nil {
					return 0, err
				}
				rec.Command(commands[0].Command)
				commands = commands[1:]
			}
			in := sampler.Tick(fr.Span(j).End) // the events of this tick's span
			step(world, in.Down(prev))
			prev = in
			rec.Tick(in, world.Hash) // hashes only at checkpoints
		}
	}
	final := world.Hash()
	return final, rec.Finish(final).WriteFile(path)
}

// play replays the recording at path as fast as it goes, checking the
// state against the recorded checkpoints, and returns the final state hash.
// A replay that reaches another state fails with a *replay.DivergenceError.
func play(path string) (uint64, error) {
	r, err := replay.ReadFile(path)
	if err != nil {
		return 0, err
	}
	world, err := newWorld(r.Settings)
	if err != nil {
		return 0, fmt.Errorf("replay file %s: %w", path, err)
	}
	p := r.Player()
	prev := p.Initial()
	for {
		cmds, in, ok := p.Next()
		for _, c := range cmds {
			if err := apply(world, c); err != nil {
				return 0, fmt.Errorf("replay file %s: %w", path, err)
			}
		}
		if !ok {
			break
		}
		step(world, in.Down(prev))
		prev = in
		if err := p.Check(world.Hash); err != nil {
			return 0, fmt.Errorf("replay file %s: %w", path, err)
		}
	}
	final := world.Hash()
	if err := p.CheckFinal(final); err != nil {
		return 0, fmt.Errorf("replay file %s: %w", path, err)
	}
	return final, nil
}
