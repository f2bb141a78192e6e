package netplay

import "testing"

// The toy game that the Runner's tests play (see runner_test.go): a
// deterministic game whose state is a hash of every tick's inputs, the
// reference that runs it alone, and the bots' inputs.

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

// LocalInput: the local input comes from elsewhere in these tests.
func (*toyGame) LocalInput(uint64, int, []byte) {}
