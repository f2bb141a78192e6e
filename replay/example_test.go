package replay_test

import (
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/replay"
)

// world is a stand-in for a deterministic simulation: a position moved by
// the arrow keys, and a hash of its state.
type world struct{ x, y, steps int64 }

func (w *world) step(down input.Buttons) {
	w.x += 16 * int64(input.Axis(down, input.Left, input.Right))
	w.y += 16 * int64(input.Axis(down, input.Up, input.Down))
	w.steps++
}

func (w *world) apply(c replay.Command) {
	if c.Kind == replay.CmdReset {
		w.x, w.y = 0, 0
	}
}

func (w *world) hash() uint64 {
	h := uint64(14695981039346656037) // FNV-64a over the three fields
	for _, v := range []int64{w.x, w.y, w.steps} {
		for i := 0; i < 64; i += 8 {
			h = (h ^ uint64(v>>i&0xff)) * 1099511628211
		}
	}
	return h
}

// Record ten ticks, with a reset after the fourth, encode them, and replay
// the decoded recording against a fresh world.
func Example() {
	settings := replay.Settings{Seed: 1, Balls: 1, Width: 640, Height: 480, Radius: 8, Speed: 16,
		Tick: 40 * time.Millisecond, MaxLoops: 10}
	right := input.Of(input.Right)
	ticks := []input.Record{
		{Held: right, Pressed: right}, {Held: right}, {Held: right}, {Released: right},
		{}, {}, {}, {}, {}, {},
	}

	w := &world{}
	r := replay.NewRecorder(settings, 5)
	var prev input.Record
	for i, in := range ticks {
		if i == 4 {
			w.apply(replay.Command{Kind: replay.CmdReset})
			r.Command(replay.Command{Kind: replay.CmdReset})
		}
		w.step(in.Down(prev))
		prev = in
		r.Tick(in, w.hash)
	}
	b, err := r.Finish(w.hash()).MarshalBinary()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d ticks in %d bytes\n", len(ticks), len(b))

	rec, err := replay.Decode(b)
	if err != nil {
		panic(err)
	}
	w2 := &world{}
	p := rec.Player()
	prev = p.Initial()
	for {
		cmds, in, ok := p.Next()
		for _, c := range cmds {
			fmt.Printf("before tick %d: %v\n", p.Tick(), c) // Tick: the one Next returned
			w2.apply(c)
		}
		if !ok {
			break
		}
		w2.step(in.Down(prev))
		prev = in
		if err := p.Check(w2.hash); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println("final:", p.CheckFinal(w2.hash()))
	// Output:
	// 10 ticks in 77 bytes
	// before tick 5: Reset
	// final: <nil>
}

// A replay whose world behaves differently fails at the first checkpoint
// after the difference.
func ExamplePlayer_Check() {
	r := replay.NewRecorder(replay.Settings{}, 100)
	w := &world{}
	for range 1000 {
		w.step(0)
		r.Tick(input.Record{}, w.hash)
	}
	rec := r.Finish(w.hash())

	w2 := &world{}
	p := rec.Player()
	for {
		_, in, ok := p.Next()
		if !ok {
			break
		}
		w2.step(in.Down(input.Record{}))
		if p.Tick() == 250 {
			w2.x++ // a bug in the replayed simulation
		}
		if err := p.Check(w2.hash); err != nil {
			fmt.Println(err)
			return
		}
	}
	// Output:
	// state diverges at tick 300: recorded hash 0x5911ff4f7c3c348e, replayed 0xbd0f4d286279efe3
}

func ExampleReadFile() {
	_, err := replay.ReadFile("testdata/missing.rec")
	fmt.Println(err)
	// Output:
	// replay file testdata/missing.rec: no such file or directory
}
