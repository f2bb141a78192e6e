package netplay

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// drain keeps every event each live peer's session reports, frame by
// frame, while the harness runs until done or fails at limit.
func (h *harness) drainUntil(limit time.Duration, evs map[*tpeer][]Event, done func() bool) {
	h.t.Helper()
	drain := func() {
		for _, p := range h.peers {
			for e, ok := p.s.PollEvent(); ok; e, ok = p.s.PollEvent() {
				evs[p] = append(evs[p], e)
			}
		}
	}
	for !done() {
		if h.now > limit {
			for _, p := range h.peers {
				h.t.Logf("%s: state %v tick %d err %v", p.name, p.s.State(), p.s.NextTick(), p.s.Err())
			}
			h.t.Fatalf("not done after %v", limit)
		}
		h.step()
		drain()
	}
}

func (h *harness) allDone() bool {
	for _, p := range h.peers {
		if !p.dead && !p.s.Done() {
			return false
		}
	}
	return true
}

// only returns the events of kind k.
func only(evs []Event, k EventKind) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// killAt runs a 3-player game with cfg until the joiner that is player
// victim has run 100 ticks, then kills it, and runs on until every live
// peer is done. It returns the victim and the events each peer saw.
func killAt(t *testing.T, cfg config, c netsim.Conditions, victim int, seed uint64) (*harness, *tpeer, map[*tpeer][]Event) {
	t.Helper()
	h := newHarness(t, c, seed)
	h.game(cfg, 3)
	evs := map[*tpeer][]Event{}
	h.drainUntil(10*time.Second, evs, func() bool { return h.peers[0].s.State() == StateRunning })
	var v *tpeer
	for _, p := range h.peers {
		if p.s.Index() == victim {
			v = p
		}
	}
	h.drainUntil(20*time.Second, evs, func() bool { return v.s.Over() || v.s.NextTick() >= 100 })
	if v.s.Over() {
		t.Fatalf("player %d was out before it died: %v", victim, v.s.Err())
	}
	v.dead = true
	h.drainUntil(90*time.Second, evs, h.allDone)
	return h, v, evs
}

var policyNets = []struct {
	name string
	c    netsim.Conditions
}{
	{"clean", netsim.Conditions{Delay: 5 * ms, Jitter: ms}},
	{"lossy", netsim.Conditions{Delay: 30 * ms, Jitter: 10 * ms, Loss: 0.1, Duplicate: 0.05, Reorder: 0.05}},
}

// With DisconnectEnd (or the zero policy without KickAfter) a joiner that
// goes silent ends the game for everyone with one typed error naming it,
// SilenceError, even with KickAfter set (a kick for slowness is another
// matter); every live peer saw it Disconnected as silent, then Ended.
func TestDisconnectPolicyEnd(t *testing.T) {
	for _, nc := range policyNets {
		for _, cfg := range []config{{Delay: DefaultDelay}, {Disconnect: disconnectEnd, Delay: DefaultDelay}, {Disconnect: disconnectEnd, KickAfter: time.Second, Delay: DefaultDelay}} {
			for victim := 1; victim <= 2; victim++ {
				t.Run(fmt.Sprint(nc.name, "/", cfg.Disconnect, "/", cfg.KickAfter, "/", victim), func(t *testing.T) {
					h, v, evs := killAt(t, cfg, nc.c, victim, uint64(victim))
					for _, p := range h.peers {
						if p == v {
							continue
						}
						var se *Error
						if err := p.s.Err(); !errors.As(err, &se) || se.Reason != ErrSilent || se.Player != victim {
							t.Errorf("%s: err %v, want player %d silent", p.name, err, victim)
						}
						if _, kicked := p.s.Kicked(victim); kicked || p.s.Stats().Kicks != 0 {
							t.Errorf("%s: the silent player was kicked", p.name)
						}
						d := only(evs[p], EventDisconnected)
						if len(d) != 1 || d[0].Player != victim || d[0].Why != ErrSilent {
							t.Errorf("%s: Disconnected events %+v, want one: player %d silent", p.name, d, victim)
						}
						if e := only(evs[p], EventEnded); len(e) != 1 {
							t.Errorf("%s: %d Ended events, want 1", p.name, len(e))
						}
						if p.s.NextTick() >= 400 {
							t.Errorf("%s: ran %d ticks after the silence", p.name, p.s.NextTick())
						}
					}
				})
			}
		}
	}
}

// With DisconnectContinue, and no KickAfter (the two are apart), a joiner
// that goes silent is dropped: the others play on to the tick limit with
// no error, every live peer names it Disconnected (silent) at the same
// tick, the host's kick tick, runs its input as zero from there on, and
// ends in the same state.
func TestDisconnectPolicyContinue(t *testing.T) {
	const limit = 400
	for _, nc := range policyNets {
		for victim := 1; victim <= 2; victim++ {
			t.Run(fmt.Sprint(nc.name, "/", victim), func(t *testing.T) {
				cfg := config{Disconnect: disconnectContinue, TickLimit: limit, Delay: DefaultDelay}
				h, v, evs := killAt(t, cfg, nc.c, victim, uint64(10+victim))
				from, ok := h.peers[0].s.Kicked(victim)
				if !ok {
					t.Fatalf("the host did not drop the silent player %d", victim)
				}
				var ref *tpeer
				for _, p := range h.peers {
					if p == v {
						continue
					}
					if err := p.s.Err(); err != nil || p.s.NextTick() != limit {
						t.Errorf("%s: err %v after %d ticks, want nil after %d", p.name, err, p.s.NextTick(), limit)
					}
					d := only(evs[p], EventDisconnected)
					if len(d) != 1 || d[0] != (Event{Kind: EventDisconnected, Player: victim, Why: ErrSilent, Tick: from}) {
						t.Errorf("%s: Disconnected events %+v, want one: player %d silent at tick %d", p.name, d, victim, from)
					}
					ps := p.s.Stats().Peers[victim]
					if !ps.Kicked || ps.KickTick != from || ps.KickWhy != ErrSilent {
						t.Errorf("%s: stats of player %d: %+v", p.name, victim, ps)
					}
					if ref == nil {
						ref = p
					} else if p.state != ref.state {
						t.Errorf("%s: state %x, %s's %x", p.name, p.state, ref.name, ref.state)
					}
				}
				h.checkHistories(limit)
				h.checkNoStrays()
			})
		}
	}
}

// The host kicks a joiner by hand: it ends with a KickedError
// (ErrKicked, "kicked by the host"), the others play on to the
// tick limit without it, each names it Disconnected at the same tick, and
// all end in the same state; in a game with KickAfter off and the
// default policy, which has nothing to do with it.
func TestKickByHand(t *testing.T) {
	const limit = 300
	for _, nc := range policyNets {
		for victim := 1; victim <= 2; victim++ {
			t.Run(fmt.Sprint(nc.name, "/", victim), func(t *testing.T) {
				h := newHarness(t, nc.c, uint64(20+victim))
				h.game(config{TickLimit: limit, Delay: DefaultDelay}, 3)
				evs := map[*tpeer][]Event{}
				host := h.peers[0].s
				h.drainUntil(20*time.Second, evs, func() bool { return host.NextTick() >= 100 })
				if err := host.Kick(victim); err != nil {
					t.Fatal(err)
				}
				from, ok := host.Kicked(victim)
				if !ok {
					t.Fatal("not kicked")
				}
				h.drainUntil(90*time.Second, evs, h.allDone)
				var ref *tpeer
				for _, p := range h.peers {
					d := only(evs[p], EventDisconnected)
					if len(d) != 1 || d[0] != (Event{Kind: EventDisconnected, Player: victim, Why: ErrKicked, Tick: from}) {
						t.Errorf("%s: Disconnected events %+v, want one: player %d kicked at tick %d", p.name, d, victim, from)
					}
					if p.s.Index() == victim {
						var ke *Error
						if !errors.As(p.s.Err(), &ke) || ke.Reason != ErrKicked || ke.Why != ErrKicked || ke.Tick != from || ke.Error() != "kicked by the host" {
							t.Errorf("%s: err %v, want kicked by the host from %d", p.name, p.s.Err(), from)
						}
						continue
					}
					if err := p.s.Err(); err != nil || p.s.NextTick() != limit {
						t.Errorf("%s: err %v after %d ticks", p.name, err, p.s.NextTick())
					}
					if ref == nil {
						ref = p
					} else if p.state != ref.state {
						t.Errorf("%s: state %x, %s's %x", p.name, p.state, ref.name, ref.state)
					}
				}
				h.checkHistories(limit)
				h.checkNoStrays()
			})
		}
	}
}

// Kick is the host's, for a joiner still in the game that runs.
func TestKickErrors(t *testing.T) {
	lobby, _ := newHost(config{InputSize: testInputSize, Nonce: 1, Players: 2, Delay: DefaultDelay}, 0)
	if err := lobby.Kick(1); !errors.Is(err, ErrInvalid) {
		t.Errorf("in the lobby: %v", err)
	}
	host, join, _ := running(t)
	for _, c := range []struct {
		name string
		s    *session
		p    int
	}{{"joiner", join, 0}, {"the host itself", host, 0}, {"out of range", host, 2}, {"negative", host, -1}} {
		if err := c.s.Kick(c.p); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if err := host.Kick(1); err != nil {
		t.Fatal(err)
	}
	if err := host.Kick(1); !errors.Is(err, ErrInvalid) {
		t.Errorf("twice: %v", err)
	}
}

// The desync check's interval is the host's, sent in the Welcome: at 10
// ticks a lie after 30 ticks is found at tick 30 (at 25, it would not be:
// 30 is no checkpoint); NoDesyncCheck finds nothing, and no hash goes out.
func TestDesyncEvery(t *testing.T) {
	for _, c := range []struct {
		every     int
		want      int // the interval sessions report
		lieAt     uint64
		found     bool
		foundTick uint64
	}{
		{10, 10, 30, true, 30},
		{0, hashEvery, 30, false, 0},
		{0, hashEvery, 50, true, 50},
		{noDesyncCheck, 0, 50, false, 0},
		{7, 7, 49, true, 49},
	} {
		t.Run(fmt.Sprint(c.every, "/", c.lieAt), func(t *testing.T) {
			h := newHarness(t, netsim.Conditions{Delay: 10 * ms, Jitter: 3 * ms, Loss: 0.05}, 3)
			h.game(config{TickLimit: 120, DesyncEvery: c.every, Delay: DefaultDelay}, 3)
			h.peers[2].lieAt = c.lieAt
			evs := map[*tpeer][]Event{}
			h.drainUntil(60*time.Second, evs, h.allDone)
			for _, p := range h.peers {
				if got := p.s.DesyncEvery(); got != c.want {
					t.Errorf("%s: DesyncEvery %d, want %d", p.name, got, c.want)
				}
				d := only(evs[p], EventDesync)
				var de *Error
				switch {
				case !c.found:
					if p.s.Err() != nil || len(d) != 0 || p.s.Stats().Desyncs != 0 {
						t.Errorf("%s: err %v, desync events %+v; want none", p.name, p.s.Err(), d)
					}
				case !errors.Is(p.s.Err(), ErrDesync) || !errors.As(p.s.Err(), &de) || de.Tick != c.foundTick || len(d) == 0 || d[0].Tick != c.foundTick:
					t.Errorf("%s: err %v, desync events %+v; want the desync at tick %d", p.name, p.s.Err(), d, c.foundTick)
				}
			}
			if c.every == noDesyncCheck {
				for _, p := range h.peers {
					if len(p.reported) != 0 {
						t.Errorf("%s: hashed %d times with the check off", p.name, len(p.reported))
					}
				}
			}
		})
	}
	if _, err := newHost(config{InputSize: 1, Nonce: 1, DesyncEvery: -2, Delay: DefaultDelay}, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("DesyncEvery -2: %v", err)
	}
	if _, err := newHost(config{InputSize: 1, Nonce: 1, Disconnect: disconnectContinue + 1, Delay: DefaultDelay}, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("Disconnect out of range: %v", err)
	}
}

// A desync does not end the game, and Err stays nil while the game runs:
// an EventDesync says it, and Err returns it once the game is over. With
// EndOnDesync on every peer, the game ends at one agreed tick soon after
// the checkpoint, every peer in the same state, with the desync its Err.
func TestDesyncErrAndEndOnDesync(t *testing.T) {
	for _, end := range []bool{false, true} {
		t.Run(fmt.Sprint(end), func(t *testing.T) {
			const limit = 300
			h := newHarness(t, netsim.Conditions{Delay: 10 * ms, Jitter: 3 * ms}, 5)
			h.game(config{TickLimit: limit, Delay: DefaultDelay}, 3)
			for _, p := range h.peers {
				p.s.cfg.EndOnDesync = end
			}
			liar := h.peers[1]
			liar.lieAt = 50
			evs := map[*tpeer][]Event{}
			sawNilErr := false
			h.drainUntil(60*time.Second, evs, func() bool {
				for _, p := range h.peers {
					if len(only(evs[p], EventDesync)) > 0 && !p.s.Over() {
						if p.s.Err() != nil {
							t.Fatalf("%s: Err %v while the game runs", p.name, p.s.Err())
						}
						sawNilErr = true
					}
				}
				return h.allDone()
			})
			if !sawNilErr {
				t.Fatal("bad test: no peer ran on after a desync")
			}
			var ref *tpeer
			for _, p := range h.peers {
				var de *Error
				if !errors.Is(p.s.Err(), ErrDesync) || !errors.As(p.s.Err(), &de) || de.Tick != 50 {
					t.Errorf("%s: err %v, want the desync at 50", p.name, p.s.Err())
				}
				if end && p.s.NextTick() >= limit || !end && p.s.NextTick() != limit {
					t.Errorf("%s: ended at tick %d (end on desync %v)", p.name, p.s.NextTick(), end)
				}
				if got := p.s.Stats().End; end && (de == nil || got != de.Error()) || !end && got != "tick limit reached" {
					t.Errorf("%s: Stats.End %q (end on desync %v)", p.name, got, end)
				}
				if ref == nil {
					ref = p
				} else if p.s.NextTick() != ref.s.NextTick() || p.state != ref.state {
					t.Errorf("%s: tick %d state %x, %s's %d %x", p.name, p.s.NextTick(), p.state, ref.name, ref.s.NextTick(), ref.state)
				}
			}
		})
	}
}

// Under a Runner the hash is taken and compared at the host's interval,
// in both netcodes: with 10 ticks, the last checkpoint compared of a
// 130-tick game is tick 130 (at 25 it would be 125), on every peer.
func TestRunnerDesyncEvery(t *testing.T) {
	for _, nc := range []Netcode{Lockstep, Rollback} {
		rg := newRig(t, rigConfig{players: 3, netcode: nc, tickLimit: 130, seed: 7, cond: netsim.Conditions{Delay: 10 * ms, Jitter: 3 * ms}})
		rg.peers[0].s.every = 10 // before any Welcome went out
		rg.run(60 * time.Second)
		for _, p := range rg.peers {
			for q := range 3 {
				if q != p.s.Index() && p.s.compared[q] != 130 {
					t.Errorf("%v, %s: last checkpoint compared with player %d: %d, want 130", nc, p.name, q, p.s.compared[q])
				}
			}
			if c := p.s.latest[p.s.Index()]; c.tick != 130 || c.hash != p.g.Hash() {
				t.Errorf("%v, %s: own checkpoint %+v, want tick 130 with the game's hash %x", nc, p.name, c, p.g.Hash())
			}
			if err := p.s.Err(); err != nil {
				t.Errorf("%v, %s: %v", nc, p.name, err)
			}
		}
	}
}
