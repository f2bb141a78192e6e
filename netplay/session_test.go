package netplay

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

func TestLockstepPerfectNetwork(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			h := newHarness(t, netsim.Conditions{}, 1)
			h.game(config{TickLimit: 200, Delay: DefaultDelay}, players)
			h.run(30 * time.Second)
			for _, p := range h.peers {
				if err := p.s.Err(); err != nil {
					t.Errorf("%s: %v", p.name, err)
				}
				if got := p.s.NextTick(); got != 200 {
					t.Errorf("%s ran %d ticks, want 200", p.name, got)
				}
				if st := p.s.Stats(); st.BadPackets != 0 || st.End != "tick limit reached" {
					t.Errorf("%s: %d bad packets, end %q", p.name, st.BadPackets, st.End)
				}
			}
			h.checkHistories(200)
			h.checkNoStrays()
		})
	}
}

func TestLockstepBadNetwork(t *testing.T) {
	bad := netsim.Conditions{Delay: 40 * ms, Jitter: 10 * ms, Loss: 0.1, Duplicate: 0.05, Reorder: 0.05}
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprint(players, "/", seed), func(t *testing.T) {
				h := newHarness(t, bad, seed)
				h.game(config{TickLimit: 300, Delay: DefaultDelay}, players)
				h.run(60 * time.Second)
				for _, p := range h.peers {
					if err := p.s.Err(); err != nil {
						t.Errorf("%s: %v", p.name, err)
					}
					if got := p.s.NextTick(); got != 300 {
						t.Errorf("%s ran %d ticks, want 300", p.name, got)
					}
					if st := p.s.Stats(); st.BadPackets != 0 {
						t.Errorf("%s: %d bad packets", p.name, st.BadPackets)
					}
				}
				h.checkHistories(300)
				h.checkNoStrays()
				ns := h.net.Stats()
				if ns.Lost == 0 || ns.Duplicated == 0 || ns.Reordered == 0 {
					t.Errorf("the network did not misbehave: %+v", ns)
				}
			})
		}
	}
}

func TestSilentPeerEndsGame(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for victim := range players {
			t.Run(fmt.Sprint(players, "/", victim), func(t *testing.T) {
				h := newHarness(t, netsim.Conditions{Delay: 10 * ms}, 7)
				h.game(config{Delay: DefaultDelay}, players)
				v := h.peers[victim]
				h.runUntil(10*time.Second, func() bool { return v.s.NextTick() >= 100 })
				v.dead = true
				// The last packet the others got from it left before now.
				died := h.now
				h.runUntil(died+10*time.Second, func() bool {
					for _, p := range h.peers {
						if p != v && !p.s.Done() {
							return false
						}
					}
					return true
				})
				for _, p := range h.peers {
					if p == v {
						continue
					}
					var se *Error
					if !errors.As(p.s.Err(), &se) || se.Reason != ErrSilent || se.Player != v.s.Index() {
						t.Errorf("%s: err %v, want player %d silent", p.name, p.s.Err(), v.s.Index())
						continue
					}
					// The time it says is what the peer that found
					// the silence measured: at least the timeout, at
					// most a frame more.
					if se.For < 2*time.Second || se.For > 2*time.Second+50*time.Millisecond {
						t.Errorf("%s: %q: silent for %v, want the 2 s measured", p.name, p.s.Err(), se.For)
					}
					if want := fmt.Sprintf("player %d silent for %v", v.s.Index(), se.For.Round(time.Millisecond)); p.s.Err().Error() != want {
						t.Errorf("%s: %q, want %q", p.name, p.s.Err(), want)
					}
				}
				// The host (or, when the host died, every joiner)
				// detects the silence 2 s after the last packet it got,
				// within a frame; the others hear of it from the host.
				// The last packet arrived between a tick and the
				// network's delay before and after the death.
				for _, p := range h.peers {
					if p == v {
						continue
					}
					lo, hi := died+2*time.Second-h.tick, died+2*time.Second+10*ms+p.frame+ms
					if victim != 0 && p != h.peers[0] {
						hi += 10*ms + p.frame // the host's news travels
					}
					if p.overAt < lo || p.overAt > hi {
						t.Errorf("%s: game over at %v, want within [%v, %v] (died at %v)", p.name, p.overAt, lo, hi, died)
					}
				}
				h.checkNoStrays()
			})
		}
	}
}

func TestSlowPeerKicked(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for slow := 1; slow < players; slow++ {
			t.Run(fmt.Sprint(players, "/", slow), func(t *testing.T) {
				h := newHarness(t, netsim.Conditions{Delay: 10 * ms, Jitter: 2 * ms}, uint64(slow))
				h.game(config{TickLimit: 500, KickAfter: time.Second, Delay: DefaultDelay}, players)
				// It draws a frame every 200 ms and runs at most one
				// tick a frame: 5 ticks a second of the 25 due.
				sp := h.peers[slow]
				sp.frame, sp.maxLoops = 200*ms, 1
				h.run(60 * time.Second)
				var ke *Error
				if !errors.As(sp.s.Err(), &ke) || ke.Reason != ErrKicked || ke.Why != ErrSlow {
					t.Fatalf("slow peer: err %v, want a kick for slowness", sp.s.Err())
				}
				msg := ke.Error()
				var held int
				if _, err := fmt.Sscanf(msg, "kicked: too slow (held the game back %d ms in 10 s)", &held); err != nil ||
					held <= 1000 || held > 10000 {
					t.Errorf("slow peer: %q: want held back more than 1000 ms in 10 s", msg)
				}
				from, ok := h.peers[0].s.Kicked(sp.s.Index())
				if !ok || ke.Tick != from {
					t.Fatalf("host: kicked %v from %d; the slow peer was told %d", ok, from, ke.Tick)
				}
				for _, p := range h.peers {
					if p == sp {
						continue
					}
					if got, ok := p.s.Kicked(sp.s.Index()); !ok || got != from {
						t.Errorf("%s: kick of player %d at %d %v, the host's at %d", p.name, sp.s.Index(), got, ok, from)
					}
					if err := p.s.Err(); err != nil || p.s.NextTick() != 500 {
						t.Errorf("%s: err %v after %d ticks, want nil after 500", p.name, err, p.s.NextTick())
					}
					if st := p.s.Stats(); !st.Peers[sp.s.Index()].Kicked || st.Kicks != 1 {
						t.Errorf("%s: stats do not show the kick: %+v", p.name, st)
					}
				}
				h.checkHistories(500)
				h.checkNoStrays()
			})
		}
	}
}

func TestSilentPeerKicked(t *testing.T) {
	for players := 3; players <= MaxPlayers; players++ {
		for victim := 1; victim < players; victim++ {
			t.Run(fmt.Sprint(players, "/", victim), func(t *testing.T) {
				h := newHarness(t, netsim.Conditions{Delay: 20 * ms, Jitter: 5 * ms, Loss: 0.05}, uint64(victim))
				h.game(config{TickLimit: 300, KickAfter: 5 * time.Second, Delay: DefaultDelay}, players)
				v := h.peers[victim]
				h.runUntil(10*time.Second, func() bool { return v.s.NextTick() >= 100 })
				v.dead = true
				h.run(60 * time.Second)
				from, ok := h.peers[0].s.Kicked(v.s.Index())
				if !ok {
					t.Fatalf("the host did not kick the silent player")
				}
				for _, p := range h.peers {
					if p == v {
						continue
					}
					if got, ok := p.s.Kicked(v.s.Index()); !ok || got != from {
						t.Errorf("%s: kick at %d %v, the host's at %d", p.name, got, ok, from)
					}
					if err := p.s.Err(); err != nil || p.s.NextTick() != 300 {
						t.Errorf("%s: err %v after %d ticks, want nil after 300", p.name, err, p.s.NextTick())
					}
				}
				h.checkHistories(300)
				h.checkNoStrays()
			})
		}
	}
}

func TestDesyncDetectedByAll(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for liar := range players {
			t.Run(fmt.Sprint(players, "/", liar), func(t *testing.T) {
				h := newHarness(t, netsim.Conditions{Delay: 15 * ms, Jitter: 5 * ms, Loss: 0.1, Reorder: 0.1}, uint64(liar))
				h.game(config{TickLimit: 150, Delay: DefaultDelay}, players)
				lp := h.peers[liar]
				lp.lieAt = 50
				h.run(30 * time.Second)
				truth := h.peers[(liar+1)%players].reported[50]
				lie := lp.reported[50]
				if truth == lie || truth == 0 {
					t.Fatalf("bad test: truth %x, lie %x", truth, lie)
				}
				for _, p := range h.peers {
					st := p.s.Stats()
					var de *Error
					if !errors.Is(p.s.Err(), ErrDesync) || !errors.As(p.s.Err(), &de) {
						t.Errorf("%s: err %v, want a desync", p.name, p.s.Err())
						continue
					}
					if p == lp {
						if de.Player == lp.s.Index() || de.Local != lie || de.Remote != truth || st.Desyncs != players-1 {
							t.Errorf("%s (the liar): %v, %d desyncs", p.name, de, st.Desyncs)
						}
						continue
					}
					want := fmt.Sprintf("desync at tick 50: local %016x, player %d %016x", truth, lp.s.Index(), lie)
					if de.Error() != want || st.Desyncs != 1 {
						t.Errorf("%s: %q, %d desyncs; want %q, 1", p.name, de, st.Desyncs, want)
					}
					if p.s.NextTick() != 150 || st.End != "tick limit reached" {
						t.Errorf("%s: the game did not go on to the end: %d ticks, %q", p.name, p.s.NextTick(), st.End)
					}
				}
				h.checkHistories(150)
			})
		}
	}
}

// Many games on a very bad network (30% loss, 40 ± 30 ms, duplicates,
// reordering), with quits, slow peers and kicks mixed in: every peer ends
// cleanly, or kicked if it is the slow one (the network's stalls are
// nobody's slowness), never stuck, and all saw the same input.
func TestLockstepManySeeds(t *testing.T) {
	seeds := uint64(60)
	if testing.Short() {
		seeds = 15
	}
	c := netsim.Conditions{Delay: 40 * ms, Jitter: 30 * ms, Loss: 0.3, Duplicate: 0.1, Reorder: 0.2}
	for seed := uint64(1); seed <= seeds; seed++ {
		for players := MinPlayers; players <= MaxPlayers; players++ {
			h := newHarness(t, c, seed*10+uint64(players))
			cfg := config{TickLimit: 150, Delay: DefaultDelay}
			if seed%3 == 1 {
				cfg.KickAfter = 3 * time.Second
			}
			h.game(cfg, players)
			if seed%5 == 0 {
				h.peers[int(seed)%players].quitAt = 80
			}
			var slow *tpeer
			if seed%7 == 0 && cfg.KickAfter > 0 {
				slow = h.peers[players-1]
				slow.frame, slow.maxLoops = 150*ms, 1
			}
			h.run(120 * time.Second)
			for _, p := range h.peers {
				if err := p.s.Err(); err != nil && (!errors.Is(err, ErrKicked) || p != slow) {
					t.Errorf("seed %d, %d players: %s: %v", seed, players, p.name, err)
				}
				for q := range players {
					if _, ok := p.s.Kicked(q); ok && (slow == nil || q != slow.s.Index()) {
						t.Errorf("seed %d, %d players: %s: player %d kicked, not the slow one", seed, players, p.name, q)
					}
				}
			}
			h.checkHistories(0)
			h.checkNoStrays()
		}
	}
}
