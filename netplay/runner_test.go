package netplay

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// The Runner's tests play a toy deterministic game over Sessions on a
// simulated network, on a manual clock, and compare every peer's game
// with a reference: the same game run alone over the inputs the bots
// make, which are known functions of the player and the tick.

var badNet = netsim.Conditions{Delay: 60 * ms, Jitter: 15 * ms, Loss: 0.08, Duplicate: 0.03, Reorder: 0.05}

// Lockstep and rollback games of the same bots end, at the tick limit,
// with every peer's game in the state the game reaches alone over the
// bots' inputs; rollback rolls back on the way.
func TestRunnerMatchesReference(t *testing.T) {
	const limit = 150
	for _, nc := range []Netcode{Lockstep, Rollback} {
		for players := 2; players <= MaxPlayers; players++ {
			rg := newRig(t, rigConfig{
				players: players, netcode: nc, tickLimit: limit, cond: badNet,
				seed: uint64(players), confirmer: true,
				delay: map[Netcode]int{Lockstep: 3, Rollback: noDelay}[nc],
			})
			rg.run(60 * time.Second)
			var rollbacks, mispredicted int64
			for _, p := range rg.peers {
				if err := p.s.Err(); err != nil || p.s.NextTick() != limit {
					t.Errorf("%v %d players, %s: tick %d, err %v", nc, players, p.name, p.s.NextTick(), err)
				}
				rg.checkEnd(p)
				if h := p.g.Hash(); h != rg.peers[0].g.Hash() {
					t.Errorf("%v %d players, %s: hash %016x, host %016x", nc, players, p.name, h, rg.peers[0].g.Hash())
				}
				st := p.r.Stats()
				rollbacks += st.Rollbacks
				mispredicted += st.PredictionErrors
				if nc == Lockstep && (st.Rollbacks != 0 || st.Resimulated != 0 || p.g.resimulated != 0 || p.g.advances != limit || p.g.predictedIn != 0) {
					t.Errorf("lockstep %d players, %s: %+v, %d Advances", players, p.name, st, p.g.advances)
				}
				if nc == Rollback && (p.g.resimulated != st.Resimulated || p.g.advances != st.Ticks+st.Resimulated || st.Ticks != limit) {
					t.Errorf("rollback %d players, %s: %+v, but the game saw %d Advances, %d resimulated", players, p.name, st, p.g.advances, p.g.resimulated)
				}
			}
			if nc == Rollback && (rollbacks == 0 || mispredicted == 0 || rg.peers[0].r.Stats().Rollbacks == 0) {
				t.Errorf("rollback %d players: %d rollbacks, %d prediction errors (host %+v): nothing was rolled back", players, rollbacks, mispredicted, rg.peers[0].r.Stats())
			}
			t.Logf("%v %d players: %d rollbacks, %d prediction errors, host %+v", nc, players, rollbacks, mispredicted, rg.peers[0].r.Stats())
		}
	}
}

// The prediction limit: while one peer's inputs are cut off, the other
// one's game runs ahead of the confirmed ticks by MaxPrediction at most,
// and reaches it; when the inputs flow again it rolls back that far.
func TestRunnerPredictionLimit(t *testing.T) {
	for _, k := range []int{7, 12} {
		// The joiner's input changes every tick: every prediction of it
		// is wrong, the first one after the cut included.
		rg := newRig(t, rigConfig{
			players: 2, netcode: Rollback, maxPred: k, delay: noDelay, seed: 7, tickLimit: 300, confirmer: true,
			cond: netsim.Conditions{Delay: 60 * ms, Jitter: 10 * ms, Loss: 0.05, Duplicate: 0.02, Reorder: 0.03},
			input: func(p int, delay, t uint64) trec {
				if p == 1 {
					return trec{byte(t), byte(t >> 8), 1}
				}
				return rigBot(p, delay, t)
			},
		})
		host, join := rg.peers[0], rg.peers[1]
		rg.runUntil(30*time.Second, func() bool { return host.r.Head() >= 100 })
		before := host.r.Stats()
		if host.maxLead >= uint64(k) || before.MaxRollback >= k {
			t.Fatalf("k=%d: before the cut the host ran %d ahead, rolled back %d: the test needs a network faster than the limit", k, host.maxLead, before.MaxRollback)
		}
		// Cut the joiner's packets for a second.
		join.mute = true
		cutEnd := rg.now + time.Second
		rg.runUntil(40*time.Second, func() bool { return rg.now >= cutEnd })
		if host.maxLead != uint64(k) || host.leads[k] == 0 {
			t.Errorf("k=%d: during the cut the host ran at most %d ticks past the confirmed ones, want exactly %d", k, host.maxLead, k)
		}
		if st := host.r.Stats(); st.StallFrames <= before.StallFrames {
			t.Errorf("k=%d: the host did not stall at the limit: %+v", k, st)
		}
		join.mute = false
		rg.runUntil(60*time.Second, func() bool { return host.r.Head() >= 200 && join.r.Head() >= 200 })
		if st := host.r.Stats(); st.MaxRollback != k {
			t.Errorf("k=%d: after the cut the host rolled back at most %d ticks, want %d: %+v", k, st.MaxRollback, k, st)
		}
		t.Logf("k=%d: before the cut %+v; after it %+v; frames by lead past Confirmed: %v", k, before, host.r.Stats(), host.leads[:k+1])
		// The game goes on to the tick limit and ends as the reference.
		rg.run(90 * time.Second)
		for _, p := range rg.peers {
			if p.s.Err() != nil || p.s.NextTick() != 300 || p.r.Stats().PredictionErrors == 0 {
				t.Errorf("k=%d %s: tick %d, err %v, %+v", k, p.name, p.s.NextTick(), p.s.Err(), p.r.Stats())
			}
			rg.checkEnd(p)
		}
	}
}

// A Predictor's predictions are what the game runs with for a missing
// input; without one, the player's last known input is repeated. Either
// way the rollbacks correct them, and the games end as the reference.
func TestRunnerPredictor(t *testing.T) {
	for _, withPredictor := range []bool{true, false} {
		rg := newRig(t, rigConfig{
			players: 3, netcode: Rollback, delay: noDelay, tickLimit: 120, cond: badNet, seed: 11,
			predictor: withPredictor, confirmer: true,
		})
		rg.run(60 * time.Second)
		var predicted, seen int64
		for _, p := range rg.peers {
			if p.s.Err() != nil {
				t.Errorf("predictor %v, %s: %v", withPredictor, p.name, p.s.Err())
			}
			rg.checkEnd(p)
			predicted += p.g.predictions
			seen += p.g.predictedIn
			if !withPredictor && p.g.predictions != 0 {
				t.Errorf("%s: Predict called without a Predictor", p.name)
			}
		}
		// The checks in checkInputs ran on predicted inputs, and every
		// one a Predictor predicted was seen by Advance.
		if seen == 0 || withPredictor && predicted != seen {
			t.Errorf("predictor %v: %d inputs predicted, Advance saw %d", withPredictor, predicted, seen)
		}
		var rolled int64
		for _, p := range rg.peers {
			rolled += p.r.Stats().Rollbacks
		}
		if rolled == 0 {
			t.Errorf("predictor %v: no rollback", withPredictor)
		}
	}
}

// A Confirmer hears every tick once, in order, with its final inputs (the
// bots'), and the reference's state hash after every HashEvery ticks.
func TestRunnerConfirmer(t *testing.T) {
	for _, nc := range []Netcode{Lockstep, Rollback} {
		rg := newRig(t, rigConfig{players: 3, netcode: nc, tickLimit: 4*hashEvery + 7, cond: badNet, seed: 5, confirmer: true})
		rg.run(60 * time.Second)
		for _, p := range rg.peers {
			rg.checkEnd(p) // the Confirmer's checks
			oks := 0
			for _, c := range p.g.conf {
				if c.ok {
					oks++
				}
			}
			if len(p.g.conf) != 4*hashEvery+7 || oks != 4 {
				t.Errorf("%v %s: %d ticks confirmed, %d with a hash", nc, p.name, len(p.g.conf), oks)
			}
		}
	}
}

// The end settles: a rollback game that ends (a silent player, a kick,
// a quit or the tick limit) while it ran ticks on predictions ends at the
// session's tick, in the reference's state after it, with every tick
// confirmed once. In a "hiccup", a joiner hears nothing from the host
// for longer than Silence, ends, and then hears the host again: the
// inputs that arrive after its end confirm ticks it ran on predictions.
func TestRunnerEndSettles(t *testing.T) {
	const scenarios = 60
	kinds := []string{"tick limit", "silence", "quit", "kick", "hiccup"}
	undone := map[string]int{}
	for i := range scenarios {
		rng := mix64(uint64(i) + 0x5e77)
		next := func(n uint64) uint64 { rng = mix64(rng); return rng % n }
		kind := kinds[i%len(kinds)]
		players := 2 + int(next(3))
		end := 30 + next(170)
		c := rigConfig{
			players: players, netcode: Rollback, maxPred: 2 + int(next(9)), seed: uint64(i),
			delay: [...]int{noDelay, noDelay, 1, 2}[next(4)], silence: 600 * ms, confirmer: true,
			cond: netsim.Conditions{Delay: 60 * ms, Jitter: 15 * ms, Loss: 0.05 + 0.05*float64(next(2)), Duplicate: 0.02, Reorder: 0.05},
		}
		victim := 1 + int(next(uint64(players-1))) // a joiner
		switch kind {
		case "tick limit":
			c.tickLimit = end
		case "kick":
			c.kickAfter = kickWindow // kicks the silent only
			c.tickLimit = end + 60
		}
		rg := newRig(t, c)
		switch kind {
		case "silence":
			if next(3) == 0 {
				victim = 0 // the host
			}
			rg.peers[victim].dieAt = end
		case "quit":
			rg.peers[int(next(uint64(players)))].quitAt = end
		case "kick":
			rg.peers[victim].muteAt = end
		case "hiccup":
			rg.peers[victim].deafAt, rg.peers[victim].hearOnOver = end, true
			rg.peers[victim].base = 40 * ms // slow frames: the inputs arrive before its next one
		}
		rg.run(120 * time.Second)
		for _, p := range rg.peers {
			if p.dead {
				continue
			}
			err := p.s.Err()
			var okErr bool
			switch kind {
			case "silence":
				okErr = errors.Is(err, ErrSilent)
			case "hiccup":
				okErr = errors.Is(err, ErrSilent) || errors.Is(err, ErrLeft)
			case "kick":
				if p == rg.peers[victim] {
					okErr = errors.Is(err, ErrKicked)
				} else {
					okErr = err == nil
				}
			default:
				okErr = err == nil
			}
			if !okErr {
				t.Errorf("scenario %d (%s, %d players): %s ended with %v", i, kind, players, p.name, err)
			}
			if kind == "tick limit" && p.s.NextTick() != end {
				t.Errorf("scenario %d: %s ended at tick %d, the limit is %d", i, p.name, p.s.NextTick(), end)
			}
			if kind == "quit" && p.s.NextTick() != rg.peers[0].s.NextTick() {
				t.Errorf("scenario %d: %s ended at tick %d, the host at %d", i, p.name, p.s.NextTick(), rg.peers[0].s.NextTick())
			}
			rg.checkEnd(p)
			if p.undone > 0 {
				undone[kind]++
			}
			if t.Failed() {
				t.Fatalf("scenario %d (%s, %d players, MaxPrediction %d, delay %d, end %d): %s failed; stats %+v", i, kind, players, c.maxPred, p.s.Delay(), end, p.name, p.r.Stats())
			}
		}
	}
	t.Logf("peers whose end undid predicted ticks, by end: %v", undone)
	// The ends that come while the game runs on predictions did come so.
	for _, kind := range kinds[1:] {
		if undone[kind] < 3 {
			t.Errorf("only %d %s ends undid predicted ticks: the test did not test the settling", undone[kind], kind)
		}
	}
}

// A player kicked while its input was idle (zero) and predicted so: the
// ticks run on that prediction were run with the player under control,
// and from its kick on it is autonomous. The games roll them back all
// the same, and the host's game ends as the reference, with the player
// autonomous from its kick tick.
func TestRunnerKickRollsBackIdlePrediction(t *testing.T) {
	rg := newRig(t, rigConfig{
		players: 2, netcode: Rollback, maxPred: 8, delay: noDelay, seed: 21, tickLimit: 150,
		kickAfter: kickWindow, silence: 600 * ms, cond: badNet, confirmer: true,
		input: func(p int, delay, t uint64) trec {
			if p == 1 {
				return trec{} // idle
			}
			return botInput(botSeed(p), delay, t)
		},
	})
	host, join := rg.peers[0], rg.peers[1]
	join.muteAt = 40
	rg.run(60 * time.Second)
	if _, ok := host.s.Kicked(1); !ok || host.s.Err() != nil || host.s.NextTick() != 150 {
		t.Fatalf("the joiner was not kicked, or the host did not reach the tick limit: err %v, tick %d", host.s.Err(), host.s.NextTick())
	}
	if !errors.Is(join.s.Err(), ErrKicked) {
		t.Errorf("joiner: %v, want ErrKicked", join.s.Err())
	}
	if host.r.Stats().MaxRollback == 0 {
		t.Errorf("host: no rollback (%+v): the ticks it ran on the prediction of the kicked player's idle input were not run again with the player autonomous", host.r.Stats())
	}
	rg.checkEnd(host)
}

// A joiner that hears nothing from the host for longer than Silence ends;
// the host's inputs that arrive after its end, before its next frame,
// confirm ticks it ran on predictions of them. Its game rolls back to
// them before it settles: it ends in the reference's state, and its
// Confirmer hears the host's real inputs.
func TestRunnerInputsAfterTheEnd(t *testing.T) {
	rg := newRig(t, rigConfig{
		players: 2, netcode: Rollback, maxPred: 8, delay: noDelay, seed: 22,
		silence: 600 * ms, confirmer: true,
		cond: netsim.Conditions{Delay: 60 * ms, Jitter: 10 * ms},
		// The host's input changes every tick: every prediction of it
		// is wrong.
		input: func(p int, delay, t uint64) trec {
			if p == 0 {
				return trec{byte(t), byte(t >> 8), 7}
			}
			return botInput(botSeed(p), delay, t)
		},
	})
	join := rg.peers[1]
	join.deafAt, join.hearOnOver = 60, true
	join.base = 40 * ms // the host's inputs arrive before its next frame
	rg.run(60 * time.Second)
	if !errors.Is(join.s.Err(), ErrSilent) {
		t.Fatalf("joiner: %v, want ErrSilent", join.s.Err())
	}
	rg.checkEnd(join)
}

// ---- Allocations ----

// Runner.Frame allocates nothing once the game runs, in lockstep and in
// rollback, on a bad network: with the session's Receive and Poll and the
// simulator, the whole frame loop, time sync included.
func TestRunnerFrameAllocatesNothing(t *testing.T) {
	for _, nc := range []Netcode{Lockstep, Rollback} {
		rg := newRig(t, rigConfig{
			players: 2, netcode: nc, seed: 3, noChecks: true, timeSync: true,
			delay: map[Netcode]int{Lockstep: 3, Rollback: noDelay}[nc],
			cond:  netsim.Conditions{Delay: 30 * ms, Jitter: 10 * ms, Loss: 0.1, Duplicate: 0.05, Reorder: 0.05},
		})
		rg.runUntil(time.Minute, func() bool { return rg.peers[0].r.Head() >= 300 })
		t0, st0 := rg.peers[0].r.Head(), rg.peers[0].r.Stats()
		least := -1.0
		for range 3 {
			a := testing.AllocsPerRun(1, func() {
				for range 3000 {
					rg.step()
				}
			})
			if least < 0 || a < least {
				least = a
			}
		}
		if least != 0 {
			t.Errorf("%v: %v allocations in 3000 steps, at the least of three measurements", nc, least)
		}
		st := rg.peers[0].r.Stats()
		if rg.peers[0].r.Head()-t0 < 200 || rg.peers[0].s.Over() || nc == Rollback && st.Rollbacks == st0.Rollbacks ||
			!rg.peers[1].r.advSet[0] || !rg.peers[0].r.advSet[1] {
			t.Errorf("%v: the game did not run: %d ticks, %+v", nc, rg.peers[0].r.Head()-t0, st)
		}
	}
}

func BenchmarkRunnerFrame(b *testing.B) {
	for _, nc := range []Netcode{Lockstep, Rollback} {
		b.Run(nc.String(), func(b *testing.B) {
			rg := newRig(b, rigConfig{players: 2, netcode: nc, seed: 3, noChecks: true, delay: noDelay, cond: netsim.Conditions{Delay: 30 * ms, Jitter: 10 * ms, Loss: 0.1}})
			b.ReportAllocs()
			for b.Loop() {
				rg.step()
			}
		})
	}
}

// ---- Arguments ----

type nopLocal struct{}

func (nopLocal) LocalInput(uint64, int, []byte) {}

func TestRunnerInvalid(t *testing.T) {
	s, err := newHost(config{InputSize: testInputSize, Nonce: 1, Delay: DefaultDelay}, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := newToyGame(t, "toy")
	for _, c := range []struct {
		name  string
		s     *session
		g     Game
		local localInput
		c     runnerConfig
	}{
		{"nil session", nil, g, nopLocal{}, runnerConfig{Netcode: Rollback}},
		{"nil game", s, nil, nopLocal{}, runnerConfig{Netcode: Rollback}},
		{"nil input", s, g, nil, runnerConfig{Netcode: Rollback}},
		{"unknown netcode", s, g, nopLocal{}, runnerConfig{Netcode: Lockstep + 1}},
		{"negative MaxPrediction", s, g, nopLocal{}, runnerConfig{Netcode: Rollback, MaxPrediction: -1}},
		{"MaxPrediction too large", s, g, nopLocal{}, runnerConfig{Netcode: Rollback, MaxPrediction: maxMaxPrediction + 1}},
		{"negative Tick", s, g, nopLocal{}, runnerConfig{Netcode: Lockstep, Tick: -1}},
	} {
		if r, err := newRunner(c.s, c.g, c.local, c.c); !errors.Is(err, ErrInvalid) || r != nil {
			t.Errorf("NewRunner, %s: %v, %v; want an error wrapping ErrInvalid", c.name, r, err)
		}
	}
	// A state for each tick it may run ahead, and the one before them.
	for _, c := range []struct {
		c     runnerConfig
		ahead int
	}{
		{runnerConfig{Netcode: Rollback}, defaultMaxPrediction},
		{runnerConfig{Netcode: Rollback, MaxPrediction: 1}, 1},
		{runnerConfig{Netcode: Rollback, MaxPrediction: maxMaxPrediction}, maxMaxPrediction},
		{runnerConfig{Netcode: Lockstep, MaxPrediction: 1000}, 0}, // ignored in lockstep
	} {
		s, _ := newHost(config{InputSize: testInputSize, Nonce: 1, Delay: DefaultDelay}, 0) // one Runner a session
		r, err := newRunner(s, g, nopLocal{}, c.c)
		if err != nil {
			t.Errorf("NewRunner(%+v): %v", c.c, err)
		} else if r.Slots() < c.ahead+1 {
			t.Errorf("NewRunner(%+v): %d slots; want %d at least", c.c, r.Slots(), c.ahead+1)
		}
	}
	for _, c := range []struct {
		name  string
		g     Game
		local localInput
		c     syncTestConfig
	}{
		{"nil game", nil, nopLocal{}, syncTestConfig{InputSize: 1, CheckDistance: 2}},
		{"nil input", g, nil, syncTestConfig{InputSize: 1, CheckDistance: 2}},
		{"no input size", g, nopLocal{}, syncTestConfig{CheckDistance: 2}},
		{"input size too large", g, nopLocal{}, syncTestConfig{InputSize: MaxInputSize + 1, CheckDistance: 2}},
		{"no check distance", g, nopLocal{}, syncTestConfig{InputSize: 1}},
		{"negative check distance", g, nopLocal{}, syncTestConfig{InputSize: 1, CheckDistance: -1}},
		{"check distance too large", g, nopLocal{}, syncTestConfig{InputSize: 1, CheckDistance: maxCheckDistance + 1}},
	} {
		if r, err := newSyncTest(c.g, c.local, c.c); !errors.Is(err, ErrInvalid) || r != nil {
			t.Errorf("NewSyncTest, %s: %v, %v; want an error wrapping ErrInvalid", c.name, r, err)
		}
	}
	for _, c := range []syncTestConfig{{InputSize: 1, CheckDistance: 1}, {InputSize: MaxInputSize, CheckDistance: maxCheckDistance}} {
		if r, err := newSyncTest(g, nopLocal{}, c); err != nil || r.Slots() < c.CheckDistance+1 || r.Err() != nil {
			t.Errorf("NewSyncTest(%+v): %v, %v", c, r, err)
		}
	}
	if Lockstep.String() != "lockstep" || Rollback.String() != "rollback" || Netcode(9).String() != "Netcode(9)" {
		t.Errorf("Netcode names: %v %v %v", Lockstep, Rollback, Netcode(9))
	}
}

// NewRunner refuses a session whose game is over, ending (a host that quit
// in the lobby) or ended (a joiner that quit while joining, one whose host
// was unreachable), with a one-line error wrapping ErrOver and the
// session's own error; the session is left as it was, with no Runner.
func TestNewRunnerRefusesAnEndedSession(t *testing.T) {
	g := newToyGame(t, "toy")
	host, err := newHost(config{InputSize: testInputSize, Nonce: 1, Delay: DefaultDelay}, 0)
	if err != nil {
		t.Fatal(err)
	}
	host.Quit(0)
	quit, err := newJoiner(config{InputSize: testInputSize, Nonce: 2}, addr(0), 0)
	if err != nil {
		t.Fatal(err)
	}
	quit.Quit(0)
	lost, err := newJoiner(config{InputSize: testInputSize, Nonce: 3}, addr(0), 0)
	if err != nil {
		t.Fatal(err)
	}
	lost.Unreachable(ms, addr(0))
	for _, c := range []struct {
		name  string
		s     *session
		state State
	}{
		{"host quit in the lobby", host, StateEnding},
		{"joiner quit while joining", quit, StateEnded},
		{"joiner's host unreachable", lost, StateEnded},
	} {
		if c.s.State() != c.state {
			t.Fatalf("%s: state %v, want %v (test broken)", c.name, c.s.State(), c.state)
		}
		r, err := newRunner(c.s, g, nopLocal{}, runnerConfig{Netcode: Rollback})
		if r != nil || !errors.Is(err, errOver) || strings.Contains(err.Error(), "\n") {
			t.Errorf("NewRunner, %s: a Runner %t, error %v; want no Runner and a one-line error wrapping ErrOver", c.name, r != nil, err)
			continue
		}
		if cause := c.s.Err(); cause != nil && !errors.Is(err, cause) {
			t.Errorf("NewRunner, %s: %v does not wrap the session's error %v", c.name, err, cause)
		}
		// Refused, the Runner left no mark: the session's own calls
		// still answer for themselves.
		if err := c.s.AddLocalInput(c.s.InputTick(), make([]byte, testInputSize)); err != errOver {
			t.Errorf("%s: AddLocalInput after the refused Runner: %v, want ErrOver", c.name, err)
		}
	}
	if _, err := newRunner(lost, g, nopLocal{}, runnerConfig{Netcode: Lockstep}); !errors.Is(err, ErrUnreachable) {
		t.Errorf("NewRunner on an unreachable host's joiner: %v, want ErrUnreachable in it", err)
	}
}
