package physics

import (
	"errors"
	"testing"
)

// A world made from the same configuration takes another's state and is
// then the same world: same hash, same ticks after, same drawing.
func TestStateRoundTrip(t *testing.T) {
	cfg := Config{Balls: 500, Seed: 3}
	a, _ := New(cfg)
	ctl := []Control{{X: 1}, {Y: -1}}
	for range 77 {
		a.TickPlayers(ctl)
	}
	a.Step(13_000_000, Control{})
	b, _ := New(cfg)
	if err := b.SetState(a.AppendState(nil)); err != nil {
		t.Fatal(err)
	}
	if a.Hash() != b.Hash() || len(a.AppendState(nil)) != StateSize(500) {
		t.Fatalf("hash %016x, taken %016x", a.Hash(), b.Hash())
	}
	for range 50 {
		a.TickPlayers(ctl)
		b.TickPlayers(ctl)
	}
	if a.Hash() != b.Hash() {
		t.Fatal("the worlds went apart after the state was taken")
	}
	// A state with fewer balls shrinks the world; with more, grows it.
	small, _ := New(Config{Balls: 2, Seed: 3})
	if err := small.SetState(a.AppendState(nil)); err != nil || small.N() != 500 || small.Hash() != a.Hash() {
		t.Fatalf("into a smaller world: %v, %d balls", err, small.N())
	}
}

// Bytes that are not a valid state of this world are refused, and the
// world is left as it was.
func TestStateRefused(t *testing.T) {
	a, _ := New(Config{Balls: 3, Seed: 1})
	good := a.AppendState(nil)
	other, _ := New(Config{Balls: 3, Seed: 2})
	mod := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	cases := map[string][]byte{
		"empty":        nil,
		"truncated":    good[:len(good)-1],
		"version":      mod(func(b []byte) []byte { b[0] = 9; return b }),
		"another seed": other.AppendState(nil),
		"count lies":   mod(func(b []byte) []byte { b[58] = 4; return b }),
		"huge count":   mod(func(b []byte) []byte { b[58], b[59], b[60], b[61] = 0xff, 0xff, 0xff, 0x7f; return b }),
		"outside":      mod(func(b []byte) []byte { b[stateHeaderSize+3] = 0x7f; return b }),
		"direction":    mod(func(b []byte) []byte { b[stateHeaderSize+19] = 0x7f; return b }),
		"step remainder": mod(func(b []byte) []byte {
			for i := 49; i < 57; i++ {
				b[i] = 0xff
			}
			return b
		}),
	}
	for name, b := range cases {
		w, _ := New(Config{Balls: 3, Seed: 1})
		before := w.Hash()
		if err := w.SetState(b); !errors.Is(err, ErrState) {
			t.Errorf("%s: %v, want ErrState", name, err)
		}
		if w.Hash() != before {
			t.Errorf("%s: the world changed", name)
		}
	}
}

// ViewState reads back what AppendState wrote, ball by ball.
func TestViewState(t *testing.T) {
	w, _ := New(Config{Balls: 50, Seed: 9})
	for range 30 {
		w.TickPlayers([]Control{{X: 1}})
	}
	v, err := ViewState(w.AppendState(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Balls) != w.N() || v.Ticks != w.Ticks() {
		t.Fatalf("%d balls at tick %d, want %d at %d", len(v.Balls), v.Ticks, w.N(), w.Ticks())
	}
	for i, b := range v.Balls {
		if b.X != w.Next[2*i] || b.Y != w.Next[2*i+1] || b.LastX != w.Last[2*i] || b.DirY != w.Dir[2*i+1] {
			t.Fatalf("ball %d: %+v", i, b)
		}
	}
	if _, err := ViewState([]byte{1, 2, 3}); !errors.Is(err, ErrState) {
		t.Errorf("three bytes: %v", err)
	}
}
