package sim_test

import (
	"errors"
	"flag"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/replay"
)

// The cross-architecture recording: a real recording of the physics world,
// made on amd64, whose checkpoint hashes every other architecture must
// reproduce. The lead's `make test` runs this test natively and with
// GOARCH=386, so one committed file proves that 64-bit and 32-bit builds
// replay it to the same state, bit for bit. It lives here, in the demo's
// module, because it needs both replay and physics: in replay's module it
// would make physics a requirement of every game that records.
//
// To remake it after a deliberate change of the world's behaviour, on
// amd64:
//
//	go test ./internal/sim -run TestCrossArchReplay -update
const crossArchFile = "testdata/crossarch.rec"

var update = flag.Bool("update", false, "rewrite "+crossArchFile+" from this machine's physics (run it on amd64)")

// crossArchSettings: the demo's default world with 1,000 balls.
var crossArchSettings = replay.Settings{
	Seed: 20240601, Balls: 1000,
	Width: physics.DefaultWidth, Height: physics.DefaultHeight,
	Radius: physics.DefaultRadius, Speed: physics.DefaultSpeed,
	Tick: physics.DefaultTick, MaxLoops: 5,
}

const (
	crossArchTicks = 400
	crossArchEvery = 10 // checkpoint interval
)

// crossArchCommands are the commands of the recording, by the number of
// ticks run before them. Between them they take every path of the world's
// step: the 32-bit and the 64-bit products (a 2 s tick moves 800 units, K
// = 204800 >= 2^17) and the fold of a ball that overshoots the whole box
// in one tick (800 units > the 624-unit span), growing and shrinking the
// world, emptying it, and a reset while the player controls ball 0.
var crossArchCommands = map[int][]replay.Command{
	0:              {{Kind: replay.CmdSetBalls, Arg: 1000}},
	50:             {{Kind: replay.CmdSetTick, Arg: int64(25 * time.Millisecond)}},
	100:            {{Kind: replay.CmdSetBalls, Arg: 1500}},
	150:            {{Kind: replay.CmdSetTick, Arg: int64(2 * time.Second)}},
	170:            {{Kind: replay.CmdSetTick, Arg: int64(40 * time.Millisecond)}},
	200:            {{Kind: replay.CmdReset}},
	220:            {{Kind: replay.CmdSetBalls, Arg: 0}},
	225:            {{Kind: replay.CmdSetBalls, Arg: 1200}},
	260:            {{Kind: replay.CmdSetBalls, Arg: 800}, {Kind: replay.CmdSetTick, Arg: 33333333}},
	330:            {{Kind: replay.CmdReset}, {Kind: replay.CmdSetBalls, Arg: 1000}},
	crossArchTicks: {{Kind: replay.CmdSetBalls, Arg: 1001}, {Kind: replay.CmdSetTick, Arg: int64(50 * time.Millisecond)}},
}

// crossArchInput returns the input of every tick: idle at first (ball 0
// bounces on its own), then a tap shorter than a tick that takes control
// of ball 0, then keys held and released at random for a few ticks each,
// with taps now and then.
func crossArchInput() []input.Record {
	rng := rand.New(rand.NewPCG(1, 2))
	dirs := []input.Button{input.Left, input.Right, input.Up, input.Down}
	ins := make([]input.Record, 0, crossArchTicks)
	for range 30 {
		ins = append(ins, input.Record{})
	}
	right := input.Of(input.Right)
	ins = append(ins, input.Record{Pressed: right, Released: right}) // a tap
	var held input.Buttons
	for len(ins) < crossArchTicks {
		var in input.Record
		switch rng.IntN(4) {
		case 0: // press a key
			b := input.Of(dirs[rng.IntN(4)]) &^ held
			in.Pressed, held = b, held|b
		case 1: // release one
			b := input.Of(dirs[rng.IntN(4)]) & held
			in.Released, held = b, held&^b
		case 2: // a tap within the tick
			b := input.Of(dirs[rng.IntN(4)]) &^ held
			in.Pressed, in.Released = b, b
		}
		in.Held = held
		for k := 1 + rng.IntN(6); k > 0 && len(ins) < crossArchTicks; k-- {
			ins = append(ins, in)
			in.Pressed, in.Released = 0, 0
		}
	}
	return ins
}

// control is the demo's mapping of a tick's input to the player's
// control: every direction key down at any moment of the tick's span.
func control(in, prev input.Record) physics.Control {
	down := in.Down(prev)
	return physics.Control{
		X: input.Axis(down, input.Left, input.Right),
		Y: input.Axis(down, input.Up, input.Down),
	}
}

func newCrossArchWorld(t *testing.T, s replay.Settings) *physics.World {
	t.Helper()
	w, err := physics.New(physics.Config{
		Width: s.Width, Height: s.Height, Radius: s.Radius, Speed: s.Speed,
		Tick: s.Tick, Balls: int(s.Balls), Seed: s.Seed,
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func apply(t *testing.T, w *physics.World, c replay.Command) {
	t.Helper()
	var err error
	switch c.Kind {
	case replay.CmdReset:
		w.Reset()
	case replay.CmdSetBalls:
		err = w.SetBalls(int(c.Arg))
	case replay.CmdSetTick:
		err = w.SetTick(time.Duration(c.Arg))
	default:
		err = errors.New("unknown command")
	}
	if err != nil {
		t.Fatalf("command %v: %v", c, err)
	}
}

// recordCrossArch runs the script on this machine's physics and returns
// the recording.
func recordCrossArch(t *testing.T) *replay.Recording {
	w := newCrossArchWorld(t, crossArchSettings)
	r := replay.NewRecorder(crossArchSettings, crossArchEvery)
	var prev input.Record
	for i, in := range append(crossArchInput(), input.Record{}) {
		for _, c := range crossArchCommands[i] {
			apply(t, w, c)
			r.Command(c)
		}
		if i == crossArchTicks {
			break
		}
		w.Tick(control(in, prev))
		prev = in
		r.Tick(in, w.Hash)
	}
	return r.Finish(w.Hash())
}

// replayOn replays rec on a world built from settings, with the input
// mapped by ctl, and returns the number of checkpoints compared and the
// first divergence (nil if none).
func replayOn(t *testing.T, rec *replay.Recording, s replay.Settings, ctl func(in, prev input.Record) physics.Control) (int, error) {
	w := newCrossArchWorld(t, s)
	p := rec.Player()
	prev := p.Initial()
	checked := 0
	hash := func() uint64 { checked++; return w.Hash() }
	for {
		cmds, in, ok := p.Next()
		for _, c := range cmds {
			apply(t, w, c)
		}
		if !ok {
			break
		}
		w.Tick(ctl(in, prev))
		prev = in
		if err := p.Check(hash); err != nil {
			return checked, err
		}
	}
	return checked, p.CheckFinal(w.Hash())
}

// TestCrossArchReplay replays the committed recording, made on amd64, and
// checks every checkpoint hash and the final hash stored in it. Run with
// GOARCH=386 it proves that a 32-bit build steps the world bit for bit as
// a 64-bit one does.
func TestCrossArchReplay(t *testing.T) {
	if *update {
		if err := recordCrossArch(t).WriteFile(crossArchFile); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", crossArchFile)
	}
	rec, err := replay.ReadFile(crossArchFile)
	if err != nil {
		t.Fatal(err)
	}

	// The file is what the script describes (a fixture that lost its
	// commands or its checkpoints would prove nothing) ...
	if rec.Settings != crossArchSettings {
		t.Fatalf("settings %+v, want %+v", rec.Settings, crossArchSettings)
	}
	if rec.Ticks() != crossArchTicks || len(rec.Checkpoints) != crossArchTicks/crossArchEvery {
		t.Fatalf("%d ticks and %d checkpoints, want %d and %d",
			rec.Ticks(), len(rec.Checkpoints), crossArchTicks, crossArchTicks/crossArchEvery)
	}
	want := recordCrossArch(t) // for its input and commands; its hashes are this machine's
	if len(rec.Inputs) != len(want.Inputs) || len(rec.Commands) != len(want.Commands) {
		t.Fatalf("%d input runs and %d commands, the script makes %d and %d",
			len(rec.Inputs), len(rec.Commands), len(want.Inputs), len(want.Commands))
	}
	for i := range rec.Inputs {
		if rec.Inputs[i] != want.Inputs[i] {
			t.Fatalf("input run %d is %+v, the script makes %+v", i, rec.Inputs[i], want.Inputs[i])
		}
	}
	for i := range rec.Commands {
		if rec.Commands[i] != want.Commands[i] {
			t.Fatalf("command %d is %+v, the script makes %+v", i, rec.Commands[i], want.Commands[i])
		}
	}

	// ... and replaying it gives every hash stored in it.
	checked, err := replayOn(t, rec, rec.Settings, control)
	if err != nil {
		t.Fatalf("%v (the world steps differently here than on the machine that made %s)", err, crossArchFile)
	}
	if checked != len(rec.Checkpoints) {
		t.Fatalf("%d checkpoints compared, want all %d", checked, len(rec.Checkpoints))
	}
}

// The recording notices a change of the world: another seed diverges at
// the first checkpoint, and ignoring the input diverges once the player
// takes ball 0 (tick 31, so at the checkpoint after tick 40).
func TestCrossArchReplayDetectsChange(t *testing.T) {
	rec, err := replay.ReadFile(crossArchFile)
	if err != nil {
		t.Fatal(err)
	}
	other := rec.Settings
	other.Seed++
	for _, tc := range []struct {
		name string
		s    replay.Settings
		ctl  func(in, prev input.Record) physics.Control
		tick uint64
	}{
		{"seed", other, control, crossArchEvery},
		{"no input", rec.Settings, func(in, prev input.Record) physics.Control { return physics.Control{} }, 40},
	} {
		_, err := replayOn(t, rec, tc.s, tc.ctl)
		var d *replay.DivergenceError
		if !errors.As(err, &d) || d.Tick != tc.tick {
			t.Errorf("%s: err = %v, want a divergence at tick %d", tc.name, err, tc.tick)
		}
	}
}
