package netplay

import (
	"math"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// ---- The estimator ----

// A player's head is estimated from its last report: the head it sent,
// plus the ticks its loop ran since it sent it (half the round trip and
// the time since the report arrived); between two joiners, through the
// host: both halves of the two round trips and the time the host held
// the report. Nothing is estimated for the local player, a kicked player,
// one whose game is over, or without a round trip.
func TestHeadEstimate(t *testing.T) {
	const tick = 40 * ms
	// The host, with joiners 1 and 2.
	host := &session{role: roleHost, state: StateRunning, players: 3, index: 0}
	host.peers[1] = peer{used: true, confirmed: true, tick: 100, tickAt: 10 * time.Second, tickSet: true, rttUs: 80_000, rttSet: true}
	host.peers[2] = peer{used: true, confirmed: true, tick: 90, tickAt: 10 * time.Second, tickSet: true, rttUs: 80_000}
	// Joiner 1: the host's head 200 arrived at 20 s over a 60 ms round
	// trip; the host relayed joiner 2's head 198, which it had held 10 ms,
	// with its 100 ms round trip to joiner 2.
	join := &session{role: roleJoiner, state: StateRunning, players: 3, index: 1}
	join.peers[0] = peer{tick: 200, tickAt: 20 * time.Second, tickSet: true, rttUs: 60_000, rttSet: true}
	join.info[2] = peerInfo{tick: 198, rttUs: 100_000, ageUs: 10_000}
	join.infoAt = 20 * time.Second

	for _, c := range []struct {
		name string
		s    *session
		q    int
		now  time.Duration
		want float64
		ok   bool
	}{
		// 100 + (40 ms + 100 ms) / 40 ms
		{"host: joiner 1, 100 ms after", host, 1, 10*time.Second + 100*ms, 103.5, true},
		{"host: joiner 1, at once", host, 1, 10 * time.Second, 101, true},
		{"host: joiner 2 without a round trip", host, 2, 10 * time.Second, 0, false},
		{"host: itself", host, 0, 10 * time.Second, 0, false},
		// 200 + (30 ms + 50 ms) / 40 ms
		{"joiner: the host", join, 0, 20*time.Second + 50*ms, 202, true},
		// 198 + (50 ms + 10 ms + 30 ms + 30 ms) / 40 ms
		{"joiner: joiner 2 through the host", join, 2, 20*time.Second + 30*ms, 201, true},
		{"joiner: itself", join, 1, 20 * time.Second, 0, false},
	} {
		got, ok := c.s.headAt(c.q, c.now, tick)
		if ok != c.ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %v %v, want %v %v", c.name, got, ok, c.want, c.ok)
		}
	}
	host.kckd[1] = true
	if _, ok := host.headAt(1, 10*time.Second, tick); ok {
		t.Errorf("a kicked player's head estimated")
	}
	join.peers[0].ended = true
	if _, ok := join.headAt(0, 20*time.Second, tick); ok {
		t.Errorf("the head of a host whose game is over estimated")
	}
	// The host relays a head it has not heard yet as 2^32-1 µs old: the
	// player seems far ahead, and nobody waits for it.
	join.peers[0].ended = false
	join.info[2].ageUs = 1<<32 - 1
	if h, ok := join.headAt(2, 20*time.Second, tick); !ok || h < 198+100_000 {
		t.Errorf("a head the host never heard: estimated %v, %v", h, ok)
	}
}

// The slowdown asked for a frame: 0 while the lead is half a tick or less
// (or the peer is behind); never more than MaxSlowdown of the frame's
// elapsed time, nor the lead beyond half a tick; growing with the lead up
// to MaxSlowdown from one tick on.
func TestTimeSyncBounded(t *testing.T) {
	const tick = 20 * ms
	rng := uint64(9)
	for i := range 100000 {
		rng = mix64(rng)
		lead := float64(int64(rng%4000)-1000) / 500 // -2 to 6 ticks
		elapsed := time.Duration(mix64(rng)%uint64(3*time.Second)) + 1
		if i%10 == 0 {
			elapsed = time.Duration(mix64(rng) % uint64(20*ms))
		}
		d := slowdown(lead, elapsed, tick)
		switch {
		case d < 0 || float64(d) > maxSlowdown*float64(elapsed)+1:
			t.Fatalf("lead %.3f ticks, elapsed %v: slowdown %v, more than %v%% of it", lead, elapsed, d, maxSlowdown*100)
		case lead <= syncFrom && d != 0:
			t.Fatalf("lead %.3f ticks (behind, or within half a tick), elapsed %v: slowdown %v", lead, elapsed, d)
		case lead > syncFrom && float64(d) > (lead-syncFrom)*float64(tick)+1:
			t.Fatalf("lead %.3f ticks, elapsed %v: slowdown %v, more than the lead beyond half a tick", lead, elapsed, d)
		case lead >= syncFull && elapsed < 100*ms && d != time.Duration(maxSlowdown*float64(elapsed)):
			t.Fatalf("lead %.3f ticks, elapsed %v: slowdown %v, want the most, %v%%", lead, elapsed, d, maxSlowdown*100)
		}
		if lead > syncFrom && lead < syncFull {
			if d2 := slowdown(lead+0.01, elapsed, tick); d2 < d {
				t.Fatalf("elapsed %v: lead %.3f slows down %v, lead %.3f less, %v", elapsed, lead, d, lead+0.01, d2)
			}
		}
	}
}

// ---- The measurement: a clock that runs 2 % fast ----

// position is where the peer's game is at the simulation's time, in
// ticks: where its loop's clock says it is (less what time sync did not
// count), less the ticks it owes. It is the head, between two ticks, as
// if the game ran continuously.
func (p *rpeer) position() float64 {
	if !p.started {
		return 0
	}
	at := p.clock(p.rig.now) - p.start - p.offset
	return float64(at)/float64(p.rig.tick) - float64(p.r.Owed())
}

// tsFigures are what one peer did over a stretch of a game.
type tsFigures struct {
	seconds     float64
	frames      int64
	rollbacks   int64
	resimulated int64
	stalls      int64
	atLimit     int // frames that ended MaxPrediction ticks past Confirmed
	slowdown    time.Duration
}

func (f tsFigures) perSecond(x int64) float64 { return float64(x) / f.seconds }

// tsRun is one game of the measurement: its peers' figures over the
// measured stretch, and, every step of it, the fast peer's lead over the
// host (the true one, from the heads, and the Runner's estimate).
type tsRun struct {
	rg                   *rig
	peers                []tsFigures
	trueLead, estimated  []float64
	meanTrue, meanEst    float64
	maxAbsEst, maxAbsTru float64
}

// runTimeSync plays a game of two players with netcode nc and input
// delay over a path of 60 ms each way, the joiner's clock running 2 %
// fast, and measures from 30 s to 60 s; the game then ends at its tick
// limit.
func runTimeSync(t *testing.T, nc Netcode, delay int, sync bool, input func(p int, delay, t uint64) trec) *tsRun {
	t.Helper()
	const (
		measureFrom = 30 * time.Second
		measureTo   = 60 * time.Second
		limit       = 1700 // ticks: 68 s at 25 ticks a second
	)
	const players = 2
	rg := newRig(t, rigConfig{
		players: players, netcode: nc, delay: delay, seed: 41, tickLimit: limit,
		confirmer: true, timeSync: sync, input: input,
		cond: netsim.Conditions{Delay: 60 * ms, Jitter: 2 * ms},
	})
	fast := rg.peers[players-1]
	fast.ppm = 20_000
	host := rg.peers[0]
	type snap struct {
		st     runnerStats
		frames int64
		limit  int
	}
	frames := make([]int64, players)
	take := func() []snap {
		out := make([]snap, players)
		for i, p := range rg.peers {
			out[i] = snap{p.r.Stats(), frames[i], p.leads[p.r.maxPred]}
		}
		return out
	}
	var before []snap
	run := &tsRun{rg: rg}
	for rg.now < measureTo {
		if before == nil && rg.now >= measureFrom {
			before = take()
		}
		var nexts [players]time.Duration
		for i, p := range rg.peers {
			nexts[i] = p.next
		}
		rg.step()
		for i, p := range rg.peers {
			if p.next != nexts[i] { // it ran a frame
				frames[i]++
			}
		}
		if before != nil {
			lead := fast.position() - host.position()
			est := fast.r.Stats().FrameAdvantage
			run.trueLead = append(run.trueLead, lead)
			run.estimated = append(run.estimated, est)
		}
	}
	after := take()
	for i := range rg.peers {
		b, a := before[i], after[i]
		run.peers = append(run.peers, tsFigures{
			seconds:     (measureTo - measureFrom).Seconds(),
			frames:      a.frames - b.frames,
			rollbacks:   a.st.Rollbacks - b.st.Rollbacks,
			resimulated: a.st.Resimulated - b.st.Resimulated,
			stalls:      a.st.StallFrames - b.st.StallFrames,
			atLimit:     a.limit - b.limit,
			slowdown:    a.st.Slowdown,
		})
	}
	for i := range run.trueLead {
		run.meanTrue += run.trueLead[i] / float64(len(run.trueLead))
		run.meanEst += run.estimated[i] / float64(len(run.estimated))
		run.maxAbsTru = max(run.maxAbsTru, math.Abs(run.trueLead[i]))
		run.maxAbsEst = max(run.maxAbsEst, math.Abs(run.estimated[i]))
	}
	// The game goes on to its tick limit, and every peer ends in the
	// reference's state.
	rg.run(3 * time.Minute)
	for _, p := range rg.peers {
		if err := p.s.Err(); err != nil || p.s.NextTick() != limit {
			t.Errorf("time sync %v, %s: ended at tick %d, err %v", sync, p.name, p.s.NextTick(), err)
		}
		rg.checkEnd(p)
	}
	return run
}

// A peer whose clock runs 2 % fast, in a rollback game over a path of
// 60 ms each way (25 ticks a second: 1.5 ticks). Without time sync its
// game runs ahead until it reaches the prediction limit (8 ticks past
// the confirmed ones, after about 15 s), and stays there: it stalls on
// most frames, and every rollback goes back the whole 8 ticks. With time
// sync it slows down to the host's pace: its lead stays under a tick,
// its stalls vanish, and its rollbacks go back about 2 ticks. Both games
// end in the reference's state.
func TestTimeSyncFastClock(t *testing.T) {
	// The players' bots hold an input for 4 ticks and idle a quarter of
	// the time; in the busy game the host's input changes every tick,
	// so that every prediction of it is wrong.
	busy := func(p int, delay, t uint64) trec {
		if p == 0 {
			return trec{byte(t), byte(t >> 8), 7}
		}
		return rigBot(p, delay, t)
	}
	for _, c := range []struct {
		name  string
		input func(p int, delay, t uint64) trec
	}{{"bots", nil}, {"busy host", busy}} {
		off := runTimeSync(t, Rollback, noDelay, false, c.input)
		on := runTimeSync(t, Rollback, noDelay, true, c.input)
		checkTimeSync(t, c.name, off, on)
	}
}

// In lockstep with an input delay of 3 ticks (120 ms, the one-way path
// 60 ms), the fast peer without time sync runs out of the host's inputs
// and stalls for them on most frames, its game 1.5 ticks ahead of the
// host's; with time sync it slows down to the host's pace instead, and
// stalls far less.
func TestTimeSyncFastClockLockstep(t *testing.T) {
	off := runTimeSync(t, Lockstep, 3, false, nil)
	on := runTimeSync(t, Lockstep, 3, true, nil)
	for _, r := range []struct {
		name string
		run  *tsRun
	}{{"without time sync", off}, {"with time sync", on}} {
		for i, f := range r.run.peers {
			t.Logf("lockstep, %s, %s: %.1f stall frames/s of %.1f frames/s, slowdown %v in all; lead %.2f ticks on average, estimated %.2f",
				r.name, r.run.rg.peers[i].name, f.perSecond(f.stalls), f.perSecond(f.frames), f.slowdown.Round(ms), r.run.meanTrue, r.run.meanEst)
		}
	}
	fOff, fOn := off.peers[1], on.peers[1]
	if fOff.stalls < fOff.frames/2 || off.meanTrue < 1 {
		t.Errorf("without time sync the fast peer did not stall on most frames: %+v, lead %.2f", fOff, off.meanTrue)
	}
	if fOn.stalls*4 >= fOff.stalls || on.maxAbsEst >= 1 || math.Abs(on.meanTrue) >= 1 {
		t.Errorf("with time sync: %+v, lead %.2f ticks (estimated up to |%.2f|); without %+v", fOn, on.meanTrue, on.maxAbsEst, fOff)
	}
}

func checkTimeSync(t *testing.T, game string, off, on *tsRun) {
	t.Helper()
	for _, r := range []struct {
		name string
		run  *tsRun
	}{{"without time sync", off}, {"with time sync", on}} {
		for i, f := range r.run.peers {
			p := r.run.rg.peers[i]
			t.Logf("%s, %s, %s (clock +%.0f %%): %.1f rollbacks/s, %.1f resimulated ticks/s (%.2f a rollback), %.1f stall frames/s, %.0f %% of frames at the prediction limit, slowdown %v in all",
				game, r.name, p.name, float64(p.ppm)/1e4, f.perSecond(f.rollbacks), f.perSecond(f.resimulated),
				float64(f.resimulated)/max(float64(f.rollbacks), 1), f.perSecond(f.stalls),
				100*float64(f.atLimit)/float64(max(f.frames, 1)), f.slowdown.Round(ms))
		}
		t.Logf("%s, %s: the fast peer's lead over the host from 30 s to 60 s: %.2f ticks on average (largest %.2f), estimated %.2f (largest |%.2f|)",
			game, r.name, r.run.meanTrue, r.run.maxAbsTru, r.run.meanEst, r.run.maxAbsEst)
	}
	fOff, fOn := off.peers[1], on.peers[1]
	// Without time sync: at the prediction limit, stalled on most frames,
	// its game 8 ticks past the confirmed ones, which is 6.5 ahead of the
	// host's (the host's input takes 1.5 ticks to come).
	if fOff.atLimit < int(fOff.frames)/2 || fOff.stalls < fOff.frames/2 || off.meanTrue < 5 {
		t.Errorf("%s: without time sync the fast peer was not held at the prediction limit: %+v, lead %.2f ticks", game, fOff, off.meanTrue)
	}
	// With time sync: level with the host, by the estimate and in truth.
	if on.maxAbsEst >= 1 || math.Abs(on.meanTrue) >= 1 {
		t.Errorf("%s: with time sync the fast peer's lead did not converge: estimated up to |%.2f| ticks, %.2f on average", game, on.maxAbsEst, on.meanTrue)
	}
	if d := math.Abs(on.meanEst - on.meanTrue); d > 0.3 {
		t.Errorf("%s: the frame advantage was estimated %.2f ticks on average, the clocks say %.2f", game, on.meanEst, on.meanTrue)
	}
	if fOn.resimulated*2 >= fOff.resimulated || fOn.stalls*10 >= fOff.stalls || fOn.atLimit != 0 {
		t.Errorf("%s: with time sync %.1f resimulated ticks/s and %.1f stall frames/s, without %.1f and %.1f: want less than a half and a tenth",
			game, fOn.perSecond(fOn.resimulated), fOn.perSecond(fOn.stalls), fOff.perSecond(fOff.resimulated), fOff.perSecond(fOff.stalls))
	}
	// The slowdown made up the clock's 2 % (1.2 s of the 60 s), and the
	// host, behind, was asked for next to nothing.
	if s := on.peers[1].slowdown; s < 1*time.Second || s > 2*time.Second {
		t.Errorf("%s: the fast peer slowed down %v in 60 s, want about 1.2 s (2 %%)", game, s)
	}
	if s := on.peers[0].slowdown; s > 100*ms {
		t.Errorf("%s: the host slowed down %v", game, s)
	}
}

// Three players, the clock of joiner 2 running 2 % fast: every peer's
// estimate of every other player's game, joiner 1's of joiner 2's
// through the host included, is right to a fraction of a tick on
// average, and time sync brings the fast joiner level with the others.
func TestTimeSyncThreePlayers(t *testing.T) {
	rg := newRig(t, rigConfig{
		players: 3, netcode: Rollback, delay: noDelay, seed: 43, tickLimit: 1200,
		confirmer: true, timeSync: true,
		cond: netsim.Conditions{Delay: 60 * ms, Jitter: 2 * ms},
	})
	rg.peers[2].ppm = 20_000
	var sum, n [3][3]float64
	var lead [3]float64 // the fast joiner's over each peer, summed
	steps := 0.0
	for rg.now < 45*time.Second {
		rg.step()
		if rg.now < 15*time.Second {
			continue
		}
		steps++
		for i, p := range rg.peers {
			lead[i] += rg.peers[2].position() - p.position()
			for q, o := range rg.peers {
				if q != i && p.r.advSet[q] {
					sum[i][q] += p.r.adv[q] - (p.position() - o.position())
					n[i][q]++
				}
			}
		}
	}
	for i, p := range rg.peers {
		for q := range rg.peers {
			if q == i {
				continue
			}
			if n[i][q] < steps/2 {
				t.Errorf("%s estimated player %d's game on %.0f of %.0f steps", p.name, q, n[i][q], steps)
				continue
			}
			bias := sum[i][q] / n[i][q]
			t.Logf("%s's frame advantage over player %d: %+.2f ticks off the clocks' on average", p.name, q, bias)
			if math.Abs(bias) > 0.3 {
				t.Errorf("%s's frame advantage over player %d is %.2f ticks off the clocks' on average", p.name, q, bias)
			}
		}
		if i != 2 {
			l := lead[i] / steps
			t.Logf("the fast joiner's lead over %s: %.2f ticks on average", p.name, l)
			if math.Abs(l) >= 1 {
				t.Errorf("the fast joiner's lead over %s: %.2f ticks on average", p.name, l)
			}
		}
	}
	rg.run(3 * time.Minute)
	for _, p := range rg.peers {
		rg.checkEnd(p)
	}
}

// The documented curve, in numbers rather than the code's constants: no
// slowdown up to half a tick of lead (the jitter of the estimates), then
// rising linearly to MaxSlowdown (3 %) at three quarters of a tick, and
// never more than the lead beyond half a tick.
func TestSlowdownCurveInNumbers(t *testing.T) {
	const tick, frame = 40 * ms, 100 * ms
	for _, c := range []struct {
		lead float64
		want time.Duration
	}{
		{-3, 0}, {0, 0}, {0.25, 0}, {0.3, 0}, {0.45, 0}, {0.5, 0},
		{0.625, 1500 * time.Microsecond}, // half of 3 % of 100 ms
		{0.75, 3 * ms}, {2, 3 * ms},      // 3 % of the frame
	} {
		if got := slowdown(c.lead, frame, tick); got < c.want-time.Microsecond || got > c.want+time.Microsecond {
			t.Errorf("lead %v ticks: slowdown %v, want %v", c.lead, got, c.want)
		}
	}
	// Bounded by the lead beyond half a tick: 0.01 tick of 40 ms.
	if got := slowdown(0.51, time.Second, tick); got > 400*time.Microsecond+time.Microsecond {
		t.Errorf("lead 0.51 over a 1 s frame: slowdown %v, more than the lead beyond half a tick (400µs)", got)
	}
}

// Time sync between two peers whose clocks run at the same rate, over a
// network that delays 60 ms and jitters up to 40 ms each way, slows
// nobody down: the estimates of the other's head wander with the jitter,
// but less than the half tick from which a peer counts as ahead.
func TestTimeSyncEqualClocksJitter(t *testing.T) {
	for _, nc := range []Netcode{Rollback, Lockstep} {
		delay := 0
		if nc == Lockstep {
			delay = 3
		}
		rg := newRig(t, rigConfig{
			players: 2, netcode: nc, delay: delay, seed: 5, tickLimit: 1000,
			timeSync: true, cond: netsim.Conditions{Delay: 60 * ms, Jitter: 40 * ms},
		})
		// The start leaves the host a little ahead (its game starts when
		// it sends the start): what happens before 10 s is not counted.
		rg.runUntil(time.Minute, func() bool { return rg.now >= 10*time.Second })
		var before [2]time.Duration
		for i, p := range rg.peers {
			before[i] = p.r.Stats().Slowdown
		}
		rg.run(3 * time.Minute)
		for i, p := range rg.peers {
			st := p.r.Stats()
			if err := p.s.Err(); err != nil || p.s.NextTick() != 1000 {
				t.Errorf("%v %s: ended at tick %d, err %v", nc, p.name, p.s.NextTick(), err)
			}
			if d := st.Slowdown - before[i]; d != 0 {
				t.Errorf("%v %s: slowed down %v after 10 s in a game of equal clocks", nc, p.name, d)
			}
			t.Logf("%v %s: slowdown %v", nc, p.name, st.Slowdown)
		}
	}
}
