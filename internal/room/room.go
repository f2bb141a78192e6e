// Package room enters a lobby's room for the demo, natively and in a
// page alike: the lobby (netplay/webrtc/lobby) says who hosts, and
// WebRTC data channels (netplay/webrtc) join the peers. Once they are
// joined the game no longer needs the lobby: a host keeps listening to it
// for late joiners and spectators, and plays on if it goes away.
package room

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/webrtc"
	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
)

// Enter enters the room at rawURL (ws://HOST:PORT/ROOM?players=N, or
// ?spectate) within timeout: the lobby's welcome, and for a joiner or a
// spectator the connection to the room's host. A lobby on a loopback
// address means peers on this machine: they offer loopback candidates.
func Enter(rawURL string, timeout time.Duration) (demo.Room, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c, err := lobby.Join(ctx, rawURL)
	if err != nil {
		return demo.Room{}, err
	}
	cfg := webrtc.Config{Timeout: timeout, IncludeLoopback: loopback(rawURL)}
	var t *webrtc.Transport
	if c.IsHost() {
		t, err = webrtc.Host(ctx, c, cfg)
	} else {
		t, err = webrtc.Dial(ctx, c, c.Host(), cfg)
	}
	if err != nil {
		c.Close()
		return demo.Room{}, err
	}
	conn := &Conn{Transport: t, lobby: c}
	if c.IsHost() {
		return demo.Room{Conn: conn, Host: true, Players: c.Players()}, nil
	}
	return demo.Room{Conn: conn, HostAddr: netplay.Addr(c.Host()), Players: c.Players()}, nil
}

// loopback says whether the lobby's host is a loopback address.
func loopback(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Conn is a room's transport for the demo: the WebRTC transport, named
// by this peer's ID in the lobby, and the lobby's connection, closed
// with it.
type Conn struct {
	*webrtc.Transport
	lobby *lobby.Client
}

var _ demo.Conn = (*Conn)(nil)

// LocalAddr is this peer's ID in the room.
func (c *Conn) LocalAddr() netplay.Addr { return netplay.Addr(c.lobby.ID()) }

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
	err := c.Transport.Close()
	if e := c.lobby.Close(); err == nil {
		err = e
	}
	if err != nil {
		return fmt.Errorf("room: %v", err)
	}
	return nil
}
