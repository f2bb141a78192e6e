package sim

import (
	"errors"
	"time"

	"github.com/interpdemo/interpdemo/internal/stats"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/physics"
)

// newNet sets up the netcode library's session of a network game, a
// spectator's or a sync test: the one tick path of lockstep, rollback
// and the sync test.
func (s *Sim) newNet(cfg Config) (err error) {
	switch {
	case cfg.SyncTest != 0:
		g := newGame(s, cfg.SyncTest+2)
		g.presize()
		if g.synctest, err = netplay.SyncTest(netplay.Config{InputSize: InputSize, CheckDistance: cfg.SyncTest}, g); err != nil {
			return err
		}
		s.sync = g
	case cfg.Spectate != nil:
		g := newGame(s, 0)
		s.net.game = g
		return cfg.Spectate.Play(g)
	case cfg.Net != nil:
		g := newGame(s, cfg.Net.Config().MaxPrediction+2) // the save slots, 0..MaxPrediction+1
		g.presize()
		s.net.game = g
		if !cfg.Join {
			return s.Ready()
		}
	}
	return nil
}

// Ready gives a network game's session its game, once: a joiner's says
// so to the host, which starts the game when every player is ready. Its
// loop should run steadily by then (a window open, a first frame shown),
// or the start would eat into the first ticks here and not elsewhere.
func (s *Sim) Ready() error {
	if s.net.sess == nil || s.net.given {
		return nil
	}
	s.net.given = true
	return s.net.sess.Play(s.net.game)
}

// netFrame is the fixed loop of a network game, lockstep or rollback:
// the clock says how many ticks are due, the library's Runner runs those
// it can (every input known in lockstep; within the prediction limit in
// rollback) and keeps the others owed: the time debt is kept, and the
// loop catches up, at most MaxLoops ticks a frame, as the interp_demo
// article's network game does. With time sync the loop's clock is the
// virtual time less n.offset, which grows by the Runner's TimeSync each
// frame while this peer's game is ahead of another's: only the pacing
// changes, never the ticks or their inputs.
func (s *Sim) netFrame(m *fixedMode, now time.Duration) FrameInfo {
	if s.net.spectator != nil {
		return s.watchFrame(m, now)
	}
	n := &s.net
	sess, g := n.sess, n.game
	s.modeLine = s.modeLine[:0]
	if errors.Is(sess.Err(), netplay.ErrDesync) {
		s.Quit(now) // a game that diverged is over for everyone
	}
	vnow := s.virt.Now()
	if !n.started {
		if sess.State() != netplay.StateRunning || !n.given {
			sess.Frame(now, 0, 0)        // the lobby's datagrams
			return FrameInfo{Percent: 1} // the lobby: draw, run nothing
		}
		// Tick 0 starts now: the wait in the lobby is not owed time.
		n.started = true
		m.f.Reset(vnow - n.offset)
		g.lastEnd = vnow
	}
	plan := m.f.Step(vnow - n.offset)
	// The input is sampled on the virtual clock: the ticks' spans, on
	// the loop's, are moved back onto it.
	g.plan, g.vnow = plan, vnow
	g.plan.Now += n.offset
	g.plan.SpanStart += n.offset
	n.corrected = false
	g.beginFrame()
	ran := sess.Frame(now, plan.Ticks, int(s.settings.MaxLoops))
	g.endFrame()
	sess.ReportLoad(plan.Debt) // its own slowness, what a kick for it weighs
	n.offset += sess.TimeSync()
	pct := plan.Percent
	if sess.Stats().Owed > 0 || sess.State() >= netplay.StateEnding {
		pct = 1 // stalled: the world is behind the clock; draw its latest state
	}
	return FrameInfo{Ticks: ran, Percent: pct, Capped: plan.Capped}
}

// TimeSync returns the frame advantage of a network game's peer (ticks
// its game is ahead of the game furthest behind, estimated; negative:
// behind) and the time its loop did not count to let the others catch up
// (netplay.Session.TimeSync); ok is false outside a network game's
// players.
func (s *Sim) TimeSync() (advantage float64, slowdown time.Duration, ok bool) {
	if s.net.sess == nil {
		return 0, 0, false
	}
	st := s.net.sess.Stats()
	return st.FrameAdvantage, st.Slowdown, true
}

// RollbackStats are the rollback netcode's counts.
type RollbackStats struct {
	Rollbacks        int64           // frames that restored a saved state
	Resimulated      int64           // ticks run again after a rollback
	MaxRollback      int             // the most ticks one rollback went back
	PredictionErrors int64           // remote inputs that differed from their prediction
	StallFrames      int64           // frames that could not run a tick they owed
	SnapshotBytes    int             // the memory of one snapshot
	ResimTime        stats.Histogram // time a frame spent restoring and re-simulating, frames that rolled back
}

// Rollback returns the rollback netcode's counts; ok is false with the
// other netcodes.
func (s *Sim) Rollback() (st RollbackStats, ok bool) {
	if s.net.sess == nil || !s.net.rollback {
		return st, false
	}
	ns := s.net.sess.Stats()
	st.Rollbacks, st.Resimulated, st.MaxRollback, st.PredictionErrors = ns.Rollbacks, ns.Resimulated, ns.MaxRollback, ns.PredictionErrors
	st.StallFrames = ns.StallFrames
	st.ResimTime = s.net.game.resimHist
	for i := range s.net.game.snaps {
		st.SnapshotBytes = max(st.SnapshotBytes, s.net.game.snaps[i].Bytes())
	}
	return st, true
}

// Misprediction reports where player p's ball was when the last frame
// found a misprediction (predicted) and where the corrected inputs put it
// at the same tick (corrected), in Q8 world units, for drawing the jump
// as a short glide or as ghosts; ok is false when the frame corrected
// nothing, or p has no ball.
func (s *Sim) Misprediction(p int) (predicted, corrected [2]int32, ok bool) {
	n := &s.net
	if !n.corrected || p < 0 || p >= s.players || p >= s.world.N() || p >= physics.MaxPlayers {
		return predicted, corrected, false
	}
	return n.game.before[p], n.game.after[p], true
}

// watchFrame is the fixed loop of a spectator: from the snapshot on, the
// ticks due that have arrived; a spectator behind the host catches up,
// MaxLoops ticks a frame.
func (s *Sim) watchFrame(m *fixedMode, now time.Duration) FrameInfo {
	n := &s.net
	s.modeLine = s.modeLine[:0]
	vnow := s.virt.Now()
	sp := n.spectator
	if !n.started {
		sp.Frame(now, 0, 0) // takes the snapshot once it is all here
		if st := sp.State(); st != netplay.StateRunning && st != netplay.StateEnding {
			return FrameInfo{Percent: 1}
		}
		n.started = true
		m.f.Reset(vnow)
	}
	plan := m.f.Step(vnow)
	ran := sp.Frame(now, plan.Ticks, int(s.settings.MaxLoops))
	pct := plan.Percent
	if st := sp.Stats(); ran < plan.Ticks || st.Confirmed > st.Tick+1 {
		pct = 1 // behind: draw the latest state
	}
	return FrameInfo{Ticks: ran, Percent: pct, Capped: plan.Capped}
}
