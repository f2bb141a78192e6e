//go:build !js

package webrtc

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/pion/turn/v5"
	"github.com/pion/webrtc/v4"
)

// The one user of the test TURN server.
const (
	turnRealm    = "interpdemo.test"
	turnUser     = "alice"
	turnPassword = "s3cret"
)

// turnServer is a real TURN server, pion's, listening on UDP 127.0.0.1
// and relaying on 127.0.0.1, with one static long-term credential. It
// counts what it does, so that a test can tell a relayed path from a
// direct one.
type turnServer struct {
	srv  *turn.Server
	addr string // host:port

	allocated atomic.Int64 // relay sockets made: one an allocation
	toPeers   atomic.Int64 // bytes the relay sockets sent to peers
	fromPeers atomic.Int64 // bytes the relay sockets received from peers
	refused   atomic.Int64 // requests refused for a wrong credential
}

// startTURN starts a TURN server on a port the OS picks, closed when the
// test ends.
func startTURN(t *testing.T) *turnServer {
	t.Helper()
	conn, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &turnServer{addr: conn.LocalAddr().String()}
	key := turn.GenerateAuthKey(turnUser, turnRealm, turnPassword)
	ts.srv, err = turn.NewServer(turn.ServerConfig{
		Realm: turnRealm,
		AuthHandler: func(ra *turn.RequestAttributes) (string, []byte, bool) {
			if ra.Username != turnUser || ra.Realm != turnRealm {
				return "", nil, false
			}
			return ra.Username, key, true
		},
		EventHandler: turn.EventHandler{
			OnAuth: func(_, _ net.Addr, _, _, _, _ string, verdict bool) {
				if !verdict {
					ts.refused.Add(1)
				}
			},
		},
		PacketConnConfigs: []turn.PacketConnConfig{{
			PacketConn: conn,
			RelayAddressGenerator: &countingRelays{
				RelayAddressGeneratorStatic: turn.RelayAddressGeneratorStatic{
					RelayAddress: net.IPv4(127, 0, 0, 1),
					Address:      "127.0.0.1",
				},
				ts: ts,
			},
		}},
	})
	if err != nil {
		_ = conn.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ts.srv.Close() })
	return ts
}

// config is a relay-only Config that uses the server with the given
// password.
func (ts *turnServer) config(password string, timeout time.Duration) Config {
	return Config{
		ICEServers: []ICEServer{{
			URLs:       []string{"turn:" + ts.addr + "?transport=udp"},
			Username:   turnUser,
			Credential: password,
		}},
		Timeout:         timeout,
		IncludeLoopback: true,
		RelayOnly:       true,
		loopbackOnly:    true, // no candidate, nor TURN client socket, off 127.0.0.1
	}
}

// countingRelays makes the relay sockets of allocations on 127.0.0.1,
// and counts them and the bytes through them.
type countingRelays struct {
	turn.RelayAddressGeneratorStatic
	ts *turnServer
}

func (r *countingRelays) AllocatePacketConn(conf turn.AllocateListenerConfig) (net.PacketConn, net.Addr, error) {
	conn, addr, err := r.RelayAddressGeneratorStatic.AllocatePacketConn(conf)
	if err != nil {
		return nil, nil, err
	}
	r.ts.allocated.Add(1)
	return countingConn{PacketConn: conn, ts: r.ts}, addr, nil
}

// countingConn is a relay socket that counts the bytes through it.
type countingConn struct {
	net.PacketConn
	ts *turnServer
}

func (c countingConn) ReadFrom(b []byte) (int, net.Addr, error) {
	n, addr, err := c.PacketConn.ReadFrom(b)
	c.ts.fromPeers.Add(int64(n))
	return n, addr, err
}

func (c countingConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	n, err := c.PacketConn.WriteTo(b, addr)
	c.ts.toPeers.Add(int64(n))
	return n, err
}

// selectedPair returns the candidate pair tr's connection to addr uses.
func selectedPair(t *testing.T, tr *Transport, addr string) *webrtc.ICECandidatePair {
	t.Helper()
	tr.mu.RLock()
	p := tr.peers[addr]
	tr.mu.RUnlock()
	if p == nil {
		t.Fatalf("no connection to %q", addr)
	}
	pair, err := p.link.(*pionLink).pc.SCTP().Transport().ICETransport().GetSelectedCandidatePair()
	if err != nil || pair == nil {
		t.Fatalf("connection to %q: selected candidate pair %v, %v", addr, pair, err)
	}
	return pair
}

// TestRelayOnly connects a host and a joiner, each relay only, through
// a real TURN server, and proves that their datagrams went through it:
// their connections use a pair of relayed candidates, the server made
// allocations, and its relay sockets carried at least every byte that
// arrived.
func TestRelayOnly(t *testing.T) {
	ts := startTURN(t)
	host, joiners := star(t, 1, ts.config(turnPassword, 10*time.Second))
	j := joiners[0]
	within(t, 5*time.Second, "host sees j1", func() bool { return host.Stats().Peers == 1 })
	for _, n := range []int{1, 100, netplay.MaxPacketSize} {
		deliver(t, j, "h", host, "j1", packet(n, byte(n)))
		deliver(t, host, "j1", j, "h", packet(n, byte(n+1)))
	}
	for _, c := range []struct {
		tr   *Transport
		peer string
	}{{host, "j1"}, {j, "h"}} {
		pair := selectedPair(t, c.tr, c.peer)
		if pair.Local.Typ != webrtc.ICECandidateTypeRelay || pair.Remote.Typ != webrtc.ICECandidateTypeRelay {
			t.Errorf("connection to %q: candidate pair %v, want relay to relay", c.peer, pair)
			continue
		}
		t.Logf("connection to %q: %v", c.peer, pair)
	}
	hs, js := host.Stats(), j.Stats()
	arrived := hs.ReceivedBytes + js.ReceivedBytes
	if arrived == 0 {
		t.Fatalf("no datagram arrived: host %+v, joiner %+v", hs, js)
	}
	// Every datagram that arrived left a relay socket towards the other
	// peer's relay address, and was received there: each crossed two.
	allocated, active := ts.allocated.Load(), ts.srv.AllocationCount()
	to, from := ts.toPeers.Load(), ts.fromPeers.Load()
	counts := fmt.Sprintf("TURN server: %d allocations made, %d active, %d bytes relayed to peers and %d from them; %d bytes arrived",
		allocated, active, to, from, arrived)
	if allocated < 2 || active < 2 || to < arrived || from < arrived {
		t.Error(counts)
	} else {
		t.Log(counts)
	}
	if ts.refused.Load() != 0 {
		t.Errorf("TURN server refused %d requests", ts.refused.Load())
	}
}

// TestRelayOnlyWrongCredential: with a credential the TURN server
// refuses, a relay-only peer has no candidate at all, and Dial fails
// within its Timeout, without hanging; the host gives up on the joiner
// after its own.
func TestRelayOnlyWrongCredential(t *testing.T) {
	const timeout = 3 * time.Second
	ts := startTURN(t)
	cfg := ts.config("wrong", timeout)
	h := newHub()
	ctx, cancel := context.WithTimeout(context.Background(), timeout+10*time.Second)
	defer cancel()
	host, err := Host(ctx, h.join("h"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	start := time.Now()
	j, err := Dial(ctx, h.join("j1"), "h", cfg)
	elapsed := time.Since(start)
	if err == nil {
		_ = j.Close()
		t.Fatal("Dial connected with a wrong credential")
	}
	t.Logf("after %v: %v", elapsed.Round(time.Millisecond), err)
	want := fmt.Sprintf(`webrtc: no connection to host "h" within %v (`, timeout)
	if !strings.HasPrefix(err.Error(), want) && !strings.HasPrefix(err.Error(), `webrtc: no connection to host "h": lost after `) {
		t.Errorf("err %v, want %s...", err, want)
	}
	// Dial's timer starts once its offer is sent, which takes
	// milliseconds; a second is slack for a loaded machine.
	if elapsed > timeout+time.Second {
		t.Errorf("Dial failed after %v, Timeout %v", elapsed, timeout)
	}
	within(t, 5*time.Second, "host gives up on j1", func() bool {
		a, ok := host.Unreachable()
		return ok && a == "j1"
	})
	// It failed for the credential: the server refused it, and relayed
	// nothing.
	within(t, 5*time.Second, "server refuses the credential", func() bool { return ts.refused.Load() > 0 })
	if n := ts.allocated.Load(); n != 0 {
		t.Errorf("TURN server made %d allocations for a wrong credential", n)
	}
}
