//go:build !js

package lobby

import (
	"context"
	"errors"

	"github.com/coder/websocket"
)

// dial opens the lobby's WebSocket at url, with coder/websocket.
func dial(ctx context.Context, url string) (socket, error) {
	conn, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, err
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
