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
// generated timestamps: the host and the joiner run their frames as the
// example's main does, with no clock, socket or display.

var (
	hostAddr = "10.0.0.1:7000"
	joinAddr = "10.0.0.2:7000"
)

// match is a host and a joiner on one simulated network.
type match struct {
	t     *testing.T
	net   *netsim.Path
	peers [2]*Peer
	addrs [2]string
	sends [2]netplay.SendFunc
	now   time.Duration
	rng   uint64 // the frames' jitter
	// gap is the mean time between frames; each frame comes 0 to 50%
	// later than that (a display at about 60 FPS with a busy machine).
	gap     time.Duration
	deliver func(from, to string, pkt []byte)
}

func newMatch(t *testing.T, set Settings, ticks uint64, cond netsim.Conditions, host, join PeerConfig) *match {
	t.Helper()
	n, err := netsim.NewPath(cond, 42, 0)
	if err != nil {
		t.Fatal(err)
	}
	hs, err := netplay.NewHost(HostConfig(set, 0x1234, ticks), 0)
	if err != nil {
		t.Fatal(err)
	}
	js, err := netplay.NewJoiner(JoinConfig(0x5678), hostAddr, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := &match{t: t, net: n, addrs: [2]string{hostAddr, joinAddr}, rng: 7, gap: 16 * time.Millisecond}
	m.peers = [2]*Peer{NewPeer(hs, host), NewPeer(js, join)}
	for i := range m.peers {
		m.sends[i] = func(to string, pkt []byte) { m.net.Send(m.now, m.addrs[i], to, pkt) }
	}
	m.deliver = func(from, to string, pkt []byte) {
		for i, a := range m.addrs {
			if a == to {
				m.peers[i].Session().Receive(m.now, from, pkt)
			}
		}
	}
	return m
}

// frame runs one frame of both peers at the next time.
func (m *match) frame() {
	m.now += m.gap + time.Duration(splitmix(&m.rng)%uint64(m.gap/2))
	m.net.Deliver(m.now, m.deliver)
	for i, p := range m.peers {
		p.Frame(m.now)
		p.Session().Poll(m.now, m.sends[i])
		if pct := p.Percent(); pct < 0 || pct > 1 {
			m.t.Fatalf("peer %d at %v: percentWithinTick %v", i, m.now, pct)
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
				t.Logf("%s: %v", p.Session().Role(), r)
				if err := p.Err(); err != nil {
					t.Errorf("%s: %v", p.Session().Role(), err)
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
// other.
func TestKeyboard(t *testing.T) {
	set := DefaultSettings() // 30 ticks per second
	m := newMatch(t, set, 0, netsim.Conditions{}, PeerConfig{}, PeerConfig{Bot: true, BotSeed: 5})
	host := m.peers[0]
	var press, release time.Duration
	for m.now < 10*time.Second && host.Result().Ticks < 20 {
		m.frame()
	}
	if host.Result().Ticks < 20 {
		t.Fatal("the game did not start")
	}
	start := host.Session().StartedAt()
	press = m.now + 5*time.Millisecond
	release = press + 300*time.Millisecond
	host.Push(input.Event{Time: press, Button: input.Right, Down: true})
	host.Push(input.Event{Time: release, Button: input.Right, Down: false})
	for m.now < release+time.Second {
		m.frame()
	}
	// Tick t (from 0) spans [start+t*tick, start+(t+1)*tick) and holds
	// Right when the key went down before its end and up after its start
	// (input.Record.Down).
	tick := set.Tick()
	var held int32
	for n := range host.Result().Ticks {
		if s, e := start+time.Duration(n)*tick, start+time.Duration(n+1)*tick; press < e && release >= s {
			held++
		}
	}
	g := host.Game()
	x0 := int32(set.Width) * One / 4
	if got, want := g.State.Players[0].Pos[0], x0+held*g.speed; got != want || held < 9 {
		t.Errorf("player 0 at x %d after Right was held over %d ticks' spans, want %d (%d + %d×%d)", got, held, want, x0, held, g.speed)
	}
	if y := g.State.Players[0].Pos[1]; y != int32(set.Height)*One/2 {
		t.Errorf("player 0 moved vertically to %d", y)
	}
}

// TestBadSettings: a joiner given settings it cannot read (a host of
// another game, or another build of this one) refuses to play, with an
// error that says so; the host frees its slot for another player.
func TestBadSettings(t *testing.T) {
	host, err := netplay.NewHost(netplay.Config{Nonce: 1, InputSize: InputSize, Settings: []byte{9, 9, 9}, Delay: netplay.DefaultDelay}, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := newMatch(t, DefaultSettings(), 0, netsim.Conditions{}, PeerConfig{}, PeerConfig{})
	join := m.peers[1]
	m.deliver = func(from, to string, pkt []byte) {
		if to == hostAddr {
			host.Receive(m.now, from, pkt)
		} else {
			join.Session().Receive(m.now, from, pkt)
		}
	}
	for end := time.Minute; m.now < end; {
		if join.Done() && end == time.Minute {
			end = m.now + time.Second // and the host hears of it
		}
		if m.now > 30*time.Second {
			t.Fatalf("not done: host %v, joiner %v", host.State(), join.Session().State())
		}
		m.now += m.gap
		m.net.Deliver(m.now, m.deliver)
		join.Frame(m.now)
		join.Session().Poll(m.now, m.sends[1])
		host.Poll(m.now, m.sends[0])
	}
	if err := join.Err(); !errors.Is(err, ErrSettings) {
		t.Errorf("joiner: %v, want an error about the host's settings", err)
	}
	if st := host.Stats(); join.Game() != nil || host.Err() != nil || st.State != netplay.StateLobby || st.Joined != 1 {
		t.Errorf("joiner's game %v; host: %v, %v with %d players; want no game, and the host alone in its lobby", join.Game(), host.Err(), st.State, st.Joined)
	}
}

// A frame of a running game allocates nothing.
func TestFrameDoesNotAllocate(t *testing.T) {
	set := DefaultSettings()
	m := newMatch(t, set, 0, netsim.Conditions{Delay: 30 * time.Millisecond}, PeerConfig{Bot: true, BotSeed: 1}, PeerConfig{Bot: true, BotSeed: 2})
	for m.now < 5*time.Second {
		m.frame()
	}
	if allocs := testing.AllocsPerRun(300, m.frame); allocs != 0 {
		t.Errorf("%v allocations per frame, want 0", allocs)
	}
	if m.peers[0].Result().Rollbacks == 0 {
		t.Error("no rollback: the frames measured did not roll back")
	}
}
