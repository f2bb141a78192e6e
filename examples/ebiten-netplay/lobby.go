// A game through a lobby's room (-lobby ws://HOST:PORT/ROOM), natively
// and in a browser alike: the lobby (netplay/webrtc/lobby, served by the
// repository's cmd/lobby) says who hosts, the first to arrive, and WebRTC
// data channels (netplay/webrtc) join the two players.

package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/examples/ebiten-netplay/puck"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/webrtc"
	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
)

// roomTimeout bounds the wait for the lobby's welcome and, for a joiner,
// for its connection to the room's host.
const roomTimeout = 20 * time.Second

// roomURL checks a room's URL, ws://HOST:PORT/ROOM (or wss://), and
// returns it asking the lobby for Puck's two players.
func roomURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	room := strings.TrimPrefix(u.Path, "/")
	q := u.Query()
	switch {
	case u.Scheme != "ws" && u.Scheme != "wss":
		return "", fmt.Errorf("%q is not a lobby's room: want ws://HOST:PORT/ROOM", raw)
	case u.Host == "":
		return "", fmt.Errorf("%q names no lobby: want ws://HOST:PORT/ROOM", raw)
	case !lobby.ValidRoom(room):
		return "", fmt.Errorf("%q names no room: want ws://HOST:PORT/ROOM, ROOM 1 to %d of A-Z, a-z, 0-9, _ and -", raw, lobby.MaxRoomName)
	case q.Has("spectate"):
		return "", fmt.Errorf("%q: Puck has no spectators", raw)
	case q.Get("players") != "" && q.Get("players") != strconv.Itoa(puck.Players):
		return "", fmt.Errorf("%q: Puck is a game of %d players, not %s", raw, puck.Players, q.Get("players"))
	}
	q.Set("players", strconv.Itoa(puck.Players))
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// openRoom enters the lobby's room and opens the session: a host's, if
// this player is the first in the room, or a joiner's of the room's host;
// host names the latter, for Draw.
func openRoom(o options, nonce uint64, clock loop.Clock, stdout io.Writer) (c conn, sess *netplay.Session, host string, err error) {
	r, err := enterRoom(o.lobby, roomTimeout)
	if err != nil {
		return nil, nil, "", fmt.Errorf("-lobby: %v", err)
	}
	if r.lobby.IsHost() {
		sess, err = netplay.NewHost(o.hostConfig(nonce), clock.Now())
		if err == nil {
			fmt.Fprintf(stdout, "hosting the room %s as %s\n", o.lobby, r.lobby.ID())
		}
	} else {
		sess, err = netplay.NewJoiner(o.joinConfig(nonce), netplay.Addr(r.lobby.Host()), clock.Now())
		if err == nil {
			host = "the room's host " + r.lobby.Host()
			fmt.Fprintf(stdout, "joined the room %s as %s: its host is %s\n", o.lobby, r.lobby.ID(), r.lobby.Host())
		}
	}
	if err != nil {
		r.Close()
		return nil, nil, "", err
	}
	return r, sess, host, nil
}

// enterRoom joins the room at rawURL (with ?players=2) within timeout: the
// lobby's welcome and, for a joiner, the connection to the room's host. A
// lobby on a loopback address means peers on this machine: a native peer
// offers its loopback candidates too.
func enterRoom(rawURL string, timeout time.Duration) (*roomConn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c, err := lobby.Join(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	if c.Players() != puck.Players {
		c.Close()
		return nil, fmt.Errorf("the room is for %d players; Puck is a game of %d", c.Players(), puck.Players)
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
		return nil, err
	}
	return &roomConn{Transport: t, lobby: c}, nil
}

// loopback says whether the lobby at rawURL is on a loopback address.
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

// roomConn is a lobby's room as the game's transport: the WebRTC data
// channels (a peer's netplay.Addr is its ID in the room), and the lobby's
// connection, closed with them. The host keeps listening to the lobby
// (for a joiner's offer) until then; once the players are joined, the
// game no longer needs it.
type roomConn struct {
	*webrtc.Transport
	lobby *lobby.Client
}

// Close closes the data channels and leaves the lobby. It waits for
// them (5 s at most): in a browser, call it from a goroutine, never from
// a JavaScript callback, whose wait would keep the browser's events from
// coming (run calls it on the program's main goroutine).
func (c *roomConn) Close() error {
	err := c.Transport.Close()
	if e := c.lobby.Close(); err == nil {
		err = e
	}
	return err
}
