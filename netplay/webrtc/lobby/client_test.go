//go:build !js

package lobby

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// Send checks what it sends, without the network.
func TestSendChecks(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{})
	c := join(t, ctx, l.url+"/r")
	for _, tc := range []struct {
		to, data, err string
	}{
		{"", `{}`, `lobby: send to "": not a peer ID`},
		{"p 2", `{}`, `lobby: send to "p 2": not a peer ID`},
		{"p2", `[]`, "lobby: send to p2: signal data is not a JSON object"},
		{"p2", ``, "lobby: send to p2: signal data is not JSON"},
		{"p2", `{"a":1}x`, "lobby: send to p2: signal data is not JSON"},
		{"p2", "{\"\xff\":1}", "lobby: send to p2: signal data is not JSON"},
		{"p2", `{"x":"` + strings.Repeat("y", MaxData) + `"}`, "lobby: send to p2: signal data of 16392 bytes (at most 16384)"},
	} {
		if err := c.Send(tc.to, []byte(tc.data)); err == nil || err.Error() != tc.err {
			t.Errorf("Send(%q, %.20q): %v, want %s", tc.to, tc.data, err, tc.err)
		}
	}
	// Nothing reached the lobby: the client is still welcome.
	if st := l.Stats(); st.Players != 1 || st.Refused["malformed"] != 0 {
		t.Fatalf("stats %+v", st)
	}
}

// A client whose caller does not Recv ends, with an error saying so,
// rather than losing a signal or holding more than its buffer.
func TestClientBufferBound(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{})
	host := join(t, ctx, l.url+"/r")
	lazy := join(t, ctx, l.url+"/r", Buffer(2))
	nextEvent(t, ctx, host)
	for i := range 3 {
		if err := host.Send(lazy.ID(), []byte(`{"n":`+string(rune('0'+i))+`}`)); err != nil {
			t.Fatal(err)
		}
	}
	if e := nextEvent(t, ctx, host); e.Type != TypeLeft || e.ID != lazy.ID() {
		t.Fatalf("event %+v", e)
	}
	for _, want := range []string{`{"n":0}`, `{"n":1}`} {
		if _, data := recv(t, ctx, lazy); data != want {
			t.Fatalf("got %s, want %s", data, want)
		}
	}
	if _, _, err := lazy.Recv(ctx); err == nil || err.Error() != "lobby: 2 signals unread: Recv did not keep up" {
		t.Fatalf("Recv: %v", err)
	}
	if _, err := Join(ctx, l.url+"/r", Buffer(0)); err == nil || err.Error() != "lobby: Buffer(0): want at least 1" {
		t.Fatalf("Buffer(0): %v", err)
	}
}

// Recv waits no longer than its ctx.
func TestRecvDeadline(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{})
	c := join(t, ctx, l.url+"/r")
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, _, err := c.Recv(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Recv: %v", err)
	}
	// The client is fine after.
	if st := l.Stats(); st.Players != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// Join fails, with a one-line error, when nothing or something else than
// a lobby answers, and waits for a welcome no longer than its ctx.
func TestJoinFailures(t *testing.T) {
	ctx := testCtx(t)
	mute := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.Read(r.Context()) // never a welcome
	}))
	defer mute.Close()
	notWS := httptest.NewServer(http.NotFoundHandler())
	defer notWS.Close()
	wrong := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.Write(r.Context(), websocket.MessageText, []byte(`{"type":"left","id":"p1"}`))
		c.Read(r.Context())
	}))
	defer wrong.Close()

	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	for _, tc := range []struct {
		ctx  context.Context
		url  string
		want string
	}{
		{short, "ws" + strings.TrimPrefix(mute.URL, "http") + "/r", "no welcome"},
		{ctx, "ws" + strings.TrimPrefix(notWS.URL, "http") + "/r", "is a web server, not a lobby (HTTP 404)"},
		{ctx, "ws" + strings.TrimPrefix(wrong.URL, "http") + "/r", "left message before the welcome"},
		{ctx, "ws://127.0.0.1:1/r", "lobby: no lobby at ws://127.0.0.1:1 (connection refused)"},
		{ctx, "nonsense", "lobby: join nonsense"},
	} {
		_, err := Join(tc.ctx, tc.url)
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, ErrRefused) {
			t.Errorf("%s: %v, want %q", tc.url, err, tc.want)
			continue
		}
		checkOneLine(t, err)
	}
}

// A lobby is a Signaler: what netplay/webrtc's transport takes.
var _ interface {
	Send(to string, data []byte) error
	Recv(ctx context.Context) (from string, data []byte, err error)
} = (*Client)(nil)

// TestJoinSaysWhatItReached: a Join that reaches no lobby says so in one
// line naming the address, and matches ErrNoLobby or ErrNotLobby; a
// player refused by a full room matches ErrRoomFull, a spectator refused
// by one does not (its room is full of spectators, not players).
func TestJoinSaysWhatItReached(t *testing.T) {
	ctx := testCtx(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	web := httptest.NewServer(http.NotFoundHandler())
	defer web.Close()
	webAt := "ws://" + strings.TrimPrefix(web.URL, "http://")

	for _, tc := range []struct {
		url, want string
		kind      error
	}{
		{"ws://" + closed + "/r", "lobby: no lobby at ws://" + closed + " (connection refused)", ErrNoLobby},
		{webAt + "/r", "lobby: " + webAt + " is a web server, not a lobby (HTTP 404)", ErrNotLobby},
	} {
		_, err := Join(ctx, tc.url)
		if err == nil || err.Error() != tc.want || !errors.Is(err, tc.kind) || errors.Is(err, ErrRefused) {
			t.Errorf("Join(%s): %v; want %q, matching %v", tc.url, err, tc.want, tc.kind)
		}
	}

	l := startLobby(t, Limits{Spectators: 1})
	join(t, ctx, l.url+"/r?players=2")
	join(t, ctx, l.url+"/r?players=2")
	join(t, ctx, l.url+"/r?spectate")
	if _, err := Join(ctx, l.url+"/r"); !errors.Is(err, ErrRoomFull) || !errors.Is(err, ErrRefused) {
		t.Errorf("a third player: %v; want a refusal matching ErrRoomFull", err)
	}
	if _, err := Join(ctx, l.url+"/r?spectate"); errors.Is(err, ErrRoomFull) || !errors.Is(err, ErrRefused) {
		t.Errorf("a second spectator of 1: %v; want a refusal not matching ErrRoomFull", err)
	}
}
