package udp

import (
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// TestStarRelayLatency measures what the star through the host costs an
// input: three peers over 127.0.0.1, each delaying what it sends and
// what it receives by D (the demo's -net-delay D: a datagram takes 2D
// from one peer to another), 150 ticks of 10 ms with an input delay that
// covers the relay (no stalls). For each input it takes the time from the
// moment its player added it to the moment another peer first had it: a
// joiner's input reaches the host, and the host's a joiner, in about 2D;
// one joiner's input reaches another joiner through the host, in about
// 4D, plus the time the host holds it (at most a frame of its loop, a
// millisecond here). In netplay/: go test -run TestStarRelayLatency -v ./udp/
// prints the figures.
func TestStarRelayLatency(t *testing.T) {
	const d, players, ticks = 25 * time.Millisecond, 3, 150
	cfg := Config{Outgoing: netsim.Conditions{Delay: d}, Incoming: netsim.Conditions{Delay: d}}
	clock := newRealClock()
	peers := listenPeers(t, clock, cfg, netplay.Config{InputSize: 3, Nonce: 0x57a2, Players: players, TickLimit: ticks, Delay: 25, Silence: testSilence})
	// added[q][t]: when player q added its input for tick t, at its own
	// peer; got[p][q][t]: when peer p first had it.
	var added [players][ticks + 64]time.Duration
	var got [players][players][ticks + 64]time.Duration
	var seen [players][players]int64 // the next tick not yet seen, per peer and player
	deadline := clock.Now() + 20*time.Second
	for done := false; !done; peers[0].c.Wait(time.Millisecond) {
		now := clock.Now()
		if now > deadline {
			t.Fatal("the game did not end in 20 s")
		}
		done = true
		for i, p := range peers {
			p.frame(now)
			done = done && p.s.Done()
			if p.s.State() < netplay.StateRunning {
				continue
			}
			at := clock.Now()
			st := p.s.Stats()
			for q := range players {
				for seen[i][q] < int64(st.Peers[q].Inputs) && seen[i][q] < ticks+64 {
					if q == i {
						added[q][seen[i][q]] = at
					} else {
						got[i][q][seen[i][q]] = at
					}
					seen[i][q]++
				}
			}
		}
	}
	// The mean latency of each path, over the inputs after the input
	// delay (those before it are zero and nobody sends them).
	mean := func(from, to int) time.Duration {
		var sum time.Duration
		n := 0
		for tk := 25; tk < ticks; tk++ {
			if added[from][tk] != 0 && got[to][from][tk] != 0 {
				sum += got[to][from][tk] - added[from][tk]
				n++
			}
		}
		if n < ticks/2 {
			t.Fatalf("player %d to %d: %d inputs timed", from, to, n)
		}
		return sum / time.Duration(n)
	}
	hostToJoiner := (mean(0, 1) + mean(0, 2)) / 2
	joinerToHost := (mean(1, 0) + mean(2, 0)) / 2
	joinerToJoiner := (mean(1, 2) + mean(2, 1)) / 2
	t.Logf("-net-delay %v: an input takes %v host to joiner, %v joiner to host, %v joiner to joiner (the star costs %v more)",
		d, hostToJoiner.Round(100*time.Microsecond), joinerToHost.Round(100*time.Microsecond), joinerToJoiner.Round(100*time.Microsecond),
		(joinerToJoiner - (hostToJoiner+joinerToHost)/2).Round(100*time.Microsecond))
	for _, c := range []struct {
		name     string
		got      time.Duration
		min, max time.Duration
	}{
		{"host to joiner", hostToJoiner, 2 * d, 2*d + 15*time.Millisecond},
		{"joiner to host", joinerToHost, 2 * d, 2*d + 15*time.Millisecond},
		{"joiner to joiner", joinerToJoiner, 4 * d, 4*d + 30*time.Millisecond},
	} {
		if c.got < c.min || c.got > c.max {
			t.Errorf("%s: %v, want %v to %v", c.name, c.got, c.min, c.max)
		}
	}
}
