//go:build !js

package lobby

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	neturl "net/url"
	"syscall"

	"github.com/coder/websocket"
)

// dial opens the lobby's WebSocket at url, with coder/websocket.
func dial(ctx context.Context, url string) (socket, error) {
	conn, resp, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, dialFailed(ctx, url, resp, err)
	}
	conn.SetReadLimit(MaxServerMessage)
	return nativeSocket{conn}, nil
}

type nativeSocket struct{ c *websocket.Conn }

func (s nativeSocket) read(ctx context.Context) (bool, []byte, error) {
	typ, b, err := s.c.Read(ctx)
	return typ == websocket.MessageText, b, err
}

func (s nativeSocket) write(ctx context.Context, b []byte) error {
	return s.c.Write(ctx, websocket.MessageText, b)
}

func (s nativeSocket) close()    { s.c.Close(websocket.StatusNormalClosure, "") }
func (s nativeSocket) closeNow() { s.c.CloseNow() }

// closeReason is the reason of the close frame that ended a read with err.
func closeReason(err error) (string, bool) {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Reason, true
	}
	return "", false
}

// dialFailed says why a dial of url reached no lobby, when it can tell:
// a server that answered with something other than a WebSocket is not a
// lobby; a refused connection, an unknown host or a dial that ran out of
// time found none. Otherwise it returns err.
func dialFailed(ctx context.Context, url string, resp *http.Response, err error) error {
	at := url
	if u, perr := neturl.Parse(url); perr == nil {
		at = u.Scheme + "://" + u.Host
	}
	var dns *net.DNSError
	switch {
	case resp != nil && resp.StatusCode != http.StatusSwitchingProtocols:
		return &dialError{fmt.Sprintf("lobby: %s is a web server, not a lobby (HTTP %d)", at, resp.StatusCode), ErrNotLobby, err}
	case errors.Is(err, syscall.ECONNREFUSED):
		return &dialError{fmt.Sprintf("lobby: no lobby at %s (connection refused)", at), ErrNoLobby, err}
	case errors.As(err, &dns):
		return &dialError{fmt.Sprintf("lobby: no lobby at %s (no such host)", at), ErrNoLobby, err}
	case ctx.Err() != nil:
		return &dialError{fmt.Sprintf("lobby: no lobby answered at %s in time", at), ErrNoLobby, err}
	}
	return err
}
