// Package room puts a game in a lobby's room in one call: it joins the
// room (netplay/webrtc/lobby), which says who hosts, and opens the WebRTC
// data channels (netplay/webrtc) between this peer and the room's host.
// The Room it returns is the session's netplay.Transport, natively and in
// a browser alike.
//
//	r, err := room.Enter(ctx, "ws://lobby.example:8780/r1?players=2", webrtc.Config{})
//	if err != nil {
//		return err // lobby: room "r1" is full (2 of 2 players)
//	}
//	defer r.Close()
//	var sess *netplay.Session
//	if r.IsHost() {
//		sess, err = netplay.Host(hostCfg, game, r, clock.Now())
//	} else {
//		sess, err = netplay.Join(joinCfg, game, r, r.Host(), clock.Now())
//	}
//	... sess.Frame(clock.Now(), due, maxLoops) each frame ...
//
// Once the peers are joined the game no longer needs the lobby: a host
// keeps listening to it for late joiners and spectators until Close, and
// plays on if it goes away.
package room

import (
	"context"
	"fmt"
	"net"
	"net/url"

	"github.com/interpdemo/interpdemo/netplay/webrtc"
	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
)

// Room is this peer's place in a room: the WebRTC transport to its peers
// (a peer's string is its ID in the room) and the lobby's client,
// closed with it.
type Room struct {
	*webrtc.Transport
	lobby *lobby.Client
}

// Enter joins the room at rawURL (lobby.Join's ws://HOST:PORT/ROOM?players=N
// or ?spectate) and, for a joiner or a spectator, opens the connection to
// the room's host, before ctx ends (lobby.JoinTimeout bounds the join
// where ctx has no deadline, and cfg.Timeout the connection). A lobby at
// a loopback address (127.0.0.1, ::1, localhost) means peers on this
// machine: Enter sets cfg.IncludeLoopback. The STUN and TURN servers the
// lobby's welcome names (lobby.Client.ICEServers: a TURN credential of
// this peer's own, say) come after cfg.ICEServers; with cfg.RelayOnly,
// one of them all must be a TURN server. An error is one line: the
// lobby's refusal (which matches lobby.ErrRefused), or what failed.
func Enter(ctx context.Context, rawURL string, cfg webrtc.Config) (*Room, error) {
	c, err := lobby.Join(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	cfg.IncludeLoopback = cfg.IncludeLoopback || loopback(rawURL)
	if err := withLobbyServers(&cfg, c.ICEServers()); err != nil {
		c.Close()
		return nil, err
	}
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
	return &Room{Transport: t, lobby: c}, nil
}

// withLobbyServers appends the lobby's servers to cfg's (never into the
// caller's array) and checks the whole: the lobby's servers were checked
// only for their shape.
func withLobbyServers(cfg *webrtc.Config, servers []lobby.ICEServer) error {
	mine := len(cfg.ICEServers)
	all := make([]webrtc.ICEServer, 0, mine+len(servers))
	all = append(all, cfg.ICEServers...)
	for _, s := range servers {
		all = append(all, webrtc.ICEServer{URLs: s.URLs, Username: s.Username, Credential: s.Credential})
	}
	cfg.ICEServers = all
	if err := cfg.Validate(); err != nil {
		if cfg.RelayOnly && (webrtc.Config{ICEServers: all}).Validate() == nil {
			return fmt.Errorf("room: relay only, but neither the ICE servers given (%d) nor the lobby's (%d) has a TURN server", mine, len(servers))
		}
		if len(servers) > 0 && (webrtc.Config{ICEServers: all[:mine]}).Validate() == nil {
			return fmt.Errorf("room: the lobby's ICE servers: %v", err)
		}
		return fmt.Errorf("room: %v", err)
	}
	return nil
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

// IsHost reports whether this peer hosts the room: the first to arrive.
func (r *Room) IsHost() bool { return r.lobby.IsHost() }

// Host is the room's host, the address a joiner's or a spectator's
// session names it by.
func (r *Room) Host() string { return string(r.lobby.Host()) }

// LocalAddr is this peer's address: its ID in the room.
func (r *Room) LocalAddr() string { return string(r.lobby.ID()) }

// Players is the room's number of players, its host included (the URL's
// ?players=, or the host's for a spectator).
func (r *Room) Players() int { return r.lobby.Players() }

// Spectator reports whether this peer entered as a spectator.
func (r *Room) Spectator() bool { return r.lobby.Spectator() }

// Lobby is the lobby's client, for its Events (who comes and goes).
func (r *Room) Lobby() *lobby.Client { return r.lobby }

// Close closes the data channels and leaves the lobby, and waits for both
// (a few seconds at most). In a browser, call it from a goroutine, never
// from a JavaScript callback (a frame's), which would keep the browser's
// events, the ones it waits for, from coming.
func (r *Room) Close() error {
	err := r.Transport.Close()
	if e := r.lobby.Close(); err == nil {
		err = e
	}
	return err
}
