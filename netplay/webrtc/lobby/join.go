//go:build !js

package lobby

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/coder/websocket"
)

// joinReq is what a URL asks for: a room, its players, as a spectator or
// not.
type joinReq struct {
	room       string
	players    int
	hasPlayers bool
	spectate   bool
}

// parseJoin reads a join from u: the room is the path, the query
// players=N or spectate or both. It returns a reason when u asks for
// nothing valid.
func parseJoin(u *url.URL) (joinReq, refusal, string) {
	j := joinReq{room: strings.TrimPrefix(u.EscapedPath(), "/"), players: DefaultPlayers}
	if !ValidRoom(j.room) {
		return j, refusedRoomName, fmt.Sprintf("lobby: bad room name %s (want 1 to %d of A-Z a-z 0-9 _ -)", clipTo(strconv.Quote(j.room), 70), MaxRoomName)
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return j, refusedQuery, "lobby: bad query " + clipTo(strconv.Quote(u.RawQuery), 70)
	}
	for key, vals := range q {
		if len(vals) != 1 {
			return j, refusedQuery, fmt.Sprintf("lobby: %s given %d times", clipTo(strconv.Quote(key), 40), len(vals))
		}
		v := vals[0]
		switch key {
		case "players":
			n, err := strconv.Atoi(v)
			if err != nil || n < MinPlayers || n > MaxPlayers || v != strconv.Itoa(n) {
				return j, refusedQuery, fmt.Sprintf("lobby: bad players %s (want %d to %d)", clipTo(strconv.Quote(v), 20), MinPlayers, MaxPlayers)
			}
			j.players, j.hasPlayers = n, true
		case "spectate":
			if v != "" && v != "1" && v != "true" {
				return j, refusedQuery, fmt.Sprintf("lobby: bad spectate %s (want nothing, 1 or true)", clipTo(strconv.Quote(v), 20))
			}
			j.spectate = true
		default:
			return j, refusedQuery, fmt.Sprintf("lobby: unknown parameter %s (want players or spectate)", clipTo(strconv.Quote(key), 40))
		}
	}
	return j, 0, ""
}

// join puts c in the room j asks for and queues its welcome, and the
// news for the host. It returns nil and why not when it cannot, with no
// reason when the server is closing.
func (s *Server) join(c *pending, j joinReq) (*peer, refusal, string) {
	c.room = j.room
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, 0, ""
	}
	rm := s.rooms[j.room]
	switch {
	case rm == nil && j.spectate:
		return nil, refusedNoRoom, fmt.Sprintf("lobby: room %q has no host to spectate", j.room)
	case rm == nil && len(s.rooms) >= s.limits.Rooms:
		return nil, refusedRooms, fmt.Sprintf("lobby: too many rooms (%d)", s.limits.Rooms)
	case rm == nil:
		rm = &room{name: j.room, players: j.players, peers: map[string]*peer{}}
		s.rooms[j.room] = rm
	case (j.hasPlayers || !j.spectate) && j.players != rm.players:
		return nil, refusedMismatch, fmt.Sprintf("lobby: room %q is for %d players, not %d", j.room, rm.players, j.players)
	case j.spectate && rm.spectators >= s.limits.Spectators:
		return nil, refusedSpectators, fmt.Sprintf("lobby: room %q is full (%d of %d spectators)", j.room, rm.spectators, s.limits.Spectators)
	case !j.spectate && rm.joined >= rm.players:
		return nil, refusedFull, fmt.Sprintf("lobby: room %q is full (%d of %d players)", j.room, rm.joined, rm.players)
	}
	rm.lastID++
	ctx, cancel := context.WithCancel(context.Background())
	p := &peer{
		id:         "p" + strconv.Itoa(rm.lastID),
		spectator:  j.spectate,
		room:       rm,
		remote:     c.remote,
		conn:       c.conn,
		raw:        c.raw,
		out:        make(chan outMsg, s.limits.Queue),
		pinging:    ctx,
		stopPings:  cancel,
		stop:       make(chan struct{}),
		writerDone: make(chan struct{}),
	}
	rm.peers[p.id] = p
	if rm.host == nil {
		rm.host = p
	}
	if p.spectator {
		rm.spectators++
		s.spectators++
	} else {
		rm.joined++
		s.players++
	}
	s.queueLocked(p, outMsg{b: AppendServer(nil, ServerMsg{Type: TypeWelcome, ID: p.id, Host: rm.host.id, Players: rm.players, Spectator: p.spectator,
		ICE: s.ice.forPeer(rm.name, p.id)})})
	if p != rm.host {
		s.queueLocked(rm.host, outMsg{b: AppendServer(nil, ServerMsg{Type: TypeJoined, ID: p.id, Spectator: p.spectator})})
	}
	s.log.Info("lobby: joined", "room", rm.name, "peer", p.id, "as", p.role(), "players", fmt.Sprintf("%d of %d", rm.joined, rm.players), "remote", p.remote)
	return p, 0, ""
}

// role is what p is in its room, for the log.
func (p *peer) role() string {
	switch {
	case p == p.room.host:
		return "host"
	case p.spectator:
		return "spectator"
	}
	return "player"
}

// refuse sends c the error message reason and closes it, within the
// handshake deadline set at the upgrade.
func (s *Server) refuse(c *pending, why refusal, reason string) {
	s.count(why, reason, c.room, "", c.remote)
	b := AppendServer(nil, ServerMsg{Type: TypeError, Reason: reason})
	if err := c.conn.Write(context.Background(), websocket.MessageText, b); err != nil {
		c.raw.Close()
		return
	}
	c.conn.Close(websocket.StatusPolicyViolation, "lobby: refused")
}

// count counts and logs a refusal.
func (s *Server) count(why refusal, reason, room, id, remote string) {
	s.refused[why].Add(1)
	s.log.Info(reason, "refused", why.String(), "room", room, "peer", id, "remote", remote)
}
