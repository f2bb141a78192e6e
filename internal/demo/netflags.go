package demo

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/sim"
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
	// Page is set by the web page: a desync's report is asked for
	// without a folder (the page shows netplay.Error.Report in its
	// status), and a room's failures name the page's query keys
	// (?lobby=URL, &spectate), not the flags.
	Page bool
}

// report says whether a desync's report is asked for.
func (n *NetConfig) report() bool { return n.Report != "" || n.Page }

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
// The checks run in a fixed order, so that a command line with several
// mistakes is told the same first one every time.
func (n *NetConfig) check(c *Config, set map[string]bool) error {
	if n.Netcode != "lockstep" && n.Netcode != "rollback" {
		return flagErr("netcode", "must be lockstep or rollback (got %q)", n.Netcode)
	}
	if n.Netcode == "rollback" && !set["input-delay"] {
		n.InputDelay = 0 // rollback's point: your input acts on the next tick
	}
	if err := n.checkICE(set); err != nil {
		return err
	}
	for _, a := range [...]struct{ flag, addr string }{{"host", n.Host}, {"join", n.Join}, {"spectate", n.Spectate}, {"lobby", n.Lobby}} {
		if set[a.flag] && a.addr == "" {
			return flagErr(a.flag, "needs an address")
		}
	}
	if !n.On() {
		return checkOffline(set)
	}
	if err := n.checkAddresses(set); err != nil {
		return err
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
	if err := n.checkSession(c, set); err != nil {
		return err
	}
	if err := n.checkHostsOwn(set); err != nil {
		return err
	}
	return checkRealTime(c)
}

// checkICE checks -ice and -ice-relay, which are for a lobby's room, and
// parses -ice's servers into ICEServers.
func (n *NetConfig) checkICE(set map[string]bool) error {
	if !set["ice"] && !set["ice-relay"] {
		return nil
	}
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
	return nil
}

// checkOffline refuses the network flags given without a network game
// (no -host, -join, -spectate or -lobby).
func checkOffline(set map[string]bool) error {
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

// checkAddresses checks the game's addresses (a room's URL, -host's
// HOST:PORT) and what each combines with: a room has no simulated
// network, and a spectator plays no input.
func (n *NetConfig) checkAddresses(set map[string]bool) error {
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
	if n.Spectate == "" {
		return nil
	}
	if n.Host != "" || n.Join != "" {
		return flagErr("spectate", "cannot be combined with -host or -join")
	}
	for _, name := range []string{"players", "input-delay", "kick-after", "net-wait", "net-disconnect", "net-check-every", "bot", "netcode", "max-prediction", "rollback-smooth", "max-spectators", "record", "desync-report", "fault-desync"} {
		if set[name] {
			return flagErr(name, "is not for a spectator, who plays no input")
		}
	}
	return nil
}

// checkSession checks the session's settings: the players, the netcode's
// delay and prediction, the desync aids, the timeout against the
// simulated network's round trip.
func (n *NetConfig) checkSession(c *Config, set map[string]bool) error {
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
	}
	return nil
}

// checkHostsOwn checks the settings that are the host's alone: when a
// player is dropped, how long the host waits, what a disconnect does, how
// often the states are compared.
func (n *NetConfig) checkHostsOwn(set map[string]bool) error {
	switch {
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
	}
	return nil
}

// checkRealTime refuses the rest of the command line's flags that a
// network game cannot follow: it runs in fixed mode, in real time, and
// never pauses.
func checkRealTime(c *Config) error {
	switch {
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

// interrupt is how long a peer may be silent before the HUD and the log
// say so: half of -net-timeout (1 s by default), a freeze a player
// notices. A shorter silence (a busy machine's, a lost packet's) passes
// unsaid: rollback plays through it, and nobody could act on it.
func (n *NetConfig) interrupt() time.Duration { return n.Timeout / 2 }
