package netplay

import (
	"fmt"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// A game of MaxPlayers (and one of 6) over a network that loses 10 % of
// the packets: the lockstep game and the rollback game of the same bots
// reach the tick limit on every peer with the same state hash, the
// reference's (the game played alone over the bots' inputs); the
// rollback game did roll back, and the network did lose packets (a
// joiner's input reaches the other joiners through the host: two hops to
// lose it on).
func TestManyPlayersAgreeAtTenPercentLoss(t *testing.T) {
	const limit = 150
	cond := netsim.Conditions{Delay: 20 * ms, Jitter: 5 * ms, Loss: 0.1, Duplicate: 0.05, Reorder: 0.05}
	for _, players := range []int{6, MaxPlayers} {
		var hashes []uint64
		for _, nc := range []Netcode{Lockstep, Rollback} {
			name := fmt.Sprint(players, " players, ", nc)
			rg := newRig(t, rigConfig{
				players: players, netcode: nc, tickLimit: limit, cond: cond,
				seed: 0x6a11 + uint64(players), confirmer: true,
				delay: map[Netcode]int{Lockstep: 3, Rollback: noDelay}[nc],
				// The same inputs in both netcodes: zero for the first
				// 3 ticks, lockstep's input delay.
				input: func(p int, _, t uint64) trec { return botInput(botSeed(p), 3, t) },
			})
			rg.run(60 * time.Second)
			var rollbacks int64
			for _, p := range rg.peers {
				if err := p.s.Err(); err != nil || p.s.NextTick() != limit {
					t.Errorf("%s, %s: tick %d, err %v", name, p.name, p.s.NextTick(), err)
				}
				rg.checkEnd(p)
				if h := p.g.Hash(); h != rg.peers[0].g.Hash() {
					t.Errorf("%s, %s: hash %016x, host %016x", name, p.name, h, rg.peers[0].g.Hash())
				}
				rollbacks += p.r.Stats().Rollbacks
			}
			hashes = append(hashes, rg.peers[0].g.Hash())
			ns := rg.net.Stats()
			if ns.Lost < ns.Sent/20 {
				t.Errorf("%s: %d of %d packets lost", name, ns.Lost, ns.Sent)
			}
			if nc == Rollback && rollbacks == 0 {
				t.Errorf("%s: nothing rolled back", name)
			}
			t.Logf("%s: hash %016x, %d rollbacks, network %+v", name, hashes[len(hashes)-1], rollbacks, ns)
		}
		if hashes[0] != hashes[1] {
			t.Errorf("%d players: lockstep hash %016x, rollback %016x", players, hashes[0], hashes[1])
		}
	}
}
