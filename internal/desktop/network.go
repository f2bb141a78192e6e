package desktop

import (
	"crypto/rand"
	"encoding/binary"
	"net/netip"
	"time"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/udp"
)

// udpNetwork is the demo's network: UDP sockets (package netplay/udp).
type udpNetwork struct{}

var _ demo.Network = udpNetwork{}

func (udpNetwork) Listen(address string, cond netplay.Conditions, seed uint64) (demo.Conn, error) {
	c, err := udp.Listen(address, udp.Config{Outgoing: cond, Incoming: cond, Seed: seed})
	if err != nil {
		return nil, err
	}
	return &udpConn{Conn: c}, nil
}

func (udpNetwork) Resolve(hostport string) (netip.AddrPort, error) { return udp.Resolve(hostport) }

// Nonce returns 64 random bits, never 0.
func (udpNetwork) Nonce() (uint64, error) {
	var b [8]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			return 0, err
		}
		if v := binary.LittleEndian.Uint64(b[:]); v != 0 {
			return v, nil
		}
	}
}

// udpConn is a udp.Conn carrying a session's datagrams.
type udpConn struct {
	*udp.Conn
	// The endpoint last served, as both interfaces. A conversion from
	// one interface type to another goes through the runtime, which at
	// random (about one call in a thousand) grows a cache there: an
	// allocation long after the warm-up. Converting once per endpoint
	// avoids it.
	last demo.Endpoint
	ep   udp.Endpoint
}

func (c *udpConn) endpoint(e demo.Endpoint) udp.Endpoint {
	if e != c.last {
		c.last, c.ep = e, e
	}
	return c.ep
}

func (c *udpConn) Read(now time.Duration, e demo.Endpoint) int {
	return c.Conn.Read(now, c.endpoint(e))
}
func (c *udpConn) Write(now time.Duration, e demo.Endpoint) { c.Conn.Write(now, c.endpoint(e)) }
