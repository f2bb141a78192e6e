package puck

import (
	"bytes"
	"errors"
	"testing"

	"github.com/interpdemo/interpdemo/netplay"
)

// botGame is the game with a bot's input, as a sync test plays it.
type botGame struct {
	*Game
	seed uint64
}

func (b botGame) LocalInput(tick uint64, _ int, dst []byte) { dst[0] = BotInput(b.seed, tick) }

// syncTest runs g for ticks ticks under netplay's sync test, which rolls
// it back 8 ticks after every tick and runs them again.
func syncTest(t *testing.T, g netplay.Game, ticks int) *netplay.Session {
	t.Helper()
	s, err := netplay.SyncTest(netplay.Config{InputSize: InputSize, CheckDistance: 8}, g)
	if err != nil {
		t.Fatal(err)
	}
	for range ticks {
		s.Frame(0, 1, 1)
	}
	return s
}

// newBotGame is the default game with slots for a sync test's rollbacks
// of 8 ticks, and a bot.
func newBotGame() botGame {
	g := NewGame(DefaultSettings())
	g.SetSlots(8 + 2)
	return botGame{g, 7}
}

// TestSyncTest: Save and Load hold the whole game, and a tick runs the
// same from a restored state.
func TestSyncTest(t *testing.T) {
	g := newBotGame()
	s := syncTest(t, g, 3000)
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Ticks != 3000 || st.Resimulated < 3000 || g.State.Hits == 0 || g.State.Score == [Players]uint16{} {
		t.Errorf("%+v, state %+v: want 3000 ticks, each run again, with hits and goals", st, g.State)
	}
}

// forgetful is a Game whose Load keeps the puck's velocity as it is: the
// sync test must find it out.
type forgetful struct{ botGame }

func (f forgetful) Load(slot int) {
	v := f.State.V
	f.Game.Load(slot)
	f.State.V = v
}

func TestSyncTestFindsIncompleteLoad(t *testing.T) {
	s := syncTest(t, forgetful{newBotGame()}, 3000)
	var e *netplay.Error
	if !errors.As(s.Err(), &e) || !errors.Is(e, netplay.ErrDesync) {
		t.Fatalf("sync test of a Load that forgets the puck's velocity: %v, want a desync", s.Err())
	}
	t.Log(e)
}

// TestGame plays long games of bots and checks the rules: everybody stays
// on the field, goals are scored, and the same seeds give the same game.
func TestGame(t *testing.T) {
	for _, set := range []Settings{
		DefaultSettings(),
		{Width: 64, Height: 64, TPS: MaxTPS, Netcode: netplay.Rollback, Seed: 3},
		{Width: 1024, Height: 200, TPS: MinTPS, Netcode: netplay.Lockstep, Seed: 1 << 63},
	} {
		g := NewGame(set)
		w, h := int32(set.Width)*One, int32(set.Height)*One
		seeds := [Players]uint64{1, 2}
		goals := 0
		for tick := range uint64(20000) {
			score := g.State.Score
			g.Step([Players]byte{BotInput(seeds[0], tick), BotInput(seeds[1], tick)})
			s := &g.State
			for p, b := range s.Players {
				if b.Pos[0] < PlayerHalf || b.Pos[0] > w-PlayerHalf || b.Pos[1] < PlayerHalf || b.Pos[1] > h-PlayerHalf {
					t.Fatalf("%+v tick %d: player %d at %v, off the field", set, s.Tick, p, b.Pos)
				}
			}
			if k := s.Puck.Pos; k[0] < PuckHalf || k[0] > w-PuckHalf || k[1] < PuckHalf || k[1] > h-PuckHalf {
				t.Fatalf("%+v tick %d: puck at %v, off the field", set, s.Tick, k)
			}
			if s.Score != score {
				goals++
				if s.Puck.Last != s.Puck.Pos || s.Puck.Pos != [2]int32{w / 2, h / 2} {
					t.Fatalf("%+v tick %d: after a goal the puck is at %v from %v, want still at the centre", set, s.Tick, s.Puck.Pos, s.Puck.Last)
				}
			}
		}
		if goals == 0 || g.State.Hits == 0 {
			t.Errorf("%+v: %d goals and %d hits in 20000 ticks", set, goals, g.State.Hits)
		}
		if again := Simulate(set, seeds, 20000); again != g.State {
			t.Errorf("%+v: the same game twice ends in %+v and %+v", set, again, g.State)
		}
		if other := Simulate(set, [Players]uint64{1, 3}, 20000); other.Hash() == g.State.Hash() {
			t.Errorf("%+v: another bot, the same hash %016x", set, other.Hash())
		}
	}
}

func TestHashCoversTheState(t *testing.T) {
	base := NewGame(DefaultSettings()).State
	for name, change := range map[string]func(*State){
		"tick":       func(s *State) { s.Tick++ },
		"player 1 x": func(s *State) { s.Players[1].Pos[0]++ },
		"last y":     func(s *State) { s.Players[0].Last[1]-- },
		"puck":       func(s *State) { s.Puck.Pos[1]++ },
		"velocity":   func(s *State) { s.V[1] = -s.V[1] + 1 },
		"score":      func(s *State) { s.Score[1]++ },
		"hits":       func(s *State) { s.Hits++ },
		"serve":      func(s *State) { s.Serve++ },
		"rng":        func(s *State) { s.Rng ^= 1 << 40 },
	} {
		s := base
		change(&s)
		if s.Hash() == base.Hash() {
			t.Errorf("changing the %s leaves the hash", name)
		}
	}
}

func TestBotInput(t *testing.T) {
	runs, last, length := 0, byte(0xff), 0
	for tick := range uint64(2000) {
		in := BotInput(9, tick)
		if in != BotInput(9, tick) {
			t.Fatal("BotInput is not a function of its arguments")
		}
		if tick < BotIdle && in != 0 {
			t.Fatalf("tick %d: %#x, want 0 before tick %d", tick, in, BotIdle)
		}
		if in&(Left|Right) == Left|Right || in&(Up|Down) == Up|Down || in > Left|Right|Up|Down {
			t.Fatalf("tick %d: %#x", tick, in)
		}
		if in != last {
			runs++
			last, length = in, 0
		}
		if length++; length > 4*botHold { // a direction drawn again at most once or twice in a row
			t.Fatalf("tick %d: %#x held %d ticks", tick, in, length)
		}
	}
	if runs < 2000/botHold/2 {
		t.Errorf("%d changes of direction in 2000 ticks, want about %d", runs, 2000/botHold)
	}
}

func TestBodyAt(t *testing.T) {
	b := Body{Last: [2]int32{10 * One, 20 * One}, Pos: [2]int32{20 * One, 10 * One}}
	for _, c := range []struct{ pct, x, y float64 }{{0, 10, 20}, {1, 20, 10}, {0.25, 12.5, 17.5}} {
		if x, y := b.At(c.pct); x != c.x || y != c.y {
			t.Errorf("At(%v) = %v, %v; want %v, %v", c.pct, x, y, c.x, c.y)
		}
	}
}

func TestSettings(t *testing.T) {
	set := Settings{Width: 400, Height: 300, TPS: 45, Netcode: netplay.Lockstep, Seed: 0xdeadbeefcafef00d}
	b := set.Encode()
	if got, err := DecodeSettings(b); err != nil || got != set {
		t.Fatalf("DecodeSettings(Encode(%+v)) = %+v, %v", set, got, err)
	}
	if len(b) != settingsSize || len(b) > netplay.MaxSettingsSize {
		t.Errorf("%d bytes", len(b))
	}
	bad := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(b)) }
	for name, blob := range map[string][]byte{
		"empty":   nil,
		"short":   b[:settingsSize-1],
		"long":    append(bytes.Clone(b), 0),
		"version": bad(func(b []byte) []byte { b[0] = 2; return b }),
		"width":   bad(func(b []byte) []byte { b[1], b[2] = 10, 0; return b }),
		"height":  bad(func(b []byte) []byte { b[3], b[4] = 0xff, 0xff; return b }),
		"tps":     bad(func(b []byte) []byte { b[5] = 0; return b }),
		"netcode": bad(func(b []byte) []byte { b[6] = 7; return b }),
	} {
		if _, err := DecodeSettings(blob); !errors.Is(err, ErrSettings) {
			t.Errorf("%s: %v, want an ErrSettings", name, err)
		}
	}
	if set.Tick() != 22222222 {
		t.Errorf("45 ticks per second: a tick of %v", set.Tick())
	}
	if DefaultSettings().Check() != nil || DefaultSettings().Delay() != 0 || set.Delay() != LockstepDelay {
		t.Error("the defaults")
	}
}

func TestResultLine(t *testing.T) {
	r := Result{Ticks: 300, Hash: 0x00ab, Rollbacks: 12, Resimulated: 40, Score: [Players]uint16{2, 3}, Netcode: netplay.Rollback}
	line := r.String()
	if line != "ticks=300 hash=00000000000000ab rollbacks=12 resimulated=40 score=2:3 netcode=rollback" {
		t.Errorf("%q", line)
	}
	if got, err := ParseResult(line); err != nil || got != r {
		t.Errorf("ParseResult(%q) = %+v, %v", line, got, err)
	}
	for _, bad := range []string{"", "ticks=1", "ticks=300 hash=00000000000000ab rollbacks=12 resimulated=40 score=2:3 netcode=magic"} {
		if _, err := ParseResult(bad); err == nil {
			t.Errorf("ParseResult(%q) succeeded", bad)
		}
	}
}
