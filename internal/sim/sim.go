package sim

import (
	"errors"
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/internal/stats"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/replay"
)

// Config sets up a Sim.
type Config struct {
	// Settings are the world's and the fixed loop's. Ignored with Replay,
	// whose recording brings its own.
	Settings Settings
	// Mode is the timing mode to start in.
	Mode Mode
	// Speed is the speed factor, MinSpeed to MaxSpeed; 0 means 1.
	Speed float64
	// Paused starts the game paused.
	Paused bool
	// FrameCap is the frame cap's interval, 0 for none. The adaptive mode
	// paces its presents at it (or at 40 per second without one).
	FrameCap time.Duration
	// Fast runs the fixed loop as fast as frames come, MaxLoops ticks a
	// frame, not in real time (tests, replays).
	Fast bool
	// TickLimit ends the run after exactly this many ticks (cycles in the
	// variable-step modes); 0 for none.
	TickLimit int64
	// LogicLoad is work burnt per tick (per cycle or discrete update in
	// the other modes), to act like a slow machine.
	LogicLoad time.Duration
	// Load burns d of time: the shell's busy-wait, which may pump the
	// window system's events as it goes. Nil means the load advances
	// nothing (a test's manual clock then sees no time pass).
	Load func(d time.Duration)
	// Record records every tick's input, the commands and hash
	// checkpoints (Recording returns the recording so far).
	Record bool
	// Replay plays a recording back instead of taking input and commands,
	// checking its hashes.
	Replay *replay.Recording
	// Net makes this a network game (fixed mode only), lockstep or
	// rollback as the session's Config says: the session's world
	// settings replace Settings, and the local player's input goes to
	// the session. The Sim gives the session its game (netplay.Play): a
	// host's at once, a joiner's (Join) when the caller says it is ready
	// (Ready). The session's Frame moves the datagrams.
	Net  *netplay.Session
	Join bool
	// FaultAt, a test aid, moves ball 0 one unit right after tick FaultAt
	// (ticks run) on this peer alone: its state then differs from the
	// others', as a non-deterministic game's would (0: never).
	FaultAt uint64
	// Spectate, instead of Net, watches a network game: the world comes
	// from the host (a snapshot at a confirmed tick when the game runs
	// already), then every confirmed tick's inputs.
	Spectate *netplay.Spectator
	// Bot, with BotSeed, takes the local player's input in a network game
	// from a deterministic generator instead of the keyboard.
	Bot     bool
	BotSeed uint64
	// SyncTest, when positive, rolls the world back SyncTest ticks after
	// every tick and simulates them again, failing the run (Err) if a
	// tick's state differs the second time (fixed mode, one machine).
	SyncTest int
	// Stabilize is the fixed loop's tick-count stabilisation window
	// (loop.FixedConfig.Stabilize), 0 for the classic loop. It moves only
	// when the frame's ticks run, never what they do.
	Stabilize time.Duration
}

// Bounds of the speed factor.
const (
	MinSpeed, MaxSpeed = 0.25, 4
)

// FrameInfo is what one frame's logic did.
type FrameInfo struct {
	// Ticks is the logic ticks (fixed mode), cycles, discrete updates or
	// steps the frame ran.
	Ticks int
	// Percent is percentWithinTick in fixed mode, 1 in the others.
	Percent float64
	// Discarded is the time debt thrown away (fixed mode) or the time the
	// other modes' clamps dropped.
	Discarded time.Duration
	// Capped says the catch-up hit its cap (MaxLoops, MaxCycles, or a
	// resync).
	Capped bool
	// Drawn is the game time the frame's picture shows: in fixed mode
	// time0 + percentWithinTick × tick (loop.FixedFrame.DrawTime), in the
	// others the game time the frame stepped to.
	Drawn time.Duration
}

// Sim is the running simulation. It is not safe for concurrent use.
type Sim struct {
	world    *physics.World
	clock    loop.Clock
	load     func(time.Duration)
	settings Settings // MaxLoops and Lockstep; the tick is the world's

	virt     *loop.Virtual
	mode     Mode
	strat    strategy
	vdelta   loop.VirtualDelta // this frame's advance of virtual time
	speed    float64
	frameCap time.Duration
	fast     bool
	stable   time.Duration // the fixed loop's stabilisation window

	sampler *input.Sampler
	cmds    []replay.Command // waiting for the next tick boundary

	rec *replay.Recorder
	rep *replay.Player

	tickLimit int64
	logicLoad time.Duration
	ticks     int64 // ticks (cycles in the variable modes) run
	logic     stats.Histogram
	modeLine  []byte

	finished   bool  // the tick limit or the end of the replay was reached
	replayDone bool  // the replay ran to its end and its final hash matched
	err        error // the first divergence or bad recorded command

	// Players: each tick has one input record per player.
	players int
	recs    [physics.MaxPlayers]input.Record
	prevs   [physics.MaxPlayers]input.Record
	ctls    [physics.MaxPlayers]physics.Control

	net  net
	sync *game // Config.SyncTest: the sync test's game, whose Runner checks every tick; or nil
}

// net is the state of a network game.
type net struct {
	sess      *netplay.Session   // a player's: lockstep or rollback, on one tick path
	spectator *netplay.Spectator // watching, instead of sess
	game      *game              // the Sim as the session plays it
	given     bool               // the session has the game (Play)
	rollback  bool
	bot       bool
	botSeed   uint64
	started   bool   // the game began: the loop was restarted then
	quit      bool   // the session was told to end
	faultAt   uint64 // Config.FaultAt
	corrected bool   // the last frame corrected a misprediction (rollback)
	// offset is the time the fixed loop's clock is held back by time
	// sync: the sum of the session's TimeSync, so that a peer ahead of
	// the others slows down (the loop steps at the virtual time less it).
	offset time.Duration
}

// New makes a simulation whose loop starts at now on clock.
func New(cfg Config, clock loop.Clock, now time.Duration) (*Sim, error) {
	if clock == nil {
		return nil, errors.New("sim: no clock")
	}
	s := &Sim{
		clock:     clock,
		load:      cfg.Load,
		settings:  cfg.Settings,
		speed:     cfg.Speed,
		frameCap:  cfg.FrameCap,
		fast:      cfg.Fast,
		stable:    cfg.Stabilize,
		tickLimit: cfg.TickLimit,
		logicLoad: cfg.LogicLoad,
		sampler:   input.NewSampler(),
		cmds:      make([]replay.Command, 0, 8),
		modeLine:  make([]byte, 0, 128),
	}
	if s.speed == 0 {
		s.speed = 1
	}
	if err := checkSpeed(s.speed); err != nil {
		return nil, err
	}
	if err := s.takeSession(cfg); err != nil {
		return nil, err
	}
	if cfg.Replay != nil {
		s.settings = cfg.Replay.Settings
		if err := CheckSettings(s.settings); err != nil {
			return nil, fmt.Errorf("the recording's settings: %w", err)
		}
		s.rep = cfg.Replay.Player()
		s.prevs[0] = s.rep.Initial()
	} else if err := CheckSettings(s.settings); err != nil {
		return nil, err
	}
	if cfg.SyncTest != 0 {
		switch {
		case cfg.SyncTest < 1 || cfg.SyncTest > MaxSyncTest:
			return nil, fmt.Errorf("synctest %d out of range 1..%d", cfg.SyncTest, MaxSyncTest)
		case cfg.Net != nil || cfg.Mode != ModeFixed:
			return nil, errors.New("the sync test runs the fixed loop on one machine")
		}
	}
	s.players = max(1, int(s.settings.Players))
	if s.players > physics.MaxPlayers {
		return nil, fmt.Errorf("%d players, more than %d", s.players, physics.MaxPlayers)
	}
	var err error
	if s.world, err = newWorld(s.settings); err != nil {
		return nil, err
	}
	if cfg.Record {
		st := s.settings
		st.Balls = uint32(s.world.N())
		s.rec = replay.NewRecorder(st, 0)
	}
	if err := s.newNet(cfg); err != nil {
		return nil, err
	}
	if s.virt, err = loop.NewVirtual(loop.VirtualConfig{MaxDelta: loop.NoLimit}, now); err != nil {
		return nil, err
	}
	s.virt.SetPaused(cfg.Paused)
	if err := s.SetMode(cfg.Mode, now); err != nil {
		return nil, err
	}
	return s, nil
}

// takeSession takes a network game's session, a spectator's or a
// player's: the game's settings, which the host sent, replace cfg's, with
// lockstep and the session's players.
func (s *Sim) takeSession(cfg Config) error {
	if cfg.Spectate != nil {
		if cfg.Net != nil || cfg.Replay != nil || cfg.Record || !cfg.Mode.Deterministic() {
			return errors.New("a spectator watches in fixed mode, records nothing and plays nothing else")
		}
		c := cfg.Spectate.Config()
		settings, err := DecodeSettings(c.Settings)
		if err != nil {
			return err
		}
		s.settings = settings
		s.settings.Lockstep = true
		s.settings.Players = uint32(c.Players)
		s.net = net{spectator: cfg.Spectate}
	}
	if cfg.Net != nil {
		if cfg.Replay != nil || !cfg.Mode.Deterministic() {
			return errors.New("a network game runs in fixed mode and cannot replay")
		}
		c := cfg.Net.Config()
		settings, err := DecodeSettings(c.Settings)
		if err != nil {
			return err
		}
		s.settings = settings
		s.settings.Lockstep = true // all computers must be kept in synchronization
		s.settings.Players = uint32(c.Players)
		s.net = net{sess: cfg.Net, bot: cfg.Bot, botSeed: cfg.BotSeed, rollback: c.Netcode == netplay.Rollback, faultAt: cfg.FaultAt}
	}
	return nil
}

func checkSpeed(v float64) error {
	if !(v >= MinSpeed && v <= MaxSpeed) { // also NaN
		return fmt.Errorf("speed must be between %v and %v (got %v)", MinSpeed, MaxSpeed, v)
	}
	return nil
}

// World is the world to draw. The shell reads it; only the Sim changes it.
func (s *Sim) World() *physics.World { return s.world }

// Tick is the tick length: the world's, which the fixed loop follows.
func (s *Sim) Tick() time.Duration { return s.world.Config().Tick }

// Settings are the settings the run started with (the recording's in a
// replay).
func (s *Sim) Settings() Settings { return s.settings }

// Mode is the timing mode.
func (s *Sim) Mode() Mode { return s.mode }

// Speed is the speed factor (kept while paused).
func (s *Sim) Speed() float64 { return s.speed }

// Paused says whether game time stands still.
func (s *Sim) Paused() bool { return s.virt.Paused() }

// FrameCap is the frame cap's interval, 0 for none.
func (s *Sim) FrameCap() time.Duration { return s.frameCap }

// LogicLoad is the work burnt per tick.
func (s *Sim) LogicLoad() time.Duration { return s.logicLoad }

// Ticks is the ticks (cycles in the variable modes) run so far.
func (s *Sim) Ticks() int64 { return s.ticks }

// TickTimes is the measured time each fixed tick's world update took.
func (s *Sim) TickTimes() *stats.Histogram { return &s.logic }

// ModeLine is a line of the mode's own numbers for the HUD, valid until
// the next frame; empty in fixed mode.
func (s *Sim) ModeLine() []byte { return s.modeLine }

// Recording says whether the run is being recorded.
func (s *Sim) Recording() bool { return s.rec != nil }

// Replaying says whether the run plays a recording back.
func (s *Sim) Replaying() bool { return s.rep != nil }

// Finished says the run is over: the tick limit was reached, or the
// replay ended or diverged.
func (s *Sim) Finished() bool {
	switch {
	case s.net.spectator != nil:
		return s.net.spectator.Done()
	case s.net.sess != nil:
		return s.net.sess.Done()
	}
	return s.finished
}

// ReplayOK says the replay ran to its end with every hash matching.
func (s *Sim) ReplayOK() bool { return s.replayDone && s.err == nil }

// Err is the first divergence from the recording, or a recorded command
// the world refused: the run failed.
func (s *Sim) Err() error {
	switch {
	case s.err != nil:
		return s.err
	case s.net.sess != nil:
		return s.net.sess.Err()
	case s.net.spectator != nil:
		return s.net.spectator.Err()
	}
	return nil
}

// Net is the network session, or nil.
func (s *Sim) Net() *netplay.Session { return s.net.sess }

// Players is the number of players: input records per tick.
func (s *Sim) Players() int { return s.players }

// Quit ends a network game for everyone (keep running frames until
// Finished); it does nothing in a game on one machine.
func (s *Sim) Quit(now time.Duration) {
	if s.net.sess != nil && !s.net.quit {
		s.net.quit = true
		s.net.sess.Quit(now)
	}
}

// SetMode switches the timing mode at raw time now, starting the new
// strategy afresh. Game time goes on across the switch. Only the fixed
// mode can be recorded or replayed.
func (s *Sim) SetMode(m Mode, now time.Duration) error {
	if m < 0 || m >= NumModes {
		return fmt.Errorf("unknown mode %d", int(m))
	}
	if (s.rec != nil || s.rep != nil) && !m.Deterministic() {
		return fmt.Errorf("only fixed mode is deterministic; %s cannot be recorded or replayed", m)
	}
	if s.net.sess != nil && m != s.mode && s.strat != nil {
		return errors.New("a network game keeps its timing mode")
	}
	// The variable-step mode clamps a stalled frame to 100 ms of game
	// time; fixed mode handles stalls itself (MaxLoops, debt) and the
	// strategies with their own clamp get the raw time.
	maxDelta := loop.NoLimit
	if m == ModeVariable {
		maxDelta = loop.DefaultMaxDelta
	}
	if err := s.virt.SetMaxDelta(maxDelta); err != nil {
		return err
	}
	s.virt.Reset(now)
	vnow := s.virt.Now()
	var st strategy
	switch m {
	case ModeFixed:
		f, err := loop.NewFixed(loop.FixedConfig{Tick: s.Tick(), MaxLoops: int(s.settings.MaxLoops), Lockstep: s.settings.Lockstep, Stabilize: s.stable}, vnow)
		if err != nil {
			return err
		}
		st = &fixedMode{f: f, fastNow: vnow}
	case ModeSubstep:
		sub, err := loop.NewSubstep(loop.SubstepConfig{MinT: loop.NoLimit}, vnow)
		if err != nil {
			return err
		}
		st = &substepMode{sub: sub}
	case ModeTimeFactor:
		tf, err := loop.NewTimeFactor(loop.TimeFactorConfig{}, vnow)
		if err != nil {
			return err
		}
		st = &timeFactorMode{tf: tf}
	case ModeAdaptive:
		a, err := s.newAdaptive(now)
		if err != nil {
			return err
		}
		st = a
	case ModeVariable:
		st = variableMode{}
	}
	s.mode, s.strat = m, st
	return nil
}

func (s *Sim) newAdaptive(now time.Duration) (*adaptiveMode, error) {
	a, err := loop.NewAdaptive(loop.AdaptiveConfig{Target: s.frameCap}, now)
	if err != nil {
		return nil, err
	}
	return &adaptiveMode{a: a}, nil
}

// SetSpeed sets the speed factor, MinSpeed to MaxSpeed, from the next
// frame.
func (s *Sim) SetSpeed(v float64) error {
	if err := checkSpeed(v); err != nil {
		return err
	}
	if s.net.sess != nil && v != s.speed {
		return errors.New("a network game runs in real time")
	}
	if err := s.virt.SetSpeed(v); err != nil {
		return err
	}
	s.speed = v
	return nil
}

// SetPaused stops or restarts game time; the speed factor is kept. A
// network game cannot pause: it refuses.
func (s *Sim) SetPaused(p bool) error {
	if s.net.sess != nil && p {
		return errors.New("a network game runs in real time")
	}
	s.virt.SetPaused(p)
	return nil
}

// SetFrameCap sets the frame cap's interval (0 for none). The adaptive
// mode's presents follow it.
func (s *Sim) SetFrameCap(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("frame cap interval %v is negative", d)
	}
	s.frameCap = d
	if s.mode == ModeAdaptive {
		a, err := s.newAdaptive(s.clock.Now())
		if err != nil {
			return err
		}
		s.strat = a
	}
	return nil
}

// SetStabilize sets the fixed loop's tick-count stabilisation window, 0
// for none (Config.Stabilize), from the next frame.
func (s *Sim) SetStabilize(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("stabilisation window %v is negative", d)
	}
	s.stable = d
	if f, ok := s.strat.(*fixedMode); ok {
		return f.f.SetStabilize(d)
	}
	return nil
}

// Stabilize is the fixed loop's tick-count stabilisation window.
func (s *Sim) Stabilize() time.Duration { return s.stable }

// SetLogicLoad sets the work burnt per tick.
func (s *Sim) SetLogicLoad(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("logic load %v is negative", d)
	}
	s.logicLoad = d
	return nil
}

// LimiterInterval is the interval the shell's frame limiter should keep:
// the frame cap, or sub-stepping's MinT (1/60 s) if longer. The adaptive
// mode paces its own presents (PresentAt), so it asks for none.
func (s *Sim) LimiterInterval() time.Duration {
	switch s.mode {
	case ModeSubstep:
		return max(s.frameCap, loop.DefaultMinT)
	case ModeAdaptive:
		return 0
	}
	return s.frameCap
}

// PresentAt is when the frame's draw should start, in the adaptive mode;
// ok is false in the others (draw at once).
func (s *Sim) PresentAt() (t time.Duration, ok bool) {
	if a, is := s.strat.(*adaptiveMode); is {
		return a.a.PresentAt(), true
	}
	return 0, false
}

// BeginDraw and EndDraw tell the adaptive mode when the frame's draw
// starts and ends (it measures them); the other modes ignore them.
func (s *Sim) BeginDraw(now time.Duration) {
	if a, is := s.strat.(*adaptiveMode); is {
		a.a.BeginDraw(now)
	}
}

// EndDraw: see BeginDraw.
func (s *Sim) EndDraw(now time.Duration) {
	if a, is := s.strat.(*adaptiveMode); is {
		a.a.EndDraw(now)
	}
}

// Queue holds a world command for the next tick boundary, where it is
// applied (and recorded) before the next tick. The world checks it then;
// Queue refuses only what can never run: any command during a replay
// (which must change the world exactly as the recording did) and an
// unknown kind.
func (s *Sim) Queue(c replay.Command) error {
	if s.rep != nil {
		return errors.New("replaying: the recording's commands only")
	}
	if s.net.sess != nil {
		return errors.New("a network game keeps the host's world")
	}
	if !c.Kind.Valid() {
		return fmt.Errorf("unknown command %d", c.Kind)
	}
	s.cmds = append(s.cmds, c)
	return nil
}

// exec applies one command to the world and the loop. The world checks
// the values first; on error nothing changes.
func (s *Sim) exec(c replay.Command) error {
	switch c.Kind {
	case replay.CmdReset:
		s.world.Reset()
	case replay.CmdSetBalls:
		if c.Arg < 0 || c.Arg > physics.MaxBalls {
			return fmt.Errorf("%v: out of range 0..%d", c, physics.MaxBalls)
		}
		return s.world.SetBalls(int(c.Arg))
	case replay.CmdRelease:
		if c.Arg < 0 || c.Arg >= int64(s.players) {
			return fmt.Errorf("%v: no such player in a %d-player game", c, s.players)
		}
		return s.release(int(c.Arg))
	case replay.CmdSetTick:
		d := time.Duration(c.Arg)
		if d < MinTick || d > MaxTick {
			return fmt.Errorf("%v: out of range %v..%v", c, MinTick, MaxTick)
		}
		if err := s.world.SetTick(d); err != nil {
			return err
		}
		if f, ok := s.strat.(*fixedMode); ok {
			// d >= MinTick > 0: the loop takes any positive tick.
			if err := f.f.SetTick(s.virt.Now(), d); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unknown command %d", c.Kind)
	}
	return nil
}

// Frame runs the frame's logic at raw clock time now. events are the key
// events since the last frame, stamped on the same raw clock, in the
// order they happened (ignored in a replay). It returns what the logic
// did.
func (s *Sim) Frame(now time.Duration, events []input.Event) FrameInfo {
	s.vdelta = s.virt.Advance(now)
	if s.rep == nil {
		// Events are stamped on the raw clock; the loop runs on virtual
		// time (slow motion, pause), so map them first.
		for _, e := range events {
			e.Time = s.virt.Map(e.Time)
			s.sampler.Push(e)
		}
	}
	s.applyCommands()
	if s.finished {
		return FrameInfo{Percent: 1, Drawn: s.virt.Now()}
	}
	info := s.strat.frame(s, now)
	if s.mode != ModeFixed {
		s.ticks += int64(info.Ticks)
		s.checkLimit()
		info.Drawn = s.virt.Now()
	}
	return info
}

// applyCommands carries out the commands queued since the last frame,
// recording those the world took. A refused command is dropped (it came
// from a key, which only makes valid ones).
func (s *Sim) applyCommands() {
	for _, c := range s.cmds {
		if s.exec(c) == nil && s.rec != nil {
			s.rec.Command(c)
		}
		if s.sync != nil {
			s.sync.synctest.Invalidate()
		}
	}
	s.cmds = s.cmds[:0]
}

// checkLimit ends the run once the tick limit is reached.
func (s *Sim) checkLimit() {
	if s.tickLimit > 0 && s.ticks >= s.tickLimit {
		s.finished = true
	}
}

// fixedTick runs one fixed tick over span: with the input of the span, or
// the recording's next records. It returns false when no tick ran (the
// replay ended).
func (s *Sim) fixedTick(span loop.TickSpan) bool {
	recs := s.recs[:s.players]
	if s.rep != nil {
		if !s.replayNext(recs) {
			return false
		}
	} else {
		recs[0] = s.sampler.Tick(span.End)
	}
	if s.sync != nil && len(recs) == 1 {
		// The sync test runs the tick through the netcode library,
		// which rolls back and runs it again.
		s.sync.local = recs[0]
		s.sync.synctest.Frame(0, 1, 1)
		if err := s.sync.synctest.Err(); err != nil {
			s.fail(err)
		}
	} else {
		s.runTick(recs)
	}
	if s.rep != nil {
		if err := s.rep.Check(s.world.Hash); err != nil {
			s.fail(err)
		}
	}
	s.checkLimit()
	return true
}

// runTick steps the world one tick with every player's record, records
// it, and burns the logic load.
func (s *Sim) runTick(recs []input.Record) {
	t0 := s.clock.Now()
	s.stepWorld(recs)
	s.logic.Add(s.clock.Now() - t0)
	s.ticks++
	s.burn()
	if s.rec != nil {
		s.recordTick(recs, s.world.Hash)
	}
}

// stepWorld steps the world one tick with every player's record, each
// acting on its keys down during the tick (with the record before it).
func (s *Sim) stepWorld(recs []input.Record) {
	if len(recs) == 1 {
		s.world.Tick(control(recs[0], s.prevs[0]))
	} else {
		ctls := s.ctls[:len(recs)]
		for i, r := range recs {
			ctls[i] = control(r, s.prevs[i])
		}
		s.world.TickPlayers(ctls)
	}
	copy(s.prevs[:], recs)
}

// recordTick adds a tick's records to the recording, in the one-player
// format of version 1 when there is one player.
func (s *Sim) recordTick(recs []input.Record, hashAfter func() uint64) {
	if len(recs) == 1 {
		s.rec.Tick(recs[0], hashAfter)
	} else {
		s.rec.TickPlayers(recs, hashAfter)
	}
}

// replayNext returns the next tick's record, first applying the commands
// recorded before it. At the end it applies the last commands, checks the
// final hash and ends the run.
func (s *Sim) replayNext(recs []input.Record) bool {
	cmds, ok := s.rep.NextPlayers(recs)
	for _, c := range cmds {
		if err := s.exec(c); err != nil {
			s.fail(fmt.Errorf("tick %d: %v", s.rep.Tick(), err))
			return false
		}
		if s.sync != nil {
			s.sync.synctest.Invalidate()
		}
	}
	if !ok {
		if err := s.rep.CheckFinal(s.world.Hash()); err != nil {
			s.fail(err)
		} else {
			s.replayDone = true
		}
		s.finished = true
	}
	return ok
}

func (s *Sim) fail(err error) {
	if s.err == nil {
		s.err = err
	}
	s.finished = true
}

// step is one variable step of the modes that do not use fixed ticks, with
// the input that arrived up to now as its record. A step of no time
// (paused, or a clock that stood still) is skipped: nothing moves.
func (s *Sim) step(dt time.Duration) {
	if dt <= 0 {
		return
	}
	rec := s.sampler.Tick(s.virt.Now() + 1)
	s.world.Step(dt, control(rec, s.prevs[0]))
	s.prevs[0] = rec
}

// burn does the logic load.
func (s *Sim) burn() {
	if s.logicLoad > 0 && s.load != nil {
		s.load(s.logicLoad)
	}
}

// release makes player p's ball autonomous: the world lets it go, and
// the record before its next tick is zero, so that the keys p held when
// it went do not take the ball again ("just pressed" from its last
// record). A live game and its replay release it the same way.
func (s *Sim) release(p int) error {
	if err := s.world.Release(p); err != nil {
		return err
	}
	if p < len(s.prevs) {
		s.prevs[p] = input.Record{}
	}
	return nil
}

// control is the player's input for a tick: every direction key that was
// down at any moment of the tick's span.
func control(rec, prev input.Record) physics.Control {
	down := rec.Down(prev)
	return physics.Control{
		X: input.Axis(down, input.Left, input.Right),
		Y: input.Axis(down, input.Up, input.Down),
	}
}

// RecordingSoFar returns the recording up to now (nil when not
// recording): the shell writes it at exit and every few seconds.
func (s *Sim) RecordingSoFar() *replay.Recording {
	if s.rec == nil {
		return nil
	}
	return s.rec.Finish(s.world.Hash())
}
