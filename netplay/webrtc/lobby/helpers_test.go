//go:build !js

package lobby

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// testTimeout bounds each test, -race included.
const testTimeout = 30 * time.Second

// testLobby is a Server behind an httptest server on 127.0.0.1.
type testLobby struct {
	*Server
	http *httptest.Server
	url  string // ws://127.0.0.1:PORT
	log  *syncBuffer
}

// syncBuffer is a bytes.Buffer for a logger's many goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// startLobby starts a lobby with limits; the test's end closes it.
func startLobby(t testing.TB, limits Limits) *testLobby {
	t.Helper()
	return startLobbyConfig(t, Config{Limits: limits})
}

// startLobbyConfig starts a lobby with cfg, logging into the testLobby's
// log; the test's end closes it.
func startLobbyConfig(t testing.TB, cfg Config) *testLobby {
	t.Helper()
	log := &syncBuffer{}
	cfg.Log = slog.New(slog.NewTextHandler(log, nil))
	s, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	l := &testLobby{Server: s, http: hs, url: "ws" + strings.TrimPrefix(hs.URL, "http"), log: log}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
		hs.Close()
	})
	return l
}

// testCtx is a context that ends with the test, or at testTimeout.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// join joins url or fails the test; the test's end closes the client.
func join(t testing.TB, ctx context.Context, url string, opts ...Option) *Client {
	t.Helper()
	c, err := Join(ctx, url, opts...)
	if err != nil {
		t.Fatalf("join %s: %v", url, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// nextEvent waits for c's next event.
func nextEvent(t testing.TB, ctx context.Context, c *Client) Event {
	t.Helper()
	select {
	case e, ok := <-c.Events():
		if !ok {
			t.Fatalf("%s: events closed", c.ID())
		}
		return e
	case <-ctx.Done():
		t.Fatalf("%s: no event: %v", c.ID(), ctx.Err())
	}
	return Event{}
}

// recv waits for c's next signal.
func recv(t testing.TB, ctx context.Context, c *Client) (string, string) {
	t.Helper()
	from, data, err := c.Recv(ctx)
	if err != nil {
		t.Fatalf("%s: recv: %v", c.ID(), err)
	}
	return from, string(data)
}

// dialRaw opens a WebSocket to url without the Client: to send what a
// Client would not.
func dialRaw(t testing.TB, ctx context.Context, url string) *websocket.Conn {
	t.Helper()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	c.SetReadLimit(1 << 20)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// readRaw reads and decodes one message from the lobby.
func readRaw(t testing.TB, ctx context.Context, c *websocket.Conn) ServerMsg {
	t.Helper()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	m, err := DecodeServer(b)
	if err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
	return m
}

// expectRefusal reads the error message, checks that its reason has
// want in it, and that the lobby then closes the connection.
func expectRefusal(t testing.TB, ctx context.Context, c *websocket.Conn, want string) {
	t.Helper()
	m := readRaw(t, ctx, c)
	if m.Type != TypeError || !strings.Contains(m.Reason, want) || !strings.HasPrefix(m.Reason, "lobby: ") {
		t.Fatalf("got %+v, want an error with %q", m, want)
	}
	if _, b, err := c.Read(ctx); err == nil {
		t.Fatalf("after the error: %q, want the connection closed", b)
	} else if ctx.Err() != nil {
		t.Fatalf("connection not closed after the error: %v", err)
	}
}

// waitFor waits until ok holds, checking whenever the scheduler lets it,
// until ctx ends: for state that settles after what the test can see
// (a connection's goroutines ending after the peer saw it close).
func waitFor(t testing.TB, ctx context.Context, what string, ok func() bool) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !ok() {
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v", what, ctx.Err())
		}
	}
}

// waitGoroutines waits until at most n goroutines run, and prints them
// all when they do not come down before ctx ends.
func waitGoroutines(t testing.TB, ctx context.Context, n int) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for runtime.NumGoroutine() > n {
		select {
		case <-tick.C:
		case <-ctx.Done():
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, want at most %d:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
	}
}

// refusedReason returns err's text when it is a refusal.
func refusedReason(t testing.TB, err error) string {
	t.Helper()
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("got %v, want a refusal", err)
	}
	return err.Error()
}
