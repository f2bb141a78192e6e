package netplay

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// checkQuitEnd checks that every live peer ended cleanly at the end tick
// end, the quit of one of the players quitters (players that quit at the
// same tick: a peer names the one it heard of first): after running the
// same ticks with the same records, in the same state, and that nothing
// more runs.
func (h *harness) checkQuitEnd(end uint64, quitters ...int) {
	h.t.Helper()
	ref := h.peers[0]
	for _, p := range h.peers {
		if p.dead {
			continue
		}
		s, st := p.s, p.s.Stats()
		var want []string
		for _, q := range quitters {
			if s.Index() == q {
				want = append(want, "quit")
			} else {
				want = append(want, fmt.Sprintf("player %d quit", q))
			}
		}
		if err := s.Err(); err != nil || !s.Done() || !slices.Contains(want, st.End) {
			h.t.Errorf("%s: err %v, done %v, end %q; want nil, true, one of %q", p.name, err, s.Done(), st.End, want)
		}
		if got, ok := s.EndTick(); s.NextTick() != end || !ok || got != end || uint64(len(p.hist)) != end {
			h.t.Errorf("%s: stopped at tick %d (end tick %d %v, %d ticks run), want %d", p.name, s.NextTick(), got, ok, len(p.hist), end)
		}
		if p.state != ref.state {
			h.t.Errorf("%s: state %x, %s's %x", p.name, p.state, ref.name, ref.state)
		}
		if _, ok := s.Next(h.now, p.recs); ok || s.Advance(nil) != errOver || s.AddLocalInput(s.InputTick(), make([]byte, testInputSize)) != errOver {
			h.t.Errorf("%s: a tick runs after the end", p.name)
		}
	}
	h.checkHistories(int(end))
	h.checkNoStrays()
}

// A quit ends the game for everyone at the quitter's InputTick: every
// peer, the quitter included, runs the ticks before it and stops there,
// cleanly, with the same history and state; whoever quits, however many
// play, on a network that delays, loses, duplicates and reorders.
func TestQuitEndsEveryoneAtOneTick(t *testing.T) {
	nets := []struct {
		name string
		c    netsim.Conditions
	}{
		{"lossy", netsim.Conditions{Delay: 20 * ms, Jitter: 5 * ms, Loss: 0.1}},
		{"bad", netsim.Conditions{Delay: 40 * ms, Jitter: 20 * ms, Loss: 0.2, Duplicate: 0.1, Reorder: 0.2}},
	}
	for _, n := range nets {
		for players := MinPlayers; players <= MaxPlayers; players++ {
			for quitter := range players {
				t.Run(fmt.Sprint(n.name, "/", players, "/", quitter), func(t *testing.T) {
					h := newHarness(t, n.c, uint64(10*players+quitter))
					h.game(config{Delay: DefaultDelay}, players)
					q := h.peers[quitter]
					q.quitAt = 60
					h.run(30 * time.Second)
					end := q.quitTick
					// Its InputTick: the input delay ahead of the ticks
					// it ran, at most.
					if end < 60 || end > 60+DefaultDelay+1 {
						t.Fatalf("the quitter's end tick is %d, after 60 ticks run", end)
					}
					h.checkQuitEnd(end, q.s.Index())
					// Everyone is done soon after the quitter.
					for _, p := range h.peers {
						if p.endAt > q.endAt+2500*ms {
							t.Errorf("%s ended at %v, the quitter at %v", p.name, p.endAt, q.endAt)
						}
					}
				})
			}
		}
	}
}

// With no input delay (as for rollback) the quitter's InputTick is the
// tick it runs next: its game ends at once, the others' at that tick.
func TestQuitNoDelay(t *testing.T) {
	for quitter := range 3 {
		h := newHarness(t, netsim.Conditions{Delay: 10 * ms, Jitter: 3 * ms, Loss: 0.05}, uint64(quitter))
		h.game(config{}, 3)
		q := h.peers[quitter]
		q.quitAt = 40
		h.run(30 * time.Second)
		if q.quitTick != 40 {
			t.Fatalf("quitter %d: end tick %d, want 40", quitter, q.quitTick)
		}
		h.checkQuitEnd(40, q.s.Index())
	}
}

// A peer that runs behind has not added its inputs up to the quitter's end
// tick when it hears of the quit: it goes on adding them (the others need
// them to reach the end tick), and everyone ends there.
func TestQuitWhileBehind(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for slow := range players {
			quitter := (slow + 1) % players
			t.Run(fmt.Sprint(players, "/", slow), func(t *testing.T) {
				h := newHarness(t, netsim.Conditions{Delay: 10 * ms, Loss: 0.05}, uint64(players*10+slow))
				h.game(config{Delay: 8}, players)
				// Two ticks a frame of 120 ms: 17 ticks a second of the
				// 25 due; the others wait for it, a tick or so ahead.
				sp := h.peers[slow]
				sp.frame, sp.maxLoops = 120*ms, 2
				q := h.peers[quitter]
				q.quitAt = 60
				var heardAt uint64 // the slow peer's InputTick when it heard of the quit
				h.runUntil(60*time.Second, func() bool {
					if heardAt == 0 && sp.s.quitSet {
						heardAt = sp.s.InputTick()
					}
					for _, p := range h.peers {
						if !p.s.Done() {
							return false
						}
					}
					return true
				})
				end := q.quitTick
				if heardAt == 0 || heardAt >= end {
					t.Errorf("the slow peer heard of the quit at input tick %d, the end tick is %d: the test did not test it", heardAt, end)
				}
				h.checkQuitEnd(end, q.s.Index())
			})
		}
	}
}

// Two players quit at about the same time: the earlier end tick counts,
// for everyone. (The second may hear of the first quit before its own: it
// then quits only if its own end tick would be earlier.)
func TestTwoQuitsEarlierCounts(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		h := newHarness(t, netsim.Conditions{Delay: 30 * ms, Jitter: 10 * ms, Loss: 0.1, Reorder: 0.1}, seed)
		h.game(config{Delay: 4}, 4)
		ai := int(seed % 4)
		a, b := h.peers[ai], h.peers[(ai+1+int(seed%3))%4]
		a.quitAt, b.quitAt = 60, 58+seed%5
		h.run(30 * time.Second)
		end := uint64(math.MaxUint64)
		var quitters []int
		for _, p := range []*tpeer{a, b} {
			switch {
			case p.quitTick == 0:
			case p.quitTick < end:
				end, quitters = p.quitTick, []int{p.s.Index()}
			case p.quitTick == end:
				quitters = append(quitters, p.s.Index())
			}
		}
		if quitters == nil {
			t.Fatalf("seed %d: nobody quit", seed)
		}
		t.Logf("seed %d: %s quit at %d, %s at %d", seed, a.name, a.quitTick, b.name, b.quitTick)
		h.checkQuitEnd(end, quitters...)
	}
}

// A game over by a quit cannot hang: when a player goes silent before the
// end tick, the others end on its silence.
func TestQuitThenSilence(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for victim := range players {
			quitter := (victim + 1) % players
			t.Run(fmt.Sprint(players, "/", victim), func(t *testing.T) {
				h := newHarness(t, netsim.Conditions{Delay: 10 * ms, Loss: 0.05}, uint64(victim))
				h.game(config{Delay: 8}, players)
				v, q := h.peers[victim], h.peers[quitter]
				// The victim runs behind: the others run up to its input.
				v.frame, v.maxLoops = 200*ms, 1
				h.runUntil(30*time.Second, func() bool { return v.s.NextTick() >= 40 })
				// It dies before it has sent its input for the ticks
				// before the quit's end tick.
				v.dead = true
				q.quitTick = q.s.InputTick()
				q.s.Quit(h.now)
				if v.s.InputTick() >= q.quitTick {
					t.Fatalf("bad test: the victim has its input up to %d, the end tick is %d", v.s.InputTick(), q.quitTick)
				}
				died := h.now
				h.run(died + 10*time.Second)
				for _, p := range h.peers {
					if p == v {
						continue
					}
					var se *Error
					if !errors.As(p.s.Err(), &se) || se.Reason != ErrSilent || se.Player != v.s.Index() {
						t.Errorf("%s: err %v, want player %d silent", p.name, p.s.Err(), v.s.Index())
					}
					if p.s.NextTick() >= q.quitTick {
						t.Errorf("%s ran to tick %d without the victim's input", p.name, p.s.NextTick())
					}
					if p.overAt > died+3*time.Second {
						t.Errorf("%s: game over at %v, the victim died at %v", p.name, p.overAt, died)
					}
				}
				h.checkNoStrays()
			})
		}
	}
}

// hasEnd reports whether pkt is a game packet with an end section.
func hasEnd(pkt []byte) bool {
	p := packet{inputSize: testInputSize}
	return p.decode(pkt) == nil && p.typ == msgGame && p.flags&flagEnd != 0
}

// The news of a quit is lost for a while (every packet of the quitter that
// carries it), after the quitter sent all its inputs before the end tick
// (it quits between frames): the quitter, and the host, though they have
// everything they need from the others and the others from them, go on
// until the others say they know of the quit, and everyone ends cleanly
// at the end tick.
func TestQuitNewsLostForAWhile(t *testing.T) {
	for players := MinPlayers; players <= 3; players++ {
		for quitter := range players {
			t.Run(fmt.Sprint(players, "/", quitter), func(t *testing.T) {
				h := newHarness(t, netsim.Conditions{Delay: 10 * ms}, 3)
				h.game(config{Delay: DefaultDelay}, players)
				q := h.peers[quitter]
				h.runUntil(10*time.Second, func() bool { return q.s.NextTick() >= 60 })
				q.quitTick = q.s.InputTick()
				q.s.Quit(h.now)
				until := h.now + 500*ms
				h.drop = func(from, _ string, pkt []byte) bool {
					return from == q.addr && h.now < until && hasEnd(pkt)
				}
				h.run(30 * time.Second)
				h.checkQuitEnd(q.quitTick, q.s.Index())
			})
		}
	}
}

// freeze stops p's frames for d (a process that does not get the CPU:
// datagrams still arrive) and then lets it run one tick a frame.
func (p *tpeer) freeze(d time.Duration) {
	p.next = p.h.now + d
	p.maxLoops = 1
}

// Once the end tick is agreed and a joiner and the host owe each other
// nothing, either may run to it and leave: the one still running, frozen
// for longer than the silence timeout meanwhile, does not take the other's
// silence for a fault, and ends cleanly at the end tick.
func TestQuitFrozenPeerEndsCleanly(t *testing.T) {
	for _, frozen := range []string{"host", "joiner1"} {
		t.Run(frozen, func(t *testing.T) {
			h := newHarness(t, netsim.Conditions{Delay: 10 * ms}, 5)
			h.game(config{Delay: 8}, 2)
			host, join := h.peers[0], h.peers[1]
			host.quitAt = 60
			f := host
			if frozen == "joiner1" {
				f = join
			}
			h.runUntil(30*time.Second, func() bool {
				end, ok := host.s.EndTick()
				return ok && f.s.NextTick()+2 < end && host.s.settled(1) && join.s.settledJoiner()
			})
			thaw := h.now + 3*time.Second
			f.freeze(thaw - h.now)
			h.run(30 * time.Second)
			o := join
			if f == join {
				o = host
			}
			if o.endAt == 0 || o.endAt >= thaw {
				t.Errorf("%s ended at %v, not while %s was frozen (until %v)", o.name, o.endAt, f.name, thaw)
			}
			h.checkQuitEnd(host.quitTick, 0)
		})
	}
}

// After a quit, a peer whose game is over leaves as soon as the others
// have what they need, and says goodbye a few times on the way out: the
// last packet of the first to leave may be lost, and the other would wait
// for it until Linger passes (2 s at an agreed end). On a bad network
// (20% loss), few peers wait so long.
func TestQuitLingerIsShort(t *testing.T) {
	c := netsim.Conditions{Delay: 40 * ms, Jitter: 20 * ms, Loss: 0.2, Duplicate: 0.1, Reorder: 0.2}
	var peers, long int
	var worst time.Duration
	for seed := uint64(0); seed < 40; seed++ {
		for players := MinPlayers; players <= MaxPlayers; players++ {
			h := newHarness(t, c, seed*7+uint64(players))
			h.game(config{Delay: DefaultDelay}, players)
			q := h.peers[int(seed)%players]
			q.quitAt = 60
			h.run(30 * time.Second)
			h.checkQuitEnd(q.quitTick, q.s.Index())
			for _, p := range h.peers {
				d := p.endAt - p.overAt
				peers++
				worst = max(worst, d)
				if d >= defaultLinger {
					long++
				}
			}
		}
	}
	t.Logf("%d of %d peers waited Linger or more after the end; the longest %v", long, peers, worst)
	if long*100 > 3*peers || worst > 2*defaultLinger+20*ms {
		t.Errorf("%d of %d peers waited Linger or more after the end (the longest %v), want at most 3%%", long, peers, worst)
	}
}

// Two players that quit at the same tick: every peer, the quitters
// included, ends at that tick naming the same quitter (the lower index),
// whoever heard which quit first.
func TestQuitsAtTheSameTickNameOneQuitter(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		h := newHarness(t, netsim.Conditions{Delay: 30 * ms, Jitter: 20 * ms, Loss: 0.05, Reorder: 0.1}, seed)
		h.game(config{Delay: 3}, 4)
		a, b := h.peers[1+int(seed%3)], h.peers[1+int(seed+1)%3]
		if seed%4 == 0 {
			a = h.peers[0] // the host among the quitters
		}
		a.quitAt, b.quitAt = 60, 60
		h.run(30 * time.Second)
		if a.quitTick == 0 || a.quitTick != b.quitTick {
			t.Fatalf("seed %d: the scenario: quits at %d and %d", seed, a.quitTick, b.quitTick)
		}
		first := min(a.s.Index(), b.s.Index())
		h.checkQuitEnd(a.quitTick, first)
		for _, p := range h.peers {
			want := fmt.Sprintf("player %d quit", first)
			if p.s.Index() == first {
				want = "quit"
			}
			if st := p.s.Stats(); st.End != want {
				t.Errorf("seed %d: %s says %q, want %q", seed, p.name, st.End, want)
			}
		}
	}
}

// A quit that claims a tick already run (a broken host relays a quit of
// tick 1 when the joiner has run many more) does not take the ticks run
// back: the joiner ends at once where it is, its end tick the tick it
// stopped at.
func TestQuitClaimingATickAlreadyRun(t *testing.T) {
	host, join, _ := running(t)
	now := 100 * ms
	var recs [][]byte
	carry := func(rewrite bool) {
		host.Poll(now, sendFunc(func(_ string, pkt []byte) {
			if rewrite {
				var p packet
				p.inputSize = testInputSize
				if p.decode(pkt) == nil && p.flags&flagEnd != 0 && p.end.reason == endQuit {
					p.end.tick = 1
					var buf [MaxPacketSize]byte
					pkt = buf[:p.encode(buf[:])]
				}
			}
			join.Receive(now, addr(0), pkt)
		}))

		join.Poll(now, sendFunc(func(_ string, pkt []byte) { host.Receive(now, addr(1), pkt) }))
	}
	// Run 40 ticks on both.
	for join.NextTick() < 40 {
		for _, s := range []*session{host, join} {
			if s.NeedInput() {
				s.AddLocalInput(s.InputTick(), make([]byte, testInputSize))
			}
			if _, ok := s.Next(now, recs); ok {
				s.Advance(nil)
			}
		}
		carry(false)
		now += ms
		if now > 10*time.Second {
			t.Fatal("the game did not run")
		}
	}
	ran := join.NextTick()
	host.Quit(now)
	for i := 0; i < 100 && !join.Over(); i++ {
		carry(true)
		now += ms
	}
	end, ok := join.EndTick()
	if !join.Over() || !ok || end < ran || join.NextTick() != end {
		t.Errorf("joiner that ran %d ticks: over %v, end tick %d %v, stopped at %d", ran, join.Over(), end, ok, join.NextTick())
	}
	if _, ok := join.Next(now, recs); ok {
		t.Error("a tick runs after the end")
	}
}
