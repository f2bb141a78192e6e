package udp

import (
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
)

// deadAddr is an address on 127.0.0.1 where nothing listens: a port the
// system picked for a socket that is closed again.
func deadAddr(t *testing.T) string {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	a := c.LocalAddr().(*net.UDPAddr).AddrPort()
	c.Close()
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port()).String()
}

// pumpUntil runs frames of the endpoints on their Conns (10 ms apart at
// most) until done, for at most 5 s and 500 frames.
func pumpUntil(t *testing.T, clock realClock, done func() bool, pairs ...any) {
	t.Helper()
	deadline := clock.Now() + 5*time.Second
	for frames := 0; !done(); frames++ {
		if clock.Now() > deadline || frames > 500 {
			t.Fatalf("not done after %v and %d frames", clock.Now(), frames)
		}
		for i := 0; i < len(pairs); i += 2 {
			c, e := pairs[i].(*Conn), pairs[i+1].(netplay.Endpoint)
			netplay.Read(clock.Now(), c, e)
			netplay.Write(clock.Now(), c, e)
		}
		pairs[0].(*Conn).Wait(10 * time.Millisecond)
	}
}

// A joiner or a spectator whose Conn is connected to an address where
// nothing listens ends at once with an UnreachableError (the system's
// ICMP port unreachable, read as a refused connection), not after its
// JoinTimeout; on an IPv4 socket and on a dual-stack one (":0", the
// demo's).
func TestConnectDeadAddressSaidAtOnce(t *testing.T) {
	for _, listen := range []string{"127.0.0.1:0", ":0"} {
		for _, who := range []string{"joiner", "spectator"} {
			clock := newRealClock()
			dead := deadAddr(t)
			c, err := Listen(listen, Config{})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Connect(dead); err != nil {
				t.Fatalf("%s %s: Connect: %v", listen, who, err)
			}
			var e netplay.Endpoint
			var errOf func() error
			if who == "joiner" {
				s, err := netplay.NewJoiner(netplay.Config{InputSize: 3, Nonce: 2, JoinTimeout: time.Minute}, dead, clock.Now())
				if err != nil {
					t.Fatal(err)
				}
				e, errOf = s, s.Err
			} else {
				sp, err := netplay.NewSpectator(netplay.SpectatorConfig{InputSize: 3, Nonce: 2, JoinTimeout: time.Minute}, dead, clock.Now())
				if err != nil {
					t.Fatal(err)
				}
				e, errOf = sp, sp.Err
			}
			pumpUntil(t, clock, func() bool { return errOf() != nil }, c, e)
			var un *netplay.UnreachableError
			if !errors.As(errOf(), &un) || un.Host != dead {
				t.Errorf("%s %s: %v", listen, who, errOf())
			}
			if n := c.Stats().Written; n > 20 {
				t.Errorf("%s %s: %d Hellos before the refusal was heard", listen, who, n)
			}
			t.Logf("%s %s: %v after %v, %d datagrams", listen, who, errOf(), clock.Now(), c.Stats().Written)
			c.Close()
		}
	}
}

// A connected joiner plays as before with a host that listens (its
// datagrams come from that address); a spectator of a host that serves
// no spectators (a Session without a Broadcast) is refused at once.
func TestConnectedJoinerAndRefusedSpectator(t *testing.T) {
	clock := newRealClock()
	hc, err := Listen("127.0.0.1:0", Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer hc.Close()
	jc, err := Listen(":0", Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer jc.Close()
	if err := jc.Connect(hc.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	hs, _ := netplay.NewHost(netplay.Config{InputSize: 3, Nonce: 1, Players: 2, Delay: netplay.DefaultDelay}, clock.Now())
	js, _ := netplay.NewJoiner(netplay.Config{InputSize: 3, Nonce: 2}, hc.LocalAddr(), clock.Now())
	pumpUntil(t, clock, func() bool { return hs.State() == netplay.StateRunning && js.State() == netplay.StateRunning }, hc, hs, jc, js)

	sc, err := Listen(":0", Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	if err := sc.Connect(hc.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	sp, _ := netplay.NewSpectator(netplay.SpectatorConfig{InputSize: 3, Nonce: 3, JoinTimeout: time.Minute}, hc.LocalAddr(), clock.Now())
	pumpUntil(t, clock, func() bool { return sp.Err() != nil }, sc, sp, hc, hs, jc, js)
	var dropped *netplay.DroppedError
	if !errors.As(sp.Err(), &dropped) || dropped.Why != netplay.DropNoSpectators {
		t.Errorf("spectator of a host that serves none: %v", sp.Err())
	}
	if hs.Err() != nil || js.Err() != nil || hs.State() != netplay.StateRunning {
		t.Errorf("the players: %v, %v, %v", hs.Err(), js.Err(), hs.State())
	}
}
