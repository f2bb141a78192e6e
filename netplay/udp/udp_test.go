package udp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// The tests talk over real sockets on 127.0.0.1, so their clock is the
// real monotonic one; they assert behaviour only, never timing, and each
// bounds its own duration and the packets it sends.

// realClock is the monotonic time since it was made (the demo uses
// loop.RealClock; this package's tests do not depend on package loop).
type realClock struct{ t0 time.Time }

func newRealClock() realClock          { return realClock{time.Now()} }
func (c realClock) Now() time.Duration { return time.Since(c.t0) }

const tick = 10 * time.Millisecond

// rec is a player's input for a tick in the tests' game: 3 bytes.
type rec = [3]byte

// botInput is the input of tick for a bot keyed by seed that starts at
// tick start (zero before it): one input held for 4 ticks at a time.
func botInput(seed, start, tick uint64) rec {
	if tick < start {
		return rec{}
	}
	x := (seed ^ (tick-start)/4) * 0x9e3779b97f4a7c15
	x ^= x >> 29
	return rec{byte(x), byte(x >> 8), byte(x >> 16)}
}

type peer struct {
	s       *netplay.Session
	c       *Conn
	tr      *counting // c, as the session sees it
	g       *botGame
	counted int // the ticks the loop has handed the session
}

// botGame is the tests' game: it keeps every tick's records, and its
// player is a bot.
type botGame struct {
	s    *netplay.Session
	hist [][netplay.MaxPlayers]rec
}

func (g *botGame) Advance(in *netplay.Inputs) {
	var row [netplay.MaxPlayers]rec
	for q := range in.Players() {
		copy(row[q][:], in.Input(q))
	}
	g.hist = append(g.hist, row)
}
func (g *botGame) Save(int)      {}
func (g *botGame) Load(int)      {}
func (g *botGame) Hash() uint64  { return uint64(len(g.hist)) }
func (g *botGame) delay() uint64 { return uint64(g.s.Stats().Delay) }
func (g *botGame) seed() uint64  { return seedOf(g.s.Index()) }
func (g *botGame) LocalInput(tick uint64, _ int, dst []byte) {
	in := botInput(g.seed(), g.delay(), tick)
	copy(dst, in[:])
}

// frame runs one frame of p at now: the ticks the loop owes by the clock,
// 5 at most, with the datagrams in and out.
func (p *peer) frame(now time.Duration) {
	due := 0
	if st := p.s.Stats(); st.State == netplay.StateRunning {
		ticks := int((now - st.StartedAt) / tick)
		due, p.counted = ticks-p.counted, ticks
	}
	p.s.Frame(now, due, 5)
}

// counting is a Conn that counts the datagrams from one address on their
// way in.
type counting struct {
	*Conn
	from string
	n    int64
}

func (c *counting) Recv() (string, []byte, bool) {
	from, pkt, ok := c.Conn.Recv()
	if ok && from == c.from {
		c.n++
	}
	return from, pkt, ok
}

func seedOf(index int) uint64 { return 77 + uint64(index) }

// newPeer makes a peer of a session on a socket of its own on 127.0.0.1
// with cfg, closed when the test ends: the host with host's settings,
// or a joiner of the game at hostAddr.
func newPeer(t *testing.T, clock realClock, cfg Config, host netplay.Config, nonce uint64, hostAddr string) *peer {
	t.Helper()
	c, err := Listen("127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	p := &peer{c: c, tr: &counting{Conn: c}, g: &botGame{}}
	if hostAddr == "" {
		p.s, err = netplay.Host(host, p.g, p.tr, clock.Now())
	} else {
		jc := netplay.Config{InputSize: host.InputSize, Nonce: nonce, Silence: host.Silence, Netcode: netplay.Lockstep}
		p.s, err = netplay.Join(jc, p.g, p.tr, hostAddr, clock.Now())
	}
	if err != nil {
		t.Fatal(err)
	}
	p.g.s = p.s
	return p
}

// listenPeers opens a host with host's settings and its joiners, each on
// a socket of its own on 127.0.0.1 with cfg, closed when the test ends.
func listenPeers(t *testing.T, clock realClock, cfg Config, host netplay.Config) []*peer {
	t.Helper()
	host.Tick, host.Netcode = tick, netplay.Lockstep
	peers := []*peer{newPeer(t, clock, cfg, host, 0, "")}
	for i := 1; i < host.Players; i++ {
		peers = append(peers, newPeer(t, clock, cfg, host, uint64(i), peers[0].c.LocalAddr()))
	}
	return peers
}

// game plays a game of players bots over loopback to ticks, calling
// during(now) every round, and checks that everyone ran every tick with
// the bots' records.
func game(t *testing.T, players int, ticks uint64, cfg Config, during func(host *peer)) []*peer {
	t.Helper()
	clock := newRealClock()
	// Real sockets and a real clock: a loaded machine (the race
	// detector, other tests) can starve a peer's loop for a while, which
	// must not read as a silent peer here (silence is tested on the
	// simulated network, on a manual clock).
	peers := listenPeers(t, clock, cfg, netplay.Config{InputSize: 3, Nonce: 0xfeed, Players: players, TickLimit: ticks, Silence: testSilence, Delay: netplay.DefaultDelay})
	deadline := clock.Now() + 10*time.Second
	for {
		now := clock.Now()
		if now > deadline {
			for _, p := range peers {
				t.Logf("player %d: %v tick %d err %v", p.s.Index(), p.s.State(), p.s.Stats().Tick, p.s.Err())
			}
			t.Fatal("the game did not end in 10 s")
		}
		done := true
		for _, p := range peers {
			p.frame(now)
			done = done && p.s.Done()
		}
		if during != nil {
			during(peers[0])
		}
		if done {
			break
		}
		// Sleep until the host hears something, or a millisecond.
		peers[0].c.Wait(time.Millisecond)
	}
	for _, p := range peers {
		if err := p.s.Err(); err != nil || p.s.Stats().Tick != ticks || uint64(len(p.g.hist)) != ticks {
			t.Errorf("player %d: err %v after %d ticks, %d played", p.s.Index(), err, p.s.Stats().Tick, len(p.g.hist))
		}
		for k, row := range p.g.hist {
			for q := range players {
				if want := botInput(seedOf(q), p.g.delay(), uint64(k)); row[q] != want {
					t.Fatalf("player %d tick %d: player %d's record %v, want %v", p.s.Index(), k, q, row[q], want)
				}
			}
		}
	}
	return peers
}

func TestLoopbackGame(t *testing.T) {
	for _, players := range []int{2, 3} {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			peers := game(t, players, 100, Config{}, nil)
			for _, p := range peers {
				st := p.s.Stats()
				cs := p.c.Stats()
				if st.BadPackets != 0 || cs.Read == 0 || cs.Written == 0 || cs.Read > 5000 || cs.Written > 5000 {
					t.Errorf("player %d: %d bad packets; socket %+v", p.s.Index(), st.BadPackets, cs)
				}
			}
		})
	}
}

// The simulators apply on both sides: loss, delay and reordering each way,
// and the game still ends with everyone agreeing.
func TestLoopbackGameBadNetwork(t *testing.T) {
	bad := netsim.Conditions{Delay: 5 * time.Millisecond, Jitter: 2 * time.Millisecond, Loss: 0.1, Duplicate: 0.05, Reorder: 0.05}
	peers := game(t, 3, 100, Config{Outgoing: bad, Incoming: bad, Seed: 3}, nil)
	for _, p := range peers {
		cs := p.c.Stats()
		if cs.Out.Lost == 0 || cs.In.Lost == 0 || cs.Out.Delivered == 0 {
			t.Errorf("player %d: the simulators did nothing: %+v", p.s.Index(), cs)
		}
	}
}

// A flood of random datagrams at the host's port, some of them well-formed
// Hellos, is counted as bad packets and never answered; the game ends
// normally.
func TestLoopbackFlood(t *testing.T) {
	fc, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:0")))
	if err != nil {
		t.Fatal(err)
	}
	defer fc.Close()
	var rng uint64 = 1
	next := func() uint64 {
		rng = rng*6364136223846793005 + 1442695040888963407
		return rng >> 11
	}
	hello := make([]byte, netplay.MaxPacketSize) // a Hello is padded to the largest packet
	copy(hello, "NP\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x07")
	buf := make([]byte, 2000)
	sent := 0
	var seen *counting
	peers := game(t, 2, 100, Config{}, func(host *peer) {
		if seen == nil {
			seen = host.tr
			seen.from = unmap(fc.LocalAddr().(*net.UDPAddr).AddrPort()).String()
		}
		if host.s.State() != netplay.StateRunning || sent >= 3000 {
			return
		}
		to := net.UDPAddrFromAddrPort(netip.MustParseAddrPort(string(host.c.LocalAddr())))
		for range 20 {
			pkt := buf[:next()%uint64(len(buf))]
			for k := range pkt {
				pkt[k] = byte(next())
			}
			if sent%10 == 0 {
				pkt = hello
			}
			if _, err := fc.WriteToUDP(pkt, to); err != nil {
				t.Fatal(err)
			}
			sent++
		}
	})
	host := peers[0]
	// Every datagram of the flood that reached the session (the system
	// may drop some when its buffer fills) was counted, and nothing else.
	bad := host.s.Stats().BadPackets
	if bad != seen.n || bad < 100 || bad > int64(sent) {
		t.Errorf("host counted %d bad packets; %d flood datagrams reached it of %d sent", bad, seen.n, sent)
	}
	t.Logf("%d flood datagrams sent, %d reached the session, %d counted bad", sent, seen.n, bad)
	// Nothing came back to the flooder.
	fc.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, _, err := fc.ReadFromUDP(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the flooder got an answer: %d bytes, %v", n, err)
	}
}

// netplay.Read and Write over a Conn, and Wait, allocate nothing once
// the game runs.
func TestConnAllocatesNothing(t *testing.T) {
	clock := newRealClock()
	host := netplay.Config{InputSize: 3, Nonce: 1, Players: 2, Delay: netplay.DefaultDelay, Tick: tick, Netcode: netplay.Lockstep}
	h := newPeer(t, clock, Config{}, host, 1, "")
	j := newPeer(t, clock, Config{Outgoing: netsim.Conditions{Delay: time.Millisecond, Loss: 0.1}}, host, 2, h.c.LocalAddr())
	hc := h.c
	h.g.hist = make([][netplay.MaxPlayers]rec, 0, 100000)
	j.g.hist = make([][netplay.MaxPlayers]rec, 0, 100000)
	round := func() {
		now := clock.Now()
		h.frame(now)
		j.frame(now)
		hc.Wait(time.Millisecond)
	}
	deadline := clock.Now() + 5*time.Second
	for len(h.g.hist) < 60 || len(j.g.hist) < 60 {
		round()
		if clock.Now() > deadline {
			t.Fatal("the game did not run")
		}
	}
	read := hc.Stats().Read
	if a := testing.AllocsPerRun(1, func() {
		for range 200 {
			round()
		}
	}); a != 0 {
		t.Errorf("%v allocations in 200 frames", a)
	}
	if hc.Stats().Read-read < 20 {
		t.Errorf("only %d datagrams read while measuring", hc.Stats().Read-read)
	}
}

func TestListenErrors(t *testing.T) {
	if _, err := Listen("127.0.0.1:0", Config{Outgoing: netsim.Conditions{Loss: 2}}); !errors.Is(err, netsim.ErrInvalid) {
		t.Errorf("bad conditions: %v", err)
	}
	if _, err := Listen("127.0.0.1:0", Config{Queue: -1}); !errors.Is(err, netplay.ErrInvalid) {
		t.Errorf("bad queue: %v", err)
	}
	if _, err := Listen("not an address", Config{}); err == nil {
		t.Error("bad address accepted")
	}
	if _, err := Resolve("0.0.0.0:0"); !errors.Is(err, netplay.ErrInvalid) {
		t.Errorf("Resolve of no address: %v", err)
	}
	if a, err := Resolve("127.0.0.1:7777"); err != nil || a != "127.0.0.1:7777" {
		t.Errorf("Resolve: %v %v", a, err)
	}
	c, err := Listen("127.0.0.1:0", Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Error(err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if c.Wait(time.Second) {
		t.Error("Wait on a closed Conn")
	}
}

// testSilence is the loopback tests' silence limit.
const testSilence = 20 * time.Second

// TestResolve: literal addresses, IPv4 preferred among a name's, and
// what cannot be sent to.
func TestResolve(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"127.0.0.1:7777", "127.0.0.1:7777"},
		{"[::1]:7777", "[::1]:7777"},
		{"[::ffff:127.0.0.1]:7777", "127.0.0.1:7777"},
		{"[fe80::1%lo]:7777", "[fe80::1%lo]:7777"}, // a link-local address keeps its zone
		{"localhost:7777", "127.0.0.1:7777"},
	} {
		if a, err := Resolve(c.in); err != nil || string(a) != c.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", c.in, a, err, c.want)
		}
	}
	for _, in := range []string{"0.0.0.0:7777", ":7777", "127.0.0.1:0", "[::]:1"} {
		if _, err := Resolve(in); !errors.Is(err, netplay.ErrInvalid) {
			t.Errorf("Resolve(%q): %v, want ErrInvalid", in, err)
		}
	}
	for _, in := range []string{"nowhere", "127.0.0.1:port that is none", "127.0.0.1:70000"} {
		if a, err := Resolve(in); err == nil {
			t.Errorf("Resolve(%q) = %q, want an error", in, a)
		}
	}
}

// TestResolveGivesUpWithItsContext: a lookup that a name server leaves
// unanswered (one on 127.0.0.1 that reads and never answers) ends when
// its context does, not when the resolver's own timeouts run out
// (seconds for each try).
func TestResolveGivesUpWithItsContext(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	server := pc.LocalAddr().String()
	saved := resolver
	resolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", server)
	}}
	defer func() { resolver = saved }()

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := ResolveContext(ctx, "game.example:7777")
		done <- err
	}()
	// The query reaches the server, which keeps it.
	pc.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 512)
	if _, _, err := pc.ReadFrom(buf); err != nil {
		t.Fatalf("no query reached the name server: %v", err)
	}
	select {
	case err := <-done:
		t.Fatalf("the lookup ended with no answer and its context going on: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the lookup ended with %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the lookup still waited 5 s after its context was cancelled")
	}
}
