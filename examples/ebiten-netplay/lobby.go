// A game through a lobby's room (-lobby ws://HOST:PORT/ROOM), natively
// and in a browser alike: netplay/webrtc/room enters the room, where the
// lobby (netplay/webrtc/lobby, served by the repository's cmd/lobby) says
// who hosts, the first to arrive, and WebRTC data channels
// (netplay/webrtc) join the two players. The Room is the session's
// transport; its Close waits (5 s at most): in a browser, run calls it on
// the program's main goroutine, never from a JavaScript callback.

package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/examples/ebiten-netplay/puck"
	"github.com/interpdemo/interpdemo/netplay/webrtc"
	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
	"github.com/interpdemo/interpdemo/netplay/webrtc/room"
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

// openRoom enters the lobby's room: this player hosts if it is the
// first in the room, or joins the room's host.
func openRoom(o options) (place, error) {
	ctx, cancel := context.WithTimeout(context.Background(), roomTimeout)
	defer cancel()
	r, err := room.Enter(ctx, o.lobby, webrtc.Config{Timeout: roomTimeout})
	if err != nil {
		return place{}, roomFailed(err)
	}
	if r.Players() != puck.Players {
		r.Close()
		return place{}, fmt.Errorf("-lobby: the room is for %d players; Puck is a game of %d", r.Players(), puck.Players)
	}
	if r.IsHost() {
		return place{conn: r, hello: fmt.Sprintf("hosting the room %s as %s", o.lobby, r.LocalAddr())}, nil
	}
	return place{
		conn: r, host: r.Host(), about: "the room's host " + r.Host(),
		hello: fmt.Sprintf("joined the room %s as %s: its host is %s", o.lobby, r.LocalAddr(), r.Host()),
	}, nil
}

// roomFailed says why a room could not be entered, and what to do.
func roomFailed(err error) error {
	msg := strings.TrimPrefix(err.Error(), "lobby: ")
	switch {
	case errors.Is(err, lobby.ErrNoLobby):
		return fmt.Errorf("%s: start one with go run ./cmd/lobby at the repository's top", msg)
	case errors.Is(err, lobby.ErrNotLobby):
		return fmt.Errorf("%s: -lobby names a lobby's port (go run ./cmd/lobby -addr HOST:PORT)", msg)
	case errors.Is(err, lobby.ErrRoomFull):
		return fmt.Errorf("%s: play in another room (-lobby ws://HOST:PORT/OTHER)", msg)
	}
	return fmt.Errorf("-lobby: %s", msg)
}
