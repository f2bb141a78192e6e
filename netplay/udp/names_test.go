package udp

import (
	"net"
	"net/netip"
	"testing"
	"time"
)

// A flood of datagrams from many source addresses (a spoofed flood, or
// a scan) must not grow what a Conn remembers of its peers without bound:
// after datagrams from three times maxNames addresses it remembers at
// most maxNames. Every datagram still comes with its sender's address,
// and a peer known before the flood keeps its own after it.
func TestNamesBoundedUnderFloodFromManyAddresses(t *testing.T) {
	c, err := Listen("127.0.0.1:0", Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	to := c.local
	deadline := time.Now().Add(20 * time.Second)

	// recvFrom waits for the next datagram and checks its sender.
	recvFrom := func(want string) {
		t.Helper()
		for {
			from, _, ok := c.Recv()
			if ok {
				if from != want {
					t.Fatalf("a datagram from %s came as from %q", want, from)
				}
				return
			}
			if d := time.Until(deadline); d <= 0 || !c.Wait(d) {
				t.Fatalf("the datagram from %s never came", want)
			}
		}
	}
	send := func(s *net.UDPConn) string {
		t.Helper()
		if _, err := s.WriteToUDPAddrPort([]byte("flood"), to); err != nil {
			t.Fatal(err)
		}
		return string(s.LocalAddr().String())
	}
	loopback := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}

	friend, err := net.ListenUDP("udp4", loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer friend.Close()
	recvFrom(send(friend))

	// One socket at a time, each on a port of the system's choosing:
	// thousands of source addresses without thousands of descriptors.
	seen := map[netip.AddrPort]bool{}
	for range 3 * maxNames {
		s, err := net.ListenUDP("udp4", loopback)
		if err != nil {
			t.Fatal(err)
		}
		from := send(s)
		seen[s.LocalAddr().(*net.UDPAddr).AddrPort()] = true
		s.Close()
		recvFrom(from)
	}
	if len(seen) <= 2*maxNames {
		t.Fatalf("the flood came from %d addresses, want more than %d", len(seen), 2*maxNames)
	}
	recvFrom(send(friend))
	if n := len(c.names); n > maxNames {
		t.Errorf("after datagrams from %d addresses the Conn remembers %d names, want at most %d", len(seen)+1, n, maxNames)
	}
}
