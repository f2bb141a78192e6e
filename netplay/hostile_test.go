package netplay

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// hostile makes datagrams a session must drop: garbage, truncated,
// oversized, another session's, another version's.
type hostile struct {
	rng   uint64
	valid []byte // a well-formed game packet to damage
	buf   [2 * MaxPacketSize]byte
}

func (g *hostile) rand() uint64 {
	g.rng += 0x9e3779b97f4a7c15
	return mix64(g.rng)
}

// next returns the i-th hostile datagram.
func (g *hostile) next(i int) []byte {
	b := g.buf[:]
	switch i % 6 {
	case 0: // garbage of any length up to twice the maximum
		n := int(g.rand() % uint64(len(b)))
		for k := range n {
			b[k] = byte(g.rand())
		}
		return b[:n]
	case 1: // garbage that starts like a packet
		n := headerSize + int(g.rand()%200)
		for k := range n {
			b[k] = byte(g.rand())
		}
		b[0], b[1], b[2], b[3] = magic0, magic1, protocolVersion, byte(1+g.rand()%5)
		return b[:n]
	case 2: // a good packet, truncated
		return append(b[:0], g.valid[:g.rand()%uint64(len(g.valid))]...)
	case 3: // a good packet, another session
		b = append(b[:0], g.valid...)
		b[4] ^= 1
		return b
	case 4: // a good packet with a byte flipped in its body; may still
		// be well-formed, so the caller sends it from a stranger
		b = append(b[:0], g.valid...)
		b[headerSize+int(g.rand()%uint64(len(b)-headerSize))] ^= byte(1 + g.rand()%255)
		return b
	default: // oversized
		b = append(b[:0], g.valid...)
		return append(b, make([]byte, MaxPacketSize+1-len(b))...)
	}
}

func TestHostilePacketsDroppedAndCounted(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		t.Run(string(rune('0'+players)), func(t *testing.T) {
			h := newHarness(t, netsim.Conditions{Delay: 10 * ms, Jitter: 3 * ms}, 3)
			h.game(config{TickLimit: 200, Delay: DefaultDelay}, players)
			stranger := "192.0.2.66:6666"
			// Capture a real packet of the joiners' to the host once the
			// game runs.
			host, j1 := h.peers[0], h.peers[1]
			h.runUntil(5*time.Second, func() bool { return host.s.NextTick() >= 20 && j1.s.NextTick() >= 20 })
			var valid []byte
			j1.s.peers[0].news = true // make a packet due
			j1.s.Poll(h.now, sendFunc(func(_ string, pkt []byte) { valid = append([]byte(nil), pkt...) }))
			if valid == nil {
				t.Fatal("no packet captured")
			}
			g := &hostile{rng: 99, valid: valid}
			var hello packet
			hello.typ, hello.token = msgHello, 12345
			helloBytes := make([]byte, MaxPacketSize)
			helloBytes = helloBytes[:hello.encode(helloBytes)]
			want := make(map[*tpeer]int64)
			for _, p := range h.peers {
				want[p] = p.s.Stats().BadPackets
			}
			i := 0
			h.runUntil(60*time.Second, func() bool {
				if host.s.NextTick() < 150 {
					for _, p := range h.peers {
						pkt := g.next(i)
						from := stranger
						if i%6 != 4 && i%12 < 6 {
							// Spoofed: from a player's address (the host's,
							// for a joiner).
							from = h.peers[(int(p.s.Index())+1)%players].addr
							if p != host {
								from = host.addr
							}
						}
						p.s.Receive(h.now, from, pkt)
						want[p]++
						// A well-formed Hello from a stranger after the
						// start: no slot is free.
						p.s.Receive(h.now, stranger, helloBytes)
						want[p]++
					}
					i++
				}
				for _, p := range h.peers {
					if !p.s.Done() {
						return false
					}
				}
				return true
			})
			for _, p := range h.peers {
				if err := p.s.Err(); err != nil || p.s.NextTick() != 200 {
					t.Errorf("%s: err %v after %d ticks", p.name, err, p.s.NextTick())
				}
				if got := p.s.Stats().BadPackets; got != want[p] {
					t.Errorf("%s: %d bad packets counted, %d sent", p.name, got, want[p])
				}
			}
			if i < 500 {
				t.Errorf("only %d hostile rounds", i)
			}
			// The stranger's well-formed Hellos, one a round, get a
			// Reject (the game has all its players) at most once a Poll
			// of the host's; nothing else goes to it.
			if n, r := h.sentTo[stranger], h.rejectsTo[stranger]; r == 0 || n != r || r > i || h.strays != n {
				t.Errorf("%d packets sent to the stranger, %d of them Rejects of a full game, after %d rounds; %d to addresses of no player", n, r, i, h.strays)
			}
			h.strays -= h.sentTo[stranger]
			h.checkHistories(200)
			h.checkNoStrays()
		})
	}
}

// A well-formed Hello from a stranger gets a Welcome only in the lobby
// while a slot is free: a third joiner of a two-player game is rejected at
// once (one Reject, smaller than its Hello), and the game goes on.
func TestGameFullRejected(t *testing.T) {
	h := newHarness(t, netsim.Conditions{Delay: 5 * ms}, 5)
	h.game(config{TickLimit: 300, Delay: DefaultDelay}, 2) // 12 s: it runs while the late one tries
	late, err := newJoiner(config{InputSize: testInputSize, Nonce: 777}, addr(0), 0)
	if err != nil {
		t.Fatal(err)
	}
	lp := h.add("late", late, addr(5))
	lp.next = 30 * ms // after the first joiner took the slot
	h.run(30 * time.Second)
	var re *Error
	if !errors.As(late.Err(), &re) || !errors.Is(re, ErrFull) || re.Error() != "host rejected the join: its game has all its players" {
		t.Errorf("late joiner: %v, want the game's Reject", late.Err())
	}
	if n, r := h.sentTo[addr(5)], h.rejectsTo[addr(5)]; n != 1 || r != 1 {
		t.Errorf("%d packets sent to the late joiner, %d of them Rejects; want the one Reject", n, r)
	}
	if st := late.Stats(); st.PacketsSent > 2 || st.State != StateEnded {
		t.Errorf("late joiner sent %d Hellos, state %s; want it ended after the first Reject", st.PacketsSent, st.State)
	}
	host := h.peers[0].s
	if st := host.Stats(); st.BadPackets != late.Stats().PacketsSent {
		t.Errorf("host counted %d bad packets; the late joiner sent %d", st.BadPackets, late.Stats().PacketsSent)
	}
	if host.Err() != nil || host.NextTick() != 300 {
		t.Errorf("host: %v after %d ticks", host.Err(), host.NextTick())
	}
}

func TestVersionMismatchRejected(t *testing.T) {
	host, err := newHost(config{InputSize: testInputSize, Nonce: 1, Players: 2, Delay: DefaultDelay}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var hello packet
	hello.typ, hello.token = msgHello, 42
	b := make([]byte, MaxPacketSize)
	b = b[:hello.encode(b)]
	b[2] = protocolVersion + 1
	from := "192.0.2.1:1000"
	host.Receive(0, from, b)
	var got [][]byte
	var to []string
	host.Poll(ms, sendFunc(func(a string, pkt []byte) {
		to = append(to, a)
		got = append(got, append([]byte(nil), pkt...))
	}))

	want := []byte{magic0, magic1, protocolVersion, byte(msgReject), 0, 0, 0, 0, 0, 0, 0, 0, rejectVersion}
	if len(got) != 1 || to[0] != from || string(got[0]) != string(want) {
		t.Fatalf("host answered % x to %v, want one Reject % x to %v", got, to, want, from)
	}
	if len(got[0]) > len(b) {
		t.Errorf("the Reject (%d bytes) is larger than the Hello (%d)", len(got[0]), len(b))
	}
	if host.Stats().Joined != 1 {
		t.Errorf("the rejected joiner took a slot")
	}
	// A joiner of version 1, whose Hello was smaller, is rejected too.
	old := append([]byte(nil), b[:helloSizeV1]...)
	old[2] = 1
	host.Receive(2*ms, "192.0.2.2:1000", old)
	got = got[:0]
	host.Poll(3*ms, sendFunc(func(a string, pkt []byte) { got = append(got, append([]byte(nil), pkt...)) }))
	if len(got) != 1 || got[0][byte(3)] != byte(msgReject) {
		t.Errorf("a version 1 Hello got % x, want a Reject", got)
	}

	// A joiner of this version gets a Reject from a host of the next.
	j, err := newJoiner(config{InputSize: testInputSize, Nonce: 9}, from, 0)
	if err != nil {
		t.Fatal(err)
	}
	reject := append([]byte(nil), want...)
	reject[2] = protocolVersion + 1
	j.Receive(ms, from, reject)
	wantErr := fmt.Sprintf("host rejected the join: it speaks protocol version %d, this is version %d", protocolVersion+1, protocolVersion)
	if j.Err() == nil || j.Err().Error() != wantErr || j.State() != StateEnded {
		t.Errorf("joiner: %v, state %v; want %q, ended", j.Err(), j.State(), wantErr)
	}
}

// A Hello with a forged source address gets one Welcome, no larger, and
// nothing else; the slot it took is free again after JoinTimeout (a
// welcomed joiner may set up its game that long before it answers).
func TestForgedHelloNoAmplification(t *testing.T) {
	host, _ := newHost(config{InputSize: testInputSize, Nonce: 1, Players: 2, Delay: DefaultDelay}, 0)
	var hello packet
	hello.typ, hello.token = msgHello, 5
	b := make([]byte, MaxPacketSize)
	b = b[:hello.encode(b)]
	victim := "198.51.100.7:53"
	host.Receive(0, victim, b)
	sent, bytes := 0, 0
	for now := time.Duration(0); now <= defaultJoinTimeout+time.Second; now += 10 * ms {
		host.Poll(now, sendFunc(func(to string, pkt []byte) {
			if to != victim || len(pkt) > len(b) {
				t.Fatalf("sent %d bytes to %v", len(pkt), to)
			}
			sent++
			bytes += len(pkt)
		}))

	}
	if sent != 1 || bytes > helloSize {
		t.Errorf("%d packets, %d bytes sent to the victim of one forged Hello", sent, bytes)
	}
	if st := host.Stats(); st.Joined != 1 || st.State != StateLobby {
		t.Errorf("the forged slot was not freed: joined %d, %v", st.Joined, st.State)
	}
}
