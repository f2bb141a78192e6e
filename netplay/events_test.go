package netplay

import (
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// A game's life in events, on the host and on a joiner: the lobby's
// progress, the handshake, the start and the end, in that order.
func TestEventsOfAGame(t *testing.T) {
	h := newHarness(t, netsim.Conditions{Delay: 10 * ms, Jitter: 3 * ms, Loss: 0.05}, 1)
	h.game(config{TickLimit: 60, Delay: DefaultDelay}, 3)
	evs := map[*tpeer][]Event{}
	h.drainUntil(30*time.Second, evs, h.allDone)
	host := evs[h.peers[0]]
	kinds := func(es []Event) (out []EventKind) {
		for _, e := range es {
			out = append(out, e.Kind)
		}
		return out
	}
	want := []Event{
		{Kind: EventSynchronizing, Joined: 2, Players: 3},
		{Kind: EventSynchronizing, Joined: 3, Players: 3},
	}
	if s := only(host, EventSynchronizing); len(s) != 2 || s[0] != want[0] || s[1] != want[1] {
		t.Errorf("host: Synchronizing %+v, want %+v", s, want)
	}
	if s := only(host, EventSynchronized); len(s) != 2 || s[0].Player+s[1].Player != 3 {
		t.Errorf("host: Synchronized %+v, want players 1 and 2", s)
	}
	for _, p := range h.peers {
		k := kinds(evs[p])
		n := len(k)
		if n < 2 || k[n-2] != EventStarted && k[n-1] != EventEnded {
			t.Errorf("%s: events %v, want ... started, ended", p.name, k)
		}
		if e := only(evs[p], EventEnded); len(e) != 1 || e[0].Tick != 60 {
			t.Errorf("%s: Ended %+v, want one at tick 60", p.name, e)
		}
		if s := only(evs[p], EventStarted); len(s) != 1 {
			t.Errorf("%s: %d Started", p.name, len(s))
		}
		if p == h.peers[0] {
			continue
		}
		if s := only(evs[p], EventSynchronized); len(s) != 1 || s[0].Player != 0 {
			t.Errorf("%s: Synchronized %+v, want one with the host", p.name, s)
		}
		for _, e := range evs[p] {
			if e.Kind == EventInterrupted || e.Kind == EventDisconnected || e.Kind == EventDesync {
				t.Errorf("%s: %+v in a healthy game", p.name, e)
			}
		}
	}
}

// A joiner whose packets are lost for 1.2 s (less than Silence, 2 s) is
// Interrupted on the host (after Interrupt, 500 ms, to a frame), and on
// the other joiner through the host, then Resumed; meanwhile LastHeard
// grows and Interrupted is set in the stats; the game goes on to its end.
func TestEventsInterruptedResumed(t *testing.T) {
	h := newHarness(t, netsim.Conditions{Delay: 5 * ms}, 2)
	h.game(config{TickLimit: 200, Delay: DefaultDelay}, 3)
	evs := map[*tpeer][]Event{}
	host := h.peers[0]
	h.drainUntil(20*time.Second, evs, func() bool { return host.s.NextTick() >= 50 })
	var mute *tpeer
	for _, p := range h.peers {
		if p.s.Index() == 1 {
			mute = p
		}
	}
	from, until := h.now, h.now+1200*ms
	h.drop = func(f, _ string, _ []byte) bool { return f == mute.addr && h.now < until }
	var most time.Duration
	h.drainUntil(30*time.Second, evs, func() bool {
		st := host.s.Stats().Peers[1]
		most = max(most, st.LastHeard)
		if h.now == from+time.Second && !st.Interrupted {
			t.Errorf("host: player 1 not interrupted after 1 s: %+v", st)
		}
		return h.allDone()
	})
	if most < time.Second || most > 1300*ms {
		t.Errorf("host: player 1 last heard at most %v ago, want about 1.2 s", most)
	}
	for _, p := range h.peers {
		if err := p.s.Err(); err != nil || p.s.NextTick() != 200 {
			t.Errorf("%s: err %v at tick %d", p.name, err, p.s.NextTick())
		}
		if p == mute {
			continue
		}
		in, re := only(evs[p], EventInterrupted), only(evs[p], EventResumed)
		if len(in) != 1 || in[0].Player != 1 || in[0].Silent < defaultInterrupt || in[0].Silent > defaultInterrupt+50*ms {
			t.Errorf("%s: Interrupted %+v, want player 1 silent for about %v", p.name, in, defaultInterrupt)
		}
		if len(re) != 1 || re[0].Player != 1 {
			t.Errorf("%s: Resumed %+v, want player 1", p.name, re)
		}
		if ps := p.s.Stats().Peers[1]; ps.Interrupted {
			t.Errorf("%s: player 1 still interrupted at the end", p.name)
		}
	}
}

// The ring keeps the newest EventBuffer events, oldest first, drops the
// oldest when full and counts the drops; it never grows, and polling
// allocates nothing.
func TestEventRingDropsOldest(t *testing.T) {
	s, err := newHost(config{InputSize: 1, Nonce: 1, Delay: DefaultDelay}, 0)
	if err != nil {
		t.Fatal(err)
	}
	const n = eventBuffer + 36
	for i := range n {
		s.event(Event{Kind: EventDesync, Tick: uint64(i)})
	}
	if d := s.Stats().EventsDropped; d != n-eventBuffer {
		t.Errorf("dropped %d, want %d", d, n-eventBuffer)
	}
	for i := n - eventBuffer; i < n; i++ {
		e, ok := s.PollEvent()
		if !ok || e.Tick != uint64(i) {
			t.Fatalf("event %d: %+v %v, want tick %d", i, e, ok, i)
		}
	}
	if e, ok := s.PollEvent(); ok {
		t.Errorf("an event after the last: %+v", e)
	}
	allocs := testing.AllocsPerRun(100, func() {
		s.event(Event{Kind: EventResumed})
		s.PollEvent()
		s.PollEvent()
	})
	if allocs != 0 {
		t.Errorf("%v allocations a push and poll", allocs)
	}
}

// Time sync's advice: a peer whose clock runs 20 % fast outruns what the
// 3 % slowdown can make up, and is told to wait some whole ticks, at most
// once a second; the host, behind, never is.
func TestEventWaitRecommendation(t *testing.T) {
	rg := newRig(t, rigConfig{players: 2, netcode: Rollback, delay: noDelay, seed: 3, tickLimit: 500,
		timeSync: true, cond: netsim.Conditions{Delay: 20 * ms, Jitter: 2 * ms}})
	fast := rg.peers[1]
	fast.ppm = 200_000
	var advice []Event
	var at []time.Duration
	for rg.now < 15*time.Second {
		rg.step()
		for _, p := range rg.peers {
			for e, ok := p.s.PollEvent(); ok; e, ok = p.s.PollEvent() {
				if e.Kind != EventWaitRecommendation {
					continue
				}
				if p != fast {
					t.Fatalf("%s told to wait: %+v", p.name, e)
				}
				advice, at = append(advice, e), append(at, rg.now)
			}
		}
	}
	if len(advice) < 3 {
		t.Fatalf("%d wait recommendations to the fast peer", len(advice))
	}
	for i, e := range advice {
		if e.Ticks < 1 {
			t.Errorf("advice %d: %d ticks", i, e.Ticks)
		}
		if i > 0 && at[i]-at[i-1] < time.Second*8/10 { // its clock: 20 % fast
			t.Errorf("advice %d only %v after the one before", i, at[i]-at[i-1])
		}
	}
}
