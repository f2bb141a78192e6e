package netplay

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// A peer that runs behind gets the others' state hash for a checkpoint
// before it reaches the checkpoint itself: it keeps the hash and compares
// it with its own when it gets there, and finds the desync. The slow peer
// runs behind a liar (the host, or a joiner whose hash the host relays)
// by the input delay, 30 ticks: the liar reaches its next checkpoint, and
// sends that one's hash from then on, before the slow peer reaches the
// one it lied at, so that the hash kept is the only one it gets. The test
// checks that the liar's hash was waiting when the slow peer made its own.
func TestRemoteHashBeforeLocal(t *testing.T) {
	for _, c := range []struct{ players, slow, liar int }{
		{2, 1, 0}, // a joiner behind the host
		{2, 0, 1}, // the host behind a joiner
		{3, 1, 2}, // a joiner behind another joiner, relayed by the host
		{3, 0, 2},
	} {
		for _, at := range []uint64{25, 50} {
			t.Run(fmt.Sprint(c.players, "/", c.slow, "/", c.liar, "/", at), func(t *testing.T) {
				h := newHarness(t, netsim.Conditions{Delay: 5 * ms}, 9)
				h.game(config{TickLimit: 100, Delay: 30}, c.players)
				// The harness's peers are in the order they joined; find
				// them by player index once the game runs.
				h.runUntil(5*time.Second, func() bool { return h.peers[c.players-1].s.State() == StateRunning })
				var slow, liar *tpeer
				for _, p := range h.peers {
					switch p.s.Index() {
					case c.slow:
						slow = p
					case c.liar:
						liar = p
					}
				}
				// A tick every 100 ms, 10 a second of the 25 due: the
				// others run up to its inputs, Delay ticks ahead.
				slow.frame, slow.maxLoops = 100*ms, 1
				liar.lieAt = at
				waiting := false
				hash := slow.hashFn
				slow.hashFn = func() uint64 {
					if slow.s.NextTick() == at {
						pc := slow.s.pending[c.liar][(at/hashEvery)%ckRing]
						waiting = pc.tick == at && pc.hash == liar.reported[at]
					}
					return hash()
				}
				h.run(60 * time.Second)
				if !waiting {
					t.Fatalf("the liar's hash for tick %d was not waiting when the slow peer made its own: the test did not test it", at)
				}
				var de *Error
				if !errors.Is(slow.s.Err(), ErrDesync) || !errors.As(slow.s.Err(), &de) || de.Tick != at || de.Player != c.liar ||
					de.Local != slow.reported[at] || de.Remote != liar.reported[at] {
					t.Errorf("slow peer: err %v, want a desync at tick %d with player %d", slow.s.Err(), at, c.liar)
				}
			})
		}
	}
}

// Err names the first desync: the earliest checkpoint whose hashes
// differ, not the last one found.
func TestFirstDesyncReported(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for liar := range players {
			t.Run(fmt.Sprint(players, "/", liar), func(t *testing.T) {
				h := newHarness(t, netsim.Conditions{Delay: 15 * ms, Jitter: 5 * ms, Loss: 0.1, Reorder: 0.1}, uint64(players*10+liar))
				h.game(config{TickLimit: 150, Delay: DefaultDelay}, players)
				lp := h.peers[liar]
				lp.lies = map[uint64]bool{50: true, 100: true}
				h.run(30 * time.Second)
				for _, p := range h.peers {
					var de *Error
					if !errors.Is(p.s.Err(), ErrDesync) || !errors.As(p.s.Err(), &de) || de.Tick != 50 {
						t.Errorf("%s: err %v, want the desync at tick 50", p.name, p.s.Err())
					}
					want := 2 // every other peer finds 2 desyncs with the liar
					if p == lp {
						want = 2 * (players - 1)
					}
					if got := p.s.Stats().Desyncs; got != want {
						t.Errorf("%s: %d desyncs, want %d", p.name, got, want)
					}
				}
			})
		}
	}
}

// divergent is a specGame whose state really departs from the others'
// after tick at (it moves player 0 one step more there), and which
// records the confirmed inputs.
type divergent struct {
	*specGame
	at        uint64
	confirmed [][2]byte
}

func (g *divergent) Advance(in *Inputs) {
	g.specGame.Advance(in)
	if g.at != 0 && g.ticks == g.at {
		g.pos[0]++
	}
}

func (g *divergent) Confirmed(in *Inputs, _ uint64, _ bool) {
	g.confirmed = append(g.confirmed, [2]byte{in.Input(0)[0], in.Input(1)[0]})
}

// hashAfter replays inputs on a fresh game that diverges at at (0:
// never) and returns its hash after n ticks.
func hashAfter(inputs [][2]byte, at, n uint64, fill int) uint64 {
	g := &divergent{specGame: newSpecGame(fill, 1), at: at}
	for k := range g.fill {
		g.fill[k] = byte(k*7 + k>>8 + 3)
	}
	for t := range n {
		in := Inputs{Tick: t, players: 2, size: 1}
		in.in[0][0], in.in[1][0] = inputs[t][0], inputs[t][1]
		g.Advance(&in)
	}
	return g.Hash()
}

// A game whose states really diverge under a Runner (no lie injected
// through the session: one peer's game moves a ball one step more after
// tick 37) ends in a DesyncError on both peers, at the first checkpoint
// after it, with each side's true hash there; in both netcodes.
func TestRunnerRealDesync(t *testing.T) {
	const at, ticks, fill = 37, 200, 64
	check := uint64((at + hashEvery - 1) / hashEvery * hashEvery) // the first checkpoint from tick at on
	for _, nc := range []Netcode{Lockstep, Rollback} {
		games := make([]*divergent, 2)
		rg := newSpecRigWith(t, netsim.Conditions{Delay: 30 * time.Millisecond, Jitter: 10 * time.Millisecond}, ticks, fill, 0, nc, func(i int, g *specGame) Game {
			games[i] = &divergent{specGame: g}
			if i == 1 {
				games[i].at = at
			}
			return games[i]
		})
		rg.run(60*time.Second, func() bool { return rg.players[0].s.Done() && rg.players[1].s.Done() })
		if len(games[0].confirmed) < int(check) {
			t.Fatalf("%v: %d ticks confirmed", nc, len(games[0].confirmed))
		}
		clean, broken := hashAfter(games[0].confirmed, 0, check, fill), hashAfter(games[0].confirmed, at, check, fill)
		want := []Error{{Reason: ErrDesync, Tick: check, Local: clean, Player: 1, Remote: broken}, {Reason: ErrDesync, Tick: check, Local: broken, Player: 0, Remote: clean}}
		for i, p := range rg.players {
			var d *Error
			if !errors.As(p.s.Err(), &d) || *d != want[i] {
				t.Errorf("%v: player %d: %v, want %v", nc, i, p.s.Err(), &want[i])
			}
		}
		if rg.players[1].r.Stats().Rollbacks == 0 && nc == Rollback {
			t.Errorf("rollback: no rollback happened")
		}
	}
}
