package puck

import (
	"errors"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// A game of two peers over netplay's simulated network, in memory, on
// generated timestamps: the host and the joiner run their updates as the
// example's Ebitengine shell does, with no clock, socket or display.

const (
	hostAddr = "10.0.0.1:7000"
	joinAddr = "10.0.0.2:7000"
)

// match is a host and a joiner on one simulated network.
type match struct {
	t     *testing.T
	net   *netsim.Net
	peers [2]*Peer
	now   time.Duration
	// Each peer's engine calls Update once a period: next is when it
	// calls the next one.
	period, next [2]time.Duration
	skipped      [2]int // the Updates time sync skipped
	rng          uint64 // the frames' jitter
	// gap is the mean time between frames; each frame comes 0 to 50%
	// later than that (a display at about 60 FPS with a busy machine).
	gap time.Duration
}

func newMatch(t *testing.T, set Settings, ticks uint64, cond netsim.Conditions, host, join PeerConfig) *match {
	t.Helper()
	n, err := netsim.NewNet(cond, 42)
	if err != nil {
		t.Fatal(err)
	}
	m := &match{t: t, net: n, rng: 7, gap: 16 * time.Millisecond, period: [2]time.Duration{set.Tick(), set.Tick()}}
	host.Nonce, join.Nonce = 0x1234, 0x5678 // runs that repeat
	if m.peers[0], err = Host(m.port(hostAddr), set, ticks, host, 0); err != nil {
		t.Fatal(err)
	}
	if m.peers[1], err = Join(m.port(joinAddr), hostAddr, join, 0); err != nil {
		t.Fatal(err)
	}
	return m
}

func (m *match) port(addr string) *netsim.Port {
	m.t.Helper()
	p, err := m.net.Port(addr)
	if err != nil {
		m.t.Fatal(err)
	}
	return p
}

// frame runs one display frame at the next time: each peer's engine
// makes the Updates due by then, at the frame's clock reading (as
// Ebitengine does: none, one or a few a frame).
func (m *match) frame() {
	m.at(m.now + m.gap + time.Duration(splitmix(&m.rng)%uint64(m.gap/2)))
}

// at runs the Updates due by now.
func (m *match) at(now time.Duration) {
	m.now = now
	m.net.SetTime(now)
	for i, p := range m.peers {
		for m.next[i] <= now {
			m.next[i] += m.period[i]
			if p.Update(now) {
				m.skipped[i]++
			}
		}
	}
}

// run runs frames until both peers are done, for at most limit of
// simulated time, calling at (if not nil) before each frame.
func (m *match) run(limit time.Duration, at func(now time.Duration)) {
	m.t.Helper()
	for !m.peers[0].Done() || !m.peers[1].Done() {
		if m.now > limit {
			m.t.Fatalf("not done after %v: host %v, joiner %v", limit, m.peers[0].Session().State(), m.peers[1].Session().State())
		}
		if at != nil {
			at(m.now)
		}
		m.frame()
	}
}

// TestNetworkGameIsTheOneMachineGame: two bots play over the network,
// with either netcode, on a perfect network and on bad ones; each peer
// ends at the tick limit in the state that the same bots reach on one
// machine (Simulate), and rollback did roll back when the network was
// slow.
func TestNetworkGameIsTheOneMachineGame(t *testing.T) {
	const ticks = 600
	seeds := [Players]uint64{11, 22}
	for _, tc := range []struct {
		name    string
		netcode netplay.Netcode
		cond    netsim.Conditions
	}{
		{"rollback/perfect", netplay.Rollback, netsim.Conditions{}},
		{"rollback/40ms", netplay.Rollback, netsim.Conditions{Delay: 40 * time.Millisecond, Jitter: 10 * time.Millisecond}},
		{"rollback/lossy", netplay.Rollback, netsim.Conditions{Delay: 30 * time.Millisecond, Loss: 0.1, Reorder: 0.1, Duplicate: 0.05}},
		{"lockstep/perfect", netplay.Lockstep, netsim.Conditions{}},
		{"lockstep/40ms", netplay.Lockstep, netsim.Conditions{Delay: 40 * time.Millisecond, Jitter: 10 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := DefaultSettings()
			set.TPS, set.Netcode, set.Seed = 60, tc.netcode, 99
			m := newMatch(t, set, ticks, tc.cond, PeerConfig{Bot: true, BotSeed: seeds[0]}, PeerConfig{Bot: true, BotSeed: seeds[1]})
			m.run(time.Minute, nil)
			want := Simulate(set, seeds, ticks)
			if want.Hits == 0 || want.Score == [Players]uint16{} {
				t.Errorf("the reference game has %d hits and score %v: the test plays too little of the game", want.Hits, want.Score)
			}
			for i, p := range m.peers {
				r := p.Result()
				t.Logf("player %d: %v", i, r)
				if err := p.Err(); err != nil {
					t.Errorf("player %d: %v", i, err)
				}
				if r.Ticks != ticks || r.Hash != want.Hash() || r.Score != want.Score || r.Netcode != tc.netcode {
					t.Errorf("peer %d ended at tick %d, hash %016x, score %v, %v; want tick %d, hash %016x, score %v, %v",
						i, r.Ticks, r.Hash, r.Score, r.Netcode, ticks, want.Hash(), want.Score, tc.netcode)
				}
				if p.Game().State != want {
					t.Errorf("peer %d: state %+v, want %+v", i, p.Game().State, want)
				}
				switch {
				case tc.netcode == netplay.Lockstep && r.Rollbacks != 0:
					t.Errorf("peer %d: %d rollbacks in lockstep", i, r.Rollbacks)
				case tc.netcode == netplay.Rollback && tc.cond.Delay > 0 && r.Rollbacks == 0:
					t.Errorf("peer %d: no rollback over a %v network", i, tc.cond.Delay)
				}
			}
		})
	}
}

// TestQuit: the joiner quits in the middle; both peers end, without an
// error, at the same tick, in the one-machine state of that tick.
func TestQuit(t *testing.T) {
	seeds := [Players]uint64{3, 4}
	for _, netcode := range []netplay.Netcode{netplay.Rollback, netplay.Lockstep} {
		t.Run(netcode.String(), func(t *testing.T) {
			set := DefaultSettings()
			set.Netcode = netcode
			m := newMatch(t, set, 0, netsim.Conditions{Delay: 25 * time.Millisecond}, PeerConfig{Bot: true, BotSeed: seeds[0]}, PeerConfig{Bot: true, BotSeed: seeds[1]})
			quit := false
			m.run(time.Minute, func(now time.Duration) {
				if !quit && m.peers[1].Result().Ticks >= 100 {
					m.peers[1].Quit(now)
					quit = true
				}
			})
			h, j := m.peers[0].Result(), m.peers[1].Result()
			if err := errors.Join(m.peers[0].Err(), m.peers[1].Err()); err != nil {
				t.Fatal(err)
			}
			want := Simulate(set, seeds, h.Ticks)
			if h.Ticks < 100 || h.Ticks != j.Ticks || h.Hash != j.Hash || h.Hash != want.Hash() {
				t.Errorf("host at tick %d (%016x), joiner at %d (%016x); want one tick >= 100 and the hash %016x",
					h.Ticks, h.Hash, j.Ticks, j.Hash, want.Hash())
			}
		})
	}
}

// TestKeyboard: the host's player holds Right from one time to another;
// it moves one step on every tick whose span the key was down in, and no
// other. A tick's span ends at the Update that runs it first (Delay 0:
// its input is sampled then), and begins at the previous one's end.
func TestKeyboard(t *testing.T) {
	set := DefaultSettings() // 30 ticks per second
	m := newMatch(t, set, 0, netsim.Conditions{}, PeerConfig{}, PeerConfig{Bot: true, BotSeed: 5})
	host := m.peers[0]
	var (
		spans [][2]time.Duration // each tick's span, from tick 0
		xs    = map[int]int32{}  // player 0's x after so many ticks
		end   time.Duration
	)
	frame := func() {
		before := host.Result().Ticks
		m.frame()
		for range host.Result().Ticks - before {
			spans = append(spans, [2]time.Duration{end, m.now})
			end = m.now
		}
		xs[len(spans)] = host.Game().State.Players[0].Pos[0]
	}
	for m.now < 10*time.Second && host.Result().Ticks < 20 {
		frame()
	}
	if host.Result().Ticks < 20 {
		t.Fatal("the game did not start")
	}
	press := m.now + 5*time.Millisecond
	release := press + 300*time.Millisecond
	host.Push(input.Event{Time: press, Button: input.Right, Down: true})
	host.Push(input.Event{Time: release, Button: input.Right, Down: false})
	for m.now < release+time.Second {
		frame()
	}
	// A tick holds Right when the key went down before its span's end
	// and up after its start (input.Record.Down).
	g := host.Game()
	x := int32(set.Width) * One / 4
	held := 0
	for n, s := range spans {
		if press < s[1] && release >= s[0] {
			x += g.speed
			held++
		}
		if got, ok := xs[n+1]; ok && got != x {
			t.Fatalf("player 0 at x %d after tick %d, want %d: Right held over the spans of ticks other than %d..", got, n, x, n)
		}
	}
	if held < 9 {
		t.Errorf("Right held over %d ticks' spans, want 9 or more", held)
	}
	if y := g.State.Players[0].Pos[1]; y != int32(set.Height)*One/2 {
		t.Errorf("player 0 moved vertically to %d", y)
	}
}

// TestBadSettings: a joiner given settings it cannot read (a host of
// another game, or another build of this one) refuses to play, with an
// error that says so; the host frees its slot for another player.
func TestBadSettings(t *testing.T) {
	n, err := netsim.NewNet(netsim.Conditions{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	hp, _ := n.Port(hostAddr)
	jp, _ := n.Port(joinAddr)
	g := newBotGame()
	host, err := netplay.Host(netplay.Config{Nonce: 1, InputSize: InputSize, Tick: g.set.Tick(), Settings: []byte{9, 9, 9}, Delay: netplay.DefaultDelay}, g, hp, 0)
	if err != nil {
		t.Fatal(err)
	}
	join, err := Join(jp, hostAddr, PeerConfig{Nonce: 2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var now time.Duration
	for end := time.Minute; now < end; {
		if join.Done() && end == time.Minute {
			end = now + time.Second // and the host hears of it
		}
		if now > 30*time.Second {
			t.Fatalf("not done: host %v, joiner %v", host.State(), join.Session().State())
		}
		now += 16 * time.Millisecond
		n.SetTime(now)
		join.Update(now)
		host.Update(now)
	}
	if err := join.Err(); !errors.Is(err, ErrSettings) {
		t.Errorf("joiner: %v, want an error about the host's settings", err)
	}
	if st := host.Stats(); join.Game() != nil || host.Err() != nil || st.State != netplay.StateLobby || st.Joined != 1 {
		t.Errorf("joiner's game %v; host: %v, %v with %d players; want no game, and the host alone in its lobby", join.Game(), host.Err(), st.State, st.Joined)
	}
}

// An Update of a running game allocates nothing.
func TestUpdateDoesNotAllocate(t *testing.T) {
	set := DefaultSettings()
	m := newMatch(t, set, 0, netsim.Conditions{Delay: 30 * time.Millisecond}, PeerConfig{Bot: true, BotSeed: 1}, PeerConfig{Bot: true, BotSeed: 2})
	for m.now < 5*time.Second {
		m.frame()
	}
	before := m.peers[0].Result().Rollbacks
	if allocs := testing.AllocsPerRun(300, m.frame); allocs != 0 {
		t.Errorf("%v allocations per frame, want 0", allocs)
	}
	if m.peers[0].Result().Rollbacks == before {
		t.Error("no rollback: the frames measured did not roll back")
	}
}
