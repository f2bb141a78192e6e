package netplay

import (
	"fmt"
	"time"
)

// Every bit mask of players is a uint8: it compiles only while
// MaxPlayers fits one (raise the masks' types with it).
const _ = uint8(1 << (MaxPlayers - 1))

// Limits and defaults of a Session.
const (
	MinPlayers = 2
	// MaxPlayers is the most players of a game. Every set of players is
	// a uint8 bit mask (Inputs' predicted and disconnected players, the
	// players missing or interrupted); the wire carries player indices and counts as
	// u8. 8 keeps all of them, and keeps the host's worst-case packet
	// (every section at its largest, 32-byte inputs) carrying a record of
	// every player (TestGamePacketBounded).
	MaxPlayers = 8
	// inputWindow is the most ticks of input a player may send ahead of what
	// every peer has acknowledged; beyond it the player stalls.
	inputWindow = 64
	// MaxDelay is the largest input delay, in ticks.
	MaxDelay = inputWindow / 2
	// MaxInputSize is the largest per-tick input of a player, in bytes
	// (Config.InputSize).
	MaxInputSize = 32
	// MaxSettingsSize is the largest game settings the host may send
	// (Config.Settings): they travel in one datagram, the Welcome.
	MaxSettingsSize = 1024
	// DefaultDelay is a lockstep game's usual input delay (Config.Delay),
	// enough for a round trip of two ticks; rollback usually has none.
	DefaultDelay = 2
	// hashEvery is the default checkpoint interval (Config.DesyncEvery):
	// peers exchange the state hash after every hashEvery ticks (after
	// ticks 25, 50, … counted from 1). A Confirmer has the hash after
	// every hashEvery ticks whatever the interval.
	hashEvery = 25
	// noDesyncCheck as Config.DesyncEvery turns the state-hash
	// comparison off.
	noDesyncCheck = -1
	// kickWindow is the span over which KickAfter is measured.
	kickWindow = 10 * time.Second

	defaultSilence     = 2 * time.Second
	defaultInterrupt   = 500 * time.Millisecond
	defaultJoinTimeout = 10 * time.Second
	defaultLinger      = time.Second
	defaultResend      = 20 * time.Millisecond
	defaultKeepAlive   = 100 * time.Millisecond
)

const (
	ringSize       = 2 * inputWindow // records kept per player
	ckRing         = 8               // checkpoints kept per player
	helloEvery     = 250 * time.Millisecond
	goodbyes       = 3 // game-over packets sent to a peer at the least, Resend apart
	kickSampleStep = 500 * time.Millisecond
	kickSamples    = int(kickWindow/kickSampleStep) + 1
)

// role says whether a Session hosts the game or joined it.
type role uint8

const (
	roleHost   role = 1 + iota // NewHost's: player 0, which the others join
	roleJoiner                 // NewJoiner's
)

func (r role) String() string {
	switch r {
	case roleHost:
		return "host"
	case roleJoiner:
		return "join"
	}
	return fmt.Sprintf("Role(%d)", uint8(r))
}

// MarshalText makes a Role a JSON string ("host", "join").
func (r role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// State is where a Session is in its life.
type State uint8

const (
	// StateJoining: a joiner sends Hello and waits for the Welcome.
	StateJoining State = 1 + iota
	// StateLobby: the host waits for the players; a joiner waits for the
	// start. No tick runs.
	StateLobby
	// StateRunning: the game runs, from tick 0.
	StateRunning
	// StateEnding: the game is over (see Err); the session still
	// delivers what the others need (the end, the last inputs). Keep
	// calling Receive and Poll.
	StateEnding
	// StateEnded: nothing more to send or receive; close the socket.
	StateEnded
)

var stateNames = [...]string{"", "joining", "lobby", "running", "ending", "ended"}

func (s State) String() string {
	if int(s) < len(stateNames) && s != 0 {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// MarshalText makes a State a JSON string ("running").
func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// peer is the link to another player: for the host, joiner i is
// peers[i]; for a joiner, the host is peers[0].
type peer struct {
	used      bool // host: slot taken
	confirmed bool // host: the joiner has its Welcome
	welcome   bool // host: a Welcome is due
	addr      string
	token     uint64

	lastHeard time.Duration
	lastSent  time.Duration
	sentAny   bool
	news      bool // something new came from it: answer soon

	seqOut  uint32
	seqIn   uint32
	gotSeq  bool
	stampIn uint32 // its newest stamp, to echo
	stampAt time.Duration
	rttUs   uint64 // smoothed
	rttSet  bool

	have    [MaxPlayers]uint64 // what it has acknowledged, per player
	sentTop [MaxPlayers]uint64 // one past the last record sent to it
	sentCk  [MaxPlayers]uint64 // the last checkpoint sent to it
	sentKix int                // kicks sent to it
	byes    int                // packets saying our game is over sent to it
	toldEnd endMsg             // the last end section sent to it
	ended   bool               // its game is over
	// heardQuit: it said it knows of a quit at quitTick (the earliest).
	heardQuit bool
	quitTick  uint64

	// What it reports about itself (host; a joiner keeps the host's
	// tick and tickAt): its head (ticks its game has run, predicted ones
	// included) and when that report arrived (tickSet: one did).
	tick    uint64
	tickAt  time.Duration
	tickSet bool
	debtMs  uint64
	capped  uint64
	waited  [MaxPlayers]uint64 // ms it waited for each player alone; its own slot: its own slowness

	notifyUntil time.Duration // host: a kicked player hears of it until then
}

// heldSample is what checkKicks measured at one time: for each player,
// the most any peer waited for it alone and its own slowness.
type heldSample struct {
	at     time.Duration
	waited [MaxPlayers]time.Duration
	slow   [MaxPlayers]time.Duration
}

// A session is one player's end of a networked game in deterministic
// lockstep: the handshake, the exchange of input records with
// acknowledgements and resending, round-trip times, stall accounting,
// state-hash comparison, kicks, silence detection and the end of the game.
// It reads no clock, opens no socket and starts no goroutine: the caller
// passes the time and the datagrams in (Receive) and takes the datagrams
// out (Poll). See the package documentation for the frame loop.
//
// A session is not safe for concurrent use. Receive, Poll and the tick
// methods do not allocate once the game runs.
type session struct {
	cfg       config
	role      role
	state     State
	index     int
	players   int
	delay     int
	inputSize int
	settings  []byte
	tickLimit uint64
	tick      time.Duration // the length of a tick: the host's
	every     uint64        // ticks between state-hash checkpoints, 0: none
	id        uint64
	hostAddr  string
	joined    int // players present in the lobby (from the host, for a joiner)

	born      time.Duration // joiner: when it started asking
	lastHello time.Duration
	helloSent bool
	startedAt time.Duration

	err      error
	note     string // how the game ended, for Stats
	end      endMsg
	endAt    time.Duration
	endAtSet bool
	inLobby  bool // the end came before the start
	// quit is the quit agreed while the game runs (quitSet): the game
	// ends for everyone at quit.tick (see Quit).
	quit    endMsg
	quitSet bool

	next  uint64                       // the next tick to run
	have  [MaxPlayers]uint64           // records known, per player: all ticks < have[p]
	low   uint64                       // joiner: every peer has my records < low
	ring  [MaxPlayers][ringSize]record // records by tick % ringSize
	kick  [MaxPlayers]kickMsg          // kick[p].from valid if kicked[p]
	kckd  [MaxPlayers]bool             // kicked
	nKick int

	peers [MaxPlayers]peer
	// quitters (host): the joiners that quit in the lobby, so that a late
	// copy of one's Hello takes no slot (before, it took one and held it
	// until JoinTimeout, turning the next joiner away when it was the
	// last).
	quitters departed
	info     [MaxPlayers]peerInfo // joiner: the host's view of each player
	infoAt   time.Duration        // joiner: when info arrived
	// head is the local game's head, given by a Runner each frame: the
	// ticks it has run, predicted ones included (next without one).
	head uint64

	waiting     bool
	waitAt      time.Duration
	missing     uint8 // players missing at the last Next that failed
	waited      [MaxPlayers]time.Duration
	stallFrames int64
	stallTime   time.Duration
	windowFull  int64
	debt        time.Duration
	capped      int64

	// Own slowness (see ReportLoad): blocked says that the frame being
	// run waited for input (a record or room in the window); excused is
	// the part of the debt that waiting left; ownLag the rest at the last
	// report; slow the sum of its increases.
	blocked  bool
	loadSeen bool
	excused  time.Duration
	ownLag   time.Duration
	slow     time.Duration

	local    [ckRing]ckpt // own checkpoints, by tick/HashEvery % ckRing
	latest   [MaxPlayers]ckpt
	pending  [MaxPlayers][ckRing]ckpt
	compared [MaxPlayers]uint64 // last checkpoint compared with player p
	desync   *Error
	desyncs  int

	// now is the latest time Receive or Poll was given (Kick, Stats).
	now time.Duration
	// events are the events not yet polled; interrupted the players an
	// EventInterrupted is out for; advisedAt the last
	// EventWaitRecommendation (advisedSet: one was).
	events      eventRing
	interrupted uint8
	advisedAt   time.Duration
	advisedSet  bool

	samples    [kickSamples]heldSample
	nSamples   int
	sampleHead int

	driven    bool         // a Runner plays the session: the tick calls are its own
	rep       reportSource // Config.Report's: what the runner keeps
	xc        *exchange    // a desync report's exchange, or nil
	newer     bool         // the packet being received is newer than any before from its peer
	reject    string       // host: a Reject is due to this address
	rejectDue bool
	rejectWhy uint8 // rejectVersion or rejectFull
	// host without a Broadcast: a spectator's Reject is due (it serves
	// none).
	specReject    string
	specRejectTok uint64
	specRejectDue bool
	in, out       packet
	buf           [MaxPacketSize]byte
	sent, recv    int64
	bytesOut      int64
	bytesIn       int64
	bad           int64
	encodeFail    int64 // packets that failed to encode: a bug, tests check it is 0
}

// newHost starts hosting a game at now: the session waits in the lobby
// for cfg.Players-1 joiners, then starts. The caller sends and receives on
// the host's socket (Receive, Poll). The lobby has no deadline of its own
// (a game may wait for its players as long as a player lets it): a game
// that wants one calls Quit when it passes, which ends the lobby at once.
// A welcomed joiner waits for the others the same way.
func newHost(cfg config, now time.Duration) (*session, error) {
	cfg, err := cfg.normalize(true)
	if err != nil {
		return nil, err
	}
	s := &session{
		cfg: cfg, role: roleHost, state: StateLobby,
		players: cfg.Players, delay: cfg.Delay, inputSize: cfg.InputSize, settings: cfg.Settings,
		tickLimit: cfg.TickLimit, tick: cfg.Tick, every: uint64(cfg.DesyncEvery), id: cfg.Nonce, joined: 1,
		born: now,
	}
	s.initTicks()
	return s, nil
}

// newJoiner starts joining the game hosted at host, at now. It learns its
// player index and the game's settings from the host's Welcome; until
// then Index, Players, Delay, Settings and TickLimit are zero. Its
// InputSize must be the host's.
func newJoiner(cfg config, host string, now time.Duration) (*session, error) {
	cfg, err := cfg.normalize(false)
	if err != nil {
		return nil, err
	}
	if host == "" {
		return nil, fmt.Errorf("netplay: %w: no host address", ErrInvalid)
	}
	s := &session{
		cfg: cfg, role: roleJoiner, state: StateJoining, inputSize: cfg.InputSize,
		hostAddr: host, born: now, tick: cfg.Tick,
	}
	s.peers[0] = peer{used: true, addr: host, lastHeard: now}
	return s, nil
}

// initTicks sets up the input buffers once the players and delay are known:
// the records of ticks before the delay are zero for everyone.
func (s *session) initTicks() {
	for p := range s.have {
		s.have[p] = uint64(s.delay)
	}
	s.low = uint64(s.delay)
}

// Role says whether the session hosts or joined.
func (s *session) Role() role { return s.role }

// State returns where the session is.
func (s *session) State() State { return s.state }

// Index returns the local player's index (0 for the host).
func (s *session) Index() int { return s.index }

// Players returns the number of players in the game.
func (s *session) Players() int { return s.players }

// Delay returns the input delay in ticks.
func (s *session) Delay() int { return s.delay }

// InputSize is the size of a player's input for one tick, in bytes.
func (s *session) InputSize() int { return s.inputSize }

// Settings returns the game's settings, as the host sent them (nil
// before a joiner's Welcome). The slice is the session's: do not change it.
// A joiner should compare them with its own flags and refuse to play on
// a conflict.
func (s *session) Settings() []byte { return s.settings }

// TickLimit returns the number of ticks after which the game ends, or 0.
func (s *session) TickLimit() uint64 { return s.tickLimit }

// SessionID returns the random ID every packet of the game carries (0 for a
// joiner before the Welcome).
func (s *session) SessionID() uint64 { return s.id }

// StartedAt returns the time the game started here (tick 0 began): start
// the fixed-tick loop then. It is meaningful from StateRunning on.
func (s *session) StartedAt() time.Duration { return s.startedAt }

// Err returns why the game ended: nil while it runs and after a clean
// end (someone quit, the tick limit), else the error that ended it. A
// desync (EventDesync) does not stop the session unless
// Config.EndOnDesync says so, but the game shown is no longer the same
// everywhere: once the game is over, an end with no error of its own
// returns the first desync (the earliest checkpoint whose hashes differ).
func (s *session) Err() error {
	if s.err != nil {
		return s.err
	}
	if s.desync != nil && s.state >= StateEnding {
		return s.desync
	}
	return nil
}

// DesyncEvery returns the ticks between two state-hash comparisons, the
// host's Config.DesyncEvery (0: none; a joiner's is 0 before the Welcome).
func (s *session) DesyncEvery() int { return int(s.every) }

// checkAt reports whether the state hash after tick ticks is compared.
func (s *session) checkAt(tick uint64) bool {
	return s.every > 0 && tick > 0 && tick%s.every == 0
}

// Over reports whether the game is over (StateEnding or StateEnded).
func (s *session) Over() bool { return s.state >= StateEnding }

// Done reports whether the session has nothing more to do (StateEnded).
func (s *session) Done() bool { return s.state == StateEnded }

// NextTick returns the tick the local game runs next: the number of ticks
// run so far.
func (s *session) NextTick() uint64 { return s.next }

// InputTick returns the tick whose local input record is added next
// (AddLocalInput). It starts at Delay: the records of the ticks before are
// zero for everyone.
func (s *session) InputTick() uint64 { return s.have[s.index] }

// NeedInput reports whether the local input for tick NextTick()+Delay()
// has not been added yet: call it before running a tick, and if it reports
// true, sample the input and AddLocalInput(InputTick(), input). No input
// is needed for the end tick (EndTick) or later: nobody runs them.
func (s *session) NeedInput() bool {
	t := s.have[s.index]
	return s.state == StateRunning && t <= s.next+uint64(s.delay) && !s.pastEnd(t)
}

// EndTick returns the tick at which the game ends for everyone, once it is
// known: the tick limit, or the tick at which a player quits (Quit),
// whichever comes first. Every peer runs the ticks before it and stops
// there, so that all of them end in the same state.
func (s *session) EndTick() (uint64, bool) {
	end, ok := s.tickLimit, s.tickLimit > 0
	if s.quitSet && (!ok || s.quit.tick < end) {
		end, ok = s.quit.tick, true
	}
	return end, ok
}

// pastEnd reports whether tick t is at or after the end tick: nobody runs it.
func (s *session) pastEnd(t uint64) bool {
	end, ok := s.EndTick()
	return ok && t >= end
}

// errDriven is the error of a tick call on a session a Runner plays.
func errDriven(call string) error {
	return fmt.Errorf("netplay: %w: %s on a session a Runner plays (the Runner makes the tick calls)", ErrInvalid, call)
}

// Next returns every player's input for tick NextTick(), appended to
// dst[:0] in player order (each as Input returns it), if they are all
// known; run the tick, then call
// Advance. If one is missing it returns false: the loop must not run the
// tick (keep the time debt, draw, try again next frame). The time between
// the first false and the next true is stall time, counted as waited for
// the missing player when only one is missing (Stats), and the frame
// counts as waiting (ReportLoad). It also returns false, without a stall,
// when the game is not running, NextTick is the end tick (EndTick), or a
// Runner plays the session (its tick calls are the Runner's).
func (s *session) Next(now time.Duration, dst [][]byte) ([][]byte, bool) {
	if s.driven {
		return dst[:0], false
	}
	return s.nextInputs(now, dst)
}

// nextInputs is Next, for the Runner too.
func (s *session) nextInputs(now time.Duration, dst [][]byte) ([][]byte, bool) {
	dst = dst[:0]
	if s.state != StateRunning || s.pastEnd(s.next) {
		s.waiting = false
		return dst, false
	}
	t := s.next
	var missing uint8
	for p := range s.players {
		if !s.known(p, t) {
			missing |= 1 << p
		}
	}
	if missing != 0 {
		if s.waiting {
			s.chargeWait(now)
		} else {
			s.waiting, s.waitAt = true, now
		}
		s.missing = missing
		s.stallFrames++
		s.blocked = true
		return dst, false
	}
	if s.waiting {
		s.chargeWait(now)
		s.waiting = false
	}
	for p := range s.players {
		dst = append(dst, s.record(p, t))
	}
	return dst, true
}

// chargeWait adds the time since the last charge to the stall time, and to
// the player that was alone missing.
func (s *session) chargeWait(now time.Duration) {
	if d := now - s.waitAt; d > 0 {
		s.stallTime += d
		if m := s.missing; m != 0 && m&(m-1) == 0 {
			for p := range s.players {
				if m == 1<<p {
					s.waited[p] += d
				}
			}
		}
	}
	s.waitAt = max(s.waitAt, now)
}

// Advance records that tick NextTick() ran (Next returned its records).
// After every HashEvery ticks it calls hashAfter for the state hash and
// sends it to the others, who compare it with theirs. When the end tick is
// reached (the tick limit, or a quit's: EndTick) the game ends cleanly. It
// returns ErrOver after the end and an error wrapping ErrInvalid if the
// tick was not ready.
func (s *session) Advance(hashAfter func() uint64) error {
	if s.driven {
		return errDriven("Advance")
	}
	return s.advance(hashAfter)
}

// advance is Advance, for the Runner too.
func (s *session) advance(hashAfter func() uint64) error {
	if s.state >= StateEnding {
		return errOver
	}
	if s.state != StateRunning || !s.Ready(s.next) || s.pastEnd(s.next) {
		return fmt.Errorf("netplay: %w: Advance with tick %d not ready", ErrInvalid, s.next)
	}
	s.next++
	if s.checkAt(s.next) && hashAfter != nil {
		s.localCheckpoint(s.next, hashAfter())
	}
	if s.pastEnd(s.next) {
		s.finishAtEnd()
	}
	return nil
}

// finishAtEnd ends the game cleanly at the end tick: a quit's, or the
// tick limit's when the quit (if any) was not earlier.
func (s *session) finishAtEnd() {
	if s.quitSet && (s.tickLimit == 0 || s.quit.tick < s.tickLimit) {
		p := int(s.quit.player)
		note := "quit"
		if p != s.index {
			note = playerNote(p, " quit")
		}
		if s.cfg.EndOnDesync && s.desync != nil {
			note = s.desync.Error() // the quit was the desync's, here or at p
		}
		s.finish(endQuit, s.quit.player, nil, note)
		s.end = s.quit
		return
	}
	s.finish(endTickLimit, uint8(s.index), nil, "tick limit reached")
}

// ReportLoad tells the session how far behind the local loop is: its time
// debt now, owed beyond the tick in progress (loop.FixedFrame.Debt plus the
// ticks owed and not run; 0 while the loop keeps up), and the number of
// frames so far that ran MaxLoops ticks. Call it once a frame, after the
// frame's ticks: besides the others' statistics, it measures the local
// player's own slowness, which is what a kick for slowness holds against
// a player (Config.KickAfter).
//
// The own slowness is the growth of the debt over the frames in which the
// loop had every input it needed and still fell behind: a slow computer,
// its frames too long for the ticks they owe. A frame in which the loop
// waited for a record (Next returned false) or for room in the input
// window (ErrWindowFull) excuses the debt it leaves, and catching up
// lowers what is excused, so neither waiting for the others nor the
// catching up after it counts.
func (s *session) ReportLoad(debt time.Duration, cappedFrames int64) {
	debt = max(debt, 0)
	s.debt, s.capped = debt, max(cappedFrames, 0)
	blocked := s.blocked
	s.blocked = false
	if s.state != StateRunning {
		return
	}
	switch {
	case blocked || !s.loadSeen:
		s.excused, s.loadSeen = debt, true
	default:
		s.excused = min(s.excused, debt)
	}
	own := debt - s.excused
	if own > s.ownLag {
		s.slow += own - s.ownLag
	}
	s.ownLag = own
}

// Unreachable is the transport's word that the system reports nothing
// listening at addr (an ICMP port unreachable, which a connected socket
// reads as a refused connection; netplay/udp's Conn.Connect): a joiner
// still waiting for its Welcome from that address ends at once with an
// UnreachableError instead of waiting JoinTimeout for an answer that
// cannot come. Anything else ignores it (a peer that quit and closed its
// socket: the game's end or Silence say the rest).
func (s *session) Unreachable(now time.Duration, addr string) {
	if s.role == roleJoiner && s.state == StateJoining && addr == s.hostAddr {
		s.finish(0, 0, &Error{Reason: ErrUnreachable, Host: s.hostAddr}, "")
		s.state = StateEnded
	}
}
