package netplay

import (
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// specRig plays a 2-player rollback game with a Broadcast on the host
// and any number of spectators, on a manual clock (a frame every 5 ms)
// over a netsim.Path, with hooks: filter sees every datagram on arrival (it
// returns the datagram to deliver, or nil to drop it), each spectator has
// its own pacing, and every frame ends with check.
type specRig struct {
	t       *testing.T
	net     *netsim.Path
	now     time.Duration
	tick    time.Duration
	players []*specPlayer
	bcast   *broadcast
	specs   []*rigSpec
	filter  func(from, to string, pkt []byte) []byte
	check   func()
	fill    int
}

type rigSpec struct {
	sp     *spectator
	w      *watcher
	g      *snapCounter
	addr   string
	joinAt time.Duration
	nonce  uint64
	// pace gives the ticks due this frame and maxLoops; frame false
	// skips the Watcher's frame (a stalled loop).
	pace func(now time.Duration) (due, maxLoops int, frame bool)
	// silent stops its Polls (nothing sent).
	silent bool
}

// snapCounter is a spectator's game that counts SetState calls.
type snapCounter struct {
	*specGame
	sets int
}

func (g *snapCounter) SetState(b []byte) error {
	g.sets++
	return g.specGame.SetState(b)
}

func newSpecRig(t *testing.T, c netsim.Conditions, ticks uint64, fill, maxSpecs int) *specRig {
	t.Helper()
	return newSpecRigWith(t, c, ticks, fill, maxSpecs, Rollback, nil)
}

// newSpecRigWith is newSpecRig with a netcode (lockstep: an input delay
// of 2) and, if wrap is set, the game player i's Runner plays made from
// its specGame.
func newSpecRigWith(t *testing.T, c netsim.Conditions, ticks uint64, fill, maxSpecs int, nc Netcode, wrap func(i int, g *specGame) Game) *specRig {
	t.Helper()
	delay := 0
	if nc == Lockstep {
		delay = 2
	}
	net, err := netsim.NewPath(c, 17, 4096)
	if err != nil {
		t.Fatal(err)
	}
	rg := &specRig{t: t, net: net, tick: 20 * time.Millisecond, fill: fill}
	for i := range 2 {
		var s *session
		if i == 0 {
			s, err = newHost(config{Nonce: 1, InputSize: 1, Players: 2, Delay: delay, TickLimit: ticks, Settings: []byte("spec"), Silence: 10 * time.Second}, 0)
		} else {
			s, err = newJoiner(config{Nonce: 2, InputSize: 1, Silence: 10 * time.Second}, addr(0), 0)
		}
		if err != nil {
			t.Fatal(err)
		}
		g := newSpecGame(fill, maxMaxPrediction+2)
		g.seed, g.index = uint64(i+1), i
		for k := range g.fill {
			g.fill[k] = byte(k*7 + k>>8 + 3) // every chunk of a snapshot has content
		}
		var game Game = g
		if wrap != nil {
			game = wrap(i, g)
		}
		r, err := newRunner(s, game, g, runnerConfig{Netcode: nc})
		if err != nil {
			t.Fatal(err)
		}
		p := &specPlayer{s: s, r: r, g: g, ep: s, addr: addr(i)}
		if i == 0 {
			if rg.bcast, err = newBroadcast(r, broadcastConfig{MaxSpectators: maxSpecs}); err != nil {
				t.Fatal(err)
			}
			p.ep = rg.bcast
		}
		rg.players = append(rg.players, p)
	}
	return rg
}

// spectator adds a spectator that says Hello at joinAt, paced by pace
// (nil: a tick every 5 ms frame, 5 at most).
func (rg *specRig) spectator(joinAt time.Duration, pace func(now time.Duration) (int, int, bool)) *rigSpec {
	if pace == nil {
		pace = func(time.Duration) (int, int, bool) { return 1, 5, true }
	}
	n := len(rg.specs)
	s := &rigSpec{addr: addr(10 + n), joinAt: joinAt, nonce: uint64(100 + n), pace: pace}
	rg.specs = append(rg.specs, s)
	return s
}

func (rg *specRig) deliver(from, to string, pkt []byte) {
	if rg.filter != nil {
		if pkt = rg.filter(from, to, pkt); pkt == nil {
			return
		}
	}
	for _, p := range rg.players {
		if p.addr == to {
			p.ep.Receive(rg.now, from, pkt)
		}
	}
	for _, s := range rg.specs {
		if s.sp != nil && s.addr == to {
			s.sp.Receive(rg.now, from, pkt)
		}
	}
}

// run plays until done or limit (simulated time).
func (rg *specRig) run(limit time.Duration, done func() bool) {
	rg.t.Helper()
	for ; rg.now < limit; rg.now += 5 * time.Millisecond {
		now := rg.now
		rg.net.Deliver(now, rg.deliver)
		for _, p := range rg.players {
			if p.s.State() == StateRunning && p.start == 0 {
				p.start = now
			}
			due := 0
			if p.start > 0 {
				due = int((now-p.start)/rg.tick) - int(p.r.Stats().Ticks+p.r.Owed())
			}
			p.r.Frame(now, due, 5)
			p.ep.Poll(now, sendFunc(func(to string, pkt []byte) { rg.net.Send(now, p.addr, to, pkt) }))
		}
		for _, s := range rg.specs {
			if s.sp == nil && now >= s.joinAt {
				var err error
				if s.sp, err = newSpectator(spectatorConfig{Nonce: s.nonce, InputSize: 1, Silence: 10 * time.Second}, addr(0), now); err != nil {
					rg.t.Fatal(err)
				}
			}
			if s.sp == nil {
				continue
			}
			if s.w == nil && s.sp.State() >= StateLobby && s.sp.Err() == nil {
				s.g = &snapCounter{specGame: newSpecGame(rg.fill, 1)}
				var err error
				if s.w, err = newWatcher(s.sp, s.g); err != nil {
					rg.t.Fatal(err)
				}
			}
			if s.w != nil {
				if due, maxLoops, frame := s.pace(now); frame || !s.w.Loaded() {
					s.w.Frame(now, due, maxLoops)
				}
			}
			if !s.silent {
				s.sp.Poll(now, sendFunc(func(to string, pkt []byte) { rg.net.Send(now, s.addr, to, pkt) }))
			}
		}
		if rg.check != nil {
			rg.check()
		}
		if done() {
			return
		}
	}
	rg.t.Fatalf("not done after %v", limit)
}

// allDone: the players' sessions and the Broadcast are done, and every
// spectator ended (its Watcher at the end, or an error).
func (rg *specRig) allDone() bool {
	for _, p := range rg.players {
		if !p.s.Done() {
			return false
		}
	}
	if !rg.bcast.Done() {
		return false
	}
	for _, s := range rg.specs {
		if s.sp == nil || (s.sp.Err() == nil && (s.w == nil || !s.w.Done())) {
			return false
		}
	}
	return true
}

// endsWithPlayers checks that spectator s ended cleanly in the players'
// final state at tick ticks.
func (rg *specRig) endsWithPlayers(s *rigSpec, ticks uint64) {
	rg.t.Helper()
	for i, p := range rg.players {
		if p.s.Err() != nil || p.r.Head() != ticks {
			rg.t.Fatalf("player %d: %v at tick %d", i, p.s.Err(), p.r.Head())
		}
	}
	if s.sp.Err() != nil || s.w == nil || !s.w.Done() {
		rg.t.Fatalf("spectator: %v, state %v", s.sp.Err(), s.sp.State())
	}
	if want := rg.players[0].g.Hash(); s.g.Hash() != want || s.w.Head() != ticks || rg.players[1].g.Hash() != want {
		rg.t.Errorf("spectator at tick %d with %016x, players %016x %016x", s.w.Head(), s.g.Hash(), want, rg.players[1].g.Hash())
	}
}

// specData locates the snapshot chunk in a SpecData datagram: its offset
// in the snapshot, and where its bytes are in pkt (n 0: none).
func specData(pkt []byte) (off, at, n int, ok bool) {
	if len(pkt) < headerSize || msgType(pkt[3]) != msgSpecData {
		return 0, 0, 0, false
	}
	r := reader{b: pkt, off: headerSize}
	r.u32()
	if r.u8()&1 != 0 {
		r.uv()
	}
	r.uv()
	for range int(r.u8()) {
		r.u8()
		r.uv()
	}
	off, n = int(r.uv()), int(r.uv())
	return off, r.off, n, r.err == nil
}

// specAck is a spectator's acknowledgement, as Spectator.Poll writes it.
func specAck(session, token uint64, snapGot, have uint64) []byte {
	var buf [MaxPacketSize]byte
	w := specHeader(buf[:], msgSpecAck, session)
	w.u64(token)
	w.uv(snapGot)
	w.uv(have)
	return append([]byte(nil), w.b...)
}
