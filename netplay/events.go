package netplay

import (
	"fmt"
	"time"
)

// EventKind says what an Event is about.
type EventKind uint8

const (
	// EventSynchronizing: the players present in the lobby changed
	// (Event.Joined of Event.Players).
	EventSynchronizing EventKind = 1 + iota
	// EventSynchronized: the handshake with Event.Player is done (a
	// joiner: the host's Welcome; the host: the joiner's answer to it).
	EventSynchronized
	// EventStarted: the game started here; tick 0 begins.
	EventStarted
	// EventInterrupted: nothing has been heard from Event.Player for
	// Event.Silent (Config.Interrupt or more); the game waits for it, or
	// runs on predictions, until it is heard again (EventResumed) or
	// counts as gone (Config.Silence).
	EventInterrupted
	// EventResumed: Event.Player, interrupted, is heard again.
	EventResumed
	// EventDisconnected: Event.Player is out of the game, for
	// Event.Why. When the game goes on without it (a kick, or
	// DisconnectContinue) Event.Tick is the first tick it has no input
	// in, the same on every peer; when its disconnection ends the game,
	// the tick this peer had reached.
	EventDisconnected
	// EventDesync: after Event.Tick ticks this peer's state hash
	// (Event.Local) differs from Event.Player's (Event.Remote). One
	// event a differing checkpoint and player.
	EventDesync
	// EventWaitRecommendation: time sync's advice (a Runner with
	// RunnerConfig.Tick): this peer's game is Event.Ticks whole ticks
	// ahead of the game furthest behind, beyond what time sync lets
	// pass; a loop that runs one tick a call may skip that many calls.
	// At most one a second.
	EventWaitRecommendation
	// EventEnded: the game is over here (Session.Err says why, nil for
	// a clean end) at Event.Tick.
	EventEnded
)

var eventNames = [...]string{"", "synchronizing", "synchronized", "started", "interrupted", "resumed",
	"disconnected", "desync", "wait recommendation", "ended"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) && k != 0 {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// disconnectPolicy says what happens to the game when a joiner goes
// silent (Config.Silence) or leaves with an error. Kicks for slowness
// (Config.KickAfter) and by hand (Session.Kick) are apart from it: a
// kicked player is always played on without.
type disconnectPolicy uint8

const (
	// disconnectDefault is DisconnectEnd, or DisconnectContinue when
	// Config.KickAfter is set.
	disconnectDefault disconnectPolicy = iota
	// disconnectEnd ends the game for everyone, with a SilenceError or a
	// LeftError naming the player.
	disconnectEnd
	// disconnectContinue goes on without the player: the host drops it
	// as it kicks (from the first tick of its input the host lacks, the
	// same on every peer, its input is zero: Session.Disconnected), and
	// every peer has an EventDisconnected for it.
	disconnectContinue
)

func (p disconnectPolicy) String() string {
	switch p {
	case disconnectDefault:
		return "default"
	case disconnectEnd:
		return "end"
	case disconnectContinue:
		return "continue"
	}
	return fmt.Sprintf("DisconnectPolicy(%d)", uint8(p))
}

// An Event is something that happened to a Session that a game may show:
// a kind and the fields that kind fills (the others are zero). Poll them
// each frame with Session.PollEvent.
type Event struct {
	Kind EventKind
	// Player is the player it is about (Synchronized, Interrupted,
	// Resumed, Disconnected, Desync).
	Player int
	// Tick: Disconnected, Desync, Ended (see the kinds).
	Tick uint64
	// Silent is how long the player had been silent (Interrupted).
	Silent time.Duration
	// Why the player is out (Disconnected).
	Why Reason
	// Local and Remote are the two state hashes (Desync).
	Local, Remote uint64
	// Joined and Players are the players present and expected
	// (Synchronizing).
	Joined, Players int
	// Ticks is how many ticks this peer may skip (WaitRecommendation).
	Ticks int
	// Report (Desync, with Config.Report) says where the states differ:
	// the event comes again with it once the peers have exchanged their
	// states (Error.Report has it too).
	Report string
}

// eventBuffer is the number of events a Session keeps until they are
// polled; when it is full, a new event drops the oldest one
// (Stats.EventsDropped counts them).
const eventBuffer = 64

// eventRing is a Session's undelivered events, oldest first.
type eventRing struct {
	buf     [eventBuffer]Event
	head, n int
	dropped int64
}

func (q *eventRing) push(e Event) {
	if q.n == eventBuffer {
		q.head = (q.head + 1) % eventBuffer
		q.n--
		q.dropped++
	}
	q.buf[(q.head+q.n)%eventBuffer] = e
	q.n++
}

func (q *eventRing) pop() (Event, bool) {
	if q.n == 0 {
		return Event{}, false
	}
	e := q.buf[q.head]
	q.head = (q.head + 1) % eventBuffer
	q.n--
	return e, true
}

// PollEvent returns the oldest event not yet polled, if any. Call it
// until it reports false, once a frame: it does not allocate. The
// session keeps EventBuffer events; a session whose events are never
// polled drops the oldest ones and counts them (Stats.EventsDropped).
func (s *session) PollEvent() (Event, bool) { return s.events.pop() }

func (s *session) event(e Event) { s.events.push(e) }

// Kick (host) drops player p from the game at once, as a kick for
// slowness does: from the first tick of p's input the host does not have,
// the same on every peer, p's input is zero (Disconnected) and the game goes
// on without it; p ends with a KickedError (ErrKicked) and every
// peer has an EventDisconnected. It returns an error wrapping ErrInvalid
// on a joiner, while the game does not run, for the host itself, a player
// out of range or one already out.
func (s *session) Kick(p int) error {
	switch {
	case s.role != roleHost:
		return fmt.Errorf("netplay: %w: Kick on a joiner: only the host kicks", ErrInvalid)
	case s.state != StateRunning:
		return fmt.Errorf("netplay: %w: Kick while the game does not run (%v)", ErrInvalid, s.state)
	case p < 1 || p >= s.players:
		return fmt.Errorf("netplay: %w: Kick of player %d: not a joiner (1..%d)", ErrInvalid, p, s.players-1)
	case s.kckd[p]:
		return fmt.Errorf("netplay: %w: Kick of player %d: already out of the game", ErrInvalid, p)
	}
	s.doKick(s.now, p, kickManual, 0)
	return nil
}

// checkInterrupts (running) finds the players that went quiet for
// Config.Interrupt, and those heard again.
func (s *session) checkInterrupts(now time.Duration) {
	for q := range s.players {
		age, ok := s.silentFor(q, now)
		was := s.interrupted&(1<<q) != 0
		switch {
		case ok && !was && age >= s.cfg.Interrupt:
			s.interrupted |= 1 << q
			s.event(Event{Kind: EventInterrupted, Player: q, Silent: age})
		case was && (!ok || age < s.cfg.Interrupt):
			s.interrupted &^= 1 << q
			if ok { // heard again; out of the game: Disconnected says it
				s.event(Event{Kind: EventResumed, Player: q})
			}
		}
	}
}

// silentFor is how long nothing has been heard from player q at now: the
// host hears each joiner, a joiner the host, and other joiners through the
// host (the age of their news the host relays). ok is false for the local
// player, a player out of the game or whose game is over, one this
// session owes nothing more at the end, and before anything was heard.
func (s *session) silentFor(q int, now time.Duration) (time.Duration, bool) {
	if q < 0 || q >= s.players || q == s.index || s.kckd[q] {
		return 0, false
	}
	if s.role == roleHost || q == 0 {
		r := &s.peers[q]
		if !r.used || r.ended || (s.role == roleHost && s.state == StateRunning && s.settled(q)) ||
			(s.role == roleJoiner && s.state == StateRunning && s.settledJoiner()) {
			return 0, false
		}
		return max(now-r.lastHeard, 0), true
	}
	in := &s.info[q]
	if in.ageUs >= 1<<32-1 || !s.peers[0].tickSet {
		return 0, false
	}
	return time.Duration(in.ageUs)*time.Microsecond + max(now-s.infoAt, 0), true
}

// Waiting recommendations: a lead of at least waitFrom ticks (beyond the
// half tick time sync lets pass) is advised at most every waitEvery.
const (
	waitFrom  = 1
	waitEvery = time.Second
)

// adviseWait (Runner, time sync) turns a lead of whole ticks into an
// EventWaitRecommendation, at most one every waitEvery.
func (r *runner) adviseWait(now time.Duration) {
	s := r.s
	if r.tickLen <= 0 || s == nil || s.state != StateRunning {
		return
	}
	measured := false
	for q := range s.players {
		measured = measured || r.advSet[q]
	}
	n := int(r.st.FrameAdvantage - syncFrom)
	if !measured || n < waitFrom || (s.advisedSet && now-s.advisedAt < waitEvery) {
		return
	}
	s.advisedAt, s.advisedSet = now, true
	s.event(Event{Kind: EventWaitRecommendation, Ticks: n})
}
