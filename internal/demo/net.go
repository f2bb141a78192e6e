package demo

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
	"github.com/interpdemo/interpdemo/netplay/webrtc"
)

// NetConfig is what the network flags set.
type NetConfig struct {
	Host, Join string // -host ADDR, -join HOST:PORT
	Spectate   string // -spectate HOST:PORT, or a room's URL
	Lobby      string // -lobby ws://HOST:PORT/ROOM
	ICE        string // -ice: a room's STUN and TURN servers, as given
	ICERelay   bool   // -ice-relay: through a TURN server alone, -ice's or the lobby's
	// ICEServers are ICE's, parsed (checked with the flags).
	ICEServers []webrtc.ICEServer
	// MaxSpectators is the most spectators a host serves.
	MaxSpectators int
	Players       int
	InputDelay    int
	KickAfter     time.Duration
	Wait          time.Duration // -net-wait: a host's wait for its players, 0 no limit
	Disconnect    string        // -net-disconnect: end or continue
	CheckEvery    int           // -net-check-every: ticks between hash checks, 0 none
	Timeout       time.Duration // -net-timeout: a silent peer counts as gone
	Bot           bool          // -bot was given
	BotSeed       uint64
	Cond          netsim.Conditions // -net-delay and friends, both ways

	Netcode       string // lockstep or rollback
	MaxPrediction int
	Smooth        bool // -rollback-smooth
	// Report is -desync-report's folder: a desync's report is written
	// there ("" none); FaultAt is -fault-desync's tick (0 none).
	Report  string
	FaultAt int64
}

// netcode is the netcode the flags ask for.
func (n *NetConfig) netcode() netplay.Netcode {
	if n.Netcode == "rollback" {
		return netplay.Rollback
	}
	return netplay.Lockstep
}

// On says whether this is a network game.
func (n *NetConfig) On() bool {
	return n.Host != "" || n.Join != "" || n.Spectate != "" || n.Lobby != ""
}

// UDP says whether this is a network game over UDP (-host, -join,
// -spectate HOST:PORT), not through a lobby's room.
func (n *NetConfig) UDP() bool { return n.On() && n.room() == "" }

// room is the URL of the lobby's room this game goes through (with the
// room's players, or as a spectator), or "" for UDP.
func (n *NetConfig) room() string {
	switch {
	case n.Lobby != "":
		return n.Lobby
	case isRoomURL(n.Spectate):
		return n.Spectate
	}
	return ""
}

// remote is the flag that names the peer this game joins or watches over
// UDP, -join or -spectate, and its HOST:PORT ("" where it hosts).
func (n *NetConfig) remote() (flag, addr string) {
	if n.Spectate != "" {
		return "spectate", n.Spectate
	}
	return "join", n.Join
}

// isRoomURL says whether s names a lobby's room rather than HOST:PORT.
func isRoomURL(s string) bool {
	return strings.HasPrefix(s, "ws://") || strings.HasPrefix(s, "wss://")
}

// roomURL checks a room's URL (ws://HOST:PORT/ROOM, or wss://) and adds
// what the lobby is asked: the players the room waits for, or that this
// peer watches.
func roomURL(raw string, players int, spectate bool) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("not a lobby's room: %v", err)
	}
	room := strings.TrimPrefix(u.Path, "/")
	switch {
	case u.Scheme != "ws" && u.Scheme != "wss":
		return "", fmt.Errorf("%q is not a lobby's room: want ws://HOST:PORT/ROOM", raw)
	case u.Host == "":
		return "", fmt.Errorf("%q names no lobby: want ws://HOST:PORT/ROOM", raw)
	case room == "" || strings.Contains(room, "/"):
		return "", fmt.Errorf("%q names no room: want ws://HOST:PORT/ROOM, the room a name of its own", raw)
	}
	if p := u.Port(); p != "" {
		if v, err := strconv.Atoi(p); err != nil || v < 1 || v > 65535 {
			return "", fmt.Errorf("%q: the lobby's port must be a number from 1 to 65535", raw)
		}
	}
	q := u.Query()
	if spectate {
		q.Del("players")
		q.Set("spectate", "")
	} else if q.Get("players") == "" {
		q.Set("players", strconv.Itoa(players))
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// CryptoNonce is a Network's Nonce for a real network: 64 bits from the
// system's (or the browser's) cryptographic random source, never 0.
func CryptoNonce() (uint64, error) {
	var b [8]byte
	for {
		if _, err := crand.Read(b[:]); err != nil {
			return 0, err
		}
		if v := binary.LittleEndian.Uint64(b[:]); v != 0 {
			return v, nil
		}
	}
}

// lobbyTimeout bounds the wait for a lobby's word and for the connection
// to the room's host.
const lobbyTimeout = 15 * time.Second

// Room is a lobby's room, once this peer is in it: a transport to its
// peers, and the lobby's word on who hosts.
type Room struct {
	Conn     Conn   // the room's peers (WebRTC data channels)
	Host     bool   // this peer hosts the game (it arrived first)
	HostAddr string // the host's address on Conn, for a joiner or a spectator
	Players  int    // the players the room waits for, the host included
}

// Network is what a network game needs of the platform: sockets, or an
// in-process network in tests.
type Network interface {
	// Listen opens a datagram socket on address (":0" for any port),
	// with the simulated conditions applied both ways.
	Listen(address string, cond netsim.Conditions, seed uint64) (Conn, error)
	// Resolve turns HOST:PORT into an address (checked with the flags),
	// giving up when ctx is done.
	Resolve(ctx context.Context, hostport string) (string, error)
	// Nonce is 64 random bits, never 0: the session's ID or token.
	Nonce() (uint64, error)
	// Lobby enters the room at url (ws://HOST:PORT/ROOM?players=N, or
	// ?spectate) through its lobby and, for a joiner or a spectator,
	// connects to the room's host, within cfg.Timeout, with cfg's STUN
	// and TURN servers (none: host candidates only). It gives up at once
	// when ctx is done (Platform.Stop: the user's Ctrl-C).
	Lobby(ctx context.Context, url string, cfg webrtc.Config) (Room, error)
}

// Conn is a socket carrying an endpoint's datagrams (netplay/udp.Conn):
// a netplay.Transport that can also wait.
type Conn interface {
	netplay.Transport
	// Wait blocks until a datagram arrives or d has passed.
	Wait(d time.Duration) bool
	LocalAddr() string
	Close() error
}

// define defines the network flags on fs.
func (n *NetConfig) define(fs *flag.FlagSet) {
	fs.StringVar(&n.Host, "host", "", "host a network game on `ADDR` (e.g. :7777) and wait for -players")
	fs.StringVar(&n.Join, "join", "", "join the network game hosted at `HOST:PORT`")
	fs.StringVar(&n.Spectate, "spectate", "", "watch the network game hosted at `HOST:PORT`, or in the lobby's room ws://HOST:PORT/ROOM: its confirmed inputs, no input of yours")
	fs.StringVar(&n.Lobby, "lobby", "", "play a network game in the lobby's room at `URL` (ws://HOST:PORT/ROOM), over WebRTC: the first to arrive hosts -players, the others join")
	fs.StringVar(&n.ICE, "ice", "", "a lobby's room: the STUN and TURN servers that reach peers behind home routers, `URLS` separated by commas: stun:HOST:PORT, turn:USER:PASS@HOST:PORT?transport=udp (none: peers that reach each other directly)")
	fs.BoolVar(&n.ICERelay, "ice-relay", false, "a lobby's room: connect through a TURN server alone, -ice's or the one the lobby names, never directly (to check that a TURN server works, or to hide your address from the other peers)")
	fs.IntVar(&n.MaxSpectators, "max-spectators", netplay.MaxSpectators, fmt.Sprintf("host: serve up to `N` spectators (0 to %d)", netplay.MaxSpectators))
	fs.IntVar(&n.Players, "players", 2, fmt.Sprintf("`N` players of a hosted game, the host included (%d to %d)", netplay.MinPlayers, netplay.MaxPlayers))
	fs.IntVar(&n.InputDelay, "input-delay", netplay.DefaultDelay, fmt.Sprintf("network game: `TICKS` between sampling your input and running it (1 to %d; the host's is used)", netplay.MaxDelay))
	fs.DurationVar(&n.KickAfter, "kick-after", 0, "host: drop a player who held the game back this `DURATION` in 10 s (0: never)")
	fs.DurationVar(&n.Timeout, "net-timeout", 2*time.Second, "network game: a peer silent this `DURATION` is gone (see -net-disconnect)")
	fs.DurationVar(&n.Wait, "net-wait", 0, "host: give up, exit status 1, when the players have not all joined within this `DURATION` (0: wait until they have, Q or a signal, as a person starting the other copies may take minutes; a script's host that must not wait forever sets it)")
	fs.StringVar(&n.Disconnect, "net-disconnect", "", "host: a player gone silent or lost `POLICY`: end (the game, for everyone) or continue (without it, its ball on its own); default end, continue with -kick-after")
	fs.IntVar(&n.CheckEvery, "net-check-every", 25, "host: compare the players' state hashes every `TICKS` (0: never)")
	fs.Func("bot", "network game: this player's input comes from a deterministic generator seeded with `SEED`, not the keyboard", func(s string) error {
		v, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			return errors.New("want a seed from 0 to 18446744073709551615")
		}
		n.Bot, n.BotSeed = true, v
		return nil
	})
	fs.StringVar(&n.Netcode, "netcode", "lockstep", "network game: the `NETCODE`, lockstep (wait for every input, with -input-delay) or rollback (predict, correct, no input delay)")
	fs.IntVar(&n.MaxPrediction, "max-prediction", sim.DefaultMaxPrediction, fmt.Sprintf("rollback: most `TICKS` run ahead of the known inputs (1 to %d)", sim.MaxMaxPrediction))
	fs.BoolVar(&n.Smooth, "rollback-smooth", true, "rollback: blend a corrected remote ball's jump away over 100 ms")
	fs.StringVar(&n.Report, "desync-report", "", "network game: when the peers' states differ, write where (the first tick, the fields) to a file in `DIR`")
	fs.Int64Var(&n.FaultAt, "fault-desync", 0, "network game, a test aid: move ball 0 one unit on this peer alone after `TICK`, so that the peers' states differ")
	fs.DurationVar(&n.Cond.Delay, "net-delay", 0, "network game: a simulated one-way `DELAY` added to every packet, both ways")
	fs.DurationVar(&n.Cond.Jitter, "net-jitter", 0, "network game: simulated `JITTER`, each packet's delay spread by up to this much")
	fs.Float64Var(&n.Cond.Loss, "net-loss", 0, "network game: the simulated `PROBABILITY`, 0 to 1, that a packet is lost")
	fs.Float64Var(&n.Cond.Duplicate, "net-dup", 0, "network game: the simulated `PROBABILITY`, 0 to 1, that a packet arrives twice")
	fs.Float64Var(&n.Cond.Reorder, "net-reorder", 0, "network game: the simulated `PROBABILITY`, 0 to 1, that a packet is overtaken by later ones")
}

// worldFlags are the flags whose values a joiner takes from the host.
var worldFlags = []string{"tick", "max-loops", "lockstep", "balls", "seed", "radius", "ticks", "players", "input-delay"}

// check validates the network flags against the rest of the command line.
func (n *NetConfig) check(c *Config, set map[string]bool) error {
	if n.Netcode != "lockstep" && n.Netcode != "rollback" {
		return flagErr("netcode", "must be lockstep or rollback (got %q)", n.Netcode)
	}
	if n.Netcode == "rollback" && !set["input-delay"] {
		n.InputDelay = 0 // rollback's point: your input acts on the next tick
	}
	if set["ice"] || set["ice-relay"] {
		name := "ice"
		if !set["ice"] {
			name = "ice-relay"
		}
		if n.room() == "" {
			return flagErr(name, "is for a lobby's room (-lobby, or -spectate ws://HOST:PORT/ROOM)")
		}
		// With -ice-relay and no TURN server in -ice, the lobby's welcome
		// must name one (a credential of this peer's own, say): entering
		// the room says so if it does not.
		ice, err := webrtc.ParseICEServers(n.ICE)
		if err != nil {
			return flagErr("ice", "%v", err)
		}
		n.ICEServers = ice
	}
	for _, a := range [...]struct{ flag, addr string }{{"host", n.Host}, {"join", n.Join}, {"spectate", n.Spectate}, {"lobby", n.Lobby}} {
		if set[a.flag] && a.addr == "" {
			return flagErr(a.flag, "needs an address")
		}
	}
	if !n.On() {
		if set["net-wait"] {
			return flagErr("net-wait", "needs -host or -lobby: it bounds a host's wait for its players")
		}
		for _, name := range []string{"players", "input-delay", "kick-after", "net-disconnect", "net-check-every", "net-timeout", "bot", "net-delay", "net-jitter", "net-loss", "net-dup", "net-reorder", "netcode", "max-prediction", "rollback-smooth", "max-spectators", "desync-report", "fault-desync"} {
			if set[name] {
				return flagErr(name, "needs -host or -join")
			}
		}
		return nil
	}
	if n.Lobby != "" {
		if n.Host != "" || n.Join != "" || n.Spectate != "" {
			return flagErr("lobby", "cannot be combined with -host, -join or -spectate (a room's spectator: -spectate URL)")
		}
		if _, err := roomURL(n.Lobby, n.Players, false); err != nil {
			return flagErr("lobby", "%v", err)
		}
	}
	if isRoomURL(n.Spectate) {
		if _, err := roomURL(n.Spectate, n.Players, true); err != nil {
			return flagErr("spectate", "%v", err)
		}
	}
	if n.room() != "" && !n.Cond.Perfect() {
		return flagErr(n.condFlag(set, false), "simulated network conditions are for UDP games (-host, -join), not a lobby's room")
	}
	if n.Host != "" {
		if err := checkHostPort(n.Host); err != nil {
			return flagErr("host", "%v", err)
		}
	}
	if n.Spectate != "" {
		if n.Host != "" || n.Join != "" {
			return flagErr("spectate", "cannot be combined with -host or -join")
		}
		for _, name := range []string{"players", "input-delay", "kick-after", "net-wait", "net-disconnect", "net-check-every", "bot", "netcode", "max-prediction", "rollback-smooth", "max-spectators", "record", "desync-report", "fault-desync"} {
			if set[name] {
				return flagErr(name, "is not for a spectator, who plays no input")
			}
		}
	}
	if n.MaxSpectators < 0 || n.MaxSpectators > netplay.MaxSpectators {
		return flagErr("max-spectators", "must be between 0 and %d (got %d)", netplay.MaxSpectators, n.MaxSpectators)
	}
	if n.Join != "" && set["max-spectators"] {
		return flagErr("max-spectators", "is the host's to set")
	}
	if err := n.Cond.Validate(); err != nil {
		return flagErr(n.condFlag(set, true), "%v", err)
	}
	switch {
	case n.Host != "" && n.Join != "":
		return flagErr("join", "cannot be combined with -host")
	case n.Players < netplay.MinPlayers || n.Players > netplay.MaxPlayers:
		return flagErr("players", "must be between %d and %d (got %d)", netplay.MinPlayers, netplay.MaxPlayers, n.Players)
	case n.Host != "" && set["balls"] && int(c.Settings.Balls) < n.Players:
		return flagErr("balls", "must be at least -players, %d: player i moves ball i (got %d)", n.Players, c.Settings.Balls)
	case n.Netcode == "lockstep" && (n.InputDelay < 1 || n.InputDelay > netplay.MaxDelay):
		return flagErr("input-delay", "must be between 1 and %d ticks with lockstep (got %d)", netplay.MaxDelay, n.InputDelay)
	case n.Netcode == "rollback" && (n.InputDelay < 0 || n.InputDelay > netplay.MaxDelay):
		return flagErr("input-delay", "must be between 0 and %d ticks (got %d)", netplay.MaxDelay, n.InputDelay)
	case n.MaxPrediction < 1 || n.MaxPrediction > sim.MaxMaxPrediction:
		return flagErr("max-prediction", "must be between 1 and %d ticks (got %d)", sim.MaxMaxPrediction, n.MaxPrediction)
	case n.Netcode != "rollback" && set["max-prediction"]:
		return flagErr("max-prediction", "needs -netcode rollback")
	case n.Netcode != "rollback" && set["rollback-smooth"]:
		return flagErr("rollback-smooth", "needs -netcode rollback")
	case set["desync-report"] && n.Report == "":
		return flagErr("desync-report", "needs a folder")
	case n.FaultAt < 0:
		return flagErr("fault-desync", "must be a tick from 1 on (got %d)", n.FaultAt)
	case n.Timeout < minNetTimeout || n.Timeout > time.Hour:
		return flagErr("net-timeout", "must be at least %v (%d keepalives) and at most 1h (got %v)", minNetTimeout, minNetTimeout/keepAlive, n.Timeout)
	case 2*(n.Cond.Delay+n.Cond.Jitter) >= n.Timeout:
		return flagErr(n.condFlag(set, false), "a round trip of up to %v (twice -net-delay and -net-jitter) must be shorter than -net-timeout, %v: every peer would seem silent", 2*(n.Cond.Delay+n.Cond.Jitter), n.Timeout)
	case n.KickAfter < 0:
		return flagErr("kick-after", "must not be negative (got %v)", n.KickAfter)
	case n.Join != "" && set["kick-after"]:
		return flagErr("kick-after", "is the host's to set")
	case n.Wait < 0:
		return flagErr("net-wait", "must not be negative (got %v; 0: wait until every player has joined)", n.Wait)
	case n.Join != "" && set["net-wait"]:
		return flagErr("net-wait", "is the host's to set: it bounds a host's wait for its players")
	case n.Disconnect != "" && n.Disconnect != "end" && n.Disconnect != "continue":
		return flagErr("net-disconnect", "must be end or continue (got %q)", n.Disconnect)
	case n.Join != "" && set["net-disconnect"]:
		return flagErr("net-disconnect", "is the host's to set")
	case n.CheckEvery < 0 || n.CheckEvery > 1_000_000:
		return flagErr("net-check-every", "must be between 0 and 1000000 ticks (got %d)", n.CheckEvery)
	case n.Join != "" && set["net-check-every"]:
		return flagErr("net-check-every", "is the host's to set")
	case c.Mode != sim.ModeFixed:
		return flagErr("mode", "a network game runs in fixed mode")
	case c.ReplayFile != "":
		return flagErr("replay", "cannot be combined with a network game")
	case c.Fast:
		return flagErr("fast", "a network game runs in real time")
	case c.Speed != 1:
		return flagErr("speed", "a network game runs in real time")
	case c.Paused:
		return flagErr("paused", "a network game cannot pause")
	}
	return nil
}

// minNetTimeout is the least -net-timeout: a few keepalive intervals, so
// that a peer is not taken for silent between two of its packets.
const minNetTimeout = 4 * keepAlive

// keepAlive is the netcode's longest gap between two packets to a peer
// (netplay.Config.KeepAlive's default).
const keepAlive = 100 * time.Millisecond

// condFlag names the simulated network's flag to blame: with invalid, the
// first whose value alone is out of range; otherwise the first set.
func (n *NetConfig) condFlag(set map[string]bool, invalid bool) string {
	c := n.Cond
	for _, f := range []struct {
		name string
		only netsim.Conditions
	}{
		{"net-delay", netsim.Conditions{Delay: c.Delay}},
		{"net-jitter", netsim.Conditions{Jitter: c.Jitter}},
		{"net-loss", netsim.Conditions{Loss: c.Loss}},
		{"net-dup", netsim.Conditions{Duplicate: c.Duplicate}},
		{"net-reorder", netsim.Conditions{Reorder: c.Reorder}},
	} {
		if invalid && f.only.Validate() != nil || !invalid && set[f.name] {
			return f.name
		}
	}
	return "net-delay"
}

// checkHostPort checks a -host address: HOST:PORT (HOST may be empty,
// or an IPv6 address in brackets), the port a number from 0 (the system
// picks one) to 65535.
func checkHostPort(addr string) error {
	i := strings.LastIndexByte(addr, ':')
	if i < 0 {
		return fmt.Errorf("%q is not HOST:PORT", addr)
	}
	if p, err := strconv.Atoi(addr[i+1:]); err != nil || p < 0 || p > 65535 {
		return fmt.Errorf("%q: the port must be a number from 0 to 65535", addr)
	}
	return nil
}

// checkJoin resolves -join's or -spectate's address (after the flags'
// own checks). stop ends the lookup (a name server that does not answer
// is waited for seconds) with an error that says so.
func (n *NetConfig) checkJoin(network Network, stop context.Context) error {
	name, addr := n.remote()
	if n.Lobby != "" {
		name, addr = "lobby", n.Lobby
	}
	if addr == "" {
		return nil
	}
	if network == nil {
		return flagErr(name, "no network here")
	}
	if n.room() != "" {
		return nil // the lobby says whether it is there
	}
	if _, err := network.Resolve(stop, addr); err != nil {
		if stop.Err() != nil {
			return stopped(stop, "looking up "+addr)
		}
		return flagErr(name, "%v", err)
	}
	return nil
}

// netGame is the demo's side of a network game: the socket and the
// session the simulation plays on.
type netGame struct {
	conn      Conn
	transport string             // udp, or webrtc (a lobby's room)
	sess      *netplay.Session   // a player's, or nil
	host      bool               // sess hosts the game
	spec      *netplay.Spectator // a spectator's, or nil
	watched   bool               // "watching" was said
	left      bool               // a spectator left before the end (stopWatching)
	netcode   string
	started   bool // "game started" was said
	// lobbySaid: a joiner said its player index in the lobby.
	lobbySaid bool
	endSaid   bool // the end was said
	// failed is why a game that never started ends this run with an
	// error: the lobby's room of a host waiting for its players went
	// away, so nobody can join; -net-wait passed with players missing; a
	// signal came while it waited. The error says it (in place of the
	// line that the game never started), and Finish returns it.
	failed error
	// hostedAt is when a host began to wait for its players (-net-wait
	// counts from it).
	hostedAt time.Duration
	// watching says this is a spectator (before spec is made).
	watching bool
	// kickedSaid are the players whose kick was said, a bit each.
	kickedSaid uint32
	// From the session's events: the players whose connection is
	// interrupted, a bit each, and the first desync found (desyncSet).
	interrupted uint32
	desync      netplay.Event
	desyncSet   bool
	// ready says that the loop runs steadily (a frame was shown): a
	// joiner sends nothing in the lobby before, since its first word
	// after the Welcome tells the host to start the game. Until then the
	// window, the renderer and the first frame (hundreds of milliseconds
	// on llvmpipe: shaders compile at the first draw) would eat into the
	// game's first ticks here and not at the host.
	ready  bool
	smooth *smoother // -rollback-smooth, or nil
	ghosts *ghosts   // rollback's mispredictions, drawn with G; or nil
}

// running reports whether the game runs here: a player's session is
// running (or over), or a spectator has its snapshot.
func (g *netGame) running() bool {
	if g.spec != nil {
		return g.spec.State() >= netplay.StateRunning
	}
	return g.sess.State() >= netplay.StateRunning
}

// signalingConn is a room's transport, which says when its lobby went
// away (webrtc.Transport.SignalingErr).
type signalingConn interface{ SignalingErr() error }

// lobbyWatch ends the game of a room's host still waiting for its players
// when the lobby went away: nobody can join it any more, and waiting on
// would be a hang. A game already running plays on without the lobby.
func (g *netGame) lobbyWatch(now time.Duration, s *sim.Sim) {
	if !g.hostWaiting() {
		return
	}
	if c, ok := g.conn.(signalingConn); ok {
		if err := c.SignalingErr(); err != nil {
			g.failed = fmt.Errorf("the lobby went away (%v): nobody can join this game", err)
			s.Quit(now)
		}
	}
}

// waitLimit ends the game of a host that has waited wait (-net-wait; 0:
// no limit) for its players and still lacks some: the run ends with an
// error that says how many came, status 1, so that a script's host with
// nobody coming does not wait forever.
func (g *netGame) waitLimit(now time.Duration, s *sim.Sim, wait time.Duration) {
	if wait <= 0 || !g.hostWaiting() || now-g.hostedAt < wait {
		return
	}
	st := g.sess.Stats()
	if st.Joined <= 1 {
		g.failed = fmt.Errorf("nobody joined within %v (-net-wait)", wait)
	} else {
		g.failed = fmt.Errorf("only %d of %d players joined within %v (-net-wait)", st.Joined, st.Players, wait)
	}
	s.Quit(now)
}

// hostWaiting reports whether this is a host still waiting for its
// players, with no reason yet to give up.
func (g *netGame) hostWaiting() bool {
	return g.failed == nil && g.sess != nil && g.host && g.sess.State() == netplay.StateLobby
}

// waiting reports whether the game has not started here: a player's
// session waits for the players, or a spectator for the game.
func (g *netGame) waiting() bool {
	if g.spec != nil {
		return g.spec.State() < netplay.StateRunning
	}
	return g.sess.State() < netplay.StateRunning
}

// waitErr is the error of a run that why (a signal) ended while the game
// waited to start.
func (g *netGame) waitErr(why error) error {
	if g.spec != nil {
		return fmt.Errorf("%v while waiting for the game to start", why)
	}
	st := g.sess.Stats()
	return fmt.Errorf("%v while waiting for players (%d of %d there): the game never started", why, st.Joined, st.Players)
}

// announce says on the log when the game starts and how it ended: lines
// a person or a script can wait for. A game that ends with an error (a
// silent peer, a kick, a desync) is said by the error the run ends with.
func (g *netGame) announce(log io.Writer) {
	if g.spec != nil {
		if !g.watched && g.spec.State() >= netplay.StateRunning {
			g.watched = true
			st := g.spec.Stats()
			fmt.Fprintf(log, "interpdemo: watching: %d players, from tick %d (joined in %d ms)\n", st.Players, st.Start, st.JoinTime.Milliseconds())
		}
		return
	}
	state, st := g.sess.State(), g.sess.Stats()
	if !g.lobbySaid && g.ready && state == netplay.StateLobby && !g.host {
		g.lobbySaid = true
		fmt.Fprintf(log, "interpdemo: joined as player %d of %d, waiting for the others\n", st.Index, st.Players)
	}
	if !g.started && (state == netplay.StateRunning || state == netplay.StateEnding && st.Tick > 0) {
		g.started = true
		fmt.Fprintf(log, "interpdemo: game started: player %d of %d, input delay %d ticks, %s\n", st.Index, st.Players, st.Delay, g.netcode)
	}
	g.events(log)
	for p := range st.Players {
		bit := uint32(1) << p
		if st.Peers[p].Kicked && g.kickedSaid&bit == 0 {
			g.kickedSaid |= bit
			if p != g.sess.Index() {
				fmt.Fprintf(log, "interpdemo: player %d was dropped from the game; its ball moves on its own\n", p)
			}
		}
	}
	if g.endSaid || state < netplay.StateEnding {
		return
	}
	g.endSaid = true
	switch st := g.sess.Stats(); {
	case g.failed != nil: // the run's error says it
	case !g.started:
		fmt.Fprintf(log, "interpdemo: the game never started: %s with %d of %d players there\n", endWords(st.End), st.Joined, st.Players)
	case g.sess.Err() == nil:
		fmt.Fprintf(log, "interpdemo: game over at tick %d: %s\n", st.Tick, endWords(st.End))
		for p := range st.Players {
			if ps := &st.Peers[p]; ps.Kicked && p != st.Index {
				fmt.Fprintf(log, "interpdemo: player %d was out of the game from tick %d: %v\n", p, ps.KickTick, ps.KickWhy)
			}
		}
	}
}

// events takes the session's events of the frame: the HUD's
// interruptions and desync, and a log line for each.
func (g *netGame) events(log io.Writer) {
	for e, ok := g.sess.PollEvent(); ok; e, ok = g.sess.PollEvent() {
		bit := uint32(1) << e.Player
		switch e.Kind {
		case netplay.EventInterrupted:
			g.interrupted |= bit
			fmt.Fprintf(log, "interpdemo: player %d: connection interrupted (nothing heard for %d ms)\n", e.Player, e.Silent.Milliseconds())
		case netplay.EventResumed:
			g.interrupted &^= bit
			fmt.Fprintf(log, "interpdemo: player %d: connection resumed\n", e.Player)
		case netplay.EventDisconnected:
			g.interrupted &^= bit
			if e.Player != g.sess.Index() {
				fmt.Fprintf(log, "interpdemo: player %d disconnected at tick %d: %v\n", e.Player, e.Tick, e.Why)
			}
		case netplay.EventDesync:
			if !g.desyncSet {
				g.desync, g.desyncSet = e, true
			}
		}
	}
}

// kick (the host's key) drops the lowest joiner still in the game.
func (g *netGame) kick(log io.Writer) {
	if g.sess == nil || !g.host {
		fmt.Fprintf(log, "interpdemo: X: only the host of a network game kicks a player\n")
		return
	}
	st := g.sess.Stats()
	for p := 1; p < st.Players; p++ {
		if !st.Peers[p].Kicked {
			if err := g.sess.Kick(p); err != nil {
				fmt.Fprintf(log, "interpdemo: X: %v\n", err)
			}
			return
		}
	}
	fmt.Fprintf(log, "interpdemo: X: no player left to kick\n")
}

// endWords says a session's end (Stats.End) as the end of a game: "you
// quit" for one's own quit.
func endWords(end string) string {
	if end == "quit" {
		return "you quit"
	}
	return end
}

// startNet opens the socket and the session. A host's game starts when
// every player has joined (the loop draws the lobby meanwhile). A joiner
// waits here for the host's welcome, which brings the world settings:
// they replace the flags', and a world flag the user gave that disagrees
// with the host's is an error.
//
// stop ends the waits here (the lobby's, a joiner's, a spectator's) at
// once with an error that names the wait and stop's cause.
func startNet(c *Config, network Network, clock loop.Clock, stop context.Context, log *whoLog) (*netGame, error) {
	n := &c.Net
	id, err := network.Nonce()
	if err != nil {
		return nil, err
	}
	var (
		conn     Conn
		hosting  = n.Host != ""
		host     string // a joiner's or spectator's host
		hostText string // how the log names it
	)
	transport := "udp"
	if room := n.room(); room != "" {
		flagName := "lobby"
		if n.Lobby == "" {
			flagName = "spectate"
		}
		u, _ := roomURL(room, n.Players, n.Spectate != "") // checked with the flags
		fmt.Fprintf(log, "interpdemo: entering the room %s...\n", u)
		r, err := network.Lobby(stop, u, webrtc.Config{ICEServers: n.ICEServers, RelayOnly: n.ICERelay, Timeout: lobbyTimeout})
		if err != nil {
			if stop.Err() != nil {
				return nil, stopped(stop, "entering the room "+room)
			}
			return nil, fmt.Errorf("-%s: %v", flagName, err)
		}
		conn, hosting, host, hostText, transport = r.Conn, r.Host, r.HostAddr, fmt.Sprintf("the room's host (%s)", r.HostAddr), "webrtc"
		if hosting {
			n.Players = r.Players
		}
	} else {
		listen := n.Host
		if listen == "" {
			listen = ":0"
		}
		if conn, err = network.Listen(listen, n.Cond, id); err != nil {
			return nil, fmt.Errorf("-host: %v", err)
		}
		if !hosting {
			name, given := n.remote()
			if host, err = network.Resolve(stop, given); err != nil { // checked with the flags, looked up again
				conn.Close()
				if stop.Err() != nil {
					return nil, stopped(stop, "looking up "+given)
				}
				return nil, fmt.Errorf("-%s: %v", name, err)
			}
			hostText = hostName(given, host)
			connect(conn, host)
		}
	}
	g := &netGame{conn: conn, host: hosting, netcode: n.Netcode, watching: n.Spectate != "", transport: transport}
	log.g = g
	if n.Spectate != "" {
		return g, g.watch(c, clock, stop, id, host, hostText, log)
	}
	if n.Netcode == "rollback" {
		g.rollback(n)
	}
	now := clock.Now()
	if hosting {
		// Player i moves ball i: every player has one (-balls, if given,
		// was checked with the flags).
		c.Settings.Balls = max(c.Settings.Balls, uint32(n.Players))
		world := c.Settings
		world.Lockstep = true
		every := n.CheckEvery
		if every == 0 {
			every = -1 // none
		}
		g.sess, err = netplay.Host(netplay.Config{
			Nonce: id, InputSize: sim.InputSize, Players: n.Players, Settings: sim.EncodeSettings(world), Delay: n.InputDelay,
			Tick: world.Tick, TickLimit: uint64(c.Ticks), KickAfter: n.KickAfter, Silence: n.Timeout,
			PlayOn: n.Disconnect == "continue" || n.Disconnect == "" && n.KickAfter > 0, DesyncEvery: every, EndOnDesync: true, MaxSpectators: n.MaxSpectators,
			Netcode: n.netcode(), MaxPrediction: n.MaxPrediction, Report: n.Report != "",
		}, nil, conn, now)
		if err != nil {
			conn.Close()
			return nil, err
		}
		g.hostedAt = now
		fmt.Fprintf(log, "interpdemo: hosting on %v, waiting for %d players\n", conn.LocalAddr(), n.Players)
		return g, nil
	}
	fmt.Fprintf(log, "interpdemo: connecting to %s...\n", hostText)
	cfg := netplay.Config{Nonce: id, InputSize: sim.InputSize, Silence: n.Timeout, EndOnDesync: true,
		Netcode: n.netcode(), MaxPrediction: n.MaxPrediction, Report: n.Report != ""}
	if g.sess, err = netplay.Join(cfg, nil, conn, host, now); err != nil {
		conn.Close()
		return nil, err
	}
	// The Welcome is not answered here: the answer tells the host that
	// this player is ready, and the host starts the game on it. It goes
	// out once the session has its game, when the loop runs (see
	// netGame.ready).
	for g.sess.Frame(clock.Now(), 0, 0); g.sess.State() < netplay.StateLobby && g.sess.Err() == nil; g.sess.Frame(clock.Now(), 0, 0) {
		if stop.Err() != nil {
			conn.Close()
			return nil, stopped(stop, "waiting for the host at "+hostText)
		}
		g.conn.Wait(10 * time.Millisecond)
	}
	if err := g.sess.Err(); err != nil {
		conn.Close()
		return nil, err
	}
	game := g.sess.Config()
	world, err := sim.DecodeSettings(game.Settings)
	if err != nil {
		g.leave(clock)
		return nil, err
	}
	if err := conflicts(c, c.Set, world, game); err != nil {
		g.leave(clock)
		return nil, err
	}
	if game.Delay == 0 && n.Netcode == "lockstep" {
		// Lockstep cannot play without an input delay (every tick would
		// wait a round trip for the others' input): a game with none is
		// a rollback host's, and a joiner that did not ask for lockstep
		// plays rollback too. Before, it played lockstep at 0, stalled
		// on nearly every frame (247 of 250 at 30 ms of delay), and the
		// hashes agreed.
		if c.Set["netcode"] {
			g.leave(clock)
			return nil, flagErr("netcode", "lockstep cannot play the host's game: it has no input delay (the host plays rollback); join with -netcode rollback, or without -netcode")
		}
		n.Netcode, g.netcode = "rollback", "rollback" // as the session plays it
		g.rollback(n)
		fmt.Fprintf(log, "interpdemo: the host's game has no input delay, which lockstep cannot play: rollback here too\n")
	}
	c.Settings = world
	c.Ticks = int64(game.TickLimit)
	return g, nil
}

// rollback sets up what the rollback netcode draws: the ghosts of
// mispredictions, and the smoothing of corrections (-rollback-smooth).
func (g *netGame) rollback(n *NetConfig) {
	g.ghosts = &ghosts{}
	if n.Smooth {
		g.smooth = &smoother{}
	}
}

// connect ties a joiner's or a spectator's socket to its host's address
// where the socket can be (netplay/udp's Conn.Connect): then an address
// where nothing listens is said at once (the session's UnreachableError)
// rather than after the wait for a Welcome. Where it cannot, the wait
// says it.
func connect(conn Conn, host string) {
	if c, ok := conn.(interface{ Connect(string) (string, error) }); ok {
		_, _ = c.Connect(host) // best effort: the join timeout still bounds the wait
	}
}

// hostName is the address a user gave, and what it resolved to when
// that is another text: "localhost:7777 (127.0.0.1:7777)".
func hostName(given string, addr string) string {
	if string(addr) == given {
		return given
	}
	return given + " (" + string(addr) + ")"
}

// watch starts a spectator: it waits for the host's Welcome (which comes
// once the game runs), whose settings replace the flags'.
func (g *netGame) watch(c *Config, clock loop.Clock, stop context.Context, id uint64, host string, hostText string, log io.Writer) (err error) {
	fmt.Fprintf(log, "interpdemo: connecting to %s to watch...\n", hostText)
	cfg := netplay.Config{Nonce: id, InputSize: sim.InputSize, Silence: c.Net.Timeout, JoinTimeout: time.Minute}
	if g.spec, err = netplay.Watch(cfg, nil, g.conn, host, clock.Now()); err != nil {
		g.conn.Close()
		return err
	}
	for g.spec.Frame(clock.Now(), 0, 0); g.spec.State() < netplay.StateLobby && g.spec.Err() == nil; g.spec.Frame(clock.Now(), 0, 0) {
		if stop.Err() != nil {
			g.conn.Close()
			return stopped(stop, "waiting to watch the game at "+hostText)
		}
		g.conn.Wait(10 * time.Millisecond)
	}
	if err := g.spec.Err(); err != nil {
		g.conn.Close()
		return err
	}
	game := g.spec.Config()
	world, err := sim.DecodeSettings(game.Settings)
	if err != nil {
		g.conn.Close()
		return err
	}
	c.Settings = world
	c.Ticks = int64(game.TickLimit)
	return nil
}

// stopped is the error of a wait that stop ended: its cause ("interrupted
// by SIGINT") while what.
func stopped(stop context.Context, what string) error {
	return fmt.Errorf("%v while %s", context.Cause(stop), what)
}

// conflicts reports a world flag the user gave that the host's game
// contradicts.
func conflicts(c *Config, set map[string]bool, w sim.Settings, s netplay.Config) error {
	theirs := map[string]string{
		"tick": w.Tick.String(), "max-loops": strconv.Itoa(int(w.MaxLoops)), "lockstep": "true",
		"balls": strconv.Itoa(int(w.Balls)), "seed": strconv.FormatUint(w.Seed, 10), "radius": strconv.Itoa(int(w.Radius)),
		"ticks": strconv.FormatUint(s.TickLimit, 10), "players": strconv.Itoa(s.Players), "input-delay": strconv.Itoa(s.Delay),
	}
	ours := map[string]string{
		"tick": c.Settings.Tick.String(), "max-loops": strconv.Itoa(int(c.Settings.MaxLoops)), "lockstep": strconv.FormatBool(c.Settings.Lockstep),
		"balls": strconv.Itoa(int(c.Settings.Balls)), "seed": strconv.FormatUint(c.Settings.Seed, 10), "radius": strconv.Itoa(int(c.Settings.Radius)),
		"ticks": strconv.FormatInt(c.Ticks, 10), "players": strconv.Itoa(c.Net.Players), "input-delay": strconv.Itoa(c.Net.InputDelay),
	}
	for _, name := range worldFlags {
		if set[name] && ours[name] != theirs[name] {
			return flagErr(name, "is %s in the host's game, not %s: a joiner takes the host's world", theirs[name], ours[name])
		}
	}
	return nil
}

// leave ends the session politely (the host hears it at once rather than
// after a silence) and closes the socket.
func (g *netGame) leave(clock loop.Clock) {
	if g.spec != nil {
		g.stopWatching(clock.Now())
		g.conn.Close()
		return
	}
	g.sess.Quit(clock.Now())
	for deadline := clock.Now() + time.Second; !g.sess.Done() && clock.Now() < deadline; {
		g.sess.Frame(clock.Now(), 0, 0)
		g.conn.Wait(10 * time.Millisecond)
	}
	g.conn.Close()
}

// stopWatching is a spectator's goodbye, before it goes: the host frees
// its slot at once, and does not serve it until its silence (-net-timeout)
// nor wait that long for it at the game's end. A spectator that played to
// the end, or failed, has nothing to say: its last Poll told the host it
// has the end.
func (g *netGame) stopWatching(now time.Duration) {
	if g.spec == nil || g.spec.State() == netplay.StateEnded {
		return
	}
	g.spec.Leave(now)
	g.left = true
	g.spec.Frame(now, 0, 0) // the Byes
}

// lobbyLine is the HUD's and the title's word on a game not yet running.
func (g *netGame) lobbyLine(b []byte) []byte {
	if g.spec != nil {
		switch g.spec.State() {
		case netplay.StateJoining, netplay.StateLobby:
			b = append(b, "loading the game"...)
		case netplay.StateEnded:
			b = append(b, "game over"...)
		}
		return b
	}
	st := g.sess.Stats()
	switch st.State {
	case netplay.StateJoining, netplay.StateLobby:
		b = append(b, "waiting for players "...)
		b = strconv.AppendInt(b, int64(st.Joined), 10)
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(st.Players), 10)
	case netplay.StateEnding, netplay.StateEnded:
		b = append(b, "game over: "...)
		b = append(b, st.End...)
	}
	return b
}

// hudLines are the HUD's lines about the network game: this peer, the
// netcode, its ball, rollback's counts, and a table of the players: ping,
// time debt, the time each one held the game back, how far behind it is.
func (g *netGame) hudLines(b []byte, s *sim.Sim) []byte {
	if g.spec != nil {
		st := g.spec.Stats()
		b = append(b, "net: spectator of "...)
		b = strconv.AppendInt(b, int64(st.Players), 10)
		b = append(b, " players, from tick "...)
		b = strconv.AppendUint(b, st.Start, 10)
		if st.State >= netplay.StateRunning {
			b = append(b, ", "...)
			b = strconv.AppendInt(b, max(int64(st.Confirmed)-int64(st.Tick), 0), 10)
			b = append(b, " ticks behind the host"...)
		}
		if line := g.lobbyLine(nil); len(line) > 0 {
			b = append(b, ", "...)
			b = append(b, line...)
		}
		return b
	}
	st := g.sess.Stats()
	b = append(b, "net: "...)
	b = append(b, g.role()...)
	b = append(b, ", player "...)
	b = strconv.AppendInt(b, int64(st.Index), 10)
	b = append(b, " of "...)
	b = strconv.AppendInt(b, int64(st.Players), 10)
	b = append(b, ", "...)
	b = append(b, g.netcode...)
	b = append(b, ", input delay "...)
	b = strconv.AppendInt(b, int64(st.Delay), 10)
	b = append(b, " ticks, sent "...)
	b = strconv.AppendInt(b, st.BytesSent/1024, 10)
	b = append(b, " KiB"...)
	// The lobby's word, if any, is appended in place: lobbyLine(nil)
	// would allocate at every refresh while the game waits.
	mark := len(b)
	if b = g.lobbyLine(append(b, ", "...)); len(b) == mark+len(", ") {
		b = b[:mark] // no word, no separator
	}
	b = append(b, "\nyour ball: "...)
	b = strconv.AppendInt(b, int64(st.Index), 10)
	b = append(b, " (yellow); the arrows or WASD move it"...)
	if rb, ok := s.Rollback(); ok {
		b = append(b, "\nrollbacks "...)
		b = strconv.AppendInt(b, rb.Rollbacks, 10)
		b = append(b, ", re-run "...)
		b = strconv.AppendInt(b, rb.Resimulated, 10)
		b = append(b, " ticks, longest "...)
		b = strconv.AppendInt(b, int64(rb.MaxRollback), 10)
		b = append(b, ", mispredicted "...)
		b = strconv.AppendInt(b, rb.PredictionErrors, 10)
	}
	// A table, a line a player: ping, time debt, the time it held the
	// game back, and the ticks it is behind this peer.
	b = append(b, "\n  player   ping     debt     held back  behind you"...)
	for p := 0; p < st.Players; p++ {
		ps := &st.Peers[p]
		b = append(b, "\n  "...)
		row := len(b)
		b = strconv.AppendInt(b, int64(p), 10)
		if p == st.Index {
			b = append(b, " (you)"...)
		}
		b = hud.AppendMs(padTo(b, row, 9), ps.RTT)
		b = hud.AppendMs(padTo(b, row, 18), ps.Debt)
		b = hud.AppendMs(padTo(b, row, 27), ps.HeldBack)
		if p != st.Index {
			b = strconv.AppendInt(padTo(b, row, 38), int64(st.Peers[st.Index].Tick)-int64(ps.Tick), 10)
			b = append(b, " ticks"...)
		}
		if ps.Kicked {
			b = append(b, "  KICKED"...)
		}
	}
	// The session's events: who is silent now, and the first desync.
	for p := 0; p < st.Players; p++ {
		if g.interrupted&(1<<p) != 0 {
			b = append(b, "\nplayer "...)
			b = strconv.AppendInt(b, int64(p), 10)
			b = append(b, ": connection interrupted, "...)
			b = strconv.AppendFloat(b, st.Peers[p].LastHeard.Seconds(), 'f', 1, 64)
			b = append(b, " s"...)
		}
	}
	if g.desyncSet {
		b = append(b, "\ndesync at tick "...)
		b = strconv.AppendUint(b, g.desync.Tick, 10)
		b = append(b, " with player "...)
		b = strconv.AppendInt(b, int64(g.desync.Player), 10)
	}
	return b
}

// padTo appends spaces to b until the text from start on is col
// characters long, and one at least.
func padTo(b []byte, start, col int) []byte {
	b = append(b, ' ')
	for len(b)-start < col {
		b = append(b, ' ')
	}
	return b
}

// report is the network game's part of -stats.
func (g *netGame) report(s *sim.Sim) *report.Net {
	if g.spec != nil {
		st := g.spec.Stats()
		end := "game over"
		if err := g.spec.Err(); err != nil {
			end = err.Error()
		} else if g.left {
			end = "quit"
		}
		return &report.Net{
			Role: "spectator", Players: st.Players, Player: -1, RTTMs: []float64{}, Transport: g.transport,
			PacketsSent: st.PacketsSent, PacketsReceived: st.PacketsReceived, BadPackets: st.BadPackets, BytesSent: st.BytesSent, TicksAhead: []int64{}, Kicked: []int{}, End: end, Netcode: "-",
			Spectator:  &report.Spectator{StartTick: st.Start, SnapshotBytes: st.SnapshotBytes, JoinMs: ms(st.JoinTime)},
			Spectators: new(int64),
		}
	}
	st := g.sess.Stats()
	r := &report.Net{
		Role: g.role(), Players: st.Players, Player: st.Index, InputDelay: st.Delay,
		RTTMs: rttMs(&st), StallFrames: st.StallFrames, StallMs: ms(st.StallTime), BytesSent: st.BytesSent, TicksAhead: ticksAhead(&st),
		PacketsSent: st.PacketsSent, PacketsReceived: st.PacketsReceived, BadPackets: st.BadPackets,
		Desyncs: st.Desyncs, Kicked: kicked(&st), End: st.End, Netcode: g.netcode, Transport: g.transport,
		StartMs: ms(st.StartedAt),
	}
	spectators := st.SpectatorsJoined
	r.Spectators = &spectators
	if adv, slow, ok := s.TimeSync(); ok {
		r.FrameAdvantage, r.TimeSyncMs = adv, ms(slow)
	}
	if rb, ok := s.Rollback(); ok {
		r.Rollback = &report.Rollback{
			Rollbacks: rb.Rollbacks, ResimulatedTicks: rb.Resimulated, MaxRollbackTicks: rb.MaxRollback,
			PredictionErrors: rb.PredictionErrors, SnapshotBytes: rb.SnapshotBytes,
			RollbackMsP99: ms(rb.ResimTime.Quantile(0.99)), StallFrames: rb.StallFrames,
		}
	}
	return r
}

// rttMs lists the round trips to every player, ms (0 for oneself).
func rttMs(st *netplay.Stats) []float64 {
	out := make([]float64, st.Players)
	for p := range out {
		out[p] = ms(st.Peers[p].RTT)
	}
	return out
}

// ticksAhead lists, per player, how many ticks this peer has run more
// than the player (by its last report; 0 for oneself).
func ticksAhead(st *netplay.Stats) []int64 {
	out := make([]int64, st.Players)
	for p := range out {
		out[p] = int64(st.Peers[st.Index].Tick) - int64(st.Peers[p].Tick)
	}
	return out
}

// kicked lists the kicked players.
func kicked(st *netplay.Stats) []int {
	out := []int{}
	for p := 0; p < st.Players; p++ {
		if st.Peers[p].Kicked {
			out = append(out, p)
		}
	}
	return out
}

// role is this peer's part in the game: host, join or spectator.
func (g *netGame) role() string {
	switch {
	case g.spec != nil || g.watching:
		return "spectator"
	case g.host:
		return "host"
	}
	return "join"
}

// appendWho appends which peer this is: "host, player 0 of 2", "player 1
// of 2", "joining", "spectator".
func (g *netGame) appendWho(b []byte) []byte {
	switch {
	case g.spec != nil || g.watching:
		return append(b, "spectator"...)
	case g.sess == nil:
		return append(b, "joining"...)
	}
	if g.host {
		b = append(b, "host, "...)
	} else if g.sess.State() == netplay.StateJoining {
		return append(b, "joining"...)
	}
	st := g.sess.Stats()
	b = append(b, "player "...)
	b = strconv.AppendInt(b, int64(st.Index), 10)
	b = append(b, " of "...)
	return strconv.AppendInt(b, int64(st.Players), 10)
}

// whoLog is the log of a network game: every "interpdemo: " line says
// which peer wrote it ("interpdemo (player 1 of 2): ..."), so that the
// logs of two peers in two terminals, or in one file, are told apart.
type whoLog struct {
	w   io.Writer
	g   *netGame // the game, once there is one
	buf []byte
}

func (l *whoLog) Write(p []byte) (int, error) {
	const prefix = "interpdemo: "
	g := l.g
	if g == nil || !bytes.HasPrefix(p, []byte(prefix)) {
		return l.w.Write(p)
	}
	l.buf = append(l.buf[:0], "interpdemo ("...)
	l.buf = append(g.appendWho(l.buf), "): "...)
	l.buf = append(l.buf, p[len(prefix):]...)
	if _, err := l.w.Write(l.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// WindowTitle is the title a window opens with, before the first frame:
// which peer of a network game it is, and where a joiner connects.
func (c *Config) WindowTitle() string {
	switch {
	case c.Net.Host != "":
		return "interpdemo | host, player 0 of " + strconv.Itoa(c.Net.Players) + " | waiting for players"
	case c.Net.Join != "":
		return "interpdemo | connecting to " + c.Net.Join + "..."
	case c.Net.Spectate != "":
		return "interpdemo | spectator | connecting to " + c.Net.Spectate + "..."
	case c.Net.Lobby != "":
		return "interpdemo | entering " + c.Net.Lobby + "..."
	}
	return "interpdemo"
}

// LogName is how the log names this run before a network game's peer is
// known (a failure to open the game): "interpdemo (joining)",
// "interpdemo (host, player 0 of 2)", "interpdemo (spectator)", or
// "interpdemo".
func (c *Config) LogName() string {
	switch {
	case c.Net.Host != "":
		return "interpdemo (host, player 0 of " + strconv.Itoa(c.Net.Players) + ")"
	case c.Net.Join != "":
		return "interpdemo (joining)"
	case c.Net.Spectate != "":
		return "interpdemo (spectator)"
	case c.Net.Lobby != "":
		return "interpdemo (entering a room)"
	}
	return "interpdemo"
}

// WindowOffset is how far right and down from the screen's centre a
// window opens, in pixels: a joiner's and a spectator's windows are not
// on top of the host's when all run on one screen.
func (c *Config) WindowOffset() int {
	switch {
	case c.Net.Join != "":
		return 80
	case c.Net.Spectate != "":
		return 160
	}
	return 0
}
