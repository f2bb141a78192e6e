package netplay

import (
	"fmt"
	"time"
)

// A Session is one player's game on the network, as the host (Host) or a
// joiner (Join), or a game alone that checks itself (SyncTest). It plays
// the Game over the Transport: call Frame (or Update) once a frame, from
// the start, until Done.
type Session struct {
	t     Transport
	s     *session   // nil in a sync test
	g     Game       // the game, once given
	r     *runner    // the game's tick path, from the Welcome on (a joiner's)
	b     *broadcast // the host's, with spectators
	sync  *syncTest
	ep    endpoint
	cfg   Config
	rc    runnerConfig
	host  bool
	capps int64 // frames that ran maxLoops ticks and still owed some
	full  bool  // the last frame ran maxLoops ticks
	told  bool  // the caller reports its loop's debt (ReportLoad)
}

// Host hosts a game at now: it waits for Config.Players-1 joiners on t,
// starts the game when they are all there, and plays g. The host is
// player 0. g may be nil when it is made after the session: give it with
// Play before the first Frame (a host without its game answers nobody).
func Host(c Config, g Game, t Transport, now time.Duration) (*Session, error) {
	if t == nil {
		return nil, fmt.Errorf("netplay: %w: Host needs a transport", ErrInvalid)
	}
	if c.MaxSpectators < 0 || c.MaxSpectators > MaxSpectators {
		return nil, fmt.Errorf("netplay: %w: Config.MaxSpectators %d not in 0..%d", ErrInvalid, c.MaxSpectators, MaxSpectators)
	}
	rc, err := c.runner(true)
	if err != nil {
		return nil, err
	}
	s, err := newHost(c.session(), now)
	if err != nil {
		return nil, err
	}
	ps := &Session{t: t, s: s, ep: s, cfg: c, rc: rc, host: true, g: g}
	if err := ps.start(); err != nil {
		return nil, err
	}
	return ps, nil
}

// Join joins the game hosted at host (an address of t's) at now. g may
// be nil when the game is made from the host's settings: give it with
// Play once Config() has them (the session is then in StateLobby). The
// joiner tells the host it is ready, and the game can start, only then.
func Join(c Config, g Game, t Transport, host string, now time.Duration) (*Session, error) {
	if t == nil {
		return nil, fmt.Errorf("netplay: %w: Join needs a transport", ErrInvalid)
	}
	if c.MaxSpectators != 0 {
		return nil, fmt.Errorf("netplay: %w: Config.MaxSpectators is the host's (leave it zero in Join)", ErrInvalid)
	}
	rc, err := c.runner(false)
	if err != nil {
		return nil, err
	}
	s, err := newJoiner(c.session(), host, now)
	if err != nil {
		return nil, err
	}
	return &Session{t: t, s: s, ep: s, cfg: c, rc: rc, g: g}, nil
}

// SyncTest makes a Session that tests g on one machine, as GGPO and GGRS
// do: after every tick it rolls the game back Config.CheckDistance ticks
// (Load), runs them again (Advance) with the same inputs, and compares
// every tick's state hash with the first time's. It drives the game
// through the tick path of a rollback game over the network: what passes
// here saves, loads and advances the way a real rollback needs. The one
// player's input comes from g's LocalInput; Frame works as in a network
// game, and Err reports the first difference (ErrDesync, with the tick
// and the two hashes).
func SyncTest(c Config, g Game) (*Session, error) {
	st, err := newSyncTest(g, g, syncTestConfig{InputSize: c.InputSize, CheckDistance: c.CheckDistance, Report: c.Report})
	if err != nil {
		return nil, err
	}
	return &Session{r: st.runner, g: g, sync: st, cfg: c}, nil
}

// Play gives the session its game, once: a joiner made without one gives
// it when the host's settings are known (Config), in the lobby.
func (ps *Session) Play(g Game) error {
	switch {
	case g == nil:
		return fmt.Errorf("netplay: %w: Play needs a game", ErrInvalid)
	case ps.g != nil:
		return fmt.Errorf("netplay: %w: the session has its game already", ErrInvalid)
	}
	ps.g = g
	if err := ps.start(); err != nil {
		ps.g = nil
		return err
	}
	return nil
}

// start puts the game on its tick path once the game is known: at once
// on the host, at the Welcome on a joiner (which then has the game's
// players and input size, and answers the Welcome: it is ready).
func (ps *Session) start() error {
	if ps.r != nil || ps.g == nil || ps.s.State() < StateLobby || ps.s.Over() {
		return nil
	}
	if _, ok := ps.g.(Snapshotter); ps.cfg.MaxSpectators > 0 && !ok {
		return fmt.Errorf("netplay: %w: a game that serves spectators must be a Snapshotter", ErrInvalid)
	}
	ps.rc.Tick = ps.s.tick // the host's
	if ps.s.Delay() == 0 {
		ps.rc.Netcode = Rollback // lockstep would wait a round trip every tick
	}
	r, err := newRunner(ps.s, ps.g, ps.g, ps.rc)
	if err != nil {
		return err
	}
	ps.r = r
	if ps.cfg.MaxSpectators > 0 {
		if ps.b, err = newBroadcast(r, broadcastConfig{MaxSpectators: ps.cfg.MaxSpectators}); err != nil {
			return err
		}
		ps.ep = ps.b
	}
	return nil
}

// Frame plays one frame at now: it takes the datagrams that arrived (at
// most 4,096, so that a flood cannot hold up a frame: the rest wait in
// the transport), runs the ticks it can of the due ticks the caller's
// fixed-step loop says are due (in lockstep mode: the time debt kept) and
// of those owed from earlier frames, at most maxLoops, and sends what is
// due: new input goes out in the frame it was made. It returns the new
// ticks it ran (re-simulations not counted). It allocates nothing.
//
// Ticks the frame cannot run (a missing input in lockstep, the
// prediction limit in rollback, a full input window) stay owed and run
// in later frames. Before the game starts (the lobby) due is dropped,
// not owed; after it ends Frame runs no tick, and with Rollback brings
// the game back to its last confirmed tick.
func (ps *Session) Frame(now time.Duration, due, maxLoops int) (ran int) {
	if ps.s == nil {
		return ps.r.Frame(now, due, maxLoops)
	}
	receiveAll(now, ps.t, ps.ep)
	_ = ps.start() // its config was checked by Join
	if ps.r == nil {
		if st := ps.s.State(); st == StateJoining || st >= StateEnding {
			sendDue(now, ps.t, ps.ep) // the Hello, or a quit; the Welcome is answered once the game is here
		}
		return 0
	}
	ran = ps.r.Frame(now, due, maxLoops)
	ps.full = maxLoops > 0 && ran == maxLoops
	if !ps.told {
		ps.reportLoad(0)
	}
	sendDue(now, ps.t, ps.ep)
	return ran
}

// Update is Frame for an engine's fixed update, which calls it once a
// tick (Config.Tick; Ebitengine's Update, 60 times a second by default):
// each call owes one tick and runs it, and runs at most one more owed
// from an earlier stall. Before the game starts it owes nothing.
//
// Time sync there cannot count less of a frame's time, since the engine
// keeps the time: it skips a tick now and then instead (skipped true; ran
// is then 0, or a tick owed from a stall). A peer ahead of the others by
// more than half a tick runs up to 3 % fewer ticks than its engine's
// updates until it is level: at 60 updates a second, at most one skipped
// in 33. Do not mix Update and Frame on one Session.
func (ps *Session) Update(now time.Duration) (ran int, skipped bool) {
	if ps.s == nil {
		return ps.r.Update(now)
	}
	receiveAll(now, ps.t, ps.ep)
	_ = ps.start()
	if ps.r == nil {
		if st := ps.s.State(); st == StateJoining || st >= StateEnding {
			sendDue(now, ps.t, ps.ep)
		}
		return 0, false
	}
	ran, skipped = ps.r.Update(now)
	ps.full = ran == updateMaxLoops
	ps.reportLoad(0)
	sendDue(now, ps.t, ps.ep)
	return ran, skipped
}

// ReportLoad tells the session how far the caller's fixed-step loop is
// behind after Frame, beyond the ticks it handed Frame: its time debt (a
// lockstep loop that runs at most maxLoops ticks a frame keeps the rest).
// A player whose loop falls behind while it has every input it needs is
// slow by itself, which the host's Config.KickAfter kicks for. A loop
// that keeps no debt of its own need not call it; once called, call it
// after every Frame. (Update needs none: it owes one tick a call.)
func (ps *Session) ReportLoad(debt time.Duration) {
	if ps.s == nil || ps.r == nil {
		return
	}
	ps.told = true
	ps.reportLoad(max(debt, 0))
}

// reportLoad tells the session this player's own load after a frame: the
// loop's debt and the ticks the session owes, as time, and the frames
// that ran all they could and stayed behind.
func (ps *Session) reportLoad(debt time.Duration) {
	d := debt + time.Duration(ps.r.Owed())*ps.rc.Tick
	if ps.full && d >= ps.rc.Tick {
		ps.capps++
	}
	ps.s.ReportLoad(d, ps.capps)
}

// TimeSync is the time the caller's fixed-step loop should not count
// of the frame Frame just played: while this peer's game runs ahead of
// another one's (it started later, its machine stalled, its clock runs
// fast), up to 3 % of the frame's elapsed time, so that the others catch
// up; 0 otherwise. Nobody is asked to hurry, and only the pacing changes:
// the ticks and their inputs do not.
//
//	offset += sess.TimeSync()
//	fr := fixed.Step(now - offset)
func (ps *Session) TimeSync() time.Duration {
	if ps.r == nil {
		return 0
	}
	return ps.r.TimeSync()
}

// Quit ends the game for everyone, cleanly, at one tick: the first tick
// whose local input has not been given. Keep calling Frame until Done:
// every peer, this one included, runs the ticks before it and ends there,
// in the same state. A player that quits in the lobby leaves at once (a
// host that quits there ends the game for everyone).
func (ps *Session) Quit(now time.Duration) {
	if ps.s != nil {
		ps.s.Quit(now)
	}
}

// Kick drops player p (the host only): from the first tick of p's input
// the host lacks, the same on every peer, the game goes on without it,
// and every peer has an EventDisconnected for it.
func (ps *Session) Kick(p int) error {
	if ps.s == nil {
		return fmt.Errorf("netplay: %w: a sync test has nobody to kick", ErrInvalid)
	}
	return ps.s.Kick(p)
}

// PollEvent returns the oldest event not yet polled, if any: the lobby's
// progress, the start, a player interrupted and resumed, disconnected,
// a desync, time sync's advice, the end. Poll them each frame until
// none is left; it allocates nothing. The session keeps the last 64.
func (ps *Session) PollEvent() (Event, bool) {
	if ps.s == nil {
		return Event{}, false
	}
	return ps.s.PollEvent()
}

// Done reports whether the session has nothing left to do: the game is
// over and the others have what they needed from this peer (or were
// given up on), its spectators included. Close the transport then. A
// sync test is done once it found a difference.
func (ps *Session) Done() bool {
	switch {
	case ps.s == nil:
		return ps.sync.Err() != nil
	case ps.b != nil:
		return ps.b.Done()
	}
	return ps.s.Done()
}

// Err is why the game ended for this peer, nil for a clean end (a quit,
// the tick limit) or while it runs; an *Error, but for a game that ended
// in a desync without Config.EndOnDesync, where it is the first desync
// found. A sync test's is its finding.
func (ps *Session) Err() error {
	if ps.s == nil {
		return ps.sync.Err()
	}
	return ps.s.Err()
}

// State is where the session is in its life. A sync test is always
// running.
func (ps *Session) State() State {
	if ps.s == nil {
		return StateRunning
	}
	return ps.s.State()
}

// Index is the local player's index: 0 on the host, a joiner's from the
// host's Welcome on (0 before).
func (ps *Session) Index() int {
	if ps.s == nil {
		return 0
	}
	return ps.s.Index()
}

// Config is the game's configuration as this session plays it: the
// host's game (Players, InputSize, Settings, Delay, TickLimit,
// DesyncEvery), which a joiner has from the Welcome on (StateLobby), and
// this peer's own fields as given, with the defaults filled in.
func (ps *Session) Config() Config {
	c := ps.cfg
	if ps.s == nil {
		return c
	}
	s := ps.s
	c.Players, c.InputSize, c.Settings, c.Delay, c.TickLimit = s.Players(), s.InputSize(), s.Settings(), s.Delay(), s.TickLimit()
	c.Tick = s.tick
	if s.State() >= StateLobby && c.Delay == 0 {
		c.Netcode = Rollback
	}
	c.DesyncEvery = s.DesyncEvery()
	if c.DesyncEvery == 0 {
		c.DesyncEvery = -1
	}
	sc := s.cfg
	c.Silence, c.Interrupt, c.JoinTimeout, c.Linger, c.Resend, c.KeepAlive = sc.Silence, sc.Interrupt, sc.JoinTimeout, sc.Linger, sc.Resend, sc.KeepAlive
	c.MaxSettings, c.Nonce = sc.MaxSettings, sc.Nonce
	switch {
	case c.Netcode != Rollback:
		c.MaxPrediction = 0
	case c.MaxPrediction == 0:
		c.MaxPrediction = defaultMaxPrediction
	}
	return c
}

// Invalidate tells a sync test that the game's state changed outside a
// tick (a reset, a setting): it does not roll back across that point. A
// network game's state changes only in ticks: there it does nothing.
func (ps *Session) Invalidate() {
	if ps.sync != nil {
		ps.sync.Invalidate()
	}
}

// Stats returns the session's measurements. It does not allocate.
func (ps *Session) Stats() Stats {
	var st Stats
	if ps.s != nil {
		st = ps.s.Stats()
	} else {
		st = Stats{State: StateRunning, Players: 1, Tick: ps.r.Head(), Confirmed: ps.r.Head()}
	}
	if r := ps.r; r != nil {
		rs := r.Stats()
		st.Ticks, st.Owed, st.StallFrames = rs.Ticks, r.Owed(), rs.StallFrames
		st.Rollbacks, st.Resimulated, st.MaxRollback, st.PredictionErrors = rs.Rollbacks, rs.Resimulated, rs.MaxRollback, rs.PredictionErrors
		st.FrameAdvantage, st.Slowdown = rs.FrameAdvantage, rs.Slowdown
	}
	if b := ps.b; b != nil {
		bs := b.Stats()
		st.Spectators, st.SpectatorsJoined, st.SpectatorsRejected = bs.Spectators, bs.Joined, bs.Rejected
		st.SpectatorsDropped, st.SpectatorsLeft, st.Snapshots = bs.Dropped, bs.Left, bs.Snapshots
		st.SnapshotBytes, st.SpectatorBytes = bs.SnapshotBytes, bs.BytesSent
	}
	return st
}
