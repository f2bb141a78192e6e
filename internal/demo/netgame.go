package demo

import (
	"fmt"
	"io"
	"time"

	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/netplay"
)

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
			fmt.Fprintf(log, "interpdemo: player %d: nothing heard for %d ms; at %v of silence (-net-timeout) the player is gone\n", e.Player, e.Silent.Milliseconds(), g.sess.Config().Silence)
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
