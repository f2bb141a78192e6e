package puck

import (
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// TestFixedUpdateWithTimeSync: the example's loop, Ebitengine's fixed
// Update at the game's 60 ticks a second calling Peer.Update, with time
// sync on. The joiner's engine runs 2 % fast (its Update comes every
// 16.34 ms): time sync has it skip some of its calls and the host none,
// both end at the tick limit in the one-machine game's state, and the
// joiner stays within 2 ticks of the host after the first 10 s (without
// the skips it runs to the prediction limit, 8 ticks ahead).
func TestFixedUpdateWithTimeSync(t *testing.T) {
	const ticks = 1800
	seeds := [Players]uint64{11, 22}
	set := DefaultSettings()
	set.TPS, set.Netcode, set.Seed = 60, netplay.Rollback, 99
	m := newMatch(t, set, ticks, netsim.Conditions{Delay: 20 * time.Millisecond}, PeerConfig{Bot: true, BotSeed: seeds[0]}, PeerConfig{Bot: true, BotSeed: seeds[1]})
	m.period[1] = set.Tick() * 100 / 102
	lead := int64(0)
	for !m.peers[0].Done() || !m.peers[1].Done() {
		if m.now > 2*time.Minute {
			t.Fatalf("not done: host %v, joiner %v", m.peers[0].Session().State(), m.peers[1].Session().State())
		}
		m.at(m.now + 100*time.Microsecond)
		h, j := m.peers[0].Session().Stats(), m.peers[1].Session().Stats()
		if m.now > 10*time.Second && h.State == netplay.StateRunning {
			lead = max(lead, int64(j.Peers[j.Index].Tick)-int64(h.Peers[h.Index].Tick))
		}
	}
	want := Simulate(set, seeds, ticks)
	for i, p := range m.peers {
		if err := p.Err(); err != nil || p.Result().Ticks != ticks || p.Game().State != want {
			t.Errorf("peer %d: %v at tick %d, hash %016x, want %016x", i, err, p.Result().Ticks, p.Result().Hash, want.Hash())
		}
	}
	t.Logf("skipped: host %d, joiner %d; the joiner's lead at most %d ticks after 10 s", m.skipped[0], m.skipped[1], lead)
	if m.skipped[0] != 0 || m.skipped[1] < 10 {
		t.Errorf("skipped: host %d, joiner %d: want the host none, the fast joiner some", m.skipped[0], m.skipped[1])
	}
	if lead > 2 {
		t.Errorf("the fast joiner led by up to %d ticks", lead)
	}
}
