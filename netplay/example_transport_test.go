package netplay_test

import (
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
)

// chanHub is a network of Go channels, and chanPort one peer's Transport
// on it: the smallest transport there is, written as docs/NETPLAY.md's
// "Writing a transport" says. A real one (a WebRTC data channel, a
// relay, Steam's sockets) keeps the same shape: Send never blocks and
// may drop, Recv never blocks, what waits is bounded, and each peer is
// named by an string of the transport's choosing.
type chanHub struct{ ports map[string]*chanPort }

type datagram struct {
	from string
	pkt  []byte
}

type chanPort struct {
	hub     *chanHub
	addr    string
	in      chan datagram // bounded: a full one drops
	dropped int
}

func (h *chanHub) port(a string) *chanPort {
	p := &chanPort{hub: h, addr: a, in: make(chan datagram, 64)}
	h.ports[a] = p
	return p
}

// Send copies pkt (it is lent for the call only) and drops it when the
// peer is unknown or its queue is full: the session resends.
func (p *chanPort) Send(to string, pkt []byte) {
	q := p.hub.ports[to]
	if q == nil {
		p.dropped++
		return
	}
	select {
	case q.in <- datagram{p.addr, append([]byte(nil), pkt...)}:
	default:
		p.dropped++
	}
}

// Recv takes what has arrived, without waiting.
func (p *chanPort) Recv() (string, []byte, bool) {
	select {
	case d := <-p.in:
		return d.from, d.pkt, true
	default:
		return "", nil, false
	}
}

// Unreachable: channels cannot tell that nobody listens.
func (p *chanPort) Unreachable() (string, bool) { return "", false }

// A transport of one's own: two peers play 60 ticks of rollback over
// chanPorts. The joiner makes its game from the host's settings (here,
// the sum to start from): it joins without one, and gives it with Play
// once Config has them.
func ExampleTransport() {
	hub := &chanHub{ports: map[string]*chanPort{}}
	const tick = 20 * time.Millisecond
	games := []*counterGame{{now: counterState{Sum: 7}}, nil}
	host, _ := netplay.Host(netplay.Config{InputSize: 1, Tick: tick, Players: 2, TickLimit: 60, Settings: []byte{7}},
		games[0], hub.port("alice"), 0)
	join, _ := netplay.Join(netplay.Config{InputSize: 1}, nil, hub.port("bob"), "alice", 0) // the host's address
	sessions := []*netplay.Session{host, join}
	games[0].me = host
	counted := []int{0, 0}
	for now := time.Duration(0); !host.Done() || !join.Done(); now += 10 * time.Millisecond {
		if c := join.Config(); games[1] == nil && join.State() == netplay.StateLobby {
			games[1] = &counterGame{now: counterState{Sum: uint32(c.Settings[0])}, me: join}
			join.Play(games[1]) // the joiner is ready: the game can start
		}
		for i, s := range sessions {
			due := 0
			if st := s.Stats(); st.State == netplay.StateRunning {
				ticks := int((now - st.StartedAt) / tick)
				due, counted[i] = ticks-counted[i], ticks
			}
			s.Frame(now, due, 5)
		}
	}
	fmt.Println(games[0].now == games[1].now, games[0].now.Tick, host.Err(), join.Err())
	// Output:
	// true 60 <nil> <nil>
}
