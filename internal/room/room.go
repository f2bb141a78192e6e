// Package room enters a lobby's room for the demo, natively and in a
// page alike, through netplay/webrtc/room, and gives the demo the room as
// its demo.Room.
package room

import (
	"context"
	"fmt"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/netplay/webrtc"
	"github.com/interpdemo/interpdemo/netplay/webrtc/room"
)

// Enter enters the room at rawURL (ws://HOST:PORT/ROOM?players=N, or
// ?spectate) within cfg.Timeout: the lobby's welcome, and for a joiner or
// a spectator the connection to the room's host. It gives up sooner when
// ctx is done (the user's Ctrl-C).
func Enter(ctx context.Context, rawURL string, cfg webrtc.Config) (demo.Room, error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	r, err := room.Enter(ctx, rawURL, cfg)
	if err != nil {
		return demo.Room{}, err
	}
	conn := &Conn{r}
	if r.IsHost() {
		return demo.Room{Conn: conn, Host: true, Players: r.Players()}, nil
	}
	return demo.Room{Conn: conn, HostAddr: r.Host(), Players: r.Players()}, nil
}

// Conn is a room as the demo's transport (its LocalAddr, this peer's ID
// in the room, is the Room's).
type Conn struct{ *room.Room }

var _ demo.Conn = (*Conn)(nil)

// Close closes the data channels and leaves the lobby. In a page it
// returns at once and closes them in the background: a call from the
// browser's event (a frame) must not wait for other events, which would
// never come while it waits.
func (c *Conn) Close() error {
	if inBrowser {
		go c.close()
		return nil
	}
	return c.close()
}

func (c *Conn) close() error {
	if err := c.Room.Close(); err != nil {
		return fmt.Errorf("room: %v", err)
	}
	return nil
}
