package demo

import (
	"bytes"
	"io"
	"strconv"

	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/netplay"
)

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
		return g.spectatorLine(b)
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
	b = appendPlayerTable(b, &st)
	return g.appendEventLines(b, &st)
}

// spectatorLine is a spectator's HUD line: the players, the tick it
// watches from, how far behind the host it is, and the lobby's word.
func (g *netGame) spectatorLine(b []byte) []byte {
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

// appendPlayerTable appends a table, a line a player: ping, time debt,
// the time it held the game back, and the ticks it is behind this peer.
func appendPlayerTable(b []byte, st *netplay.Stats) []byte {
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
	return b
}

// appendEventLines appends the session's events that last: who is
// silent now, and the first desync.
func (g *netGame) appendEventLines(b []byte, st *netplay.Stats) []byte {
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
