//go:build !js

package room

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/webrtc"
)

// silentLobby listens on 127.0.0.1 and accepts connections that it
// never answers: a lobby that hangs. The test's end closes it all.
func silentLobby(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return ln.Addr().String()
}

// The demo's timeout for entering a room (webrtc.Config.Timeout, which
// the demo sets) bounds the whole entry: a lobby that never answers ends
// it with an error within that timeout, not after the lobby client's own
// (lobby.JoinTimeout, 30 s).
func TestEnterGivesUpWithinTheTimeout(t *testing.T) {
	addr := silentLobby(t)
	const timeout = 300 * time.Millisecond
	type result struct {
		err  error
		took time.Duration
	}
	done := make(chan result, 1)
	go func() {
		start := time.Now()
		r, err := Enter(context.Background(), "ws://"+addr+"/r1?players=2", webrtc.Config{Timeout: timeout})
		if err == nil {
			r.Conn.Close()
		}
		done <- result{err, time.Since(start)}
	}()
	const bound = 5 * time.Second // the timeout and then some, for a loaded machine
	select {
	case r := <-done:
		if r.err == nil || strings.Contains(r.err.Error(), "\n") {
			t.Fatalf("Enter at a lobby that never answers: %v, want a one-line error", r.err)
		}
		if !errors.Is(r.err, context.DeadlineExceeded) || r.took < timeout {
			t.Errorf("Enter ended after %v with %v, want its timeout of %v", r.took, r.err, timeout)
		}
		t.Logf("%v after %v", r.err, r.took.Round(time.Millisecond))
	case <-time.After(bound):
		t.Fatalf("Enter at a lobby that never answers, with a timeout of %v: still waiting after %v", timeout, bound)
	}
}
