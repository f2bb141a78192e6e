package netplay

import (
	"math"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// The rig: peers with Runners over a netsim.Path, on a manual clock,
// each checking its game against the reference (toygame_test.go).

type rigConfig struct {
	players   int
	netcode   Netcode
	maxPred   int
	delay     int // Config.Delay
	tickLimit uint64
	kickAfter time.Duration
	silence   time.Duration
	cond      netsim.Conditions
	seed      uint64
	// input is player p's input for tick t (zero before delay); nil:
	// rigBot.
	input                func(p int, delay, t uint64) trec
	confirmer, predictor bool
	// noChecks leaves out the per-Advance checks (the allocation test).
	noChecks bool
	// timeSync turns time sync on (RunnerConfig.Tick): each peer's loop
	// does not count what Runner.TimeSync says.
	timeSync bool
}

type rig struct {
	t        testing.TB
	c        rigConfig
	net      *netsim.Path
	peers    []*rpeer
	now      time.Duration
	tick     time.Duration
	maxLoops int
	deliver  func(from, to string, pkt []byte)
}

// rpeer is one peer: a Session, its Runner and its toy game, with a
// frame loop whose frames last base ± 3 ms and a fixed-step loop
// counting the ticks due since the start.
type rpeer struct {
	rig     *rig
	name    string
	s       *session
	r       *runner
	g       *toyGame
	addr    string
	base    time.Duration
	next    time.Duration
	rng     uint64
	started bool
	start   time.Duration
	counted int64 // ticks the fixed-step loop counted since the start
	send    func(string, []byte)
	// ppm is how fast the peer's clock runs, in parts per million (20000:
	// 2 % fast): its session, its Runner and its loop all take it.
	ppm int64
	// offset is what the loop does not count: the sum of TimeSync.
	offset time.Duration

	// Faults: dead (from the head dieAt, if set) runs nothing and hears
	// nothing; mute drops what it sends, deaf what is sent to it; quitAt
	// quits once the head reaches it.
	dead, mute, deaf bool
	dieAt, muteAt    uint64
	deafAt           uint64
	hearOnOver       bool // deaf until its game is over
	quitAt           uint64
	quitted          bool

	// What the test saw.
	asked   uint64 // the next tick LocalInput should be asked for
	askedAt bool
	maxLead uint64 // the most Head()-Confirmed() after a frame
	// leads[n] counts the frames that ended n ticks ahead of Confirmed.
	leads       [maxMaxPrediction + 2]int
	over        bool   // the game was over at the start of a frame
	settledSeen bool   // the frame that settled the game ran
	undone      uint64 // ticks the end undid (Head before the settling frame minus after)
	endHead     uint64 // Head at the start of the settling frame
}

// noDelay as rigConfig.delay is no input delay; 0 there is DefaultDelay.
const noDelay = -1

func newRig(t testing.TB, c rigConfig) *rig {
	t.Helper()
	switch c.delay {
	case 0:
		c.delay = DefaultDelay
	case noDelay:
		c.delay = 0
	}
	n, err := netsim.NewPath(c.cond, c.seed, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if c.input == nil {
		c.input = rigBot
	}
	rg := &rig{t: t, c: c, net: n, tick: 40 * ms, maxLoops: 5}
	rg.deliver = func(from, to string, pkt []byte) {
		for _, p := range rg.peers {
			if p.addr == to && !p.dead && !p.deaf {
				p.s.Receive(p.clock(rg.now), from, pkt)
			}
		}
	}
	host, err := newHost(config{
		Nonce: 0x5e55_1011_d00d_0001 ^ c.seed, InputSize: testInputSize, Players: c.players,
		Delay: c.delay, TickLimit: c.tickLimit, KickAfter: c.kickAfter, Silence: c.silence,
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	rg.add("host", host)
	for i := 1; i < c.players; i++ {
		js, err := newJoiner(config{Nonce: uint64(1000 + i), InputSize: testInputSize, Silence: c.silence}, addr(0), 0)
		if err != nil {
			t.Fatal(err)
		}
		rg.add("joiner"+string(rune('0'+i)), js)
	}
	return rg
}

func (rg *rig) add(name string, s *session) {
	i := len(rg.peers)
	p := &rpeer{rig: rg, name: name, s: s, addr: addr(i), rng: rg.c.seed*31 + uint64(i)}
	// Frames of different lengths, out of phase: 16, 11, 23, 9, 19, 13,
	// 21, 10 ms, each ± 3 ms.
	p.base = [...]time.Duration{16 * ms, 11 * ms, 23 * ms, 9 * ms, 19 * ms, 13 * ms, 21 * ms, 10 * ms}[i]
	p.next = time.Duration(i*3) * ms
	p.send = func(to string, pkt []byte) {
		if !p.mute {
			rg.net.Send(rg.now, p.addr, to, pkt)
		}
	}
	p.g = newToyGame(rg.t, name)
	var g Game = p.g
	switch {
	case rg.c.confirmer && rg.c.predictor:
		g = confPredGame{p.g}
	case rg.c.confirmer:
		g = confGame{p.g}
	case rg.c.predictor:
		g = predGame{p.g}
	}
	if !rg.c.noChecks {
		p.g.check = p.checkInputs
		p.g.predict = p.checkPredict
	}
	rc := runnerConfig{Netcode: rg.c.netcode, MaxPrediction: rg.c.maxPred}
	if rg.c.timeSync {
		rc.Tick = rg.tick
	}
	r, err := newRunner(s, g, rigLocal{p}, rc)
	if err != nil {
		rg.t.Fatal(err)
	}
	p.r = r
	p.g.bind(r)
	rg.peers = append(rg.peers, p)
}

// input is player p's input for tick t as its bot makes it.
func (rg *rig) input(p int, t uint64) trec {
	return rg.c.input(p, uint64(rg.peers[0].s.Delay()), t)
}

// want is player p's final input for tick t: the bot's, or zero and
// autonomous once the host kicked p. At the kicked peer itself, its own
// input from the kick on may be either (ambiguous): it ran on with its
// own input until it heard of the kick.
func (rg *rig) want(at *rpeer, p int, t uint64) (rec trec, auto, ambiguous bool) {
	if from, ok := rg.peers[0].s.Kicked(p); ok && t >= from {
		return trec{}, true, at.s.Index() == p
	}
	return rg.input(p, t), false, false
}

// rigLocal is a peer's LocalInput: its bot. It checks that the Runner
// asks for each tick once, in order, from the input delay on, with dst
// zeroed.
type rigLocal struct{ p *rpeer }

func (l rigLocal) LocalInput(tick uint64, n int, dst []byte) {
	p, s := l.p, l.p.s
	if !p.askedAt {
		p.asked, p.askedAt = uint64(s.Delay()), true
	}
	if tick != p.asked || tick != s.InputTick() || n < 0 || n >= p.rig.maxLoops {
		p.g.errorf("LocalInput(%d, %d): want tick %d (input tick %d), n in 0..%d", tick, n, p.asked, s.InputTick(), p.rig.maxLoops-1)
	}
	if len(dst) != testInputSize || dst[0]|dst[1]|dst[2] != 0 {
		p.g.errorf("LocalInput(%d): dst %v, want %d zero bytes", tick, dst, testInputSize)
	}
	p.asked = tick + 1
	rec := p.rig.input(s.Index(), tick)
	copy(dst, rec[:])
}

// checkInputs checks the inputs of every Advance: a known input is the
// bot's (zero and autonomous for a kicked player); a predicted one is
// not known, and is the Predictor's (the marker) or the player's last
// known input (zero if none is known); lockstep predicts nothing.
func (p *rpeer) checkInputs(in *Inputs) {
	s, rg := p.s, p.rig
	if in.Players() != s.Players() {
		p.g.errorf("tick %d: %d players, want %d", in.Tick, in.Players(), s.Players())
	}
	for q := range in.Players() {
		got := in.Input(q)
		if in.Predicted(q) {
			if rg.c.netcode != Rollback {
				p.g.errorf("tick %d: player %d predicted in %v", in.Tick, q, rg.c.netcode)
			}
			if _, known := s.Input(q, in.Tick); known {
				p.g.errorf("tick %d: player %d predicted but known", in.Tick, q)
			}
			var want trec
			if rg.c.predictor {
				want = marker(q)
			} else if _, last, ok := s.LastInput(q); ok {
				copy(want[:], last)
			}
			if trec(got) != want {
				p.g.errorf("tick %d: player %d predicted as %v, want %v", in.Tick, q, got, want)
			}
			continue
		}
		want, auto, amb := rg.want(p, q, in.Tick)
		if amb {
			continue
		}
		if trec(got) != want || in.Disconnected(q) != auto {
			p.g.errorf("tick %d: player %d input %v autonomous %v, want %v %v", in.Tick, q, got, in.Disconnected(q), want, auto)
		}
	}
}

// checkPredict checks a Predict call: dst zeroed, last the player's
// last known input.
func (p *rpeer) checkPredict(q int, last, dst []byte) {
	if len(dst) != testInputSize || dst[0]|dst[1]|dst[2] != 0 {
		p.g.errorf("Predict(%d): dst %v, want %d zero bytes", q, dst, testInputSize)
	}
	_, want, ok := p.s.LastInput(q)
	if ok != (last != nil) || ok && trec(last) != trec(want) {
		p.g.errorf("Predict(%d) with last %v, want %v (known: %v)", q, last, want, ok)
	}
}

// frame is one frame of the peer's loop.
func (p *rpeer) frame() {
	rg, s, r := p.rig, p.s, p.r
	now := p.clock(rg.now)
	if !p.started && s.State() == StateRunning {
		p.started, p.start = true, s.StartedAt()
	}
	due := 0
	if p.started {
		total := int64((now - p.start - p.offset) / rg.tick)
		due, p.counted = int(max(total-p.counted, 0)), max(total, p.counted)
	}
	if s.Over() && !p.over {
		p.over, p.endHead = true, r.Head()
	}
	r.Frame(now, due, rg.maxLoops)
	p.offset += r.TimeSync()
	if p.over && !p.settledSeen {
		// The frame that settled the game: it undid the ticks run past
		// the session's, and confirmed every one whose inputs are known.
		p.settledSeen = true
		p.undone = p.endHead - r.Head()
		if n := s.NextTick(); n < p.endHead && s.Ready(n) && !s.pastEnd(n) {
			p.g.errorf("the end left tick %d unconfirmed, its inputs known (head was %d)", n, p.endHead)
		}
	}
	if s.State() >= StateRunning {
		head, conf := r.Head(), s.Confirmed()
		if rg.c.netcode == Rollback {
			lead := head - min(head, conf)
			if lead > uint64(r.maxPred) {
				rg.t.Fatalf("%s at %v: head %d, %d ticks past Confirmed %d, more than MaxPrediction %d", p.name, now, head, lead, conf, r.maxPred)
			}
			p.maxLead = max(p.maxLead, lead)
			p.leads[lead]++
		} else if head != s.NextTick() {
			rg.t.Fatalf("%s at %v: lockstep head %d, session at %d", p.name, now, head, s.NextTick())
		}
	}
	if p.dieAt != 0 && r.Head() >= p.dieAt {
		p.dead = true
		return
	}
	if p.muteAt != 0 && r.Head() >= p.muteAt {
		p.mute = true
	}
	if p.deafAt != 0 && r.Head() >= p.deafAt && !s.Over() {
		p.deaf = true
	}
	if p.quitAt != 0 && !p.quitted && r.Head() >= p.quitAt && s.State() == StateRunning {
		s.Quit(now)
		p.quitted = true
	}
	s.Poll(now, sendFunc(p.send))
	if p.hearOnOver && s.Over() {
		p.deaf, p.deafAt = false, 0
	}
}

// clock is the peer's clock at the simulation's time now.
func (p *rpeer) clock(now time.Duration) time.Duration {
	return now + now/1_000_000*time.Duration(p.ppm) + now%1_000_000*time.Duration(p.ppm)/1_000_000
}

func (p *rpeer) interval() time.Duration {
	p.rng = mix64(p.rng)
	return p.base - 3*ms + time.Duration(p.rng%7)*ms
}

// step advances the clock to the next event (a frame or a delivery),
// delivers what is due and runs the frames that are due.
func (rg *rig) step() {
	next := time.Duration(math.MaxInt64)
	for _, p := range rg.peers {
		if !p.dead {
			next = min(next, p.next)
		}
	}
	if d, ok := rg.net.NextDue(); ok {
		next = min(next, d)
	}
	rg.now = max(rg.now, next)
	rg.net.Deliver(rg.now, rg.deliver)
	for _, p := range rg.peers {
		if !p.dead && rg.now >= p.next {
			p.frame()
			p.next += p.interval()
		}
	}
}

// runUntil steps until done, or fails at limit.
func (rg *rig) runUntil(limit time.Duration, done func() bool) {
	rg.t.Helper()
	for !done() {
		if rg.now > limit {
			for _, p := range rg.peers {
				rg.t.Logf("%s: %v tick %d head %d err %v stats %+v", p.name, p.s.State(), p.s.NextTick(), p.r.Head(), p.s.Err(), p.r.Stats())
			}
			rg.t.Fatalf("not done after %v", limit)
		}
		rg.step()
	}
}

// run steps until every live peer is done.
func (rg *rig) run(limit time.Duration) {
	rg.t.Helper()
	rg.runUntil(limit, func() bool {
		for _, p := range rg.peers {
			if !p.dead && !p.s.Done() {
				return false
			}
		}
		return true
	})
}

// checkEnd checks a peer whose game is over: its game stopped at the
// session's tick, the Confirmer heard every tick once with its final
// inputs and the hash every HashEvery ticks, and the game's state is the
// reference's after that many ticks.
func (rg *rig) checkEnd(p *rpeer) {
	rg.t.Helper()
	s, r := p.s, p.r
	n := s.NextTick()
	if r.Head() != n {
		rg.t.Errorf("%s: Head %d at the end, session at tick %d", p.name, r.Head(), n)
	}
	if uint64(r.Stats().Ticks) < n {
		rg.t.Errorf("%s: %d new ticks run, session at tick %d", p.name, r.Stats().Ticks, n)
	}
	want := func(q int, t uint64) (trec, bool) {
		rec, auto, _ := rg.want(p, q, t)
		return rec, auto
	}
	if rg.c.confirmer {
		if uint64(len(p.g.conf)) != n {
			rg.t.Errorf("%s: the Confirmer heard %d ticks, the session ran %d", p.name, len(p.g.conf), n)
		}
		var confirmed [][MaxPlayers]trec
		var autos []uint8
		for _, c := range p.g.conf {
			confirmed = append(confirmed, c.in)
			autos = append(autos, c.auto)
		}
		for i, c := range p.g.conf {
			t := uint64(i)
			if c.predicted || c.resimulated {
				rg.t.Errorf("%s: tick %d confirmed as predicted %v, resimulated %v", p.name, t, c.predicted, c.resimulated)
			}
			for q := range s.Players() {
				w, auto, amb := rg.want(p, q, t)
				if amb {
					continue
				}
				if c.in[q] != w || (c.auto&(1<<q) != 0) != auto {
					rg.t.Errorf("%s: tick %d confirmed with player %d's input %v autonomous %v, want %v %v", p.name, t, q, c.in[q], c.auto&(1<<q) != 0, w, auto)
					return
				}
			}
		}
		// At the kicked peer, its own input past the kick is what it
		// ran: the reference is the confirmed inputs.
		want = func(q int, t uint64) (trec, bool) {
			if t < uint64(len(confirmed)) {
				return confirmed[t][q], autos[t]&(1<<q) != 0
			}
			rec, auto, _ := rg.want(p, q, t)
			return rec, auto
		}
		ref := reference(s.Players(), max(n, uint64(len(confirmed))), want)
		for i, c := range p.g.conf {
			t := uint64(i)
			if c.ok != ((t+1)%hashEvery == 0) {
				rg.t.Errorf("%s: tick %d confirmed with ok %v", p.name, t, c.ok)
			}
			if c.ok && c.hash != ref[t+1].hash() {
				rg.t.Errorf("%s: tick %d confirmed with hash %016x, the reference has %016x", p.name, t, c.hash, ref[t+1].hash())
			}
		}
	}
	ref := reference(s.Players(), n, want)
	if p.g.st != ref[n] {
		rg.t.Errorf("%s: the game ended at tick %d (head %d, undone %d, err %v) with state %+v, the reference's is %+v", p.name, n, r.Head(), p.undone, s.Err(), p.g.st, ref[n])
	}
}
