package sim

import (
	"errors"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/replay"
)

// netFrame is the fixed loop of a lockstep network game: the clock says
// how many ticks are due, the session says which of them can run (every
// player's input for the tick is known). The ticks that cannot run stay
// owed, the time debt is kept, and the frame draws the last state; once
// the inputs arrive the loop catches up, at most MaxLoops ticks a frame,
// as the interp_demo article's network game does.
func (s *Sim) netFrame(m *fixedMode, now time.Duration) FrameInfo {
	n := &s.net
	sess := n.sess
	s.modeLine = s.modeLine[:0]
	var desync *netplay.DesyncError
	if errors.As(sess.Err(), &desync) {
		s.Quit(now) // a game that diverged is over for everyone
	}
	vnow := s.virt.Now()
	if !n.started {
		if sess.State() != netplay.StateRunning {
			return FrameInfo{Percent: 1} // the lobby: draw, run nothing
		}
		// Tick 0 starts now: the wait in the lobby is not owed time.
		n.started = true
		m.f.Reset(vnow)
		n.lastEnd = vnow
	}
	plan := m.f.Step(vnow)
	if plan.Capped {
		n.capped++
	}
	n.owed += int64(plan.Ticks)
	ran := 0
	for maxLoops := int(s.settings.MaxLoops); n.owed > 0 && ran < maxLoops; ran++ {
		t := sess.NextTick()
		if sess.NeedInput() && !s.addLocalInput(plan, ran, vnow) {
			break // the input window is full: stall
		}
		inputs, ok := sess.Next(now, n.inputs[:0])
		if !ok {
			break // an input is missing: stall, the debt is kept
		}
		recs := s.decodeInputs(inputs)
		for p := range recs {
			if sess.Autonomous(p, t) && s.world.Players()&(1<<p) != 0 {
				c := replay.Command{Kind: replay.CmdRelease, Arg: int64(p)}
				if s.exec(c) == nil && s.rec != nil {
					s.rec.Command(c)
				}
			}
		}
		s.runTick(recs)
		if err := sess.Advance(s.world.Hash); err != nil {
			break
		}
		n.owed--
	}
	debt := plan.Debt + time.Duration(n.owed)*plan.Tick
	sess.ReportLoad(debt, n.capped)
	pct := plan.Percent
	if n.owed > 0 {
		pct = 1 // stalled: the world is behind the clock; draw its latest state
	}
	return FrameInfo{Ticks: ran, Percent: pct, Capped: plan.Capped}
}

// addLocalInput gives the session the local player's input for its
// InputTick: the bot's, or the keyboard's over the span of the j-th tick
// of the frame (the frame's time for ticks owed from earlier frames). It
// reports false when the session's window is full; the record is kept
// for the next frame.
func (s *Sim) addLocalInput(plan loop.FixedFrame, j int, vnow time.Duration) bool {
	n := &s.net
	sess := n.sess
	if n.pending == nil {
		var rec input.Record
		switch {
		case n.bot:
			// The bot holds still for the first ticks, whatever the
			// netcode, so that lockstep and rollback play the same game.
			rec = BotInput(n.botSeed, uint64(max(netplay.DefaultDelay, sess.Delay())), sess.InputTick())
		default:
			end := vnow
			if j < plan.Ticks {
				end = plan.Span(j).End
			}
			end = max(end, n.lastEnd)
			n.lastEnd = end
			rec = s.sampler.Tick(end)
		}
		n.held = rec
		n.pending = &n.held
	}
	EncodeInput(n.wire[:], *n.pending)
	if err := sess.AddLocalInput(sess.InputTick(), n.wire[:]); err != nil {
		return false
	}
	n.pending = nil
	return true
}

// decodeInputs decodes a tick's inputs from the session into s.recs.
func (s *Sim) decodeInputs(inputs [][]byte) []input.Record {
	recs := s.recs[:len(inputs)]
	for p, in := range inputs {
		recs[p] = DecodeInput(in)
	}
	return recs
}
