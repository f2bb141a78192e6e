package demo

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
	"github.com/interpdemo/interpdemo/netplay/webrtc"
	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
)

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
	var ep endpoint
	if room := n.room(); room != "" {
		ep, err = enterRoom(n, room, network, stop, log)
	} else {
		ep, err = openUDP(n, network, stop, id)
	}
	if err != nil {
		return nil, err
	}
	g := &netGame{conn: ep.conn, host: ep.hosting, netcode: n.Netcode, watching: n.Spectate != "", transport: ep.transport}
	log.g = g
	if n.Spectate != "" {
		return g, g.watch(c, clock, stop, id, ep.host, ep.hostText, log)
	}
	if n.Netcode == "rollback" {
		g.rollback(n)
	}
	now := clock.Now()
	if ep.hosting {
		err = g.hostGame(c, id, now, log)
	} else {
		err = g.join(c, clock, stop, id, ep, now, log)
	}
	if err != nil {
		return nil, err
	}
	return g, nil
}

// endpoint is the socket a game opened, and what this peer knows of its
// host.
type endpoint struct {
	conn      Conn
	hosting   bool   // this peer hosts the game
	host      string // a joiner's or spectator's host
	hostText  string // how the log names it
	transport string // udp, or webrtc (a lobby's room)
}

// enterRoom enters the lobby's room at room (-lobby's, or -spectate's
// URL): the lobby says whether this peer hosts, and connects a joiner or
// a spectator to the room's host. The room's host plays with the
// players the room waits for.
func enterRoom(n *NetConfig, room string, network Network, stop context.Context, log io.Writer) (endpoint, error) {
	flagName := "lobby"
	if n.Lobby == "" {
		flagName = "spectate"
	}
	u, _ := roomURL(room, n.Players, n.Spectate != "") // checked with the flags
	fmt.Fprintf(log, "interpdemo: entering the room %s...\n", u)
	r, err := network.Lobby(stop, u, webrtc.Config{ICEServers: n.ICEServers, RelayOnly: n.ICERelay, Timeout: lobbyTimeout})
	if err != nil {
		if stop.Err() != nil {
			return endpoint{}, stopped(stop, "entering the room "+room)
		}
		return endpoint{}, roomFailed(err, flagName, room, n.Page)
	}
	if r.Host {
		n.Players = r.Players
	}
	return endpoint{conn: r.Conn, hosting: r.Host, host: r.HostAddr, hostText: fmt.Sprintf("the room's host (%s)", r.HostAddr), transport: "webrtc"}, nil
}

// roomFailed says why the room at rawURL (-flagName's) could not be
// entered, and what to do next: start a lobby, give a lobby's address,
// watch a full room; in the page's words where page is set.
func roomFailed(err error, flagName, rawURL string, page bool) error {
	msg := strings.TrimPrefix(err.Error(), "lobby: ")
	at, _, _ := strings.Cut(rawURL, "?")
	flag, watch := "-"+flagName, "-spectate "+at
	if page {
		flag, watch = "lobby=", "?lobby="+at+"&spectate"
	}
	switch {
	case errors.Is(err, lobby.ErrNoLobby):
		return fmt.Errorf("%s: start one with make lobby (LOBBYADDR=HOST:PORT for another address)", msg)
	case errors.Is(err, lobby.ErrNotLobby):
		return fmt.Errorf("%s: %s wants a lobby's address (make lobby's: ws://127.0.0.1:8780/ROOM)", msg, flag)
	case errors.Is(err, lobby.ErrRoomFull):
		return fmt.Errorf("%s: watch it with %s", msg, watch)
	}
	return fmt.Errorf("%s: %s", flag, msg)
}

// openUDP opens a UDP game's socket (-host's address, or any port) and,
// for a joiner or a spectator, looks its host's address up again and
// ties the socket to it.
func openUDP(n *NetConfig, network Network, stop context.Context, id uint64) (endpoint, error) {
	ep := endpoint{hosting: n.Host != "", transport: "udp"}
	listen := n.Host
	if listen == "" {
		listen = ":0"
	}
	var err error
	if ep.conn, err = network.Listen(listen, n.Cond, id); err != nil {
		return endpoint{}, fmt.Errorf("-host: %v", err)
	}
	if ep.hosting {
		return ep, nil
	}
	name, given := n.remote()
	if ep.host, err = network.Resolve(stop, given); err != nil { // checked with the flags, looked up again
		ep.conn.Close()
		if stop.Err() != nil {
			return endpoint{}, stopped(stop, "looking up "+given)
		}
		return endpoint{}, fmt.Errorf("-%s: %v", name, err)
	}
	ep.hostText = hostName(given, ep.host)
	connect(ep.conn, ep.host)
	return ep, nil
}

// hostGame starts a host's session on g's socket, with the flags' world;
// the game starts when every player has joined.
func (g *netGame) hostGame(c *Config, id uint64, now time.Duration, log io.Writer) error {
	n := &c.Net
	// Player i moves ball i: every player has one (-balls, if given,
	// was checked with the flags).
	c.Settings.Balls = max(c.Settings.Balls, uint32(n.Players))
	world := c.Settings
	world.Lockstep = true
	every := n.CheckEvery
	if every == 0 {
		every = -1 // none
	}
	var err error
	g.sess, err = netplay.Host(netplay.Config{
		Nonce: id, InputSize: sim.InputSize, Players: n.Players, Settings: sim.EncodeSettings(world), Delay: n.InputDelay,
		Tick: world.Tick, TickLimit: uint64(c.Ticks), KickAfter: n.KickAfter, Silence: n.Timeout, Interrupt: n.interrupt(),
		PlayOn: n.Disconnect == "continue" || n.Disconnect == "" && n.KickAfter > 0, DesyncEvery: every, EndOnDesync: true, MaxSpectators: n.MaxSpectators,
		Netcode: n.netcode(), MaxPrediction: n.MaxPrediction, Report: n.report(),
	}, nil, g.conn, now)
	if err != nil {
		g.conn.Close()
		return err
	}
	g.hostedAt = now
	fmt.Fprintf(log, "interpdemo: hosting on %v, waiting for %d players\n", g.conn.LocalAddr(), n.Players)
	return nil
}

// join starts a joiner's session and waits for the host's Welcome, whose
// game replaces the flags' (takeHostsGame).
func (g *netGame) join(c *Config, clock loop.Clock, stop context.Context, id uint64, ep endpoint, now time.Duration, log io.Writer) (err error) {
	n := &c.Net
	fmt.Fprintf(log, "interpdemo: connecting to %s...\n", ep.hostText)
	cfg := netplay.Config{Nonce: id, InputSize: sim.InputSize, Silence: n.Timeout, Interrupt: n.interrupt(), EndOnDesync: true,
		Netcode: n.netcode(), MaxPrediction: n.MaxPrediction, Report: n.report()}
	if g.sess, err = netplay.Join(cfg, nil, g.conn, ep.host, now); err != nil {
		g.conn.Close()
		return err
	}
	// The Welcome is not answered here: the answer tells the host that
	// this player is ready, and the host starts the game on it. It goes
	// out once the session has its game, when the loop runs (see
	// netGame.ready).
	for g.sess.Frame(clock.Now(), 0, 0); g.sess.State() < netplay.StateLobby && g.sess.Err() == nil; g.sess.Frame(clock.Now(), 0, 0) {
		if stop.Err() != nil {
			g.conn.Close()
			return stopped(stop, "waiting for the host at "+ep.hostText)
		}
		g.conn.Wait(10 * time.Millisecond)
	}
	if err := g.sess.Err(); err != nil {
		g.conn.Close()
		return err
	}
	return g.takeHostsGame(c, clock, log)
}

// takeHostsGame makes the host's game, from its Welcome, the joiner's:
// its world and tick limit replace the flags', a world flag the user gave
// that disagrees is an error, and a game without input delay is played
// with rollback.
func (g *netGame) takeHostsGame(c *Config, clock loop.Clock, log io.Writer) error {
	n := &c.Net
	game := g.sess.Config()
	world, err := sim.DecodeSettings(game.Settings)
	if err != nil {
		g.leave(clock)
		return err
	}
	if err := conflicts(c, c.Set, world, game); err != nil {
		g.leave(clock)
		return err
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
			return flagErr("netcode", "lockstep cannot play the host's game: it has no input delay (the host plays rollback); join with -netcode rollback, or without -netcode")
		}
		n.Netcode, g.netcode = "rollback", "rollback" // as the session plays it
		g.rollback(n)
		fmt.Fprintf(log, "interpdemo: the host's game has no input delay, which lockstep cannot play: rollback here too\n")
	}
	c.Settings = world
	c.Ticks = int64(game.TickLimit)
	return nil
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
