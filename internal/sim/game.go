package sim

import (
	"errors"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/internal/stats"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/replay"
)

// The netcode library's limits, for the demo's flags (netplay.Config).
const (
	DefaultMaxPrediction = 8
	MaxMaxPrediction     = 60
	MaxSyncTest          = 60
)

// game is the Sim as the netcode library plays it (netplay.Game): the
// world and each player's record of the tick before (for "just
// pressed"), saved and restored together; each tick's inputs decoded
// into the demo's records; a kicked player's ball released at the tick
// the library names; confirmed ticks recorded. Lockstep, rollback and the
// sync test all run the world through it, on one tick path: the
// library's Runner.
type game struct {
	s *Sim
	// synctest is the sync test that plays the game (Config.SyncTest),
	// or nil.
	synctest *netplay.Session
	snaps    []physics.Snapshot
	prevs    [][physics.MaxPlayers]input.Record
	local    input.Record // the sync test's input for the tick being run

	// The frame in progress, for LocalInput: the loop's plan and its
	// time, and the latest span end given to the sampler.
	plan    loop.FixedFrame
	vnow    time.Duration
	lastEnd time.Duration

	// released are the players whose release the recording holds.
	released uint8
	hash     uint64
	hashFn   func() uint64 // g.confirmedHash, made once

	// This frame's rollback, for drawing the correction: the player
	// balls' positions before the first Load, and the time spent
	// loading and running ticks again.
	loaded    bool
	before    [physics.MaxPlayers][2]int32 // at the head, before the first Load
	after     [physics.MaxPlayers][2]int32 // at the same tick, corrected
	afterSet  bool
	resimTime time.Duration
	resimHist stats.Histogram // per frame that rolled back
	// corrupt, in tests, changes a restored world, to show that the
	// sync test can fail.
	corrupt func(w *physics.World)
}

var (
	_ netplay.Game        = (*game)(nil)
	_ netplay.Confirmer   = (*game)(nil)
	_ netplay.Predictor   = (*game)(nil)
	_ netplay.Snapshotter = (*game)(nil)
	_ netplay.Describer   = (*game)(nil)
)

func newGame(s *Sim, slots int) *game {
	g := &game{s: s, snaps: make([]physics.Snapshot, slots), prevs: make([][physics.MaxPlayers]input.Record, slots)}
	g.hashFn = g.confirmedHash
	return g
}

// Advance runs one tick of the world with every player's input.
func (g *game) Advance(in *netplay.Inputs) {
	s := g.s
	if g.loaded && !in.Resimulated && !g.afterSet {
		g.notePlayers(&g.after) // the correction is done: new ticks follow
		g.afterSet = true
	}
	recs := s.recs[:in.Players()]
	for p := range recs {
		recs[p] = DecodeInput(in.Input(p))
		if in.Disconnected(p) && s.world.Players()&(1<<p) != 0 {
			s.release(p) // every peer does it at this tick
		}
	}
	t0 := s.clock.Now()
	s.stepWorld(recs)
	if s.net.faultAt != 0 && s.world.Ticks() == s.net.faultAt && s.world.N() > 0 {
		s.world.Next[0]++ // Config.FaultAt: this peer goes wrong
	}
	if in.Resimulated {
		g.resimTime += s.clock.Now() - t0
		return
	}
	s.logic.Add(s.clock.Now() - t0)
	s.ticks++
	s.burn()
}

// presize saves the world into every slot, so that every snapshot's
// buffers exist before the game runs, as netplay.Game asks: a slot's
// first Save would otherwise allocate them, and a slot first used by a
// deeper prediction long after the warm-up. What it saves is never
// loaded: a Runner loads only a slot it saved into.
func (g *game) presize() {
	for i := range g.snaps {
		g.s.world.Save(&g.snaps[i])
	}
}

// Save keeps the world and the records before the tick in slot.
func (g *game) Save(slot int) {
	g.s.world.Save(&g.snaps[slot])
	g.prevs[slot] = g.s.prevs
}

// Load restores slot. The first Load of a frame notes where the player
// balls were, so that the correction can be drawn.
func (g *game) Load(slot int) {
	s := g.s
	if !g.loaded {
		g.loaded = true
		g.notePlayers(&g.before)
	}
	t0 := s.clock.Now()
	s.world.Restore(&g.snaps[slot])
	s.prevs = g.prevs[slot]
	g.resimTime += s.clock.Now() - t0
	if g.corrupt != nil {
		g.corrupt(s.world)
	}
}

// Predict predicts a missing record as the keys its player held at the
// end of its last known tick, held on: no new press or release (a
// prediction that repeated a press would tap the key again every tick).
func (g *game) Predict(_ int, last, dst []byte) {
	var rec input.Record
	if last != nil {
		rec.Held = DecodeInput(last).Held
	}
	EncodeInput(dst, rec)
}

// Hash is the world's state hash.
func (g *game) Hash() uint64 { return g.s.world.Hash() }

// Confirmed records a confirmed tick: a recording holds the confirmed
// game, with a kicked player's release as the command the replay
// carries out before the tick, as a lockstep game's recording always had.
func (g *game) Confirmed(in *netplay.Inputs, hash uint64, _ bool) {
	s := g.s
	if s.rec == nil {
		return
	}
	for p := range in.Players() {
		if in.Disconnected(p) && g.released&(1<<p) == 0 && p < s.world.N() {
			g.released |= 1 << p
			s.rec.Command(replay.Command{Kind: replay.CmdRelease, Arg: int64(p)})
		}
	}
	recs := s.recs[:in.Players()]
	for p := range recs {
		recs[p] = DecodeInput(in.Input(p))
	}
	g.hash = hash
	s.recordTick(recs, g.hashFn)
}

// confirmedHash is the hash the Runner gave with the confirmed tick: a
// recording asks for it every 100 ticks, a multiple of netplay.HashEvery.
func (g *game) confirmedHash() uint64 { return g.hash }

// LocalInput is the local player's input for tick: the sync test's
// record, the bot's, or the keyboard's over the span of the frame's n-th
// tick (the frame's time for ticks owed from earlier frames).
func (g *game) LocalInput(tick uint64, n int, dst []byte) {
	s := g.s
	var rec input.Record
	switch {
	case s.sync != nil:
		rec = g.local
	case s.net.bot:
		// The bot holds still for the first ticks, whatever the
		// netcode, so that lockstep and rollback play the same game.
		rec = BotInput(s.net.botSeed, uint64(max(netplay.DefaultDelay, s.net.sess.Config().Delay)), tick)
	default:
		end := g.vnow
		if n < g.plan.Ticks {
			end = g.plan.Span(n).End
		}
		end = max(end, g.lastEnd)
		g.lastEnd = end
		rec = s.sampler.Tick(end)
	}
	EncodeInput(dst, rec)
}

// notePlayers notes where the players' balls are.
func (g *game) notePlayers(at *[physics.MaxPlayers][2]int32) {
	w := g.s.world
	for p := range min(g.s.players, w.N()) {
		at[p] = [2]int32{w.Next[2*p], w.Next[2*p+1]}
	}
}

// beginFrame resets the frame's rollback notes.
func (g *game) beginFrame() {
	g.loaded, g.afterSet = false, false
	g.resimTime = 0
}

// endFrame counts the frame's rollback time and notes the correction.
func (g *game) endFrame() {
	if !g.loaded {
		return
	}
	if !g.afterSet {
		g.notePlayers(&g.after)
		g.afterSet = true
	}
	g.s.net.corrected = true
	g.resimHist.Add(g.resimTime)
}

// SyncTestTicks is the number of ticks the sync test simulated twice.
func (s *Sim) SyncTestTicks() int64 {
	if s.sync == nil {
		return 0
	}
	return s.sync.synctest.Stats().Resimulated
}

// AppendState is the game's whole state for a spectator: the world's,
// then each player's record of the tick before (for "just pressed").
func (g *game) AppendState(dst []byte) []byte {
	dst = g.s.world.AppendState(dst)
	for p := range g.s.players {
		var b [InputSize]byte
		EncodeInput(b[:], g.s.prevs[p])
		dst = append(dst, b[:]...)
	}
	return dst
}

// SetState takes the state AppendState wrote.
func (g *game) SetState(b []byte) error {
	s := g.s
	n := s.players * InputSize
	if len(b) < n {
		return errors.New("the state is too short")
	}
	if err := s.world.SetState(b[:len(b)-n]); err != nil {
		return err
	}
	tail := b[len(b)-n:]
	for p := range s.players {
		s.prevs[p] = DecodeInput(tail[p*InputSize:])
	}
	return nil
}

// describedState is the game's state bytes with names: the world's, and
// each player's record of the tick before.
type describedState struct {
	World      physics.StateView
	LastInputs []input.Record
}

// Describe reads the bytes AppendState wrote as named fields, for a
// desync report (netplay.Describer).
func (g *game) Describe(b []byte) (any, error) {
	n := g.s.players * InputSize
	if len(b) < n {
		return nil, errors.New("the state is too short")
	}
	w, err := physics.ViewState(b[:len(b)-n])
	if err != nil {
		return nil, err
	}
	d := describedState{World: w, LastInputs: make([]input.Record, g.s.players)}
	for p := range d.LastInputs {
		d.LastInputs[p] = DecodeInput(b[len(b)-n+p*InputSize:])
	}
	return d, nil
}
