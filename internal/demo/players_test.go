package demo

import (
	"fmt"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
)

// TestSixPlayersAgreeAtTenPercentLoss: a lockstep game and a rollback
// game of six players with bots, over a simulated network that loses 10
// % of the packets (and delays, duplicates and reorders some), play to
// their tick limit, every peer with the state hash of the host, and the
// two games with the same one: the same game, whatever the netcode. The
// joiners come one after another, so that joiner i is player i in both
// games and plays the same bot.
func TestSixPlayersAgreeAtTenPercentLoss(t *testing.T) {
	const players, ticks = 6, 150
	if lossy.Loss < 0.1 {
		t.Fatalf("the lossy network loses %v", lossy.Loss)
	}
	hashes := map[string]string{}
	for _, netcode := range []string{"lockstep", "rollback"} {
		g := newNetTestGame(t, lossy, []string{"-players", fmt.Sprint(players), "-bot", "1", "-ticks", fmt.Sprint(ticks), "-netcode", netcode})
		for i := 1; i < players; i++ {
			j := newFront(t, g.clock, g.peers[0].d.p.Network, "-join", "127.0.0.1:7777", "-stats", "-net-timeout", "1m", "-bot", fmt.Sprint(10+i), "-netcode", netcode)
			g.peers = append(g.peers, j)
			for n := 0; n < 5000 && j.d.net.sess.State() < netplay.StateLobby; n++ {
				for _, f := range g.peers {
					f.stepAt(g.clock.Now())
				}
				g.clock.Advance(2 * time.Millisecond)
			}
			if j.d.net.sess.State() < netplay.StateLobby || j.d.net.sess.Index() != i {
				t.Fatalf("%s: joiner %d: %v as player %d", netcode, i, j.d.net.sess.State(), j.d.net.sess.Index())
			}
		}
		g.run(nil)
		var rollbacks int64
		for i, r := range g.reports() {
			if r.Net == nil || r.Net.Player != i || r.Net.Players != players || r.Net.Netcode != netcode || r.WorldTicks != ticks || r.Net.Desyncs != 0 {
				t.Fatalf("%s: peer %d: %d ticks, net %+v", netcode, i, r.WorldTicks, r.Net)
			}
			if r.Balls != players {
				t.Errorf("%s: peer %d: %d balls, want one a player", netcode, i, r.Balls)
			}
			if i == 0 {
				hashes[netcode] = r.StateHash
			} else if r.StateHash != hashes[netcode] {
				t.Errorf("%s: peer %d ends at %s, the host at %s", netcode, i, r.StateHash, hashes[netcode])
			}
			if r.Net.Rollback != nil {
				rollbacks += r.Net.Rollback.Rollbacks
			}
		}
		if netcode == "rollback" && rollbacks == 0 {
			t.Errorf("rollback: nothing rolled back")
		}
	}
	if hashes["lockstep"] != hashes["rollback"] {
		t.Errorf("lockstep game %s, rollback game %s: want one hash", hashes["lockstep"], hashes["rollback"])
	}
	t.Logf("hashes %v", hashes)
}
