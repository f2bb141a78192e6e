//go:build !js

package lobby

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Config configures a Server.
type Config struct {
	// Limits bound what the server holds; zero fields are the defaults.
	Limits Limits
	// Log gets one line per refusal and per dropped peer; nil logs
	// nothing.
	Log *slog.Logger
	// Origins are the host patterns (path.Match syntax, as
	// websocket.AcceptOptions.OriginPatterns) of the web pages allowed to
	// connect. Empty allows any origin: the lobby holds nothing a page
	// could steal, and a game's page is seldom served from the lobby's
	// host.
	Origins []string
	// ICE are the STUN and TURN servers handed to every peer in its
	// welcome (ServerMsg.ICE), at most MaxICEServers; netplay/webrtc/room
	// adds them to the peer's own. A TURN server with a Username and
	// Credential hands those to everyone; one without gets, for each
	// peer, a credential of its own made from TURNSecret.
	ICE []ICEServer
	// TURNSecret is the secret the lobby shares with the TURN servers of
	// ICE that have no credential (coturn's static-auth-secret with
	// use-auth-secret; command turn's -secret-file): each peer gets the
	// username EXPIRY:ROOM.ID, EXPIRY the Unix time TURNTTL after its
	// welcome, and the credential base64(HMAC-SHA1(TURNSecret,
	// username)), which such a server checks by itself. No password is
	// then handed to everyone, nor good for ever.
	TURNSecret string
	// TURNTTL is how long a credential made from TURNSecret is good for
	// (DefaultTURNTTL if zero, at least a second).
	TURNTTL time.Duration
}

// Server is a lobby: an http.Handler that puts the WebSocket connections
// it accepts into rooms and relays signals between the peers of a room.
// "/health" answers Stats as JSON; any other path is a room (so no room
// is named "health").
//
// Every connection runs two goroutines, its handler's and a writer, and
// both end when the connection does. Shutdown and Close end them all.
type Server struct {
	limits Limits
	ice    iceConfig
	log    *slog.Logger
	accept websocket.AcceptOptions
	start  time.Time // the rate limiter's clock is time.Since(start)
	bufs   sync.Pool // *[]byte of limits.MessageSize+1 bytes: a message read

	mu         sync.Mutex
	rooms      map[string]*room
	raws       map[net.Conn]struct{} // every hijacked connection, to close them at Close
	open       int                   // WebSocket requests being served
	players    int
	spectators int
	closed     bool
	shutdown   chan struct{} // closed with closed set
	handlers   sync.WaitGroup

	relayed, dropped atomic.Uint64
	refused          [numRefusals]atomic.Uint64
}

// room is a host and the peers that joined it. Its fields are guarded by
// Server.mu.
type room struct {
	name       string
	players    int // the room's size, from its host's URL
	host       *peer
	peers      map[string]*peer // host included
	joined     int              // players in the room, host included
	spectators int
	lastID     int // the number in the last ID given: "p<lastID>"
}

// peer is one welcomed connection.
type peer struct {
	id        string
	spectator bool
	room      *room
	remote    string
	conn      *websocket.Conn
	raw       net.Conn
	out       chan outMsg
	bucket    bucket

	// pinging ends pings, when the reader stops; stop tells the writer
	// that the peer is gone; writerDone is closed when the writer ends.
	pinging    context.Context
	stopPings  context.CancelFunc
	stop       chan struct{}
	writerDone chan struct{}

	// Guarded by Server.mu. left: out of its room; closing: its last
	// message is queued or it is being dropped, nothing more is queued.
	left, closing bool
}

// outMsg is a message queued for a peer's writer. After a last message
// the writer closes the connection with code and reason.
type outMsg struct {
	b      []byte
	last   bool
	code   websocket.StatusCode
	reason string
}

// refusal is why the server refused a connection or dropped a peer.
type refusal int

const (
	refusedConns refusal = iota
	refusedRooms
	refusedRoomName
	refusedQuery
	refusedMismatch
	refusedFull
	refusedSpectators
	refusedNoRoom
	refusedTooLarge
	refusedMalformed
	refusedRate
	refusedUnknownPeer
	refusedSlow
	refusedHandshake
	refusedIdle
	numRefusals
)

// refusalNames are the keys of Stats.Refused.
var refusalNames = [numRefusals]string{
	refusedConns:       "connections",
	refusedRooms:       "rooms",
	refusedRoomName:    "room_name",
	refusedQuery:       "query",
	refusedMismatch:    "players_mismatch",
	refusedFull:        "full",
	refusedSpectators:  "spectators",
	refusedNoRoom:      "no_room",
	refusedTooLarge:    "too_large",
	refusedMalformed:   "malformed",
	refusedRate:        "rate",
	refusedUnknownPeer: "unknown_peer",
	refusedSlow:        "slow",
	refusedHandshake:   "handshake",
	refusedIdle:        "idle",
}

func (r refusal) String() string { return refusalNames[r] }

// Stats counts what a Server holds and has done: what "/health" answers.
type Stats struct {
	// Rooms, Players and Spectators are open now; Conns counts the
	// WebSocket connections open now, peers and refusals under way.
	Rooms      int `json:"rooms"`
	Players    int `json:"players"`
	Spectators int `json:"spectators"`
	Conns      int `json:"connections"`
	// Relayed counts the signals relayed, Dropped those sent to a peer
	// that had left (dropped without an error: the sender learns of the
	// departure from the lobby, or its host does).
	Relayed uint64 `json:"relayed"`
	Dropped uint64 `json:"dropped"`
	// Refused counts refused connections and dropped peers by reason:
	// connections, rooms, room_name, query, players_mismatch, full,
	// spectators, no_room, too_large, malformed, rate, unknown_peer,
	// slow (a peer that did not read its messages), handshake (a welcome
	// not written in time) and idle (a peer that answered no ping). The
	// last three close without an error message: the peer is not reading.
	Refused map[string]uint64 `json:"refused"`
}

// NewServer returns a lobby with cfg's limits and ICE servers, or a
// one-line error: cfg.Limits.Validate's, or one that names the ICE
// server at fault (never its credential).
func NewServer(cfg Config) (*Server, error) {
	if err := cfg.Limits.Validate(); err != nil {
		return nil, err
	}
	ice, err := newICEConfig(cfg)
	if err != nil {
		return nil, err
	}
	s := &Server{
		limits: cfg.Limits.withDefaults(),
		ice:    ice,
		log:    cfg.Log,
		accept: websocket.AcceptOptions{
			InsecureSkipVerify: len(cfg.Origins) == 0,
			OriginPatterns:     cfg.Origins,
			CompressionMode:    websocket.CompressionDisabled,
		},
		start:    time.Now(),
		rooms:    map[string]*room{},
		raws:     map[net.Conn]struct{}{},
		shutdown: make(chan struct{}),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	size := s.limits.MessageSize + 1
	s.bufs.New = func() any { b := make([]byte, size); return &b }
	return s, nil
}

// Limits returns the server's limits, defaults filled in.
func (s *Server) Limits() Limits { return s.limits }

// Stats returns the server's counters now.
func (s *Server) Stats() Stats {
	st := Stats{Refused: make(map[string]uint64, numRefusals)}
	s.mu.Lock()
	st.Rooms, st.Players, st.Spectators, st.Conns = len(s.rooms), s.players, s.spectators, len(s.raws)
	s.mu.Unlock()
	st.Relayed, st.Dropped = s.relayed.Load(), s.dropped.Load()
	for r := range numRefusals {
		st.Refused[r.String()] = s.refused[r].Load()
	}
	return st
}

// ServeHTTP serves "/health", or joins the WebSocket connection asked
// for to its room and serves it until it ends.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/health" {
		s.serveHealth(w, r)
		return
	}
	over, ok := s.enter()
	if !ok {
		http.Error(w, "lobby: shutting down, or too many connections", http.StatusServiceUnavailable)
		return
	}
	defer s.exit()
	hj := &hijacker{ResponseWriter: w, s: s}
	conn, err := websocket.Accept(hj, r, &s.accept)
	if hj.raw != nil {
		defer s.forget(hj.raw)
	}
	if err != nil {
		return // Accept answered the request
	}
	conn.SetReadLimit(int64(s.limits.MessageSize) + 1)
	c := &pending{conn: conn, raw: hj.raw, remote: r.RemoteAddr}
	if over {
		s.refuse(c, refusedConns, fmt.Sprintf("lobby: too many connections (%d)", s.limits.Conns))
		return
	}
	j, why, reason := parseJoin(r.URL)
	if reason != "" {
		c.room = j.room
		s.refuse(c, why, reason)
		return
	}
	p, why, reason := s.join(c, j)
	if p == nil {
		if reason != "" {
			s.refuse(c, why, reason)
		}
		return
	}
	go s.write(p)
	s.read(p)
}

// pending is an accepted connection not yet a peer: what a refusal needs.
type pending struct {
	conn   *websocket.Conn
	raw    net.Conn
	remote string
	room   string
}

// enter counts a request in, unless the server is closed or serving
// twice its Conns. over says that it is past Conns: to be refused.
func (s *Server) enter() (over, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.open >= 2*s.limits.Conns {
		return false, false
	}
	s.open++
	s.handlers.Add(1)
	return s.open > s.limits.Conns, true
}

// exit counts a request out.
func (s *Server) exit() {
	s.mu.Lock()
	s.open--
	s.mu.Unlock()
	s.handlers.Done()
}

// hijacker records the connection that websocket.Accept hijacks, to set
// its deadlines and to close it at Close whatever the WebSocket is doing.
type hijacker struct {
	http.ResponseWriter
	s   *Server
	raw net.Conn
}

// Hijack hijacks the underlying connection, gives it the handshake
// deadline and lists it for Close.
func (h *hijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	raw, brw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	_ = raw.SetDeadline(time.Now().Add(h.s.limits.Handshake))
	h.raw = raw
	h.s.mu.Lock()
	h.s.raws[raw] = struct{}{}
	if h.s.closed {
		raw.Close() // the handler will find it closed and end
	}
	h.s.mu.Unlock()
	return raw, brw, nil
}

// forget closes a hijacked connection and takes it off the list.
func (s *Server) forget(raw net.Conn) {
	raw.Close()
	s.mu.Lock()
	delete(s.raws, raw)
	s.mu.Unlock()
}

// read reads p's messages and relays them until p leaves, is refused or
// is dropped; then it takes p out of its room and waits for its writer.
func (s *Server) read(p *peer) {
	refused := s.readLoop(p)
	p.stopPings()
	if refused {
		// The writer sends the error and closes, in the handshake time.
		_ = p.raw.SetDeadline(time.Now().Add(s.limits.Handshake))
	} else {
		p.raw.Close()
		close(p.stop)
	}
	s.mu.Lock()
	s.leaveLocked(p)
	s.mu.Unlock()
	<-p.writerDone
}

// readLoop relays p's messages until the connection ends (false) or p is
// refused (true, its error message queued).
func (s *Server) readLoop(p *peer) (refused bool) {
	for {
		typ, r, err := p.conn.Reader(context.Background())
		if err != nil {
			return false
		}
		refused, ok := s.readOne(p, typ, r)
		if !ok {
			return refused
		}
	}
}

// readOne reads, checks and relays the message that r reads. ok false
// says that p's connection ended (refused true: p was refused). It
// holds a buffer of MessageSize+1 bytes only while it reads and relays:
// a waiting peer holds none.
func (s *Server) readOne(p *peer, typ websocket.MessageType, r io.Reader) (refused, ok bool) {
	bufp := s.bufs.Get().(*[]byte)
	defer s.bufs.Put(bufp)
	n, err := io.ReadFull(r, *bufp)
	switch {
	case err == nil:
		return s.refusePeer(p, refusedTooLarge, fmt.Sprintf("lobby: message too large (more than %d bytes)", s.limits.MessageSize)), false
	case err != io.EOF && err != io.ErrUnexpectedEOF:
		return false, false
	case !p.bucket.take(time.Since(s.start), s.limits.Rate, s.limits.Burst):
		return s.refusePeer(p, refusedRate, fmt.Sprintf("lobby: more than %d messages a second (%d at once)", s.limits.Rate, s.limits.Burst)), false
	case typ != websocket.MessageText:
		return s.refusePeer(p, refusedMalformed, "lobby: binary message (the lobby speaks JSON text)"), false
	}
	m, err := DecodeClient((*bufp)[:n])
	if err != nil {
		return s.refusePeer(p, refusedMalformed, err.Error()), false
	}
	if why, reason := s.relay(p, m); reason != "" {
		return s.refusePeer(p, why, reason), false
	}
	return false, true
}

// relay queues m for its recipient, or drops it when the recipient has
// left. It returns a reason when the recipient is p or was never in p's
// room.
func (s *Server) relay(p *peer, m ClientMsg) (refusal, string) {
	b := AppendServer(make([]byte, 0, len(m.Data)+64), ServerMsg{Type: TypeSignal, From: p.id, Data: m.Data})
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.left {
		return 0, "" // its room closed: the writer is saying so
	}
	rm := p.room
	q := rm.peers[m.To]
	switch {
	case q == p:
		return refusedUnknownPeer, fmt.Sprintf("lobby: a signal to yourself (%s)", p.id)
	case q == nil && rm.gave(m.To):
		s.dropped.Add(1)
	case q == nil:
		return refusedUnknownPeer, fmt.Sprintf("lobby: no peer %q in room %q", m.To, rm.name)
	default:
		s.queueLocked(q, outMsg{b: b})
		s.relayed.Add(1)
	}
	return 0, ""
}

// gave reports whether the room gave id to a peer, one still there or
// one gone.
func (rm *room) gave(id string) bool {
	num, ok := strings.CutPrefix(id, "p")
	n, err := strconv.Atoi(num)
	return ok && err == nil && n >= 1 && n <= rm.lastID && num == strconv.Itoa(n)
}

// refusePeer takes p out of its room and queues its error message, the
// last. It returns true.
func (s *Server) refusePeer(p *peer, why refusal, reason string) bool {
	s.count(why, reason, p.room.name, p.id, p.remote)
	s.mu.Lock()
	s.leaveLocked(p)
	s.finishLocked(p, outMsg{b: AppendServer(nil, ServerMsg{Type: TypeError, Reason: reason}), code: websocket.StatusPolicyViolation, reason: "lobby: refused"})
	s.mu.Unlock()
	return true
}

// queueLocked queues m for p, unless p is closing. A peer whose queue is
// full is not reading: it is dropped.
func (s *Server) queueLocked(p *peer, m outMsg) {
	if p.closing {
		return
	}
	select {
	case p.out <- m:
	default:
		p.closing = true
		s.count(refusedSlow, fmt.Sprintf("lobby: peer %s dropped: %d messages unread", p.id, cap(p.out)), p.room.name, p.id, p.remote)
		p.raw.Close()
	}
}

// finishLocked queues p's last message, after which its writer closes
// the connection.
func (s *Server) finishLocked(p *peer, m outMsg) {
	m.last = true
	s.queueLocked(p, m)
	p.closing = true
}

// leaveLocked takes p out of its room. The host hears of it; when p is
// the host, every other peer hears of it and is closed, and the room
// goes.
func (s *Server) leaveLocked(p *peer) {
	if p.left {
		return
	}
	rm := p.room
	role := p.role()
	s.dropLocked(p)
	left := AppendServer(nil, ServerMsg{Type: TypeLeft, ID: p.id})
	if p != rm.host {
		s.log.Info("lobby: left", "room", rm.name, "peer", p.id, "as", role)
		s.queueLocked(rm.host, outMsg{b: left})
		return
	}
	s.log.Info("lobby: the host left; room closed", "room", rm.name, "peer", p.id, "others", len(rm.peers))
	delete(s.rooms, rm.name)
	for _, q := range rm.peers {
		s.dropLocked(q)
		s.finishLocked(q, outMsg{b: left, code: websocket.StatusNormalClosure, reason: "lobby: the host left"})
	}
}

// dropLocked takes p off its room's lists and the server's counts.
func (s *Server) dropLocked(p *peer) {
	p.left = true
	delete(p.room.peers, p.id)
	if p.spectator {
		p.room.spectators--
		s.spectators--
	} else {
		p.room.joined--
		s.players--
	}
}

// write writes p's queued messages and pings p every Idle/3, until the
// connection ends. It drops p when a write or a ping fails.
func (s *Server) write(p *peer) {
	defer close(p.writerDone)
	wait := 2 * s.limits.Idle / 3
	tick := time.NewTicker(s.limits.Idle / 3)
	defer tick.Stop()
	welcomed := false
	for {
		// Shutdown goes first: once the lobby is going away, what the
		// others' closing queued here (a host's "left") would tell p the
		// wrong reason.
		select {
		case <-s.shutdown:
			p.conn.Close(websocket.StatusGoingAway, "lobby: shutting down")
			return
		default:
		}
		select {
		case m := <-p.out:
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			err := p.conn.Write(ctx, websocket.MessageText, m.b)
			cancel()
			if err != nil {
				if !welcomed && errors.Is(err, os.ErrDeadlineExceeded) {
					s.count(refusedHandshake, fmt.Sprintf("lobby: peer %s dropped: welcome not written within %v", p.id, s.limits.Handshake), p.room.name, p.id, p.remote)
				}
				p.raw.Close()
				return
			}
			if !welcomed {
				welcomed = true
				if p.pinging.Err() == nil {
					_ = p.raw.SetDeadline(time.Time{})
				}
			}
			if m.last {
				p.conn.Close(m.code, m.reason)
				return
			}
		case <-tick.C:
			if p.pinging.Err() != nil {
				continue
			}
			ctx, cancel := context.WithTimeout(p.pinging, wait)
			err := p.conn.Ping(ctx)
			cancel()
			if err != nil && p.pinging.Err() == nil {
				s.count(refusedIdle, fmt.Sprintf("lobby: peer %s dropped: no answer to a ping within %v", p.id, wait), p.room.name, p.id, p.remote)
				p.raw.Close()
				return
			}
		case <-p.stop:
			return
		case <-s.shutdown:
			p.conn.Close(websocket.StatusGoingAway, "lobby: shutting down")
			return
		}
	}
}

// bucket is a token bucket, kept as the time at which it is next full
// (the generic cell rate algorithm).
type bucket struct{ full time.Duration }

// take takes a token at now, if the bucket (rate tokens a second, burst
// at most) has one.
func (b *bucket) take(now time.Duration, rate, burst int) bool {
	interval := time.Second / time.Duration(rate)
	full := max(b.full, now)
	if full-now > time.Duration(burst-1)*interval {
		return false
	}
	b.full = full + interval
	return true
}

// serveHealth answers Stats as JSON.
func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "lobby: /health answers GET", http.StatusMethodNotAllowed)
		return
	}
	b, err := json.Marshal(s.Stats())
	if err != nil {
		http.Error(w, "lobby: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(append(b, '\n'))
}

// closeWait bounds how long Close and a forced Shutdown wait for the
// goroutines of connections they closed.
const closeWait = 5 * time.Second

// Shutdown closes the lobby gracefully: it refuses new connections, tells
// every peer that the lobby is going away (a WebSocket close, status
// 1001) and waits for every connection to end. When ctx ends first, it
// closes what is left as Close does and returns ctx's error. It does not
// close the listener: the http.Server's own Shutdown does.
func (s *Server) Shutdown(ctx context.Context) error {
	s.markClosed()
	if s.wait(ctx) {
		return nil
	}
	if err := s.Close(); err != nil {
		return err
	}
	return ctx.Err()
}

// Close closes every connection now, without a close handshake, and
// waits (at most a few seconds) for their goroutines to end. New
// connections are refused (503).
func (s *Server) Close() error {
	s.markClosed()
	s.mu.Lock()
	for raw := range s.raws {
		raw.Close()
	}
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), closeWait)
	defer cancel()
	if !s.wait(ctx) {
		return fmt.Errorf("lobby: connections still open %v after Close", closeWait)
	}
	return nil
}

func (s *Server) markClosed() {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.shutdown)
	}
	s.mu.Unlock()
}

// wait waits for every handler to end, or for ctx to; it reports whether
// they all ended.
func (s *Server) wait(ctx context.Context) bool {
	done := make(chan struct{})
	go func() { s.handlers.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}

// withDefaults returns l with its zero fields set to the defaults (the
// server's: the page's build, which has no server, does without).
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	set := func(v *int, def int) {
		if *v == 0 {
			*v = def
		}
	}
	setD := func(v *time.Duration, def time.Duration) {
		if *v == 0 {
			*v = def
		}
	}
	set(&l.Rooms, d.Rooms)
	set(&l.Spectators, d.Spectators)
	set(&l.Conns, d.Conns)
	set(&l.MessageSize, d.MessageSize)
	set(&l.Rate, d.Rate)
	set(&l.Burst, d.Burst)
	set(&l.Queue, d.Queue)
	setD(&l.Handshake, d.Handshake)
	setD(&l.Idle, d.Idle)
	return l
}
