package netplay

import (
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// pair is two sessions in a running game over a simulated network, driven
// without a harness: what a frame loop does, nothing more.
type pair struct {
	net   *netsim.Path
	s     [2]*session
	addrs [2]string
	send  [2]func(string, []byte)
	recv  func(from, to string, pkt []byte)
	hash  func() uint64
	now   time.Duration
	recs  [][]byte
	in    trec
	start [2]time.Duration
}

func newPair(t testing.TB, c netsim.Conditions) *pair {
	t.Helper()
	n, err := netsim.NewPath(c, 1, 256)
	if err != nil {
		t.Fatal(err)
	}
	p := &pair{net: n, addrs: [2]string{addr(0), addr(1)}, recs: make([][]byte, 0, MaxPlayers)}
	if p.s[0], err = newHost(config{InputSize: testInputSize, Nonce: 1, Players: 2, Delay: DefaultDelay}, 0); err != nil {
		t.Fatal(err)
	}
	if p.s[1], err = newJoiner(config{InputSize: testInputSize, Nonce: 2}, p.addrs[0], 0); err != nil {
		t.Fatal(err)
	}
	for i := range p.s {
		p.send[i] = func(to string, pkt []byte) { p.net.Send(p.now, p.addrs[i], to, pkt) }
	}
	p.recv = func(from, to string, pkt []byte) {
		for i := range p.s {
			if p.addrs[i] == to {
				p.s[i].Receive(p.now, from, pkt)
			}
		}
	}
	p.hash = func() uint64 { return 42 }
	for p.s[0].State() != StateRunning || p.s[1].State() != StateRunning {
		p.frame(4 * ms)
		if p.now > 10*time.Second {
			t.Fatal("the game did not start")
		}
	}
	for i := range p.s {
		p.start[i] = p.s[i].StartedAt()
	}
	return p
}

// frame advances the clock by dt and runs one frame of each peer.
func (p *pair) frame(dt time.Duration) {
	p.now += dt
	p.net.Deliver(p.now, p.recv)
	for i, s := range p.s {
		if s.State() == StateRunning {
			due := uint64((p.now - p.start[i]) / (40 * ms))
			for range 5 {
				if s.NextTick() >= due {
					break
				}
				if s.NeedInput() {
					it := s.InputTick()
					p.in = botInput(uint64(i), uint64(s.Delay()), it)
					if s.AddLocalInput(it, p.in[:]) != nil {
						break
					}
				}
				var ok bool
				if p.recs, ok = s.Next(p.now, p.recs); !ok {
					break
				}
				_ = s.Advance(p.hash)
			}
			s.ReportLoad(0, 0)
			_ = s.Stats()
		}
		s.Poll(p.now, sendFunc(p.send[i]))
	}
}

// The per-frame network work allocates nothing once the game runs, on a
// bad network too: receiving, the ticks, sending, the statistics, the
// simulator.
func TestFrameAllocatesNothing(t *testing.T) {
	for _, c := range []netsim.Conditions{{}, {Delay: 30 * ms, Jitter: 10 * ms, Loss: 0.2, Duplicate: 0.1, Reorder: 0.1}} {
		p := newPair(t, c)
		for range 1000 { // warm up: hash checkpoints, every path once
			p.frame(4 * ms)
		}
		t0 := p.s[0].NextTick()
		sent := p.net.Stats().Sent
		// AllocsPerRun divides in integers: one run of 2000 frames
		// counts every allocation. The count is process-wide, so a stray
		// allocation of the runtime or the test framework can land in
		// one measurement; the least of three is the frames' own (any
		// per-frame allocation would show in all three, thousands of
		// times).
		least := -1.0
		for range 3 {
			a := testing.AllocsPerRun(1, func() {
				for range 2000 {
					p.frame(4 * ms)
				}
			})
			if least < 0 || a < least {
				least = a
			}
		}
		if least != 0 {
			t.Errorf("%+v: %v allocations in 2000 frames, at the least of three measurements", c, least)
		}
		// The measurement saw a running game.
		if p.s[0].NextTick()-t0 < 100 || p.net.Stats().Sent-sent < 100 || p.s[0].Over() {
			t.Errorf("%+v: the game did not run: %d ticks, %d packets", c, p.s[0].NextTick()-t0, p.net.Stats().Sent-sent)
		}
	}
}

func BenchmarkFrame(b *testing.B) {
	p := newPair(b, netsim.Conditions{Delay: 30 * ms, Jitter: 10 * ms, Loss: 0.1})
	b.ReportAllocs()
	for b.Loop() {
		p.frame(4 * ms)
	}
}

func BenchmarkEncodeDecode(b *testing.B) {
	p := newPair(b, netsim.Conditions{})
	for range 200 {
		p.frame(4 * ms)
	}
	var pkt []byte
	p.s[0].peers[1].news = true
	p.s[0].Poll(p.now, sendFunc(func(_ string, b []byte) { pkt = append([]byte(nil), b...) }))
	var in packet
	buf := make([]byte, MaxPacketSize)
	b.ReportAllocs()
	for b.Loop() {
		if err := in.decode(pkt); err != nil {
			b.Fatal(err)
		}
		in.encode(buf)
	}
}
