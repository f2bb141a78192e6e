package replay_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/replay"
)

// recordPlayers records a 3-player game of n ticks with a Release.
func recordPlayers(t *testing.T, n int) *replay.Recording {
	t.Helper()
	s := replay.Settings{Seed: 3, Balls: 10, Width: 640, Height: 480, Radius: 8, Speed: 400, Tick: 40e6, MaxLoops: 5, Lockstep: true, Players: 3}
	r := replay.NewRecorder(s, 10)
	h := uint64(1)
	for i := 0; i < n; i++ {
		ins := []input.Record{
			{Held: input.Of(input.Button(i / 7 % 4))},
			{Held: input.Of(input.Button(i / 5 % 4))},
			{Pressed: input.Of(input.Button(i % 4)), Held: input.Of(input.Button(i % 4))},
		}
		if i == 20 {
			r.Command(replay.Command{Kind: replay.CmdRelease, Arg: 2})
		}
		r.TickPlayers(ins, func() uint64 { h = h*31 + uint64(i); return h })
	}
	return r.Finish(h)
}

func TestPlayersRoundTrip(t *testing.T) {
	rec := recordPlayers(t, 60)
	b, err := rec.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if b[4] != 2 {
		t.Errorf("a 3-player recording is written as version %d, want 2", b[4])
	}
	back, err := replay.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.Settings.Players != 3 {
		t.Fatalf("players %d back", back.Settings.Players)
	}
	again, err := back.MarshalBinary()
	if err != nil || !bytes.Equal(again, b) {
		t.Fatalf("re-encoding differs (%v)", err)
	}
	// The player hands out every player's record, tick by tick.
	p, q := rec.Player(), back.Player()
	a, c := make([]input.Record, 3), make([]input.Record, 3)
	for i := 0; ; i++ {
		_, okA := p.NextPlayers(a)
		_, okC := q.NextPlayers(c)
		if okA != okC {
			t.Fatalf("tick %d: ok %v vs %v", i, okA, okC)
		}
		if !okA {
			break
		}
		for j := range a {
			if a[j] != c[j] {
				t.Fatalf("tick %d player %d: %v vs %v", i, j, a[j], c[j])
			}
		}
		if want := (input.Record{Held: input.Of(input.Button(i / 5 % 4))}); a[1] != want {
			t.Fatalf("tick %d: player 1 has %v, recorded %v", i, a[1], want)
		}
	}
}

func TestOnePlayerStaysVersion1(t *testing.T) {
	for _, players := range []uint32{0, 1} {
		r := replay.NewRecorder(replay.Settings{Tick: 40e6, MaxLoops: 5, Players: players}, 0)
		r.TickPlayers([]input.Record{{Held: 1}}, func() uint64 { return 0 })
		b, err := r.Finish(9).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if b[4] != 1 {
			t.Errorf("players %d: version %d, want 1", players, b[4])
		}
	}
}

func TestPlayersValidation(t *testing.T) {
	bad := []func(*replay.Recording){
		func(r *replay.Recording) { r.Settings.Players = replay.MaxPlayers + 1 },
		func(r *replay.Recording) { r.Commands[0].Arg = 3 },
		func(r *replay.Recording) {
			r.Settings.Players = 1
			r.Inputs[0].Others = [replay.MaxPlayers - 1]input.Record{}
			r.Commands = nil
			r.Inputs = r.Inputs[:1]
			r.Inputs[0].Others[1].Held = 1
		},
	}
	for i, change := range bad {
		rec := recordPlayers(t, 40)
		change(rec)
		if _, err := rec.MarshalBinary(); err == nil {
			t.Errorf("case %d: an invalid recording encoded", i)
		}
	}
	// A Release in a one-player file is refused by the decoder too.
	rec := recordPlayers(t, 40)
	b, _ := rec.MarshalBinary()
	b[4] = 9
	if _, err := replay.Decode(b); err == nil || !strings.Contains(err.Error(), "version 9") {
		t.Errorf("version 9: %v", err)
	}
}
