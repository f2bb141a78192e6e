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

// framer is a session or a spectator: what pumpUntil runs frames of.
type framer interface {
	Frame(now time.Duration, due, maxLoops int) int
}

// pumpUntil runs frames of the sessions and spectators (10 ms apart at
// most, running no tick) until done, for at most 5 s and 500 frames;
// wait is the socket to wait on between frames.
func pumpUntil(t *testing.T, clock realClock, done func() bool, wait *Conn, fs ...framer) {
	t.Helper()
	deadline := clock.Now() + 5*time.Second
	for frames := 0; !done(); frames++ {
		if clock.Now() > deadline || frames > 500 {
			t.Fatalf("not done after %v and %d frames", clock.Now(), frames)
		}
		for _, f := range fs {
			f.Frame(clock.Now(), 0, 0)
		}
		wait.Wait(10 * time.Millisecond)
	}
}

// A joiner or a spectator whose Conn is connected to an address where
// nothing listens ends at once with ErrUnreachable (the system's ICMP
// port unreachable, read as a refused connection), not after its
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
			if got, err := c.Connect(dead); err != nil || got != dead {
				t.Fatalf("%s %s: Connect: %q, %v", listen, who, got, err)
			}
			var f framer
			var errOf func() error
			cfg := netplay.Config{InputSize: 3, Nonce: 2, JoinTimeout: time.Minute}
			if who == "joiner" {
				s, err := netplay.Join(cfg, nil, c, dead, clock.Now())
				if err != nil {
					t.Fatal(err)
				}
				f, errOf = s, s.Err
			} else {
				sp, err := netplay.Watch(cfg, nil, c, dead, clock.Now())
				if err != nil {
					t.Fatal(err)
				}
				f, errOf = sp, sp.Err
			}
			pumpUntil(t, clock, func() bool { return errOf() != nil }, c, f)
			var un *netplay.Error
			if !errors.As(errOf(), &un) || un.Reason != netplay.ErrUnreachable || un.Host != dead {
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
// no spectators is refused at once.
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
	host, err := jc.Connect(hc.LocalAddr())
	if err != nil {
		t.Fatal(err)
	}
	cfg := netplay.Config{InputSize: 3, Nonce: 1, Players: 2, Delay: netplay.DefaultDelay, Tick: tick, Netcode: netplay.Lockstep}
	hs, _ := netplay.Host(cfg, &botGame{}, hc, clock.Now())
	js, _ := netplay.Join(netplay.Config{InputSize: 3, Nonce: 2}, &botGame{}, jc, host, clock.Now())
	pumpUntil(t, clock, func() bool { return hs.State() == netplay.StateRunning && js.State() == netplay.StateRunning }, hc, hs, js)

	sc, err := Listen(":0", Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	if _, err := sc.Connect(hc.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	sp, _ := netplay.Watch(netplay.Config{InputSize: 3, Nonce: 3, JoinTimeout: time.Minute}, nil, sc, host, clock.Now())
	pumpUntil(t, clock, func() bool { return sp.Err() != nil }, hc, sp, hs, js)
	var dropped *netplay.Error
	if !errors.As(sp.Err(), &dropped) || dropped.Reason != netplay.ErrFull || dropped.What != "no spectators" {
		t.Errorf("spectator of a host that serves none: %v", sp.Err())
	}
	if hs.Err() != nil || js.Err() != nil || hs.State() != netplay.StateRunning {
		t.Errorf("the players: %v, %v, %v", hs.Err(), js.Err(), hs.State())
	}
}
