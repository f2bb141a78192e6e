package main

import (
	"crypto/rand"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/netplay"
	"github.com/interpdemo/interpdemo/internal/netplay/udp"
	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/internal/sim"
)

// netConfig is what the network flags set.
type netConfig struct {
	host, join string // -host ADDR, -join HOST:PORT
	players    int
	inputDelay int
	kickAfter  time.Duration
	timeout    time.Duration // -net-timeout: a silent peer counts as gone
	bot        bool          // -bot was given
	botSeed    uint64
	cond       netplay.Conditions // -net-delay and friends, both ways

	netcode       string // lockstep or rollback
	maxPrediction int
	smooth        bool // -rollback-smooth
}

func (n *netConfig) on() bool { return n.host != "" || n.join != "" }

// netFlags defines the network flags on fs.
func (n *netConfig) flags(fs *flag.FlagSet) {
	fs.StringVar(&n.host, "host", "", "host a network game on this address (e.g. :7777) and wait for -players")
	fs.StringVar(&n.join, "join", "", "join the network game hosted at HOST:PORT")
	fs.IntVar(&n.players, "players", 2, fmt.Sprintf("players of a hosted game, the host included (%d to %d)", netplay.MinPlayers, netplay.MaxPlayers))
	fs.IntVar(&n.inputDelay, "input-delay", netplay.DefaultDelay, fmt.Sprintf("network game: ticks between sampling your input and running it (1 to %d; the host's is used)", netplay.MaxDelay))
	fs.DurationVar(&n.kickAfter, "kick-after", 0, "host: drop a player who held the game back this long in 10 s (0: never)")
	fs.DurationVar(&n.timeout, "net-timeout", netplay.DefaultSilence, "network game: a peer silent this long ends the game, or is dropped with -kick-after")
	fs.Func("bot", "network game: this player's input comes from a deterministic generator seeded with SEED, not the keyboard", func(s string) error {
		v, err := strconv.ParseUint(s, 0, 64)
		n.bot, n.botSeed = true, v
		return err
	})
	fs.StringVar(&n.netcode, "netcode", "lockstep", "network game: lockstep (wait for every input, with -input-delay) or rollback (predict, correct, no input delay)")
	fs.IntVar(&n.maxPrediction, "max-prediction", sim.DefaultMaxPrediction, fmt.Sprintf("rollback: most ticks run ahead of the known inputs (1 to %d)", sim.MaxMaxPrediction))
	fs.BoolVar(&n.smooth, "rollback-smooth", true, "rollback: blend a corrected remote ball's jump away over 100 ms")
	fs.DurationVar(&n.cond.Delay, "net-delay", 0, "network game: simulated one-way delay added to every packet, both ways")
	fs.DurationVar(&n.cond.Jitter, "net-jitter", 0, "network game: simulated jitter, each packet's delay spread by up to this much")
	fs.Float64Var(&n.cond.Loss, "net-loss", 0, "network game: simulated probability, 0 to 1, that a packet is lost")
	fs.Float64Var(&n.cond.Duplicate, "net-dup", 0, "network game: simulated probability, 0 to 1, that a packet arrives twice")
	fs.Float64Var(&n.cond.Reorder, "net-reorder", 0, "network game: simulated probability, 0 to 1, that a packet is overtaken by later ones")
}

// worldFlags are the flags whose values a joiner takes from the host.
var worldFlags = []string{"tick", "max-loops", "lockstep", "balls", "seed", "radius", "ticks", "players", "input-delay"}

// check validates the network flags against the rest of the command line.
func (n *netConfig) check(c *config, set map[string]bool) error {
	if n.netcode != "lockstep" && n.netcode != "rollback" {
		return flagErr("netcode", "must be lockstep or rollback (got %q)", n.netcode)
	}
	if n.netcode == "rollback" && !set["input-delay"] {
		n.inputDelay = 0 // rollback's point: your input acts on the next tick
	}
	if !n.on() {
		for _, name := range []string{"players", "input-delay", "kick-after", "net-timeout", "bot", "net-delay", "net-jitter", "net-loss", "net-dup", "net-reorder", "netcode", "max-prediction", "rollback-smooth"} {
			if set[name] {
				return flagErr(name, "needs -host or -join")
			}
		}
		return nil
	}
	if err := n.cond.Validate(); err != nil {
		return flagErr("net-loss", "%v", err)
	}
	switch {
	case n.host != "" && n.join != "":
		return flagErr("join", "cannot be combined with -host")
	case n.players < netplay.MinPlayers || n.players > netplay.MaxPlayers:
		return flagErr("players", "must be between %d and %d (got %d)", netplay.MinPlayers, netplay.MaxPlayers, n.players)
	case n.netcode == "lockstep" && (n.inputDelay < 1 || n.inputDelay > netplay.MaxDelay):
		return flagErr("input-delay", "must be between 1 and %d ticks with lockstep (got %d)", netplay.MaxDelay, n.inputDelay)
	case n.netcode == "rollback" && (n.inputDelay < 0 || n.inputDelay > netplay.MaxDelay):
		return flagErr("input-delay", "must be between 0 and %d ticks (got %d)", netplay.MaxDelay, n.inputDelay)
	case n.maxPrediction < 1 || n.maxPrediction > sim.MaxMaxPrediction:
		return flagErr("max-prediction", "must be between 1 and %d ticks (got %d)", sim.MaxMaxPrediction, n.maxPrediction)
	case n.netcode != "rollback" && (set["max-prediction"] || set["rollback-smooth"]):
		return flagErr("max-prediction", "needs -netcode rollback")
	case n.timeout <= 0 || n.timeout > time.Hour:
		return flagErr("net-timeout", "must be more than 0 and at most 1h (got %v)", n.timeout)
	case n.kickAfter < 0:
		return flagErr("kick-after", "must not be negative (got %v)", n.kickAfter)
	case n.join != "" && set["kick-after"]:
		return flagErr("kick-after", "is the host's to set")
	case c.mode != sim.ModeFixed:
		return flagErr("mode", "a network game runs in fixed mode")
	case c.replayFile != "":
		return flagErr("replay", "cannot be combined with a network game")
	case c.fast:
		return flagErr("fast", "a network game runs in real time")
	case c.speed != 1:
		return flagErr("speed", "a network game runs in real time")
	case c.paused:
		return flagErr("paused", "a network game cannot pause")
	}
	if n.join != "" {
		if _, err := udp.Resolve(n.join); err != nil {
			return flagErr("join", "%v", err)
		}
	}
	return nil
}

// netGame is the demo's side of a network game: the socket and the
// session the simulation plays on.
type netGame struct {
	conn    *udp.Conn
	sess    *netplay.Session
	started bool      // "game started" was said
	smooth  *smoother // -rollback-smooth, or nil
	ghosts  *ghosts   // rollback's mispredictions, drawn with G; or nil
}

// announce says on the log when the game starts: a line a person or a
// script can wait for.
func (g *netGame) announce(log io.Writer) {
	if !g.started && g.sess.State() >= netplay.StateRunning {
		g.started = true
		fmt.Fprintf(log, "interpdemo: game started: player %d of %d, input delay %d ticks\n", g.sess.Index(), g.sess.Players(), g.sess.Delay())
	}
}

// nonce returns 64 random bits, never 0.
func nonce() (uint64, error) {
	var b [8]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			return 0, err
		}
		if v := binary.LittleEndian.Uint64(b[:]); v != 0 {
			return v, nil
		}
	}
}

// startNet opens the socket and the session. A host's game starts when
// every player has joined (the loop draws the lobby meanwhile). A joiner
// waits here for the host's welcome, which brings the world settings:
// they replace the flags', and a world flag the user gave that disagrees
// with the host's is an error.
func startNet(c *config, clock *platform.Clock, log io.Writer) (*netGame, error) {
	n := &c.net
	id, err := nonce()
	if err != nil {
		return nil, err
	}
	listen := n.host
	if listen == "" {
		listen = ":0"
	}
	conn, err := udp.Listen(listen, udp.Config{Outgoing: n.cond, Incoming: n.cond, Seed: id})
	if err != nil {
		return nil, fmt.Errorf("-host: %v", err)
	}
	g := &netGame{conn: conn}
	if n.netcode == "rollback" {
		g.ghosts = &ghosts{}
		if n.smooth {
			g.smooth = &smoother{}
		}
	}
	now := clock.Now()
	if n.host != "" {
		world := c.settings
		world.Lockstep = true
		delay := n.inputDelay
		if delay == 0 {
			delay = netplay.NoDelay
		}
		g.sess, err = netplay.NewHost(netplay.Config{
			Nonce: id, Players: n.players, World: world, Delay: delay,
			TickLimit: uint64(c.ticks), KickAfter: n.kickAfter, Silence: n.timeout,
		}, now)
		if err != nil {
			conn.Close()
			return nil, err
		}
		fmt.Fprintf(log, "interpdemo: hosting on %v, waiting for %d players\n", conn.LocalAddr(), n.players)
		return g, nil
	}
	host, _ := udp.Resolve(n.join) // checked with the flags
	if g.sess, err = netplay.NewJoiner(netplay.Config{Nonce: id, Silence: n.timeout}, host, now); err != nil {
		conn.Close()
		return nil, err
	}
	for g.sess.State() < netplay.StateLobby && g.sess.Err() == nil {
		g.conn.Pump(clock.Now(), g.sess)
		g.conn.Wait(10 * time.Millisecond)
	}
	if err := g.sess.Err(); err != nil {
		conn.Close()
		return nil, err
	}
	if err := conflicts(c, c.set, g.sess); err != nil {
		g.leave(clock)
		return nil, err
	}
	c.settings = g.sess.World()
	c.ticks = int64(g.sess.TickLimit())
	return g, nil
}

// conflicts reports a world flag the user gave that the host's game
// contradicts.
func conflicts(c *config, set map[string]bool, s *netplay.Session) error {
	w := s.World()
	theirs := map[string]string{
		"tick": w.Tick.String(), "max-loops": strconv.Itoa(int(w.MaxLoops)), "lockstep": "true",
		"balls": strconv.Itoa(int(w.Balls)), "seed": strconv.FormatUint(w.Seed, 10), "radius": strconv.Itoa(int(w.Radius)),
		"ticks": strconv.FormatUint(s.TickLimit(), 10), "players": strconv.Itoa(s.Players()), "input-delay": strconv.Itoa(s.Delay()),
	}
	ours := map[string]string{
		"tick": c.settings.Tick.String(), "max-loops": strconv.Itoa(int(c.settings.MaxLoops)), "lockstep": strconv.FormatBool(c.settings.Lockstep),
		"balls": strconv.Itoa(int(c.settings.Balls)), "seed": strconv.FormatUint(c.settings.Seed, 10), "radius": strconv.Itoa(int(c.settings.Radius)),
		"ticks": strconv.FormatInt(c.ticks, 10), "players": strconv.Itoa(c.net.players), "input-delay": strconv.Itoa(c.net.inputDelay),
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
func (g *netGame) leave(clock *platform.Clock) {
	g.sess.Quit(clock.Now())
	for deadline := clock.Now() + time.Second; !g.sess.Done() && clock.Now() < deadline; {
		g.conn.Pump(clock.Now(), g.sess)
		g.conn.Wait(10 * time.Millisecond)
	}
	g.conn.Close()
}

// lobbyLine is the HUD's and the title's word on a game not yet running.
func (g *netGame) lobbyLine(b []byte) []byte {
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

// hudLines are the HUD's lines about the players: ping, input delay,
// time debt and the time each one held the game back.
func (g *netGame) hudLines(b []byte) []byte {
	st := g.sess.Stats()
	b = append(b, "net: "...)
	b = append(b, st.Role.String()...)
	b = append(b, ", player "...)
	b = strconv.AppendInt(b, int64(st.Index), 10)
	b = append(b, " of "...)
	b = strconv.AppendInt(b, int64(st.Players), 10)
	b = append(b, ", input delay "...)
	b = strconv.AppendInt(b, int64(st.Delay), 10)
	b = append(b, " ticks"...)
	if line := g.lobbyLine(nil); len(line) > 0 {
		b = append(b, ", "...)
		b = append(b, line...)
	}
	for p := 0; p < st.Players; p++ {
		ps := &st.Peers[p]
		b = append(b, "\n  player "...)
		b = strconv.AppendInt(b, int64(p), 10)
		if p == st.Index {
			b = append(b, " (you)"...)
		}
		b = append(b, ": ping "...)
		b = hud.AppendMs(b, ps.RTT)
		b = append(b, "  debt "...)
		b = hud.AppendMs(b, ps.Debt)
		b = append(b, "  held back "...)
		b = hud.AppendMs(b, ps.HeldBack)
		if ps.Kicked {
			b = append(b, "  KICKED"...)
		}
	}
	return b
}

// rttMs lists the round trips to every player, ms (0 for oneself).
func rttMs(st *netplay.Stats) []float64 {
	out := make([]float64, st.Players)
	for p := range out {
		out[p] = ms(st.Peers[p].RTT)
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
