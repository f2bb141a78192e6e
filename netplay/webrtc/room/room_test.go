//go:build !js

package room_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/webrtc"
	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
	"github.com/interpdemo/interpdemo/netplay/webrtc/room"
)

// startLobby serves a lobby on 127.0.0.1 at a port of its choosing and
// returns its ws:// base URL.
func startLobby(t *testing.T) string {
	t.Helper()
	return startLobbyConfig(t, lobby.Config{})
}

// startLobbyConfig is startLobby with cfg.
func startLobbyConfig(t *testing.T, cfg lobby.Config) string {
	t.Helper()
	base, _ := serveLobby(t, cfg)
	return base
}

// serveLobby is startLobbyConfig that also returns a stop, which closes
// the lobby and its server (the test's cleanup does too).
func serveLobby(t *testing.T, cfg lobby.Config) (base string, stop func()) {
	t.Helper()
	srv, err := lobby.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln)
	stop = func() { srv.Close(); hs.Close() }
	t.Cleanup(stop)
	return "ws://" + ln.Addr().String(), stop
}

// Two peers enter a room: the first hosts, the second connects to it,
// and a datagram goes each way over the data channels, named by the
// room's IDs. A third is refused, with the lobby's reason.
func TestEnterJoinsHostAndJoiner(t *testing.T) {
	base := startLobby(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	url := base + "/r1?players=2"
	host, err := room.Enter(ctx, url, webrtc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	if !host.IsHost() || host.Players() != 2 || host.Host() != host.LocalAddr() || host.Spectator() {
		t.Fatalf("host: IsHost %v, Players %d, Host %q, LocalAddr %q", host.IsHost(), host.Players(), host.Host(), host.LocalAddr())
	}
	joiner, err := room.Enter(ctx, url, webrtc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer joiner.Close()
	if joiner.IsHost() || joiner.Host() != host.LocalAddr() || joiner.LocalAddr() == host.LocalAddr() {
		t.Fatalf("joiner: IsHost %v, Host %q (the host is %q), LocalAddr %q", joiner.IsHost(), joiner.Host(), host.LocalAddr(), joiner.LocalAddr())
	}

	exchange := func(from, to *room.Room, msg string) {
		t.Helper()
		for tries := 0; tries < 200; tries++ { // 2 s: the host's side opens as the joiner's does
			from.Send(to.LocalAddr(), []byte(msg))
			time.Sleep(10 * time.Millisecond)
			if addr, pkt, ok := to.Recv(); ok {
				if addr != from.LocalAddr() || string(pkt) != msg {
					t.Fatalf("got %q from %q, want %q from %q", pkt, addr, msg, from.LocalAddr())
				}
				return
			}
		}
		t.Fatalf("%q from %q never came", msg, from.LocalAddr())
	}
	exchange(joiner, host, "to the host")
	exchange(host, joiner, "to the joiner")

	_, err = room.Enter(ctx, url, webrtc.Config{})
	if !errors.Is(err, lobby.ErrRefused) || !strings.Contains(err.Error(), "full") {
		t.Fatalf("a third player in a room of 2: %v, want the lobby's refusal", err)
	}
}

// With no lobby there, Enter fails within its ctx, with one line.
func TestEnterNoLobby(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = room.Enter(ctx, "ws://"+addr+"/r1", webrtc.Config{})
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "lobby: ") {
		t.Fatalf("no lobby: %v, want a one-line lobby error", err)
	}
}

// Relay only with no TURN server, neither the caller's nor the lobby's:
// Enter says so at once, after the welcome. With the lobby's TURN server
// (and a credential it made for this peer) the first to enter hosts the
// room, its TURN server not asked until a joiner comes.
func TestEnterRelayOnlyNeedsATURNServer(t *testing.T) {
	base := startLobbyConfig(t, lobby.Config{ICE: []lobby.ICEServer{{URLs: []string{"stun:127.0.0.1:9"}}}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := room.Enter(ctx, base+"/r1", webrtc.Config{RelayOnly: true})
	want := "room: relay only, but neither the ICE servers given (0) nor the lobby's (1) has a TURN server"
	if err == nil || err.Error() != want {
		t.Fatalf("relay only, a lobby with a STUN server alone: %v, want %q", err, want)
	}
	withTURN := startLobbyConfig(t, lobby.Config{ICE: []lobby.ICEServer{{URLs: []string{"turn:127.0.0.1:9?transport=udp"}}}, TURNSecret: "s"})
	short, cancelShort := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancelShort()
	r, err := room.Enter(short, withTURN+"/r1", webrtc.Config{RelayOnly: true, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("relay only, the lobby's TURN server: %v, want a host waiting", err)
	}
	r.Close()
}

var _ netplay.Transport = (*room.Room)(nil)

// A host that leaves the room before answering: the joiner's Enter fails
// at once with the lobby's reason, not after its timeout with "no answer".
func TestEnterHostLeavesBeforeAnswering(t *testing.T) {
	base := startLobby(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	url := base + "/r1?players=2"
	host, err := lobby.Join(ctx, url) // a host that reads the offer and answers nothing
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	type result struct {
		err  error
		took time.Duration
	}
	done := make(chan result, 1)
	go func() {
		start := time.Now()
		r, err := room.Enter(ctx, url, webrtc.Config{Timeout: 15 * time.Second})
		if err == nil {
			r.Close()
		}
		done <- result{err, time.Since(start)}
	}()
	if _, _, err := host.Recv(ctx); err != nil { // the joiner's offer: its Dial waits for the answer
		t.Fatal(err)
	}
	host.Close()
	select {
	case r := <-done:
		if !errors.Is(r.err, lobby.ErrHostLeft) || strings.Contains(r.err.Error(), "\n") {
			t.Fatalf("Enter: %v, want the lobby's ErrHostLeft in one line", r.err)
		}
		if r.took > 10*time.Second {
			t.Fatalf("Enter took %v, its timeout 15 s", r.took)
		}
		t.Logf("%v after %v", r.err, r.took.Round(time.Millisecond))
	case <-ctx.Done():
		t.Fatal("Enter did not return")
	}
}

// A host waiting for its players hears when the lobby goes away: nobody
// can join it any more, and SignalingErr says why.
func TestHostHearsTheLobbyGo(t *testing.T) {
	base, stop := serveLobby(t, lobby.Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	host, err := room.Enter(ctx, base+"/r1?players=2", webrtc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	if err := host.SignalingErr(); err != nil {
		t.Fatalf("SignalingErr %v with the lobby there", err)
	}
	stop()
	for host.SignalingErr() == nil {
		select {
		case <-ctx.Done():
			t.Fatal("the host never heard that the lobby went away")
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Log(host.SignalingErr())
}
