package netplay

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// The Runner's tests play a toy deterministic game over Sessions on a
// simulated network, on a manual clock, and compare every peer's game
// with a reference: the same game run alone over the inputs the bots
// make, which are known functions of the player and the tick.

// ---- The toy game ----

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvFeed(h, x uint64) uint64 {
	for range 8 {
		h ^= x & 0xff
		h *= fnvPrime
		x >>= 8
	}
	return h
}

// toyState is the toy game's whole state: the ticks run, a hash (FNV-1a)
// of every tick's number, inputs and autonomous players, and a position
// per player that its input moves (and that moves by itself while the
// player is autonomous).
type toyState struct {
	tick uint64
	acc  uint64
	pos  [MaxPlayers][2]int32
}

func newToyState() toyState { return toyState{acc: fnvOffset} }

func (s *toyState) advance(in *Inputs) {
	h := fnvFeed(s.acc, in.Tick)
	for p := range in.Players() {
		b := in.Input(p)
		for _, x := range b {
			h = fnvFeed(h, uint64(x))
		}
		if in.Disconnected(p) {
			h = fnvFeed(h, 0xa070)
			s.pos[p][0]++
			continue
		}
		s.pos[p][0] += int32(int8(b[0]))
		s.pos[p][1] += int32(int8(b[1]))
	}
	s.acc = h
	s.tick++
}

func (s *toyState) hash() uint64 {
	h := fnvFeed(fnvFeed(fnvOffset, s.tick), s.acc)
	for _, p := range s.pos {
		h = fnvFeed(h, uint64(uint32(p[0]))<<32|uint64(uint32(p[1])))
	}
	return h
}

// toyGame is the toy state as a Game, with save slots preallocated
// (bind), optional faults for the sync test, a check run before every
// Advance, and what a Confirmer and a Predictor were told (the wrappers
// confGame, predGame and confPredGame make it one).
type toyGame struct {
	tb    testing.TB
	name  string
	st    toyState
	slots []toySlot
	// check, if set, looks at every Advance's inputs.
	check func(in *Inputs)

	// Faults. lose: a Load of the state saved before tick loseAt keeps
	// acc as it is (Save and Load do not hold all of the state). noisy:
	// Advance of tick noisyAt mixes in how many Advances ran (not
	// deterministic).
	lose, noisy     bool
	loseAt, noisyAt uint64

	advances    int64
	resimulated int64 // Advances with Inputs.Resimulated
	predictedIn int64 // inputs that Advance saw predicted
	predictions int64 // Predict calls
	// loaded is the tick of every state loaded, if recordLoads.
	recordLoads bool
	loaded      []uint64
	// conf is what the Confirmer was told, in order.
	conf []confirmedTick
	// predict, if set, checks a Predict call's arguments.
	predict func(p int, last, dst []byte)
	errs    int
}

type toySlot struct {
	st toyState
	ok bool
}

type confirmedTick struct {
	tick        uint64
	in          [MaxPlayers]trec
	auto        uint8
	predicted   bool
	resimulated bool
	hash        uint64
	ok          bool
}

func newToyGame(tb testing.TB, name string) *toyGame {
	return &toyGame{tb: tb, name: name, st: newToyState(), conf: make([]confirmedTick, 0, 4096)}
}

// bind makes the game's save slots for r, as Game asks: preallocated,
// Runner.Slots() of them.
func (g *toyGame) bind(r *runner) { g.slots = make([]toySlot, r.Slots()) }

func (g *toyGame) errorf(format string, args ...any) {
	g.tb.Helper()
	if g.errs++; g.errs <= 5 {
		g.tb.Errorf(g.name+": "+format, args...)
	}
}

func (g *toyGame) Advance(in *Inputs) {
	if in.Tick != g.st.tick {
		g.errorf("Advance of tick %d with the state after %d ticks", in.Tick, g.st.tick)
	}
	if g.check != nil {
		g.check(in)
	}
	g.advances++
	if in.Resimulated {
		g.resimulated++
	}
	for p := range in.Players() {
		if in.Predicted(p) {
			g.predictedIn++
		}
	}
	g.st.advance(in)
	if g.noisy && in.Tick == g.noisyAt {
		g.st.acc = fnvFeed(g.st.acc, uint64(g.advances))
	}
}

func (g *toyGame) Save(slot int) {
	if slot < 0 || slot >= len(g.slots) {
		g.errorf("Save(%d) with %d slots", slot, len(g.slots))
		return
	}
	g.slots[slot] = toySlot{st: g.st, ok: true}
}

func (g *toyGame) Load(slot int) {
	if slot < 0 || slot >= len(g.slots) || !g.slots[slot].ok {
		g.errorf("Load(%d) of a slot never saved (%d slots)", slot, len(g.slots))
		return
	}
	acc := g.st.acc
	g.st = g.slots[slot].st
	if g.lose && g.st.tick == g.loseAt {
		g.st.acc = acc
	}
	if g.recordLoads {
		g.loaded = append(g.loaded, g.st.tick)
	}
}

func (g *toyGame) Hash() uint64 { return g.st.hash() }

func (g *toyGame) confirmed(in *Inputs, hash uint64, ok bool) {
	if want := uint64(len(g.conf)); in.Tick != want {
		g.errorf("Confirmed tick %d, want tick %d (each tick once, in order)", in.Tick, want)
	}
	c := confirmedTick{tick: in.Tick, auto: in.auto, resimulated: in.Resimulated, hash: hash, ok: ok}
	for p := range in.Players() {
		copy(c.in[p][:], in.Input(p))
		c.predicted = c.predicted || in.Predicted(p)
	}
	g.conf = append(g.conf, c)
}

// marker is what the toy Predictor predicts for player p: no bot makes it.
func marker(p int) trec { return trec{0xee, byte(p), 0x5a} }

func (g *toyGame) predicted(p int, last, dst []byte) {
	g.predictions++
	if g.predict != nil {
		g.predict(p, last, dst)
	}
	m := marker(p)
	copy(dst, m[:])
}

type confGame struct{ *toyGame }

func (g confGame) Confirmed(in *Inputs, hash uint64, ok bool) { g.confirmed(in, hash, ok) }

type predGame struct{ *toyGame }

func (g predGame) Predict(p int, last, dst []byte) { g.predicted(p, last, dst) }

type confPredGame struct{ *toyGame }

func (g confPredGame) Confirmed(in *Inputs, hash uint64, ok bool) { g.confirmed(in, hash, ok) }
func (g confPredGame) Predict(p int, last, dst []byte)            { g.predicted(p, last, dst) }

var (
	_ Game      = (*toyGame)(nil)
	_ Confirmer = confGame{}
	_ Predictor = predGame{}
	_ Confirmer = confPredGame{}
	_ Predictor = confPredGame{}
)

// reference runs the toy game alone for n ticks over input (player p's
// input for tick t, and whether p is autonomous then) and returns its
// state after each number of ticks, 0 to n.
func reference(players int, n uint64, input func(p int, t uint64) (trec, bool)) []toyState {
	states := make([]toyState, n+1)
	st := newToyState()
	states[0] = st
	for t := range n {
		in := Inputs{Tick: t, players: players, size: testInputSize}
		for p := range players {
			rec, auto := input(p, t)
			copy(in.in[p][:], rec[:])
			if auto {
				in.auto |= 1 << p
			}
		}
		st.advance(&in)
		states[t+1] = st
	}
	return states
}

// rigBot is the rig's default bot: botInput, idle (zero input) for
// about a quarter of the 16-tick spans, as a real player is, so that a
// prediction of zero (a kicked player's input) is sometimes right.
func rigBot(p int, delay, t uint64) trec {
	if t < delay || mix64(botSeed(p)^0x1d1e^mix64((t-delay)/16))%4 == 0 {
		return trec{}
	}
	return botInput(botSeed(p), delay, t)
}

// ---- The rig: peers with Runners over a netsim.Path, on a manual clock ----

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

// ---- Tests ----

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

// ---- The sync test ----

// syncInput is the sync test's LocalInput: a bot that also checks the
// Runner asks for each tick once, in order.
type syncInput struct {
	tb   testing.TB
	next *uint64
}

func (l syncInput) LocalInput(tick uint64, n int, dst []byte) {
	if tick != *l.next || len(dst) != testInputSize {
		l.tb.Errorf("sync test LocalInput(%d) with %d bytes, want tick %d", tick, len(dst), *l.next)
	}
	*l.next = tick + 1
	rec := rigBot(0, 0, tick)
	copy(dst, rec[:])
}

func syncRef(n uint64) []toyState {
	return reference(1, n, func(_ int, t uint64) (trec, bool) { return rigBot(0, 0, t), false })
}

// newSync makes a sync test of a toy game (a Confirmer) with checkDistance.
func newSync(t *testing.T, checkDistance int) (*syncTest, *toyGame) {
	t.Helper()
	g := newToyGame(t, "synctest")
	var next uint64
	r, err := newSyncTest(confGame{g}, syncInput{t, &next}, syncTestConfig{InputSize: testInputSize, CheckDistance: checkDistance})
	if err != nil {
		t.Fatal(err)
	}
	g.bind(r.runner)
	return r, g
}

// runSync runs frames of 0 to 3 due ticks, 5 at most a frame, until n
// ticks ran or the test fails.
func runSync(r *syncTest, n uint64) {
	for f := uint64(0); r.Head() < n && r.Err() == nil; f++ {
		due := int(mix64(f) % 4)
		due = min(due, int(n-r.Head()-uint64(r.Owed())))
		r.Frame(0, max(due, 0), 5)
	}
}

// A correct game passes: every tick is rolled back over and run again
// CheckDistance times (once the game has run that many), the Confirmer
// hears every tick once with the reference's hash, and the game ends in
// the reference's state.
func TestSyncTestPasses(t *testing.T) {
	const n = 300
	for _, d := range []int{1, 2, 7, maxCheckDistance} {
		r, g := newSync(t, d)
		runSync(r, n)
		if err := r.Err(); err != nil {
			t.Fatalf("d=%d: %v", d, err)
		}
		ref := syncRef(n)
		st := r.Stats()
		rollbacks := int64(n - d + 1) // after each tick t >= d-1: back to t+1-d
		if st.Ticks != n || st.Rollbacks != rollbacks || st.Resimulated != int64(d)*rollbacks || st.MaxRollback != d {
			t.Errorf("d=%d: %+v, want %d ticks, %d rollbacks, %d resimulated", d, st, n, rollbacks, int64(d)*rollbacks)
		}
		if g.advances != n+int64(d)*rollbacks || g.resimulated != st.Resimulated {
			t.Errorf("d=%d: %d Advances, %d resimulated", d, g.advances, g.resimulated)
		}
		if g.st != ref[n] {
			t.Errorf("d=%d: state %+v, reference %+v", d, g.st, ref[n])
		}
		if len(g.conf) != n {
			t.Fatalf("d=%d: the Confirmer heard %d ticks", d, len(g.conf))
		}
		for i, c := range g.conf {
			if !c.ok || c.hash != ref[i+1].hash() || c.in[0] != rigBot(0, 0, uint64(i)) || c.resimulated || c.predicted {
				t.Fatalf("d=%d: tick %d confirmed as %+v, reference hash %016x", d, i, c, ref[i+1].hash())
			}
		}
	}
}

// A game whose Load loses state gets a SyncTestError naming the first
// tick whose hash differs; a game whose Advance is not deterministic is
// caught; after an error the test runs no more ticks.
func TestSyncTestFinds(t *testing.T) {
	const d = 5
	for _, loseAt := range []uint64{0, 1, 37, 38} {
		r, g := newSync(t, d)
		g.lose, g.loseAt = true, loseAt
		runSync(r, 200)
		var e *Error
		if !errors.Is(r.Err(), ErrDesync) || !errors.As(r.Err(), &e) {
			t.Fatalf("Load losing the state before tick %d: err %v", loseAt, r.Err())
		}
		// The first rollback to tick loseAt reruns it from a state
		// without its acc: the state after loseAt+1 ticks differs first.
		ref := syncRef(loseAt + 1)
		want := Error{Reason: ErrDesync, Tick: loseAt + 1, Local: ref[loseAt+1].hash(), Rollback: d}
		if e.Reason != want.Reason || e.Tick != want.Tick || e.Local != want.Local || e.Remote == e.Local || e.Rollback != want.Rollback {
			t.Errorf("Load losing the state before tick %d: %+v, want %+v", loseAt, *e, want)
		}
		// Every tick run again before the one that differed was equal.
		if resim := r.Stats().Resimulated - d; resim != int64(loseAt)*d {
			t.Errorf("Load losing the state before tick %d: %d ticks run again before it, want %d", loseAt, resim, loseAt*d)
		}
		head := r.Head()
		if ran := r.Frame(0, 3, 5); ran != 0 || r.Head() != head || r.Err() != e {
			t.Errorf("after the error: ran %d ticks, err %v", ran, r.Err())
		}
	}
	for _, at := range []uint64{0, 20} {
		r, g := newSync(t, d)
		g.noisy, g.noisyAt = true, at
		runSync(r, 200)
		var e *Error
		if !errors.Is(r.Err(), ErrDesync) || !errors.As(r.Err(), &e) || e.Tick != at+1 {
			t.Errorf("Advance not deterministic at tick %d: err %v, want a sync test ErrDesync at tick %d", at, r.Err(), at+1)
		}
	}
}

// Invalidate keeps the sync test from rolling back across a change of
// the game's state made outside a tick; without it the change is
// reported.
func TestSyncTestInvalidate(t *testing.T) {
	const d, at, n = 4, 50, 120
	for _, invalidate := range []bool{true, false} {
		r, g := newSync(t, d)
		g.recordLoads = true
		runSync(r, at)
		if r.Head() != at || r.Err() != nil {
			t.Fatalf("head %d, err %v", r.Head(), r.Err())
		}
		g.st.pos[0][1] += 1000 // a reset, a setting: outside any tick
		loads := len(g.loaded)
		if invalidate {
			r.Invalidate()
		}
		runSync(r, n)
		if !invalidate {
			var e *Error
			if !errors.Is(r.Err(), ErrDesync) || !errors.As(r.Err(), &e) || e.Tick != at+1 {
				t.Errorf("without Invalidate: err %v, want a sync test ErrDesync at tick %d", r.Err(), at+1)
			}
			continue
		}
		if r.Err() != nil {
			t.Fatalf("with Invalidate: %v", r.Err())
		}
		for _, l := range g.loaded[loads:] {
			if l < at {
				t.Fatalf("rolled back to tick %d across the change at tick %d", l, at)
			}
		}
		// Rollbacks resume once d ticks ran after the change.
		rollbacks := int64(at-d+1) + int64(n-at-d+1)
		if st := r.Stats(); st.Rollbacks != rollbacks || st.Resimulated != d*rollbacks {
			t.Errorf("with Invalidate: %+v, want %d rollbacks", st, rollbacks)
		}
	}
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

// LocalInput: the local input comes from elsewhere in these tests.
func (*toyGame) LocalInput(uint64, int, []byte) {}
