package netplay

import (
	"fmt"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// lagRun plays a 2-player game of ticks ticks (a tick every 20 ms, the
// host polling every 5 ms) with one spectator from the start, over a
// network of conditions c between the spectator and everyone (the
// players' own link is clean), and returns the most ticks the spectator
// held fewer than the host had confirmed, over the frames of the running
// game after the first second, and the Broadcast's counts.
func lagRun(t *testing.T, c netsim.Conditions, ticks uint64, seed uint64) (worst uint64, st broadcastStats) {
	t.Helper()
	clean, err := netsim.NewPath(netsim.Conditions{Delay: 5 * time.Millisecond}, seed, 4096)
	if err != nil {
		t.Fatal(err)
	}
	toSpec, err := netsim.NewPath(c, seed+1, 4096)
	if err != nil {
		t.Fatal(err)
	}
	fromSpec, err := netsim.NewPath(c, seed+2, 4096)
	if err != nil {
		t.Fatal(err)
	}
	const tick = 20 * time.Millisecond
	players, bcast := specPlayers(t, config{Nonce: 1, InputSize: 1, Players: 2, TickLimit: ticks}, Lockstep, 0, 1)
	specAddr := addr(5)
	sp, err := newSpectator(spectatorConfig{Nonce: 3, InputSize: 1}, addr(0), 0)
	if err != nil {
		t.Fatal(err)
	}
	var w *watcher
	var now time.Duration
	deliver := func(from, to string, pkt []byte) {
		if to == specAddr {
			sp.Receive(now, from, pkt)
			return
		}
		for _, p := range players {
			if p.addr == to {
				p.ep.Receive(now, from, pkt)
			}
		}
	}
	send := func(from string) sendFunc {
		return func(to string, pkt []byte) {
			switch {
			case to == specAddr:
				toSpec.Send(now, from, to, pkt)
			case from == specAddr:
				fromSpec.Send(now, from, to, pkt)
			default:
				clean.Send(now, from, to, pkt)
			}
		}
	}
	for ; now < time.Minute; now += 5 * time.Millisecond {
		for _, n := range []*netsim.Path{clean, toSpec, fromSpec} {
			n.Deliver(now, deliver)
		}
		for _, p := range players {
			p.frame(now, tick, send(p.addr))
		}
		if w == nil && sp.State() >= StateLobby {
			if w, err = newWatcher(sp, newSpecGame(0, 1)); err != nil {
				t.Fatal(err)
			}
		}
		if w != nil {
			w.Frame(now, 1, 5)
		}
		sp.Poll(now, send(specAddr))
		if h := players[0]; h.s.State() == StateRunning && now-h.start >= time.Second && bcast.logged > sp.received {
			worst = max(worst, bcast.logged-sp.received)
		}
		if players[0].s.Done() && players[1].s.Done() && bcast.Done() && w != nil && w.Done() {
			break
		}
	}
	if sp.Err() != nil || w == nil || !w.Done() || w.Head() != ticks {
		t.Fatalf("the spectator did not watch the game to its end: err %v, at tick %d of %d", sp.Err(), w.Head(), ticks)
	}
	return worst, bcast.Stats()
}

// TestSpectatorKeepsUpThroughLoss: a datagram of ticks lost on its way to
// a spectator is sent again about a round trip later, while the game
// goes on: the spectator is never more than a few round trips' ticks
// behind the host. (The host used to go back to what the spectator
// acknowledged only when it had sent nothing for 50 ms; a running game
// sends new ticks every tick, so one lost datagram held the spectator
// where it was until the game's end: 433 to 484 ticks behind in these
// games of 500.) The round trip is 80 or 300 ms (and 10 ms of jitter),
// 5 % of the datagrams lost each way, in 3 games each; the spectator may
// lag by six round trips and two ticks: a loss is found and filled in
// about two round trips, twice over when the copy is lost too, with
// room. Without loss, at a 300 ms round trip, the host sends no more
// than 1.25 times what it sends at 80 ms: a far spectator is not taken
// for a lossy one.
func TestSpectatorKeepsUpThroughLoss(t *testing.T) {
	const tick = 20 * time.Millisecond
	for _, oneWay := range []time.Duration{40 * time.Millisecond, 150 * time.Millisecond} {
		c := netsim.Conditions{Delay: oneWay, Jitter: 5 * time.Millisecond, Loss: 0.05}
		rtt := 2 * (oneWay + c.Jitter)
		bound := uint64(2 * (3*rtt + tick) / tick)
		for seed := range uint64(3) {
			t.Run(fmt.Sprintf("rtt %v, seed %d", 2*oneWay, seed), func(t *testing.T) {
				worst, st := lagRun(t, c, 500, 10+seed)
				if worst > bound {
					t.Errorf("the spectator was %d ticks behind the host at worst, want at most %d (%v): %+v", worst, bound, time.Duration(bound)*tick, st)
				}
				t.Logf("at worst %d ticks behind (bound %d); %d bytes sent to it", worst, bound, st.BytesSent)
			})
		}
	}
	_, near := lagRun(t, netsim.Conditions{Delay: 40 * time.Millisecond}, 500, 20)
	_, far := lagRun(t, netsim.Conditions{Delay: 150 * time.Millisecond}, 500, 20)
	if far.BytesSent*4 > near.BytesSent*5 {
		t.Errorf("without loss, the host sent %d bytes at a 300 ms round trip, %d at 80 ms: sent again what was not lost", far.BytesSent, near.BytesSent)
	}
	t.Logf("without loss: %d bytes at 80 ms, %d at 300 ms", near.BytesSent, far.BytesSent)
}
