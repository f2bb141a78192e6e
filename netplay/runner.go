package netplay

import (
	"fmt"
	"time"
)

// A Game is a deterministic game as a Session plays it: the same inputs
// from the same state give the same state, bit for bit, on every machine.
// The Session calls it from the caller's goroutine, inside Frame or
// Update only.
//
// The Session asks for what it needs, as GGPO's and GGRS's sessions do
// (save, load, advance), but through an interface rather than a list of
// requests: a Go interface call costs nothing, allocates nothing, and
// keeps the caller's loop one call.
type Game interface {
	// Advance runs one tick with every player's input for it.
	Advance(in *Inputs)
	// Save stores the game's state, as it is before the next Advance,
	// in slot (0 to Config.MaxPrediction+1), replacing what the slot
	// held. A game keeps its slots preallocated: a rollback saves before
	// every tick that runs on a prediction.
	Save(slot int)
	// Load restores the state saved last in slot.
	Load(slot int)
	// Hash is a hash of the game's state (for instance FNV-1a of it): the
	// peers compare it on confirmed ticks to find a desync.
	Hash() uint64
	// LocalInput writes the local player's input for tick into dst
	// (InputSize bytes, zeroed). n counts the new ticks the frame has run
	// before it: a game that samples its input per tick gives it the
	// n-th tick span of the frame. The local player is Session.Index(),
	// known from the Welcome on. A spectator's game is never asked.
	LocalInput(tick uint64, n int, dst []byte)
}

// A Confirmer is a Game that hears of each confirmed tick, in order, once:
// a tick whose inputs are all known and final, with the inputs it ran
// with. A recording of the game is made of these. hash is the state hash
// after the tick, given (ok) after every HashEvery ticks.
type Confirmer interface {
	Confirmed(in *Inputs, hash uint64, ok bool)
}

// A Predictor is a Game that predicts a missing input itself. Without
// one, a Runner predicts a missing input as the player's last known one,
// as GGPO does; a game whose input holds events (a button pressed this
// tick) predicts the state that goes on (the button held) instead.
type Predictor interface {
	// Predict writes into dst (InputSize bytes, zeroed) player p's
	// predicted input, given its last known one (nil if none is known).
	Predict(p int, last, dst []byte)
}

// localInput is where a Runner takes the local player's input from.
type localInput interface {
	// LocalInput writes the local player's input for tick into dst
	// (InputSize bytes, zeroed). n counts the new ticks the frame has run
	// before it: a game that samples its input per tick gives it the
	// n-th tick span of the frame. The local player's index is the
	// session's Index(), known from the Welcome on: a joiner's is 0
	// before, so read it here, not when the Runner is made.
	LocalInput(tick uint64, n int, dst []byte)
}

// Inputs are every player's inputs for one tick.
type Inputs struct {
	// Tick is the tick these inputs are for, counted from 0.
	Tick uint64
	// Resimulated says that the tick ran before and runs again after a
	// rollback: the game should not count it as a new tick, nor play its
	// sounds twice.
	Resimulated bool

	players   int
	size      int
	in        [MaxPlayers]record
	predicted uint8
	auto      uint8
}

// Players is the number of players.
func (in *Inputs) Players() int { return in.players }

// Input is player p's input, p in [0, Players()): InputSize bytes, valid
// during the call.
func (in *Inputs) Input(p int) []byte { return in.in[p][:in.size] }

// Predicted reports whether player p's input is a prediction (its last
// known input, repeated), which a rollback corrects if it proves wrong.
func (in *Inputs) Predicted(p int) bool { return in.predicted&(1<<p) != 0 }

// Disconnected reports whether player p was out of the game (kicked, or
// dropped by DisconnectContinue) before this tick: its input is zero and
// the game should play on without it.
func (in *Inputs) Disconnected(p int) bool { return in.auto&(1<<p) != 0 }

// Netcode is how a Runner deals with inputs that have not arrived.
type Netcode uint8

const (
	// Rollback runs a tick at once, predicting a missing input as that
	// player's last known one; when the real input arrives and differs,
	// the game is restored to that tick and the ticks since run again.
	// It is the zero Netcode.
	Rollback Netcode = iota
	// Lockstep runs a tick only when every player's input for it is
	// known: the game waits (stalls) for late inputs, and input delay
	// (Config.Delay) hides the round trip.
	Lockstep
)

func (n Netcode) String() string {
	switch n {
	case Lockstep:
		return "lockstep"
	case Rollback:
		return "rollback"
	}
	return fmt.Sprintf("Netcode(%d)", uint8(n))
}

// Rollback limits.
const (
	// defaultMaxPrediction is how many ticks rollback may run ahead of the
	// last tick whose inputs are all known (GGPO's default).
	defaultMaxPrediction = 8
	// maxMaxPrediction bounds RunnerConfig.MaxPrediction.
	maxMaxPrediction = 60
)

// runnerConfig sets up a Runner.
type runnerConfig struct {
	Netcode Netcode
	// MaxPrediction (rollback) is the most ticks the game may run ahead
	// of the confirmed ones, 1..MaxMaxPrediction (0: DefaultMaxPrediction).
	// Beyond it the game waits, as lockstep would.
	MaxPrediction int
	// Tick is the length of a tick of the caller's fixed-step loop; it
	// turns time sync on (see TimeSync): 0 leaves it off.
	Tick time.Duration
	// Report keeps what a desync report needs (Config.Report).
	Report bool
}

// runnerStats are a Runner's counts.
type runnerStats struct {
	Ticks            int64 // new ticks run (not counting re-simulations)
	Rollbacks        int64 // frames that restored a saved state
	Resimulated      int64 // ticks run again after a rollback
	MaxRollback      int   // the most ticks one rollback went back
	PredictionErrors int64 // remote inputs that differed from their prediction
	StallFrames      int64 // frames that could not run a tick they owed

	// Time sync (RunnerConfig.Tick; see TimeSync). FrameAdvantage is
	// how many ticks this peer's game is ahead of the game furthest
	// behind, estimated and smoothed at the last frame that could
	// (negative: every other game is ahead); Slowdown is the sum of
	// TimeSync over the frames, the time the loop was asked not to
	// count.
	FrameAdvantage float64
	Slowdown       time.Duration
}

// A runner plays a Game over a Session: each frame it gives the session
// the local input, runs the ticks the caller's loop owes (predicting and
// rolling back, with Rollback), and tells the session about the ticks
// that are confirmed, with their state hashes. Lockstep, rollback and the
// sync test (NewSyncTest) share this one tick path.
//
// A runner is not safe for concurrent use; it does not allocate after
// NewRunner.
type runner struct {
	s     *session // nil for a sync test
	game  Game
	conf  Confirmer // game, if it is one
	pred  Predictor // game, if it is one
	local localInput

	rollback bool
	maxPred  int
	players  int
	size     int

	head    uint64 // the game's next tick
	owed    int64  // ticks the loop owes that have not run
	settled bool   // the game is over and the game's state is the confirmed one

	// Rings indexed by tick % len(used): for every tick the game ran and
	// the session has not confirmed, the inputs it ran with, which were
	// predicted, whether its state before it was saved, and the hash
	// after it (every HashEvery ticks; every tick in a sync test).
	used      [][MaxPlayers]record
	predicted []uint8
	saved     []bool
	hashes    []uint64

	in      Inputs
	pending bool   // local holds an input the session's window refused
	local1  record // the local input being given
	inputs  [][]byte
	hashFn  func() uint64 // r.hashToSend, made once: Session.Advance takes it
	hashOut uint64

	// Time sync: the tick length (0: off), the previous frame's time,
	// the smoothed frame advantage over each player (advSet: measured),
	// and this frame's slowdown.
	tickLen time.Duration
	lastNow time.Duration
	nowSet  bool
	adv     [MaxPlayers]float64
	advSet  [MaxPlayers]bool
	slow    time.Duration

	skip time.Duration // Update: time sync's slowdown not yet taken as a skipped tick

	bcast bool // a Broadcast serves the game's spectators (NewBroadcast)

	sync *syncState
	rep  *reportLog // Config.Report's
	st   runnerStats
}

// newRunner makes a Runner that plays g over s, taking the local player's
// input from local. g may also be a Confirmer. s's game must not have
// started running ticks yet.
//
// A session takes one Runner: a second returns an error wrapping
// ErrInvalid. A session whose game is over (Session.Over: a quit in the
// lobby, a join that failed) has nothing left to play, so newRunner
// returns an error wrapping ErrOver, and the session's Err if it has one,
// rather than a Runner whose frames would run nothing.
func newRunner(s *session, g Game, local localInput, c runnerConfig) (*runner, error) {
	if s == nil || g == nil || local == nil {
		return nil, fmt.Errorf("netplay: %w: NewRunner needs a session, a game and a local input", ErrInvalid)
	}
	if c.Tick < 0 {
		return nil, fmt.Errorf("netplay: %w: RunnerConfig.Tick %v is negative", ErrInvalid, c.Tick)
	}
	if s.driven {
		return nil, fmt.Errorf("netplay: %w: NewRunner: the session has a Runner already", ErrInvalid)
	}
	if s.Over() {
		if err := s.Err(); err != nil {
			return nil, fmt.Errorf("%w: NewRunner on a session whose game ended: %w", errOver, err)
		}
		return nil, fmt.Errorf("%w: NewRunner on a session whose game ended", errOver)
	}
	r := &runner{s: s, game: g, local: local, size: s.inputSize, players: s.players, tickLen: c.Tick}
	r.conf, _ = g.(Confirmer)
	r.pred, _ = g.(Predictor)
	switch c.Netcode {
	case Lockstep:
	case Rollback:
		r.rollback = true
		r.maxPred = c.MaxPrediction
		if r.maxPred == 0 {
			r.maxPred = defaultMaxPrediction
		}
		if r.maxPred < 1 || r.maxPred > maxMaxPrediction {
			return nil, fmt.Errorf("netplay: %w: RunnerConfig.MaxPrediction %d not in 1..%d", ErrInvalid, c.MaxPrediction, maxMaxPrediction)
		}
	default:
		return nil, fmt.Errorf("netplay: %w: RunnerConfig.Netcode %v, want Lockstep or Rollback", ErrInvalid, c.Netcode)
	}
	r.alloc(r.maxPred + 2)
	if c.Report {
		var err error
		if r.rep, err = newReportLog(r); err != nil {
			return nil, err
		}
		s.rep = r.rep
	}
	s.driven = true
	return r, nil
}

func (r *runner) alloc(n int) {
	r.used = make([][MaxPlayers]record, n)
	r.predicted = make([]uint8, n)
	r.saved = make([]bool, n)
	r.hashes = make([]uint64, n)
	r.inputs = make([][]byte, 0, MaxPlayers)
	r.hashFn = r.hashToSend
}

func (r *runner) hashToSend() uint64 { return r.hashOut }

// Slots is the number of save slots the game needs: Save and Load take
// 0..Slots()-1.
func (r *runner) Slots() int { return len(r.used) }

func (r *runner) slot(t uint64) int { return int(t % uint64(len(r.used))) }

// Head is the game's next tick: the ticks it has run, confirmed or not.
func (r *runner) Head() uint64 { return r.head }

// Owed is the number of ticks the loop owes that have not run yet (a
// stall); the caller's time debt is that many ticks more than its loop
// says.
func (r *runner) Owed() int64 { return r.owed }

// Stats returns the Runner's counts.
func (r *runner) Stats() runnerStats { return r.st }

// Frame runs the frame at now: due is the number of new ticks the
// caller's fixed-step loop says are due (in lockstep mode: the time debt
// kept), maxLoops the most ticks one frame may run. Ticks the
// frame cannot run (a missing input in lockstep, the prediction limit in
// rollback, a full input window) stay owed and run in later frames,
// maxLoops a frame. It returns the new ticks it ran (re-simulations not
// counted). Call it after the frame's datagrams are in (Session.Receive)
// and send the session's (Session.Poll) after it.
//
// Before the game runs (the lobby) due is dropped, not owed: a loop that
// calls Frame from its start owes no tick of the wait when the game
// starts. An engine's fixed update calls Update instead.
//
// When the game is over (Session.Over), Frame runs no new tick, and with
// Rollback brings the game back to the confirmed game: the ticks run on
// predictions past the last confirmed one are undone.
//
// With RunnerConfig.Tick, Frame also measures how far this peer's game is
// ahead of the others' and decides the frame's TimeSync.
func (r *runner) Frame(now time.Duration, due, maxLoops int) (ran int) {
	if r.sync != nil {
		r.owed += int64(max(due, 0))
		return r.syncFrame(maxLoops)
	}
	s := r.s
	var elapsed time.Duration
	if r.nowSet {
		elapsed = now - r.lastNow
	}
	r.lastNow, r.nowSet, r.slow = now, true, 0
	if s.Over() {
		r.owed = 0
		r.settle(now)
		s.head = r.head
		return 0
	}
	if s.State() != StateRunning {
		return 0 // the lobby: no tick is owed before the game starts
	}
	r.owed += int64(max(due, 0))
	if r.rollback {
		r.correct()
	}
	r.confirm(now)
	for r.owed > 0 && ran < maxLoops {
		t := r.head
		if s.pastEnd(t) {
			r.owed = 0
			break // the tick limit, or a quit's end tick: nobody runs it
		}
		if !r.giveLocal(t, ran) {
			r.st.StallFrames++
			break // our own input could not be given: the window is full
		}
		if !r.rollback {
			if !s.Ready(t) {
				s.nextInputs(now, r.inputs[:0]) // counts the stall
				r.st.StallFrames++
				break
			}
		} else if t >= s.Confirmed()+uint64(r.maxPred) {
			// Too far ahead of what is known: wait, as lockstep would,
			// and the session counts the wait on the players whose input
			// is missing (what a kick for slowness holds against them).
			s.nextInputs(now, r.inputs[:0])
			r.st.StallFrames++
			break
		}
		r.tick(t, false)
		r.st.Ticks++
		r.owed--
		ran++
		r.confirm(now)
		if s.Over() {
			break
		}
	}
	s.head = r.head
	r.timeSync(now, elapsed)
	r.adviseWait(now) // EventWaitRecommendation
	return ran
}

// updateMaxLoops is the most ticks one Update runs: its own, and one
// owed from a stall, so that a game that waited catches up at one tick
// more a call.
const updateMaxLoops = 2

// Update is Frame for an engine's fixed update, which calls it once a
// tick of the game's length (RunnerConfig.Tick; Ebitengine's Update, 60
// times a second by default): each call owes one tick, runs it, and runs
// at most one more owed from an earlier stall (UpdateMaxLoops). Before
// the game starts it owes nothing.
//
// Time sync there cannot count less of a frame's time, since the engine
// keeps the time: it is advice to skip a tick now and then instead. The
// slowdown TimeSync would give accumulates, and a call that finds a whole
// tick of it owes no tick (skipped true; ran is then 0, or a tick owed
// from a stall). A peer ahead of the others by more than half a tick thus
// runs up to MaxSlowdown (3 %) fewer ticks than its engine's updates until
// it is level: at 60 updates a second, at most one skipped in 33.
//
//	func (g *Game) Update() error { // ebiten.Game: 60 times a second
//		now := clock.Now()
//		netplay.Read(now, conn, sess)
//		runner.Update(now)
//		netplay.Write(now, conn, sess)
//		return nil
//	}
//
// Call it after the datagrams are in and send the session's after it, as
// with Frame; do not mix it with Frame on one Runner.
func (r *runner) Update(now time.Duration) (ran int, skipped bool) {
	due := 1
	if r.sync == nil && r.s.State() == StateRunning && r.tickLen > 0 && r.skip >= r.tickLen {
		r.skip -= r.tickLen
		due, skipped = 0, true
	}
	ran = r.Frame(now, due, updateMaxLoops)
	if r.sync == nil && r.s.State() == StateRunning {
		r.skip += r.slow
	} else {
		r.skip = 0
	}
	return ran, skipped
}

// giveLocal gives the session the local player's inputs up to tick
// t+Delay; false if the window is full before t's own.
func (r *runner) giveLocal(t uint64, n int) bool {
	s := r.s
	for s.InputTick() <= t+uint64(s.Delay()) {
		if !r.pending {
			r.local1 = record{}
			r.local.LocalInput(s.InputTick(), n, r.local1[:r.size])
			r.pending = true
		}
		if err := s.addLocal(s.InputTick(), r.local1[:r.size]); err != nil {
			break
		}
		r.pending = false
	}
	return s.InputTick() > t
}

// tick runs tick t (the game's head) with the inputs known now,
// predicting the missing ones, saving the state first if any is
// predicted.
func (r *runner) tick(t uint64, resim bool) {
	in := &r.in
	r.fill(t)
	in.Resimulated = resim
	i := r.slot(t)
	r.saved[i] = in.predicted != 0 || r.sync != nil || r.rep != nil
	if r.saved[i] {
		r.game.Save(i)
	}
	r.used[i] = in.in
	r.predicted[i] = in.predicted
	r.game.Advance(in)
	r.head = t + 1
	if (t+1)%hashEvery == 0 || r.sync != nil || r.rep != nil || r.s.checkAt(t+1) {
		r.hashes[r.slot(t+1)] = r.game.Hash()
	}
}

// fill sets r.in to every player's input for tick t: known, zero for a
// kicked player, or predicted (the player's last known input).
func (r *runner) fill(t uint64) {
	in := &r.in
	*in = Inputs{Tick: t, players: r.players, size: r.size}
	if r.sync != nil {
		in.players = 1
		in.in[0] = r.sync.inputs[r.slot(t)]
		return
	}
	s := r.s
	in.players = s.players
	for p := range s.players {
		if s.Disconnected(p, t) {
			in.auto |= 1 << p
		}
		if b, ok := s.Input(p, t); ok {
			copy(in.in[p][:], b)
			continue
		}
		in.predicted |= 1 << p
		_, last, _ := s.LastInput(p)
		if r.pred != nil {
			r.pred.Predict(p, last, in.in[p][:r.size])
		} else {
			copy(in.in[p][:], last)
		}
	}
}

// correct finds the earliest tick that ran on a prediction the inputs
// that arrived since contradict, restores the state before it and runs
// the ticks since again, up to where the game was.
func (r *runner) correct() {
	s := r.s
	head := r.head
	from := max(s.NextTick(), head-min(head, uint64(len(r.used)-1)))
	for t := from; t < head; t++ {
		i := r.slot(t)
		if r.predicted[i] == 0 {
			continue
		}
		wrong := false
		for p := range s.players {
			if r.predicted[i]&(1<<p) == 0 {
				continue
			}
			// A player kicked since is known now too (zero, autonomous):
			// the tick ran with it playing, so it runs again.
			if b, ok := s.Input(p, t); ok && (record(r.used[i][p]) != toRecord(b) || s.Disconnected(p, t)) {
				r.st.PredictionErrors++
				wrong = true
			}
		}
		if wrong {
			r.rerun(t, head)
			return
		}
	}
}

// rerun restores the state before tick from and runs the ticks up to
// head again.
func (r *runner) rerun(from, head uint64) {
	r.game.Load(r.slot(from))
	for t := from; t < head; t++ {
		r.tick(t, true)
	}
	r.st.Rollbacks++
	r.st.Resimulated += int64(head - from)
	r.st.MaxRollback = max(r.st.MaxRollback, int(head-from))
}

// confirm moves the session over the ticks the game ran whose inputs are
// all known, comparing state hashes on them, and hands them to the
// Confirmer.
func (r *runner) confirm(now time.Duration) {
	s := r.s
	for s.NextTick() < r.head && s.Ready(s.NextTick()) {
		t := s.NextTick()
		if _, ok := s.nextInputs(now, r.inputs[:0]); !ok {
			break
		}
		r.hashOut = r.hashes[r.slot(t+1)]
		if r.rep != nil {
			r.rep.confirmed(t + 1) // before advance: its checkpoint may start a report
		}
		if err := s.advance(r.hashFn); err != nil {
			break
		}
		r.confirmTick(t)
	}
}

// confirmTick hands tick t, now confirmed, to the Confirmer.
func (r *runner) confirmTick(t uint64) {
	if r.conf == nil {
		return
	}
	in := &r.in
	r.fill(t)
	in.in = r.used[r.slot(t)] // what it ran with, which the inputs now confirm
	in.predicted = 0
	hash, ok := r.hashes[r.slot(t+1)], (t+1)%hashEvery == 0
	r.conf.Confirmed(in, hash, ok)
}

// settle, once the game is over, confirms what can be and undoes the
// ticks run on predictions past the last confirmed one, so that the game
// ends as the confirmed game.
func (r *runner) settle(now time.Duration) {
	if r.settled {
		return
	}
	if r.rollback {
		r.correct() // inputs that came with the end or after it
	}
	r.confirmEnding()
	if c := r.s.NextTick(); r.head > c {
		// Tick c ran on a prediction (its inputs are still not all
		// known), so the state before it was saved.
		r.game.Load(r.slot(c))
		r.head = c
	}
	r.settled = true
}

// confirmEnding is confirm for a session that is over (which takes no
// Advance): the ticks the game ran whose inputs all arrived are final
// all the same, and their hashes still find a desync.
func (r *runner) confirmEnding() {
	s := r.s
	for s.next < r.head && s.Ready(s.next) && !s.pastEnd(s.next) {
		t := s.next
		s.next++
		if s.checkAt(t + 1) {
			s.localCheckpoint(t+1, r.hashes[r.slot(t+1)])
		}
		r.confirmTick(t)
	}
}

func toRecord(b []byte) (rec record) {
	copy(rec[:], b)
	return rec
}
