package netplay

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

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

// A three-player kick at a moment when the host's confirmed tick trails
// the inputs it holds of the kicked player (a long input delay): the
// kick names the first tick whose input of it the host lacks,
// not the host's confirmed tick, so the joiner that already ran ticks
// with those inputs agrees with everyone.
func TestKickWhileHostTrailsKickedInputs(t *testing.T) {
	const limit = 300
	for seed := uint64(1); seed <= 6; seed++ {
		h := newHarness(t, netsim.Conditions{Delay: 20 * ms}, seed)
		// An input delay of 20 ticks: the host holds each player's
		// inputs far ahead of the ticks it confirmed; its frames are slow,
		// so the joiners run ahead of it between them.
		h.game(config{TickLimit: limit, KickAfter: time.Second, Silence: 500 * ms, Delay: 20}, 3)
		h.peers[0].frame = 60 * ms
		h.runUntil(10*time.Second, func() bool { return h.peers[0].s.State() == StateRunning })
		var victim *tpeer
		for _, p := range h.peers {
			if p.s.Index() == 2 {
				victim = p
			}
		}
		host := h.peers[0]
		h.runUntil(20*time.Second, func() bool { return victim.s.NextTick() >= 80 })
		victim.dead = true
		var trailed bool
		var kickAt, hostNext, have uint64
		h.runUntil(20*time.Second, func() bool {
			if _, ok := host.s.Kicked(2); ok && kickAt == 0 {
				kickAt, hostNext, have = host.s.kick[2].from, host.s.NextTick(), host.s.have[2]
				trailed = hostNext < have
			}
			return kickAt != 0
		})
		h.run(90 * time.Second)
		if !trailed {
			t.Logf("seed %d: the host's confirmed tick %d did not trail its inputs of the player, to %d", seed, hostNext, have)
			continue
		}
		if kickAt != have {
			t.Errorf("seed %d: kicked from %d, the host had the player's inputs to %d", seed, kickAt, have)
		}
		for _, p := range h.peers {
			if p != victim && (p.s.Err() != nil || p.s.NextTick() != limit) {
				t.Errorf("seed %d: %s: %v at tick %d", seed, p.name, p.s.Err(), p.s.NextTick())
			}
		}
		h.checkHistories(limit)
		return
	}
	t.Fatal("the scenario never happened: the host's confirmed tick never trailed the kicked player's inputs")
}

// Time sync between two peers whose clocks run at the same rate, over a
// network that delays 60 ms and jitters up to 40 ms each way, slows
// nobody down: the estimates of the other's head wander with the jitter,
// but less than the half tick from which a peer counts as ahead.
func TestTimeSyncEqualClocksJitter(t *testing.T) {
	for _, nc := range []Netcode{Rollback, Lockstep} {
		delay := 0
		if nc == Lockstep {
			delay = 3
		}
		rg := newRig(t, rigConfig{
			players: 2, netcode: nc, delay: delay, seed: 5, tickLimit: 1000,
			timeSync: true, cond: netsim.Conditions{Delay: 60 * ms, Jitter: 40 * ms},
		})
		// The start leaves the host a little ahead (its game starts when
		// it sends the start): what happens before 10 s is not counted.
		rg.runUntil(time.Minute, func() bool { return rg.now >= 10*time.Second })
		var before [2]time.Duration
		for i, p := range rg.peers {
			before[i] = p.r.Stats().Slowdown
		}
		rg.run(3 * time.Minute)
		for i, p := range rg.peers {
			st := p.r.Stats()
			if err := p.s.Err(); err != nil || p.s.NextTick() != 1000 {
				t.Errorf("%v %s: ended at tick %d, err %v", nc, p.name, p.s.NextTick(), err)
			}
			if d := st.Slowdown - before[i]; d != 0 {
				t.Errorf("%v %s: slowed down %v after 10 s in a game of equal clocks", nc, p.name, d)
			}
			t.Logf("%v %s: slowdown %v", nc, p.name, st.Slowdown)
		}
	}
}
