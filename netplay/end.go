package netplay

import "time"

// Quit ends the game for everyone, cleanly, at one tick: the others end
// with no error, and every peer, this one included, in the same state.
//
// While the game runs, the end tick (EndTick) is InputTick(): the first
// tick whose local input has not been added. Nobody can have run it, since
// nobody has that input. The local player adds no more input; the session
// tells the others (the host relays it), and every peer goes on running
// the ticks before the end tick (adding its own inputs for them, which the
// others need) and ends there, as at a tick limit. Keep running frames,
// calling Receive and Poll, until Done. If several players quit, the
// earliest end tick counts. A peer gone silent meanwhile ends the game as
// always (Config.Silence).
//
// In the lobby the session ends at once; the host frees the slot, or, if
// the host quit, every joiner ends.
func (s *session) Quit(now time.Duration) {
	switch s.state {
	case StateJoining:
		s.state, s.note = StateEnded, "quit"
	case StateRunning:
		s.takeQuit(s.index, s.have[s.index])
	default:
		s.finish(endQuit, uint8(s.index), nil, "quit") // the lobby; nothing after the end
	}
}

// takeQuit agrees that player p quits at tick: nobody runs it or a later
// tick. Of several quits the earliest tick counts, and on the same tick
// the lowest player, so that every peer agrees whatever order the news
// comes in.
func (s *session) takeQuit(p int, tick uint64) {
	if s.state != StateRunning {
		return
	}
	// No peer can have run the tick of an honest quit; a tick already
	// run here is a broken peer's, and ends the game at once.
	tick = max(tick, s.next)
	if s.quitSet && (s.quit.tick < tick || (s.quit.tick == tick && int(s.quit.player) <= p)) {
		return
	}
	s.quit, s.quitSet = endMsg{reason: endQuit, player: uint8(p), tick: tick}, true
	if s.pastEnd(s.next) {
		s.finishAtEnd()
	}
}

// knowsQuit reports whether peer r said it knows of the agreed quit (or an
// earlier one), or its game is over.
func (s *session) knowsQuit(r *peer) bool {
	return r.ended || (r.heardQuit && r.quitTick <= s.quit.tick)
}

// heard notes that peer r sent the end section e.
func (r *peer) heard(e *endMsg) {
	if e.reason == endQuit && (!r.heardQuit || e.tick < r.quitTick) {
		r.heardQuit, r.quitTick = true, e.tick
	}
}

// finish ends the game here, for the given reason; err nil is a clean end.
func (s *session) finish(reason, player uint8, err error, note string) {
	if s.state >= StateEnding {
		return
	}
	s.inLobby = s.state < StateRunning
	s.state = StateEnding
	s.end = endMsg{reason: reason, player: player}
	s.err = err
	s.note = note
	if err != nil {
		s.note = err.Error()
	}
	s.waiting = false
	for i := range s.peers {
		s.peers[i].news = true
	}
	s.event(Event{Kind: EventEnded, Tick: s.next})
}
