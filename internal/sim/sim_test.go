package sim

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/replay"
)

// rig drives a Sim on a manual clock: no sleeps, no real time.
type rig struct {
	t     *testing.T
	clock *loop.ManualClock
	s     *Sim
}

func newRig(t *testing.T, cfg Config) *rig {
	t.Helper()
	if cfg.Settings == (Settings{}) {
		cfg.Settings = DefaultSettings()
	}
	r := &rig{t: t, clock: loop.NewManualClock(time.Second)}
	if cfg.Load == nil {
		cfg.Load = r.clock.Advance // the logic load takes clock time
	}
	s, err := New(cfg, r.clock, r.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	r.s = s
	return r
}

// frame advances the clock by dt and runs a frame with events.
func (r *rig) frame(dt time.Duration, events ...input.Event) FrameInfo {
	r.clock.Advance(dt)
	return r.s.Frame(r.clock.Now(), events)
}

// run runs frames dt apart for d of clock time and returns the ticks run.
func (r *rig) run(d, dt time.Duration) int {
	n := 0
	for end := r.clock.Now() + d; r.clock.Now()+dt <= end; {
		n += r.frame(dt).Ticks
	}
	return n
}

func press(t time.Duration, b input.Button) input.Event {
	return input.Event{Time: t, Button: b, Down: true}
}

func release(t time.Duration, b input.Button) input.Event {
	return input.Event{Time: t, Button: b, Down: false}
}

// playSession is a run with everything a recording must capture: key
// presses at odd times, frames of irregular length, and the three world
// commands in the middle.
func playSession(t *testing.T, cfg Config, seed uint64) *rig {
	t.Helper()
	r := newRig(t, cfg)
	rng := rand.New(rand.NewPCG(seed, 1))
	held := map[input.Button]bool{}
	for i := 0; !r.s.Finished(); i++ {
		if i > 10_000 {
			t.Fatal("the tick limit was never reached")
		}
		dt := time.Duration(1+rng.IntN(90)) * time.Millisecond
		var evs []input.Event
		if rng.IntN(3) == 0 {
			b := input.Button(rng.IntN(4))
			at := r.clock.Now() + time.Duration(rng.Int64N(int64(dt)))
			if held[b] {
				evs = append(evs, release(at, b))
			} else {
				evs = append(evs, press(at, b))
			}
			held[b] = !held[b]
		}
		switch i {
		case 20:
			r.queue(replay.Command{Kind: replay.CmdSetBalls, Arg: 50})
		case 45:
			r.queue(replay.Command{Kind: replay.CmdSetTick, Arg: int64(25 * time.Millisecond)})
		case 70:
			r.queue(replay.Command{Kind: replay.CmdReset})
		case 90:
			r.queue(replay.Command{Kind: replay.CmdSetTick, Arg: int64(40 * time.Millisecond)})
		}
		r.frame(dt, evs...)
	}
	return r
}

func (r *rig) queue(c replay.Command) {
	r.t.Helper()
	if err := r.s.Queue(c); err != nil {
		r.t.Fatal(err)
	}
}

// replayAll plays rec back with frames dt apart (or Fast) until it ends.
func replayAll(t *testing.T, rec *replay.Recording, dt time.Duration, fast bool) *rig {
	t.Helper()
	r := newRig(t, Config{Replay: rec, Fast: fast})
	for i := 0; !r.s.Finished(); i++ {
		if i > 1_000_000 {
			t.Fatal("the replay never ended")
		}
		r.frame(dt)
	}
	return r
}

// roundTrip encodes and decodes a recording, as writing and reading a
// file does.
func roundTrip(t *testing.T, rec *replay.Recording) *replay.Recording {
	t.Helper()
	b, err := rec.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := replay.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func TestRecordThenReplayGivesTheSameHash(t *testing.T) {
	live := playSession(t, Config{Record: true, TickLimit: 400}, 7)
	if got := live.s.Ticks(); got != 400 {
		t.Fatalf("live run: %d ticks, want 400", got)
	}
	rec := roundTrip(t, live.s.RecordingSoFar())
	want := live.s.World().Hash()
	if rec.FinalHash != want {
		t.Fatalf("recording's final hash %016x, world %016x", rec.FinalHash, want)
	}
	if len(rec.Commands) != 4 {
		t.Fatalf("recorded %d commands, want 4: %v", len(rec.Commands), rec.Commands)
	}
	// The same game at other frame rates: 5 FPS, 144 FPS, and as fast as
	// frames come.
	for _, c := range []struct {
		name string
		dt   time.Duration
		fast bool
	}{{"5fps", 200 * time.Millisecond, false}, {"144fps", time.Second / 144, false}, {"fast", time.Millisecond, true}} {
		r := replayAll(t, rec, c.dt, c.fast)
		if err := r.s.Err(); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !r.s.ReplayOK() {
			t.Errorf("%s: replay not OK", c.name)
		}
		if got := r.s.World().Hash(); got != want {
			t.Errorf("%s: replay ends at %016x, live run at %016x", c.name, got, want)
		}
		if got := r.s.Ticks(); got != 400 {
			t.Errorf("%s: replay ran %d ticks, want 400", c.name, got)
		}
	}
}

func TestReplayDetectsADifferentGame(t *testing.T) {
	live := playSession(t, Config{Record: true, TickLimit: 300}, 3)
	rec := roundTrip(t, live.s.RecordingSoFar())
	// Another ball count for the first command: the same inputs now make
	// another game, and the first checkpoint after it says so.
	rec.Commands[0].Arg++
	r := replayAll(t, rec, 20*time.Millisecond, false)
	var div *replay.DivergenceError
	if !errors.As(r.s.Err(), &div) {
		t.Fatalf("err = %v, want a divergence", r.s.Err())
	}
	if div.Tick < rec.Commands[0].At || div.Tick > rec.Commands[0].At+replay.DefaultCheckpointEvery {
		t.Errorf("divergence at tick %d, the command was at %d", div.Tick, rec.Commands[0].At)
	}
	if r.s.ReplayOK() {
		t.Error("a diverging replay reports OK")
	}
}

// TestReplayOfARecordingMadeBeforeTheSplit replays a recording the demo
// made with real key presses before the simulation had a package of its
// own (testdata/README.md): its hashes still match.
func TestReplayOfARecordingMadeBeforeTheSplit(t *testing.T) {
	rec, err := replay.ReadFile("testdata/keys-before-split.rec")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[replay.CommandKind]int{}
	for _, c := range rec.Commands {
		kinds[c.Kind]++
	}
	if kinds[replay.CmdReset] == 0 || kinds[replay.CmdSetBalls] < 2 || kinds[replay.CmdSetTick] < 2 {
		t.Fatalf("the fixture lacks R, +, -, PageUp or PageDown: %v", rec.Commands)
	}
	for _, fast := range []bool{false, true} {
		r := replayAll(t, rec, 16*time.Millisecond, fast)
		if err := r.s.Err(); err != nil {
			t.Fatalf("fast=%v: %v", fast, err)
		}
		if !r.s.ReplayOK() || r.s.World().Hash() != rec.FinalHash {
			t.Errorf("fast=%v: ok %v, hash %016x, recorded %016x", fast, r.s.ReplayOK(), r.s.World().Hash(), rec.FinalHash)
		}
	}
}

// TestCommandLandsAtItsTickBoundary: a command queued after tick k is
// applied between ticks k and k+1, is recorded with At = k, and a replay
// applies it there too, even when the replay's frames run several ticks
// each. The reference is the world driven by hand with the recorded
// inputs; the same command one tick early or late gives another world.
func TestCommandLandsAtItsTickBoundary(t *testing.T) {
	const k, total = 7, 30
	tick := DefaultSettings().Tick
	r := newRig(t, Config{Record: true, TickLimit: total})
	r.frame(0) // the loop starts at the clock's time
	for r.s.Ticks() < k {
		r.frame(tick, press(r.clock.Now()+tick/2, input.Right), release(r.clock.Now()+tick/2+time.Millisecond, input.Right))
	}
	if r.s.Ticks() != k {
		t.Fatalf("ran %d ticks, want %d", r.s.Ticks(), k)
	}
	r.queue(replay.Command{Kind: replay.CmdSetBalls, Arg: 40})
	if n := r.s.World().N(); n != 1 {
		t.Fatalf("the command applied before a tick boundary: %d balls", n)
	}
	for !r.s.Finished() {
		r.frame(tick)
	}
	rec := roundTrip(t, r.s.RecordingSoFar())
	if len(rec.Commands) != 1 || rec.Commands[0].At != k {
		t.Fatalf("recorded commands %+v, want SetBalls(40) at %d", rec.Commands, k)
	}

	// The world by hand, with the command at tick boundary at.
	byHand := func(at uint64) uint64 {
		w, err := newWorld(rec.Settings)
		if err != nil {
			t.Fatal(err)
		}
		p := rec.Player()
		prev := p.Initial()
		for i := uint64(0); ; i++ {
			cmds, in, ok := p.Next()
			_ = cmds
			if i == at {
				if err := w.SetBalls(40); err != nil {
					t.Fatal(err)
				}
			}
			if !ok {
				break
			}
			w.Tick(control(in, prev))
			prev = in
		}
		return w.Hash()
	}
	want := byHand(k)
	if got := r.s.World().Hash(); got != want {
		t.Fatalf("live run %016x, by hand %016x", got, want)
	}
	if byHand(k-1) == want || byHand(k+1) == want {
		t.Fatal("the reference cannot tell a tick's difference")
	}
	// Replay with 5 ticks a frame: the boundary falls inside a frame.
	rp := replayAll(t, rec, 5*tick, false)
	if err := rp.s.Err(); err != nil {
		t.Fatal(err)
	}
	if got := rp.s.World().Hash(); got != want {
		t.Errorf("replay %016x, by hand %016x", got, want)
	}
}

// wantTicks is the fixed loop's tick count after elapsed time e from its
// start, at frames that fall on whole milliseconds: ceil(e/tick) - 1 (the
// loop's documented rule), or 0.
func wantTicks(e, tick time.Duration) int {
	if e <= 0 {
		return 0
	}
	return int((e+tick-1)/tick) - 1
}

func TestModeSwitchesPauseSpeedAndTickChangesMidRun(t *testing.T) {
	const dt = 10 * time.Millisecond
	tick := DefaultSettings().Tick
	r := newRig(t, Config{})

	// 1 s at speed 1: ceil(1s/40ms)-1 = 24 ticks.
	if got, want := r.run(time.Second, dt), wantTicks(time.Second, tick); got != want {
		t.Fatalf("speed 1: %d ticks in 1 s, want %d", got, want)
	}
	// Speed 2: 2 s of game time in 1 s: 24 + 50 = 74 ticks in all.
	if err := r.s.SetSpeed(2); err != nil {
		t.Fatal(err)
	}
	r.run(time.Second, dt)
	if got, want := r.s.Ticks(), int64(wantTicks(3*time.Second, tick)); got != want {
		t.Fatalf("after 1 s at speed 2: %d ticks, want %d", got, want)
	}
	// Paused: no tick, nothing moves, percentWithinTick frozen.
	pct := r.frame(dt).Percent
	before, ticksBefore := r.s.World().Hash(), r.s.Ticks()
	r.s.SetPaused(true)
	for i := 0; i < 100; i++ {
		if f := r.frame(dt); f.Ticks != 0 || f.Percent != pct {
			t.Fatalf("paused frame %d ran %d ticks at %v (percent was %v)", i, f.Ticks, f.Percent, pct)
		}
	}
	if r.s.World().Hash() != before || r.s.Ticks() != ticksBefore || r.s.Speed() != 2 {
		t.Fatalf("the pause changed the world, the ticks (%d, was %d) or the speed (%v)", r.s.Ticks(), ticksBefore, r.s.Speed())
	}
	// Resumed at speed 1: no burst, the ticks go on as if no time passed.
	r.s.SetPaused(false)
	if err := r.s.SetSpeed(1); err != nil {
		t.Fatal(err)
	}
	if f := r.frame(dt); f.Ticks > 1 {
		t.Fatalf("%d ticks in the first frame after the pause", f.Ticks)
	}
	// A new tick length at a tick boundary: the world and the loop both
	// follow it, 20 ms ticks run twice as many ticks a second.
	r.queue(replay.Command{Kind: replay.CmdSetTick, Arg: int64(20 * time.Millisecond)})
	n0 := r.s.Ticks()
	r.run(time.Second, dt)
	if got := r.s.Ticks() - n0; got < 49 || got > 51 {
		t.Fatalf("%d ticks in 1 s of 20 ms ticks, want 50 ± 1", got)
	}
	if r.s.Tick() != 20*time.Millisecond || r.s.World().Config().Tick != 20*time.Millisecond {
		t.Fatalf("tick %v, world tick %v", r.s.Tick(), r.s.World().Config().Tick)
	}
	// Sub-stepping: one cycle per 10 ms frame (T < MaxT), the ball moves
	// by variable steps, and game time goes on.
	steps0 := r.s.World().Steps()
	if err := r.s.SetMode(ModeSubstep, r.clock.Now()); err != nil {
		t.Fatal(err)
	}
	n0 = r.s.Ticks()
	r.run(time.Second, dt)
	if got := r.s.Ticks() - n0; got != 100 {
		t.Fatalf("substep: %d cycles in 100 frames, want 100", got)
	}
	if r.s.World().Steps() == steps0 {
		t.Fatal("substep mode did not step the world")
	}
	// Back to fixed: it starts afresh, with no burst for the time spent in
	// the other mode.
	if err := r.s.SetMode(ModeFixed, r.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if f := r.frame(dt); f.Ticks > 1 {
		t.Fatalf("%d ticks in the first fixed frame after the switch", f.Ticks)
	}
	// Every mode runs and counts.
	for m := ModeFixed; m < NumModes; m++ {
		if err := r.s.SetMode(m, r.clock.Now()); err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		n0 := r.s.Ticks()
		r.run(500*time.Millisecond, dt)
		if r.s.Ticks() == n0 {
			t.Errorf("%v: no tick or cycle in 0.5 s", m)
		}
	}
}

func TestRecordingRefusesVariableModes(t *testing.T) {
	r := newRig(t, Config{Record: true})
	for m := ModeSubstep; m < NumModes; m++ {
		if err := r.s.SetMode(m, r.clock.Now()); err == nil {
			t.Errorf("%v accepted while recording", m)
		}
	}
	if r.s.Mode() != ModeFixed {
		t.Errorf("mode %v after refusals", r.s.Mode())
	}
}

func TestTickLimitIsExact(t *testing.T) {
	for _, c := range []struct {
		name string
		mode Mode
		dt   time.Duration
	}{
		{"fixed, 5 ticks a frame", ModeFixed, 200 * time.Millisecond},
		{"fixed, lockstep debt", ModeFixed, 900 * time.Millisecond},
		{"fixed, 1000 FPS", ModeFixed, time.Millisecond},
		{"substep", ModeSubstep, 30 * time.Millisecond},
		{"timefactor", ModeTimeFactor, 20 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			set := DefaultSettings()
			set.Lockstep = true
			r := newRig(t, Config{Settings: set, Mode: c.mode, TickLimit: 37})
			for i := 0; !r.s.Finished(); i++ {
				if i > 100_000 {
					t.Fatal("never finished")
				}
				r.frame(c.dt)
			}
			if got := r.s.Ticks(); got != 37 {
				t.Errorf("%d ticks, want exactly 37", got)
			}
			if c.mode == ModeFixed && r.s.World().Ticks() != 37 {
				t.Errorf("the world ran %d ticks, want 37", r.s.World().Ticks())
			}
			// A finished simulation runs nothing more.
			r.frame(c.dt)
			if got := r.s.Ticks(); got != 37 {
				t.Errorf("%d ticks after a frame past the end", got)
			}
		})
	}
}

// TestTapAt5FPS is the Allegro FAQ's case: at 5 frames per second each
// frame runs 5 ticks; a 10 ms tap in the middle of a frame acts on
// exactly one tick (the player's ball moves one step), and a key held
// across three tick spans acts on exactly three.
func TestTapAt5FPS(t *testing.T) {
	const frame = 200 * time.Millisecond
	set := DefaultSettings()
	r := newRig(t, Config{Settings: set})
	// A first tap makes ball 0 the player's: from then on it moves only
	// when a key says so.
	t0 := r.clock.Now()
	r.frame(frame, press(t0+10*time.Millisecond, input.Left), release(t0+15*time.Millisecond, input.Left))
	r.frame(frame)
	if !r.s.World().Player() {
		t.Fatal("the tap did not reach the world")
	}
	k := r.s.World().Displacement()

	// A tap: pressed and released within one tick span of a frame whose
	// 5 ticks run later, at once.
	t0 = r.clock.Now()
	x0, y0 := r.s.World().Next[0], r.s.World().Next[1]
	if f := r.frame(frame, press(t0+90*time.Millisecond, input.Right), release(t0+100*time.Millisecond, input.Right)); f.Ticks != 5 {
		t.Fatalf("the 5 FPS frame ran %d ticks, want 5", f.Ticks)
	}
	r.frame(frame)
	x1, y1 := r.s.World().Next[0], r.s.World().Next[1]
	if x1-x0 != k || y1 != y0 {
		t.Fatalf("a tap moved the ball by (%d, %d), want (%d, 0): one tick's step", x1-x0, y1-y0, k)
	}

	// Held from the middle of one tick span to the middle of the third
	// after it: down during 4 spans.
	t1 := r.clock.Now()
	r.frame(frame, press(t1+20*time.Millisecond, input.Down), release(t1+140*time.Millisecond, input.Down))
	r.frame(frame)
	x2, y2 := r.s.World().Next[0], r.s.World().Next[1]
	if x2 != x1 || y2-y1 != 4*k {
		t.Fatalf("a 120 ms hold moved the ball by (%d, %d), want (0, %d)", x2-x1, y2-y1, 4*k)
	}
}

func TestQueueRefusals(t *testing.T) {
	r := newRig(t, Config{})
	if err := r.s.Queue(replay.Command{Kind: 99}); err == nil {
		t.Error("an unknown command kind was queued")
	}
	// Values the world cannot take are dropped at the boundary, and not
	// recorded.
	rr := newRig(t, Config{Record: true})
	for _, c := range []replay.Command{
		{Kind: replay.CmdSetBalls, Arg: -1},
		{Kind: replay.CmdSetBalls, Arg: physics.MaxBalls + 1},
		{Kind: replay.CmdSetTick, Arg: 0},
		{Kind: replay.CmdSetTick, Arg: int64(time.Hour)},
	} {
		rr.queue(c)
	}
	rr.frame(100 * time.Millisecond)
	if n := len(rr.s.RecordingSoFar().Commands); n != 0 {
		t.Errorf("%d refused commands recorded", n)
	}
	if rr.s.Tick() != DefaultSettings().Tick || rr.s.World().N() != 1 {
		t.Errorf("refused commands changed the world: tick %v, %d balls", rr.s.Tick(), rr.s.World().N())
	}
	_ = r
	// A replay takes no commands but the recording's.
	live := playSession(t, Config{Record: true, TickLimit: 50}, 1)
	rp := newRig(t, Config{Replay: live.s.RecordingSoFar()})
	if err := rp.s.Queue(replay.Command{Kind: replay.CmdReset}); err == nil {
		t.Error("a replay accepted a command")
	}
}

// TestRecordedBadCommandFailsTheReplay: a recording may claim a command
// the world cannot carry out (a file can hold anything its format
// allows); the replay fails naming the tick, instead of leaving the world
// and the loop on different ticks.
func TestRecordedBadCommandFailsTheReplay(t *testing.T) {
	live := playSession(t, Config{Record: true, TickLimit: 200}, 5)
	rec := live.s.RecordingSoFar()
	for i := range rec.Commands {
		if rec.Commands[i].Kind == replay.CmdSetTick {
			rec.Commands[i].Arg = int64(time.Hour)
			break
		}
	}
	r := replayAll(t, rec, 40*time.Millisecond, false)
	if r.s.Err() == nil || r.s.ReplayOK() {
		t.Fatalf("err %v, ok %v: want a failed replay", r.s.Err(), r.s.ReplayOK())
	}
	if r.s.Tick() != DefaultSettings().Tick && r.s.Tick() != 25*time.Millisecond {
		t.Errorf("tick %v after the refused command", r.s.Tick())
	}
}

func TestLogicLoadRunsPerTick(t *testing.T) {
	var burnt time.Duration
	r := newRig(t, Config{LogicLoad: 3 * time.Millisecond})
	r.s.load = func(d time.Duration) { burnt += d }
	n := r.run(time.Second, 10*time.Millisecond)
	if burnt != time.Duration(n)*3*time.Millisecond {
		t.Errorf("burnt %v for %d ticks of 3 ms", burnt, n)
	}
}

func TestCheckSettings(t *testing.T) {
	ok := DefaultSettings()
	if err := CheckSettings(ok); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		change func(*Settings)
		flag   string
	}{
		{func(s *Settings) { s.Tick = 0 }, "tick"},
		{func(s *Settings) { s.Tick = time.Hour }, "tick"},
		{func(s *Settings) { s.MaxLoops = 0 }, "max-loops"},
		{func(s *Settings) { s.Balls = physics.MaxBalls + 1 }, "balls"},
		{func(s *Settings) { s.Radius = 0 }, "radius"},
		{func(s *Settings) { s.Radius = 200; s.Height = 300 }, ""},
		{func(s *Settings) { s.Width = -640 }, ""},
		{func(s *Settings) { s.Speed = -16 }, ""},
	} {
		s := ok
		c.change(&s)
		var se *SettingError
		err := CheckSettings(s)
		if c.flag == "" {
			// A world no flag sets (a recording's): not blamed on a flag.
			if err == nil || errors.As(err, &se) || !strings.HasPrefix(err.Error(), "physics: ") {
				t.Errorf("%+v: err %v, want physics' own", s, err)
			}
			continue
		}
		if !errors.As(err, &se) || se.Name != c.flag {
			t.Errorf("%+v: err %v, want one about -%s", s, err, c.flag)
		}
	}
}

func TestFrameAllocatesNothing(t *testing.T) {
	r := newRig(t, Config{Record: false, Settings: func() Settings { s := DefaultSettings(); s.Balls = 100; return s }()})
	evs := make([]input.Event, 2)
	r.run(2*time.Second, 10*time.Millisecond)
	for m := ModeFixed; m < NumModes; m++ {
		if err := r.s.SetMode(m, r.clock.Now()); err != nil {
			t.Fatal(err)
		}
		r.run(time.Second, 10*time.Millisecond)
		allocs := testing.AllocsPerRun(200, func() {
			now := r.clock.Now()
			evs[0] = press(now+time.Millisecond, input.Left)
			evs[1] = release(now+5*time.Millisecond, input.Left)
			r.frame(10*time.Millisecond, evs...)
		})
		if allocs != 0 {
			t.Errorf("%v: %v allocations per frame", m, allocs)
		}
	}
}

// TestSyncTest: rolled back 8 ticks after every tick and simulated again,
// the world gives the same hashes, with input and commands; a restore
// that misses a bit of state is caught, naming the tick.
func TestSyncTest(t *testing.T) {
	for _, balls := range []uint32{1, 1000} {
		set := DefaultSettings()
		set.Balls = balls
		r := playSession(t, Config{Settings: set, SyncTest: 8, TickLimit: 200}, 9)
		if err := r.s.Err(); err != nil {
			t.Fatalf("%d balls: %v", balls, err)
		}
		if n := r.s.SyncTestTicks(); n < 8*150 {
			t.Errorf("%d balls: only %d ticks simulated twice", balls, n)
		}
	}
	r := newRig(t, Config{SyncTest: 8, TickLimit: 100})
	r.s.sync.corrupt = func(w *physics.World) {
		if w.Ticks() == 40 {
			w.Next[0]++ // a snapshot that lost one unit of ball 0
		}
	}
	for i := 0; !r.s.Finished() && i < 1000; i++ {
		r.frame(40 * time.Millisecond)
	}
	if err := r.s.Err(); err == nil || !strings.Contains(err.Error(), "synctest: tick 41 ") {
		t.Fatalf("err = %v, want the sync test to name tick 41", err)
	}
}
