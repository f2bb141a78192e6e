package netplay

import "time"

// Time sync: a peer whose game runs ahead of another's (it started later
// than the others, its machine stalled, its clock runs fast) slows its
// loop down a little until they are level again, instead of running on
// predictions at the prediction limit (rollback) or stalling for late
// inputs (lockstep) for the rest of the game. GGPO and GGRS call the lead
// the frame advantage.
//
// Every game packet carries the sender's head: the ticks its game has
// run, predicted ones included. A peer estimates where another player's
// game is now (Session.headAt) as that head plus the ticks that player's
// loop ran since it sent it: half a round trip, and the time since the
// report arrived. Its frame advantage over that player is its own head
// less the estimate, smoothed over about half a second of frames; the
// Runner keeps the largest over the players, and while it is above half a
// tick asks the loop (Runner.TimeSync) to count a little less of each
// frame's time, at most MaxSlowdown of it. Nobody is asked to hurry: the
// peer behind does not know whether the one ahead is ahead, and a loop
// that runs more ticks than its clock owes would run them in bursts.
//
// Only the pacing of the wall clock changes: which ticks run, and with
// which inputs, does not, so the game stays deterministic.
//
// The estimate errs, when its data is old, towards the other player being
// further along (the time since the report keeps adding to it): a player
// gone silent, or whose packets are late, makes nobody wait.

// maxSlowdown is the most of a frame's elapsed time that Runner.TimeSync
// asks the loop not to count: a peer ahead runs at 97 % of real time at
// the slowest while it waits for the others, which makes up a clock that
// runs up to 3 % fast, or a lead of one tick (20 ms at 50 ticks a second)
// in under a second.
const maxSlowdown = 0.03

const (
	// syncFrom is the frame advantage, in ticks, above which the loop is
	// slowed down; the slowdown grows linearly from 0 there to
	// MaxSlowdown at syncFull ticks (a 2 % fast clock settles at two
	// thirds of a tick). Below half a tick the heads' own
	// granularity and the network's jitter are all there is to see.
	syncFrom = 0.5
	syncFull = 0.75
	// syncSmoothing is the time constant of the frame advantage's
	// moving average.
	syncSmoothing = 500 * time.Millisecond
)

// ranTicks is the local game's head: the ticks it has run, predicted
// ones included, as the Runner last said; the session's own ticks without
// one. The game packets carry it.
func (s *session) ranTicks() uint64 { return max(s.next, s.head) }

// headAt estimates where player q's game is at now, in ticks of length
// tick (fractional): its head as last reported, plus what its loop has
// run since it sent that report, which is half a round trip and the time
// since the report arrived. A joiner hears another joiner's head through
// the host (Game packet: the host's peers section): the estimate then
// adds both halves of the relay's round trips and the time the host held
// the report. ok is false for the local player, a player out of the game
// (kicked, its game over), and before a report and a round trip are at
// hand.
func (s *session) headAt(q int, now, tick time.Duration) (head float64, ok bool) {
	if q < 0 || q >= s.players || q == s.index || s.kckd[q] || tick <= 0 || s.state != StateRunning {
		return 0, false
	}
	us := func(x uint64) time.Duration { return time.Duration(x) * time.Microsecond }
	var reported uint64
	var since time.Duration
	if s.role == roleHost || q == 0 {
		r := &s.peers[q]
		if (s.role == roleHost && !s.active(q)) || r.ended || !r.tickSet || !r.rttSet {
			return 0, false
		}
		reported, since = r.tick, us(r.rttUs)/2+now-r.tickAt
	} else {
		h, in := &s.peers[0], &s.info[q]
		if h.ended || !h.rttSet || in.rttUs == 0 || !h.tickSet {
			return 0, false
		}
		reported = in.tick
		since = us(in.rttUs)/2 + us(in.ageUs) + us(h.rttUs)/2 + now - s.infoAt
	}
	return float64(reported) + float64(since)/float64(tick), true
}

// TimeSync is how much of this frame's elapsed time (since the previous
// Frame) the caller's loop should not count, so that this peer, ahead of
// another player's game by more than half a tick, falls back towards it:
// at most MaxSlowdown of the elapsed time, and never more than the lead
// beyond half a tick; 0 while no peer is behind, and always 0 without
// RunnerConfig.Tick. Keep an offset and add TimeSync to it after each
// Frame; the fixed-step loop takes the clock less the offset:
//
//	now := clock.Now()
//	fr := fixed.Step(now - offset)
//	runner.Frame(now, fr.Ticks, maxLoops)
//	offset += runner.TimeSync()
//
// It changes when ticks run, never which run or with what inputs.
func (r *runner) TimeSync() time.Duration { return r.slow }

// timeSync measures the frame advantage after the frame's ticks at now,
// elapsed after the previous frame, and decides this frame's slowdown.
func (r *runner) timeSync(now, elapsed time.Duration) {
	r.slow = 0
	if r.tickLen <= 0 {
		return
	}
	s := r.s
	k := min(1, max(float64(elapsed), 0)/float64(syncSmoothing))
	lead, measured := 0.0, false
	for q := range s.players {
		est, ok := s.headAt(q, now, r.tickLen)
		if !ok {
			r.advSet[q] = false
			continue
		}
		raw := float64(r.head) - est
		if r.advSet[q] {
			r.adv[q] += (raw - r.adv[q]) * k
		} else {
			r.adv[q], r.advSet[q] = raw, true
		}
		if !measured || r.adv[q] > lead {
			lead, measured = r.adv[q], true
		}
	}
	if measured {
		r.st.FrameAdvantage = lead
		r.slow = slowdown(lead, elapsed, r.tickLen)
		r.st.Slowdown += r.slow
	}
}

// slowdown is the part of a frame's elapsed time the loop should not
// count with a lead of that many ticks of length tick.
func slowdown(lead float64, elapsed, tick time.Duration) time.Duration {
	if !(lead > syncFrom) || elapsed <= 0 {
		return 0
	}
	frac := maxSlowdown * min(1, (lead-syncFrom)/(syncFull-syncFrom))
	d := min(float64(elapsed)*frac, (lead-syncFrom)*float64(tick))
	return max(time.Duration(d), 0)
}
