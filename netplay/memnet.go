package netplay

import (
	"fmt"
	"time"
)

// MemNet is a network in memory, for tests and examples: every Transport
// it makes reaches every other one, each datagram through a NetSim with
// the network's Conditions on its way in. Its time is the caller's
// (SetTime), so a test drives it with generated timestamps, and its
// randomness comes from its seed alone. Like a Transport, it is used from
// one goroutine.
type MemNet struct {
	c     Conditions
	seed  uint64
	now   time.Duration
	ports map[Addr]*MemPort
}

// MemPort is one peer's Transport on a MemNet.
type MemPort struct {
	net  *MemNet
	addr Addr
	in   *NetSim
	// Unknown counts datagrams sent to an address with no port: dropped.
	Unknown int64
}

// NewMemNet returns a network whose datagrams meet conditions c, the
// randomness coming from seed.
func NewMemNet(c Conditions, seed uint64) (*MemNet, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &MemNet{c: c, seed: seed, ports: map[Addr]*MemPort{}}, nil
}

// SetTime sets the network's clock: the time Send puts a datagram on its
// way, and by which Recv takes those whose delay has passed.
func (m *MemNet) SetTime(now time.Duration) { m.now = now }

// Port returns the Transport of the peer at addr, made on first use. It
// holds up to DefaultNetSimCapacity datagrams on their way in.
func (m *MemNet) Port(addr Addr) (*MemPort, error) {
	if p := m.ports[addr]; p != nil {
		return p, nil
	}
	if addr == "" {
		return nil, fmt.Errorf("%w: no address", ErrInvalid)
	}
	in, err := NewNetSim(m.c, m.seed^hashAddr(addr), 0)
	if err != nil {
		return nil, err
	}
	p := &MemPort{net: m, addr: addr, in: in}
	m.ports[addr] = p
	return p, nil
}

// hashAddr is FNV-1a of a: each port's own randomness.
func hashAddr(a Addr) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(a); i++ {
		h = (h ^ uint64(a[i])) * 1099511628211
	}
	return h
}

// Addr returns the port's address.
func (p *MemPort) Addr() Addr { return p.addr }

// Send puts a copy of pkt on its way to the port at to (dropped and
// counted in Unknown if there is none).
func (p *MemPort) Send(to Addr, pkt []byte) {
	q := p.net.ports[to]
	if q == nil {
		p.Unknown++
		return
	}
	q.in.Send(p.net.now, p.addr, to, pkt)
}

// Recv takes the next datagram whose delay has passed.
func (p *MemPort) Recv() (from Addr, pkt []byte, ok bool) {
	from, _, pkt, ok = p.in.Next(p.net.now)
	return from, pkt, ok
}

// Unreachable reports nothing: a MemNet cannot tell.
func (p *MemPort) Unreachable() (Addr, bool) { return "", false }

// Stats returns what the datagrams on their way to this port met.
func (p *MemPort) Stats() NetSimStats { return p.in.Stats() }
