package netplay

import (
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// enginePeer is a player whose loop is an engine's fixed update: a call
// every period of its own clock (a fast clock: a shorter period).
type enginePeer struct {
	s       *session
	r       *runner
	g       *specGame
	period  time.Duration
	next    time.Duration
	inbox   [][]byte
	skipped int
	ran     int
}

// engineGame plays a rollback game of two players over a netsim.Path (10 ms
// each way), each calling Frame(now, 1, 1) or Update once per period from
// boot, the joiner arriving at joinAt; until limit.
func engineGame(t *testing.T, periods [2]time.Duration, tick, joinAt, limit time.Duration, update bool, each func(now time.Duration, p []*enginePeer)) []*enginePeer {
	t.Helper()
	net, err := netsim.NewPath(netsim.Conditions{Delay: 10 * time.Millisecond}, 9, 4096)
	if err != nil {
		t.Fatal(err)
	}
	peers := make([]*enginePeer, 2)
	for i := range peers {
		peers[i] = &enginePeer{period: periods[i], g: newSpecGame(0, maxMaxPrediction+2)}
		peers[i].g.seed, peers[i].g.index = uint64(i+1), i
	}
	start := func(i int, now time.Duration) {
		var s *session
		if i == 0 {
			s, err = newHost(config{Nonce: 1, InputSize: 1, Players: 2, Delay: 0, Silence: time.Minute}, now)
		} else {
			s, err = newJoiner(config{Nonce: 2, InputSize: 1, Silence: time.Minute}, addr(0), now)
		}
		if err != nil {
			t.Fatal(err)
		}
		p := peers[i]
		p.s = s
		if p.r, err = newRunner(s, p.g, p.g, runnerConfig{Netcode: Rollback, Tick: tick}); err != nil {
			t.Fatal(err)
		}
		p.next = now
	}
	start(0, 0)
	for now := time.Duration(0); now < limit; now += 100 * time.Microsecond {
		if peers[1].s == nil && now >= joinAt {
			start(1, now)
		}
		net.Deliver(now, func(from, to string, pkt []byte) {
			if p := peers[addrIndex(to)]; p.s != nil {
				p.inbox = append(p.inbox, append([]byte(nil), pkt...))
			}
		})
		for i, p := range peers {
			if p.s == nil || now < p.next {
				continue
			}
			p.next += p.period
			for _, b := range p.inbox {
				p.s.Receive(now, addr(1-i), b)
			}
			p.inbox = p.inbox[:0]
			if update {
				ran, skip := p.r.Update(now)
				p.ran += ran
				if skip {
					p.skipped++
				}
			} else {
				p.ran += p.r.Frame(now, 1, 1)
			}
			p.s.Poll(now, sendFunc(func(to string, pkt []byte) { net.Send(now, addr(i), to, pkt) }))
		}
		if each != nil {
			each(now, peers)
		}
	}
	return peers
}

// Frame before the game starts owes nothing: an engine's fixed update
// that calls Frame(now, 1, 1) from boot, through a lobby of 2 s, owes no
// tick when the game starts (it used to owe every lobby call, 120 ticks,
// and ran one a call behind the other player for good), and the host
// keeps level with the joiner that came late.
func TestFrameInLobbyOwesNothing(t *testing.T) {
	tick := time.Second / 60
	worst := int64(0)
	peers := engineGame(t, [2]time.Duration{tick, tick}, 0, 2*time.Second, 4*time.Second, false, func(now time.Duration, p []*enginePeer) {
		if p[0].s.State() == StateRunning {
			worst = max(worst, p[0].r.Owed())
		}
	})
	h, j := peers[0], peers[1]
	if h.s.State() != StateRunning || h.r.Head() < 100 {
		t.Fatalf("the game: %v, the host at tick %d", h.s.State(), h.r.Head())
	}
	if worst > 1 {
		t.Errorf("the host owed up to %d ticks once the game ran: the lobby's calls were kept as debt", worst)
	}
	if d := int64(h.r.Head()) - int64(j.r.Head()); d > 2 || d < -2 {
		t.Errorf("host at tick %d, joiner at %d", h.r.Head(), j.r.Head())
	}
}

// Update is an engine's fixed update with time sync as advice to skip a
// tick: of two players whose engines call Update 60 times a second, one
// clock 2 % fast, the fast one skips about one call in 50 (2 % of 39 s of
// calls: about 47) and stays within a tick or two of the other, owing
// nothing (without time sync it runs to the prediction limit, 8 ticks
// ahead, and stalls there); with equal clocks nobody skips. Before the
// game starts Update owes nothing.
func TestUpdateSkipsTicksWhenAhead(t *testing.T) {
	tick := time.Second / 60
	for _, c := range []struct {
		name       string
		fast       time.Duration
		sync       bool
		minSkip    int
		maxSkip    int
		maxLead    float64
		wantBehind bool
	}{
		{"equal clocks", tick, true, 0, 0, 1, false},
		{"one clock 2 % fast", tick * 100 / 102, true, 30, 60, 1.5, false},
		{"one clock 2 % fast, no time sync", tick * 100 / 102, false, 0, 0, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			synced := time.Duration(0)
			if c.sync {
				synced = tick
			}
			lead, leadAfter := 0.0, 0.0
			peers := engineGameTick(t, [2]time.Duration{tick, c.fast}, synced, func(now time.Duration, p []*enginePeer) {
				if p[1].s != nil && p[1].s.State() == StateRunning && now > 10*time.Second {
					d := float64(p[1].r.Head()) - float64(p[0].r.Head())
					lead = max(lead, d)
					if now > 20*time.Second {
						leadAfter = max(leadAfter, d)
					}
				}
			})
			h, f := peers[0], peers[1]
			t.Logf("skipped: host %d, fast peer %d; fast peer's lead at most %.0f ticks (after 20 s %.0f); heads %d, %d",
				h.skipped, f.skipped, lead, leadAfter, h.r.Head(), f.r.Head())
			if h.s.Err() != nil || f.s.Err() != nil || h.r.Head() < 1500 {
				t.Fatalf("the game: %v, %v, host at tick %d", h.s.Err(), f.s.Err(), h.r.Head())
			}
			if h.skipped != 0 || f.skipped < c.minSkip || f.skipped > c.maxSkip {
				t.Errorf("skipped: host %d, fast peer %d, want the host none and the fast peer %d to %d", h.skipped, f.skipped, c.minSkip, c.maxSkip)
			}
			if c.wantBehind {
				if leadAfter < 4 {
					t.Errorf("without time sync the fast peer led by %.0f ticks at most: the scenario has no fast clock", leadAfter)
				}
			} else if leadAfter > c.maxLead+1 {
				t.Errorf("the fast peer led by %.0f ticks after 20 s, want at most %.1f+1", leadAfter, c.maxLead)
			}
			if c.sync && (f.r.Owed() > 1 || h.r.Owed() > 1) {
				t.Errorf("owed: host %d, fast peer %d", h.r.Owed(), f.r.Owed())
			}
		})
	}
}

func engineGameTick(t *testing.T, periods [2]time.Duration, tick time.Duration, each func(time.Duration, []*enginePeer)) []*enginePeer {
	return engineGame(t, periods, tick, time.Second, 40*time.Second, true, each)
}
