package replay

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/input"
)

func newRng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 5)) }

// TestPlayerReplaysScript records random scripts, round-trips them through
// the encoding, and checks that the Player hands back exactly the script:
// the record of every tick, and every command before the right tick, in
// order, including those before the first tick and after the last.
func TestPlayerReplaysScript(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		sc := randomScript(newRng(seed), 2000)
		rec, _ := sc.record(0)
		b, _ := rec.MarshalBinary()
		rec, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		p := rec.Player()
		if p.Ticks() != uint64(len(sc.ticks)) {
			t.Fatalf("seed %d: Player.Ticks = %d, want %d", seed, p.Ticks(), len(sc.ticks))
		}
		var gotCmds []TimedCommand
		for i := 0; ; i++ {
			cmds, in, ok := p.Next()
			for _, c := range cmds {
				gotCmds = append(gotCmds, TimedCommand{At: uint64(i), Command: c})
			}
			if ok != (i < len(sc.ticks)) {
				t.Fatalf("seed %d: Next at tick %d: ok = %v with %d ticks", seed, i+1, ok, len(sc.ticks))
			}
			if !ok {
				break
			}
			if in != sc.ticks[i] {
				t.Fatalf("seed %d: tick %d: %v, want %v", seed, i+1, in, sc.ticks[i])
			}
			if p.Tick() != uint64(i+1) {
				t.Fatalf("seed %d: Tick = %d after %d ticks", seed, p.Tick(), i+1)
			}
		}
		if !slices.Equal(gotCmds, sc.cmds) {
			t.Fatalf("seed %d: commands %v, want %v", seed, gotCmds, sc.cmds)
		}
		if cmds, in, ok := p.Next(); cmds != nil || !in.IsZero() || ok {
			t.Fatalf("seed %d: Next after the end returned %v %v %v", seed, cmds, in, ok)
		}
	}
}

// TestReplayMatches replays recordings of the toy world: the hashes agree
// at every checkpoint and at the end.
func TestReplayMatches(t *testing.T) {
	for seed := uint64(0); seed < 100; seed++ {
		sc := randomScript(newRng(seed), 3000)
		rec, _ := sc.record(uint32(newRng(seed).IntN(150)))
		if err := replayToy(rec, nil); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// TestCheckReportsFirstDivergence breaks the replayed world at a given
// tick and checks that the error names the first checkpoint after it, as
// worked out from the checkpoint interval.
func TestCheckReportsFirstDivergence(t *testing.T) {
	sc := script{settings: Settings{Balls: 10, Tick: 40 * time.Millisecond}}
	for i := range 1050 {
		// Hold Right on every third tick, so the world keeps changing.
		var in input.Record
		if i%3 == 0 {
			in.Pressed = input.Of(input.Right)
		}
		sc.ticks = append(sc.ticks, in)
	}
	rec, _ := sc.record(100) // checkpoints after ticks 100, 200, ..., 1000
	for _, tc := range []struct {
		breakAt uint64 // the tick before which the world is broken
		want    string // the error's start
	}{
		{1, "state diverges at tick 100: "},
		{100, "state diverges at tick 100: "},
		{101, "state diverges at tick 200: "},
		{250, "state diverges at tick 300: "},
		{1000, "state diverges at tick 1000: "},
		{1001, "final state diverges after tick 1050: "},
		{1050, "final state diverges after tick 1050: "},
	} {
		var steps uint64
		err := replayToy(rec, func(w *toyWorld) {
			steps++
			if steps == tc.breakAt {
				w.x += 1000
			}
		})
		var de *DivergenceError
		if !errors.As(err, &de) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("broken at tick %d: err = %v, want %q", tc.breakAt, err, tc.want)
			continue
		}
		want := fmt.Sprintf("recorded hash 0x%016x, replayed 0x%016x", de.Recorded, de.Replayed)
		if !strings.HasSuffix(err.Error(), want) || de.Recorded == de.Replayed {
			t.Errorf("err = %v", err)
		}
	}
	if err := replayToy(rec, nil); err != nil {
		t.Fatalf("unbroken replay: %v", err)
	}
}

func TestCheckFinalBeforeTheEnd(t *testing.T) {
	p := goldenRecording().Player()
	p.Next()
	err := p.CheckFinal(goldenRecording().FinalHash)
	if err == nil || err.Error() != "replay stopped after tick 1 of 4" {
		t.Fatalf("err = %v", err)
	}
}

// TestHashOnlyAtCheckpoints counts the hash calls: hashing a big world is
// not free, so the Recorder and the Player ask only at checkpoints.
func TestHashOnlyAtCheckpoints(t *testing.T) {
	sc := script{ticks: make([]input.Record, 1234)}
	rec, w := sc.record(100)
	if w.hashes != 12+1 { // 12 checkpoints, then Finish
		t.Fatalf("recording hashed %d times, want 13", w.hashes)
	}
	if len(rec.Checkpoints) != 12 || rec.Checkpoints[11].Tick != 1200 {
		t.Fatalf("checkpoints %v", rec.Checkpoints)
	}
	p := rec.Player()
	calls := 0
	w = newToyWorld(rec.Settings)
	for {
		_, in, ok := p.Next()
		if !ok {
			break
		}
		w.step(in.Down(input.Record{}))
		if err := p.Check(func() uint64 { calls++; return w.hash() }); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 12 {
		t.Fatalf("Check hashed %d times, want 12", calls)
	}
}

func TestRecorderSnapshotAndInitialHeld(t *testing.T) {
	r := NewRecorder(Settings{}, 2)
	r.SetInitialHeld(input.Of(input.Up))
	r.Tick(input.Record{Held: input.Of(input.Up)}, func() uint64 { return 1 })
	first := r.Finish(10)
	r.Tick(input.Record{Held: input.Of(input.Up)}, func() uint64 { return 2 })
	r.Command(Command{Kind: CmdSetBalls, Arg: 3})
	second := r.Finish(20)
	if first.Ticks() != 1 || len(first.Checkpoints) != 0 || len(first.Commands) != 0 || first.FinalHash != 10 {
		t.Fatalf("first snapshot changed: %+v", first)
	}
	if second.Ticks() != 2 || len(second.Inputs) != 1 || len(second.Checkpoints) != 1 ||
		second.Commands[0] != (TimedCommand{At: 2, Command: Command{Kind: CmdSetBalls, Arg: 3}}) {
		t.Fatalf("second snapshot: %+v", second)
	}
	if p := second.Player(); p.Initial() != (input.Record{Held: input.Of(input.Up)}) {
		t.Fatalf("Initial = %v", p.Initial())
	}
	mustPanic(t, "SetInitialHeld after a tick", func() { r.SetInitialHeld(0) })
	mustPanic(t, "Command with kind 0", func() { r.Command(Command{}) })
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
}

func TestCommandStrings(t *testing.T) {
	got := fmt.Sprint(Command{Kind: CmdReset}, Command{Kind: CmdSetBalls, Arg: 1000},
		Command{Kind: CmdSetTick, Arg: 1e6}, Command{Kind: 9, Arg: -1})
	if want := "Reset SetBalls(1000) SetTick(1000000) CommandKind(9)(-1)"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestRecordAtOneFrameRateReplayAtAnother plays the whole pipeline: a fixed
// loop at 5 frames per second with slow frames and a stall feeds scripted
// key events through an input.Sampler into the toy world while recording;
// the replay runs every tick back to back with no frames at all. The
// replay matches, and the world moved exactly as far as the taps say.
func TestRecordAtOneFrameRateReplayAtAnother(t *testing.T) {
	const tick = 40 * time.Millisecond
	ms := time.Millisecond
	events := []input.Event{
		{Time: 85 * ms, Button: input.Right, Down: true}, // a 30 ms tap inside [80, 120): one tick
		{Time: 115 * ms, Button: input.Right, Down: false},
		{Time: 500 * ms, Button: input.Left, Down: true}, // held over [500, 600): three spans
		{Time: 600 * ms, Button: input.Left, Down: false},
		{Time: 1210 * ms, Button: input.Up, Down: true}, // during the stall
		{Time: 1215 * ms, Button: input.Up, Down: false},
	}
	settings := Settings{Balls: 1, Tick: tick, MaxLoops: 10}
	frames := []time.Duration{}
	for f := 200 * ms; f <= 1000*ms; f += 200 * ms {
		frames = append(frames, f)
	}
	frames = append(frames, 3000*ms, 3200*ms) // a 2 s stall: 10 ticks, then the rest is discarded

	w := newToyWorld(settings)
	s := input.NewSampler()
	r := NewRecorder(settings, 5)
	var prev input.Record
	var time0 time.Duration
	next := 0
	for _, now := range frames {
		for next < len(events) && events[next].Time <= now {
			s.Push(events[next])
			next++
		}
		for n := uint32(0); now-time0 > tick && n < settings.MaxLoops; n++ {
			in := s.Tick(time0 + tick)
			w.step(in.Down(prev))
			prev = in
			r.Tick(in, w.hash)
			time0 += tick
		}
		if now-time0 > tick {
			time0 = now - tick
		}
	}
	rec := r.Finish(w.hash())

	// Right for 1 tick (+16), Left over [500, 600): spans [480,520),
	// [520,560), [560,600): 3 ticks (-48); Up in the stall: 1 tick (-16).
	if w.x != 16-48 || w.y != -16 {
		t.Fatalf("world at (%d, %d), want (-32, -16)", w.x, w.y)
	}
	b, _ := rec.MarshalBinary()
	dec, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := replayToy(dec, nil); err != nil {
		t.Fatal(err)
	}
}

func TestRecorderAllocs(t *testing.T) {
	r := NewRecorder(Settings{}, 1<<31)
	in := input.Record{Held: input.Of(input.Left)}
	hash := func() uint64 { return 0 }
	r.Tick(in, hash)
	if a := testing.AllocsPerRun(10000, func() { r.Tick(in, hash) }); a != 0 {
		t.Fatalf("Tick with unchanged input allocates %v times", a)
	}
	// The usual call passes a method value: that must not allocate either.
	w := new(fixedWorld)
	if a := testing.AllocsPerRun(10000, func() { r.Tick(in, w.Hash) }); a != 0 {
		t.Fatalf("Tick(in, w.Hash) allocates %v times", a)
	}
	// With checkpoints, the slice of checkpoints grows by doubling: a
	// handful of allocations over 100,000 ticks (1000 checkpoints).
	r = NewRecorder(Settings{}, 0)
	mallocs := testing.AllocsPerRun(1, func() {
		for range 100_000 {
			r.Tick(in, hash)
		}
	})
	if len(r.Finish(0).Checkpoints) != 2000 || mallocs > 20 {
		t.Fatalf("100,000 ticks allocate %v times", mallocs)
	}
}

// fixedWorld has a Hash method that does not allocate.
type fixedWorld struct{ h uint64 }

func (w *fixedWorld) Hash() uint64 { return w.h }

func TestPlayerAllocs(t *testing.T) {
	sc := randomScript(newRng(3), 3000)
	sc.ticks = append(sc.ticks, make([]input.Record, 100_000)...)
	w := new(fixedWorld)
	r := NewRecorder(sc.settings, 0)
	for _, in := range sc.ticks {
		r.Tick(in, w.Hash)
	}
	rec := r.Finish(0)
	// Count every allocation of a whole replay (AllocsPerRun divides by
	// the runs, which would hide an allocation per checkpoint).
	var p *Player
	total := testing.AllocsPerRun(1, func() {
		p = rec.Player() // allocates: not part of the steady state
		for {
			if _, _, ok := p.Next(); !ok {
				break
			}
			if err := p.Check(w.Hash); err != nil {
				t.Fatal(err)
			}
		}
	})
	if p.Tick() != uint64(len(sc.ticks)) || total > 2 {
		t.Fatalf("replaying %d ticks allocated %v times, want only the Player's 2", p.Tick(), total)
	}
}

func BenchmarkRecorderTickIdle(b *testing.B) {
	r := NewRecorder(Settings{}, 0)
	hash := func() uint64 { return 0 }
	b.ReportAllocs()
	for b.Loop() {
		r.Tick(input.Record{}, hash)
	}
}

func BenchmarkRecorderTickChanging(b *testing.B) {
	r := NewRecorder(Settings{}, 0)
	hash := func() uint64 { return 0 }
	recs := [2]input.Record{{}, {Held: input.Of(input.Left)}}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		i++
		r.Tick(recs[i&1], hash)
	}
}

func BenchmarkPlayerNext(b *testing.B) {
	sc := randomScript(newRng(9), 100_000)
	rec, _ := sc.record(0)
	hash := func() uint64 { return 0 }
	p := rec.Player()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := p.Next(); !ok {
			p = rec.Player()
		}
		p.Check(hash)
	}
}

// An hour at 25 ticks a second with the input changing every few ticks.
func hourRecording() *Recording {
	rng := newRng(11)
	r := NewRecorder(Settings{Balls: 1000, Tick: 40 * time.Millisecond}, 0)
	var in input.Record
	for range 90_000 {
		if rng.IntN(5) == 0 {
			in = input.Record{Held: input.Buttons(rng.IntN(16)), Pressed: input.Buttons(rng.IntN(16))}
		}
		r.Tick(in, rng.Uint64)
	}
	return r.Finish(1)
}

func BenchmarkEncodeHour(b *testing.B) {
	rec := hourRecording()
	buf, _ := rec.MarshalBinary()
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = rec.AppendBinary(buf[:0])
	}
	b.ReportMetric(float64(len(buf)), "file-bytes")
}

func BenchmarkDecodeHour(b *testing.B) {
	buf, _ := hourRecording().MarshalBinary()
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(buf); err != nil {
			b.Fatal(err)
		}
	}
}
