//go:build !js

package lobby

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// Past twice Limits.Conns connections, the lobby answers 503 without an
// upgrade: no WebSocket, no goroutines of its own, not even for an error
// message. Between Conns and twice Conns, a connection is upgraded to be
// told why it is refused.
func TestConnsPastTwiceTheLimitAnswered503(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{Conns: 1})
	join(t, ctx, l.url+"/a") // the one connection allowed

	// The second is upgraded and refused; it reads nothing, so the lobby
	// waits for its close handshake, and it still counts.
	refused := dialRaw(t, ctx, l.url+"/a")
	waitFor(t, ctx, "two connections", func() bool { return l.Stats().Conns == 2 })

	c, resp, err := websocket.Dial(ctx, l.url+"/a", nil)
	if err == nil {
		c.CloseNow()
		t.Fatalf("a third connection with Conns 1: upgraded (%s), want 503 without an upgrade", resp.Status)
	}
	if resp == nil {
		t.Fatalf("a third connection with Conns 1: %v, want a 503 answer", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.HasPrefix(string(body), "lobby: ") {
		t.Fatalf("a third connection with Conns 1: %s %q, want 503 and the lobby's reason", resp.Status, body)
	}
	if st := l.Stats(); st.Conns != 2 {
		t.Errorf("after a 503, %d connections open, want 2", st.Conns)
	}

	// With the refused one gone, a connection past Conns is upgraded
	// again, to be told why it is refused.
	expectRefusal(t, ctx, refused, "too many connections (1)")
	refused.CloseNow()
	waitFor(t, ctx, "the refused connection to close", func() bool { return l.Stats().Conns == 1 })
	expectRefusal(t, ctx, dialRaw(t, ctx, l.url+"/a"), "too many connections (1)")
}
