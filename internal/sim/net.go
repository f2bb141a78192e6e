package sim

import (
	"errors"
	"time"

	"github.com/interpdemo/interpdemo/internal/stats"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/physics"
)

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
	if errors.As(sess.Err(), &n.desync) {
		s.Quit(now) // a game that diverged is over for everyone
	}
	vnow := s.virt.Now()
	if !n.started {
		if sess.State() != netplay.StateRunning {
			return FrameInfo{Percent: 1} // the lobby: draw, run nothing
		}
		// Tick 0 starts now: the wait in the lobby is not owed time.
		n.started = true
		m.f.Reset(vnow - n.offset)
		g.lastEnd = vnow
	}
	plan := m.f.Step(vnow - n.offset)
	if plan.Capped {
		n.capped++
	}
	// The input is sampled on the virtual clock: the ticks' spans, on
	// the loop's, are moved back onto it.
	g.plan, g.vnow = plan, vnow
	g.plan.Now += n.offset
	g.plan.SpanStart += n.offset
	n.corrected = false
	g.beginFrame()
	ran := n.runner.Frame(now, plan.Ticks, int(s.settings.MaxLoops))
	g.endFrame()
	n.offset += n.runner.TimeSync()
	owed := n.runner.Owed()
	sess.ReportLoad(plan.Debt+time.Duration(owed)*plan.Tick, n.capped)
	pct := plan.Percent
	if owed > 0 || sess.Over() {
		pct = 1 // stalled: the world is behind the clock; draw its latest state
	}
	return FrameInfo{Ticks: ran, Percent: pct, Capped: plan.Capped}
}

// TimeSync returns the frame advantage of a network game's peer (ticks
// its game is ahead of the game furthest behind, estimated; negative:
// behind) and the time its loop did not count to let the others catch up
// (netplay.Runner.TimeSync); ok is false outside a network game's
// players.
func (s *Sim) TimeSync() (advantage float64, slowdown time.Duration, ok bool) {
	if s.net.runner == nil {
		return 0, 0, false
	}
	st := s.net.runner.Stats()
	return st.FrameAdvantage, st.Slowdown, true
}

// RollbackStats are the rollback netcode's counts.
type RollbackStats struct {
	netplay.RunnerStats
	SnapshotBytes int             // the memory of one snapshot
	ResimTime     stats.Histogram // time a frame spent restoring and re-simulating, frames that rolled back
}

// Rollback returns the rollback netcode's counts; ok is false with the
// other netcodes.
func (s *Sim) Rollback() (st RollbackStats, ok bool) {
	if s.net.runner == nil || !s.net.rollback {
		return st, false
	}
	st.RunnerStats = s.net.runner.Stats()
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
	if !n.watcher.Loaded() {
		n.watcher.Frame(now, 0, 0) // takes the snapshot once it is all here
		if !n.watcher.Loaded() {
			return FrameInfo{Percent: 1}
		}
		n.started = true
		m.f.Reset(vnow)
	}
	plan := m.f.Step(vnow)
	ran := n.watcher.Frame(now, plan.Ticks, int(s.settings.MaxLoops))
	pct := plan.Percent
	if ran < plan.Ticks || n.watcher.Behind() > 1 {
		pct = 1 // behind: draw the latest state
	}
	return FrameInfo{Ticks: ran, Percent: pct, Capped: plan.Capped}
}
