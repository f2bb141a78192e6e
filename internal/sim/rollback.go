package sim

import (
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/internal/stats"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/physics"
)

// DefaultMaxPrediction is how many ticks the rollback netcode may run
// ahead of the last tick whose inputs are all known (GGPO's default).
const DefaultMaxPrediction = 8

// MaxMaxPrediction bounds -max-prediction.
const MaxMaxPrediction = 60

// rollback is the state of the rollback netcode: the local player's input
// acts at once, a missing remote input is predicted as that player's last
// known one, and when a prediction proves wrong the world is restored to
// the tick it was made for and the ticks since are simulated again with
// the inputs now known, within the same frame.
type rollback struct {
	maxPred int
	// Rings indexed by tick % len: for every tick not yet confirmed, the
	// state before it (saved only when the tick ran on a prediction),
	// the records it ran with, the records before it (for "just
	// pressed"), which players were predicted, and the hash after it.
	snaps     []physics.Snapshot
	used      [][physics.MaxPlayers]input.Record
	prevs     [][physics.MaxPlayers]input.Record
	predicted []uint8
	hashes    []uint64

	rollbacks, resimulated, predictionErrors int64
	maxRollback                              int
	stallFrames                              int64
	// The last frame's correction: how far each player's ball jumped.
	corrected bool
	before    [physics.MaxPlayers][2]int32
	jump      [physics.MaxPlayers][2]int32
	resimTime stats.Histogram // per frame that rolled back
}

// RollbackStats are the rollback netcode's counts.
type RollbackStats struct {
	Rollbacks        int64           // frames that restored a snapshot
	Resimulated      int64           // ticks simulated again
	MaxRollback      int             // the most ticks one rollback went back
	PredictionErrors int64           // remote inputs that differed from their prediction
	SnapshotBytes    int             // the memory of one snapshot
	StallFrames      int64           // frames that could not run a tick: too far ahead of the inputs
	ResimTime        stats.Histogram // time a frame spent re-simulating, frames that rolled back
}

func newRollback(maxPred int) *rollback {
	n := maxPred + 2
	return &rollback{
		maxPred:   maxPred,
		snaps:     make([]physics.Snapshot, n),
		used:      make([][physics.MaxPlayers]input.Record, n),
		prevs:     make([][physics.MaxPlayers]input.Record, n),
		predicted: make([]uint8, n),
		hashes:    make([]uint64, n),
	}
}

func (r *rollback) slot(t uint64) int { return int(t % uint64(len(r.snaps))) }

// Rollback returns the rollback netcode's counts; ok is false with the
// other netcodes.
func (s *Sim) Rollback() (st RollbackStats, ok bool) {
	r := s.net.rb
	if r == nil {
		return st, false
	}
	st = RollbackStats{
		Rollbacks: r.rollbacks, Resimulated: r.resimulated, MaxRollback: r.maxRollback,
		PredictionErrors: r.predictionErrors, StallFrames: r.stallFrames, ResimTime: r.resimTime,
	}
	for i := range r.snaps {
		st.SnapshotBytes = max(st.SnapshotBytes, r.snaps[i].Bytes())
	}
	return st, true
}

// Misprediction reports where player p's ball was when the last frame
// found a misprediction (predicted) and where the corrected inputs put it
// at the same tick (corrected), in Q8 world units, for drawing the jump
// as a short glide or as ghosts; ok is false when the frame corrected
// nothing, or p has no ball.
func (s *Sim) Misprediction(p int) (predicted, corrected [2]int32, ok bool) {
	r := s.net.rb
	if r == nil || !r.corrected || p < 0 || p >= s.players || p >= s.world.N() {
		return predicted, corrected, false
	}
	return r.before[p], [2]int32{r.before[p][0] + r.jump[p][0], r.before[p][1] + r.jump[p][1]}, true
}

// inputsFor fills recs with every player's record for tick t: known, zero
// for a kicked player, or predicted (the player's last known record,
// held, with no new press or release). It returns the players predicted.
func (s *Sim) inputsFor(t uint64, recs []input.Record) (predicted uint8) {
	sess := s.net.sess
	for p := range recs {
		if in, ok := sess.Input(p, t); ok {
			recs[p] = DecodeInput(in)
			continue
		}
		predicted |= 1 << p
		recs[p] = input.Record{}
		if _, last, ok := sess.LastInput(p); ok {
			recs[p] = input.Record{Held: DecodeInput(last).Held}
		}
	}
	return predicted
}

// simTick runs tick t (the world's next) with recs, keeping what a
// rollback needs.
func (s *Sim) simTick(t uint64, recs []input.Record, predicted uint8) {
	r := s.net.rb
	i := r.slot(t)
	if predicted != 0 {
		s.world.Save(&r.snaps[i])
	}
	copy(r.prevs[i][:], s.prevs[:])
	copy(r.used[i][:], recs)
	r.predicted[i] = predicted
	for p := range recs {
		if s.net.sess.Autonomous(p, t) && s.world.Players()&(1<<p) != 0 {
			s.world.Release(p) // deterministic: every peer does it at this tick
		}
	}
	s.stepPlayers(recs)
	if (t+1)%netplay.HashEvery == 0 {
		r.hashes[r.slot(t+1)] = s.world.Hash()
	}
}

// stepPlayers steps the world one tick with every player's record.
func (s *Sim) stepPlayers(recs []input.Record) {
	ctls := s.ctls[:len(recs)]
	for i, rec := range recs {
		ctls[i] = control(rec, s.prevs[i])
	}
	s.world.TickPlayers(ctls)
	copy(s.prevs[:], recs)
}

// rollbackFrame is the fixed loop of a rollback network game.
func (s *Sim) rollbackFrame(m *fixedMode, now time.Duration) FrameInfo {
	n := &s.net
	sess, r := n.sess, n.rb
	s.modeLine = s.modeLine[:0]
	vnow := s.virt.Now()
	if !n.started {
		if sess.State() != netplay.StateRunning {
			return FrameInfo{Percent: 1}
		}
		n.started = true
		m.f.Reset(vnow)
		n.lastEnd = vnow
	}
	recs := s.recs[:s.players]
	if sess.Over() && !n.settled {
		// The game is over: its result is the confirmed game. Ticks run
		// on predictions past the last confirmed one are undone.
		n.settled = true
		if c := sess.NextTick(); s.world.Ticks() > c {
			i := r.slot(c)
			s.world.Restore(&r.snaps[i])
			copy(s.prevs[:], r.prevs[i][:])
		}
	}
	if n.settled {
		s.recordConfirmed()
		return FrameInfo{Percent: 1}
	}

	// 1. Corrections: the earliest tick that ran on a prediction the
	// inputs that arrived since contradict. Restore the state before it
	// and simulate again up to where the world was.
	head := s.world.Ticks()
	from := max(sess.NextTick(), head-min(head, uint64(len(r.snaps)-1)))
	bad, found := uint64(0), false
	for t := from; t < head && !found; t++ {
		i := r.slot(t)
		for p := range recs {
			if r.predicted[i]&(1<<p) == 0 {
				continue
			}
			if in, ok := sess.Input(p, t); ok && DecodeInput(in) != r.used[i][p] {
				r.predictionErrors++
				bad, found = t, true
			}
		}
	}
	r.corrected = false
	if found {
		t0 := s.clock.Now()
		balls := min(len(recs), s.world.N())
		for p := 0; p < balls; p++ {
			r.before[p] = [2]int32{s.world.Next[2*p], s.world.Next[2*p+1]}
		}
		i := r.slot(bad)
		s.world.Restore(&r.snaps[i])
		copy(s.prevs[:], r.prevs[i][:])
		for t := bad; t < head; t++ {
			s.simTick(t, recs, s.inputsFor(t, recs))
		}
		r.jump = [physics.MaxPlayers][2]int32{}
		for p := 0; p < min(balls, s.world.N()); p++ { // a player without a ball has nothing to draw
			r.jump[p] = [2]int32{s.world.Next[2*p] - r.before[p][0], s.world.Next[2*p+1] - r.before[p][1]}
		}
		r.corrected = true
		r.rollbacks++
		r.resimulated += int64(head - bad)
		r.maxRollback = max(r.maxRollback, int(head-bad))
		r.resimTime.Add(s.clock.Now() - t0)
	}

	// 2. Confirm: the session moves over the ticks whose inputs are all
	// known, comparing state hashes on them only.
	for sess.NextTick() < head && sess.Ready(sess.NextTick()) {
		if _, ok := sess.Next(now, n.inputs[:0]); !ok {
			break
		}
		t := sess.NextTick()
		if err := sess.Advance(func() uint64 { return r.hashes[r.slot(t+1)] }); err != nil {
			break
		}
	}

	// 3. New ticks: as many as the clock owes, at most MaxLoops, and no
	// more than maxPred ahead of the confirmed inputs.
	plan := m.f.Step(vnow)
	if plan.Capped {
		n.capped++
	}
	n.owed += int64(plan.Ticks)
	ran := 0
	for maxLoops := int(s.settings.MaxLoops); n.owed > 0 && ran < maxLoops; ran++ {
		t := s.world.Ticks()
		if t >= sess.Confirmed()+uint64(r.maxPred) {
			r.stallFrames++
			break // too far ahead of what is known: wait, as lockstep would
		}
		if sess.Over() || (sess.TickLimit() > 0 && t >= sess.TickLimit()) {
			break
		}
		for sess.InputTick() <= t+uint64(sess.Delay()) {
			if !s.addLocalInput(plan, ran, vnow) {
				break
			}
		}
		if sess.InputTick() <= t {
			break // our own input for t could not be given: the window is full
		}
		s.simTick(t, recs, s.inputsFor(t, recs))
		s.ticks++
		s.burn()
		n.owed--
	}
	// The recording holds confirmed ticks only: the game as it was.
	s.recordConfirmed()
	debt := plan.Debt + time.Duration(n.owed)*plan.Tick
	sess.ReportLoad(debt, n.capped)
	pct := plan.Percent
	if n.owed > 0 {
		pct = 1
	}
	return FrameInfo{Ticks: ran, Percent: pct, Capped: plan.Capped}
}

// recordConfirmed records the ticks the session has confirmed since the
// last frame, with the records they ran with (all known, so final).
func (s *Sim) recordConfirmed() {
	if s.rec == nil {
		return
	}
	r := s.net.rb
	for s.net.recorded < s.net.sess.NextTick() {
		t := s.net.recorded
		i := r.slot(t)
		recs := r.used[i][:s.players]
		s.rec.TickPlayers(recs, func() uint64 { return r.hashes[r.slot(t+1)] })
		s.net.recorded++
	}
}
