package main

// Long network games that must agree, end to end: real processes and
// UDP sockets on 127.0.0.1, delay, jitter and loss simulated inside the
// processes (-net-*). Each plays for 30 s or more of real time, light on
// the CPU; this file comes first in go test's order so that, when the
// parallel tests start, these take -parallel's slots before the shorter
// ones and the phase lasts about as long as the longest of them.

import (
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

// TestNetworkGamesAgree is the network issue's first acceptance run: two
// and three headless peers with bots, 10 % loss, 40 ± 10 ms of delay, 750
// ticks: every peer exits 0 with the same state hash, and a replay of a
// peer's recording, alone, reproduces it.
func TestNetworkGamesAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("30 s of real time")
	}
	t.Parallel() // real-time games, light on the CPU: they overlap with the other network games
	cond := []string{"-net-loss", "0.1", "-net-delay", "40ms", "-net-jitter", "10ms"}
	for _, players := range []int{2, 3} {
		t.Run(strconv.Itoa(players)+" players", func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			rec := filepath.Join(dir, "joiner.rec")
			host, addr := hostGame(t, players, append([]string{"-ticks", "750"}, cond...)...)
			peers := []*demo{host}
			for i := 1; i < players; i++ {
				args := cond
				if i == 1 {
					args = append([]string{"-record", rec}, cond...)
				}
				peers = append(peers, joinGame(t, addr, 10+i, args...))
			}
			var stats []*report.Stats
			for _, p := range peers {
				p.mustSucceed(90 * time.Second)
				stats = append(stats, p.stats())
			}
			seen := map[int]bool{}
			for i, s := range stats {
				// Joiners get their index in the order their hellos arrive.
				if s.Net == nil || s.Net.Players != players || s.Net.Player < 0 || s.Net.Player >= players || seen[s.Net.Player] || (i == 0) != (s.Net.Player == 0) {
					t.Fatalf("peer %d: net stats %+v", i, s.Net)
				}
				seen[s.Net.Player] = true
				if s.Ticks != 750 || s.WorldTicks != 750 {
					t.Errorf("peer %d: %d ticks (world %d), want 750", i, s.Ticks, s.WorldTicks)
				}
				if s.StateHash != stats[0].StateHash {
					t.Errorf("peer %d ends at %s, the host at %s", i, s.StateHash, stats[0].StateHash)
				}
				if s.Net.Desyncs != 0 || s.Net.PacketsReceived == 0 {
					t.Errorf("peer %d: %d desyncs, %d packets received", i, s.Net.Desyncs, s.Net.PacketsReceived)
				}
				if !s.Player {
					t.Errorf("peer %d: ball 0 was never under the host's bot", i)
				}
				// A ball for every player (the default): every bot's
				// input plays in the game that the hashes compare.
				if s.Balls != players {
					t.Errorf("peer %d: %d balls, want one for each of the %d players", i, s.Balls, players)
				}
			}
			if rtt := stats[1].Net.RTTMs[0]; rtt < 80 {
				t.Errorf("joiner's ping to the host %v ms under 2 x 40 ms of simulated delay", rtt)
			}
			r := runDemo(t, "", 60*time.Second, "-headless", "-replay", rec, "-fast", "-stats", "-hud=false", "-graph=false")
			if r.code() != 0 {
				t.Fatalf("replay: exit %d: %s", r.code(), r.stderr.String())
			}
			if rs := r.stats(); rs.StateHash != stats[0].StateHash || rs.ReplayOK == nil || !*rs.ReplayOK {
				t.Errorf("the joiner's recording replays to %s (ok %v), the game ended at %s", rs.StateHash, rs.ReplayOK, stats[0].StateHash)
			}
		})
	}
}

// TestRollbackGameEqualsLockstepGame is the rollback issue's acceptance
// run: two peers with -netcode rollback over a 60 ± 20 ms, 5 % lossy
// loopback, 750 ticks, both exit 0 with the same state hash, equal to a
// lockstep game with the same bots, players and ticks (the confirmed
// history is the same game), and both rolled back.
func TestRollbackGameEqualsLockstepGame(t *testing.T) {
	if testing.Short() {
		t.Skip("30 s of real time")
	}
	t.Parallel() // real-time games, light on the CPU: they overlap with the other network games
	cond := []string{"-net-delay", "60ms", "-net-jitter", "20ms", "-net-loss", "0.05"}
	hashes := map[string][]string{}
	var rollbackStats []*report.Stats
	var mu sync.Mutex
	t.Run("games", func(t *testing.T) {
		for _, netcode := range []string{"rollback", "lockstep"} {
			t.Run(netcode, func(t *testing.T) {
				t.Parallel()
				args := append([]string{"-netcode", netcode}, cond...)
				host, addr := hostGame(t, 2, append([]string{"-ticks", "750"}, args...)...)
				joiner := joinGame(t, addr, 71, args...)
				host.mustSucceed(120 * time.Second)
				joiner.mustSucceed(120 * time.Second)
				for _, s := range []*report.Stats{host.stats(), joiner.stats()} {
					// Two balls (the default for two players): the joiner's
					// input, which the host's rollback predicts, plays too.
					if s.Ticks != 750 || s.Net == nil || s.Net.Netcode != netcode || s.Balls != 2 {
						t.Fatalf("%d ticks, %d balls, net %+v", s.Ticks, s.Balls, s.Net)
					}
					mu.Lock()
					hashes[netcode] = append(hashes[netcode], s.StateHash)
					mu.Unlock()
					if netcode == "rollback" {
						if s.Net.InputDelay != 0 || s.Net.Rollback == nil || s.Net.Rollback.Rollbacks == 0 {
							t.Errorf("rollback peer %d: input delay %d, %+v; want 0 and rollbacks", s.Net.Player, s.Net.InputDelay, s.Net.Rollback)
						}
						mu.Lock()
						rollbackStats = append(rollbackStats, s)
						mu.Unlock()
					}
				}
			})
		}
	})
	r, l := hashes["rollback"], hashes["lockstep"]
	if len(r) != 2 || len(l) != 2 || r[0] != r[1] || l[0] != l[1] || r[0] != l[0] {
		t.Errorf("rollback game %v, lockstep game %v: want one hash", r, l)
	}
	for _, s := range rollbackStats {
		if rb := s.Net.Rollback; rb.MaxRollbackTicks > 8 || rb.SnapshotBytes < 24 || rb.ResimulatedTicks < rb.Rollbacks {
			t.Errorf("peer %d: %+v", s.Net.Player, rb)
		}
	}
}

// TestSixPlayerGamesAgree: a lockstep game and a rollback game of six
// processes over a loopback that loses 10 % of the packets (each process
// drops a tenth of what it sends and of what it receives), 150 ticks
// each: every peer exits 0 with the host's state hash, and both games
// end with the same one. The joiners start one after another, each once
// the one before says which player it is, so that player i plays the
// same bot in both games.
func TestSixPlayerGamesAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	t.Parallel() // real-time games, light on the CPU: they overlap with the other network games
	const players, ticks = 6, 150
	joinedRe := regexp.MustCompile(`joined as player (\d+) of 6`)
	hashes := map[string]string{}
	var mu sync.Mutex
	t.Run("games", func(t *testing.T) {
		for _, netcode := range []string{"lockstep", "rollback"} {
			t.Run(netcode, func(t *testing.T) {
				t.Parallel()
				args := []string{"-netcode", netcode, "-net-loss", "0.1"}
				host, addr := hostGame(t, players, append([]string{"-ticks", strconv.Itoa(ticks)}, args...)...)
				peers := []*demo{host}
				for i := 1; i < players; i++ {
					j := joinGame(t, addr, 20+i, args...)
					if got := j.waitStderr(joinedRe, 30*time.Second); got != strconv.Itoa(i) {
						t.Fatalf("joiner %d is player %s", i, got)
					}
					peers = append(peers, j)
				}
				for _, p := range peers {
					p.mustSucceed(90 * time.Second)
				}
				var rollbacks int64
				for i, p := range peers {
					s := p.stats()
					if s.Net == nil || s.Net.Player != i || s.Net.Players != players || s.Net.Netcode != netcode || s.WorldTicks != ticks || s.Net.Desyncs != 0 || s.Balls != players {
						t.Fatalf("peer %d: %d ticks, %d balls, net %+v", i, s.WorldTicks, s.Balls, s.Net)
					}
					if s.StateHash != peers[0].stats().StateHash {
						t.Errorf("peer %d ends at %s, the host at %s", i, s.StateHash, peers[0].stats().StateHash)
					}
					if s.Net.Rollback != nil {
						rollbacks += s.Net.Rollback.Rollbacks
					}
				}
				if netcode == "rollback" && rollbacks == 0 {
					t.Errorf("nothing rolled back")
				}
				mu.Lock()
				hashes[netcode] = peers[0].stats().StateHash
				mu.Unlock()
			})
		}
	})
	if hashes["lockstep"] == "" || hashes["lockstep"] != hashes["rollback"] {
		t.Errorf("lockstep game %q, rollback game %q: want one hash", hashes["lockstep"], hashes["rollback"])
	}
}
