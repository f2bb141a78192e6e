package netsim

import (
	"fmt"
	"time"
)

// Net is a network in memory, for tests and examples: every Transport
// it makes reaches every other one, each datagram through a Path with
// the network's Conditions on its way in. Its time is the caller's
// (SetTime), so a test drives it with generated timestamps, and its
// randomness comes from its seed alone. Like a Transport, it is used from
// one goroutine.
type Net struct {
	c     Conditions
	seed  uint64
	now   time.Duration
	ports map[string]*Port
}

// Port is one peer's Transport on a Net.
type Port struct {
	net  *Net
	addr string
	in   *Path
	// Unknown counts datagrams sent to an address with no port: dropped.
	Unknown int64
}

// NewNet returns a network whose datagrams meet conditions c, the
// randomness coming from seed.
func NewNet(c Conditions, seed uint64) (*Net, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Net{c: c, seed: seed, ports: map[string]*Port{}}, nil
}

// SetTime sets the network's clock: the time Send puts a datagram on its
// way, and by which Recv takes those whose delay has passed.
func (m *Net) SetTime(now time.Duration) { m.now = now }

// Port returns the Transport of the peer at addr, made on first use. It
// holds up to DefaultCapacity datagrams on their way in.
func (m *Net) Port(addr string) (*Port, error) {
	if p := m.ports[addr]; p != nil {
		return p, nil
	}
	if addr == "" {
		return nil, fmt.Errorf("%w: no address", ErrInvalid)
	}
	in, err := NewPath(m.c, m.seed^hashAddr(addr), 0)
	if err != nil {
		return nil, err
	}
	p := &Port{net: m, addr: addr, in: in}
	m.ports[addr] = p
	return p, nil
}

// hashAddr is FNV-1a of a: each port's own randomness.
func hashAddr(a string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(a); i++ {
		h = (h ^ uint64(a[i])) * 1099511628211
	}
	return h
}

// string returns the port's address.
func (p *Port) Addr() string { return p.addr }

// Send puts a copy of pkt on its way to the port at to (dropped and
// counted in Unknown if there is none).
func (p *Port) Send(to string, pkt []byte) {
	q := p.net.ports[to]
	if q == nil {
		p.Unknown++
		return
	}
	q.in.Send(p.net.now, p.addr, to, pkt)
}

// Recv takes the next datagram whose delay has passed.
func (p *Port) Recv() (from string, pkt []byte, ok bool) {
	from, _, pkt, ok = p.in.Next(p.net.now)
	return from, pkt, ok
}

// Unreachable reports nothing: a Net cannot tell.
func (p *Port) Unreachable() (string, bool) { return "", false }

// Stats returns what the datagrams on their way to this port met.
func (p *Port) Stats() Stats { return p.in.Stats() }
