package netplay

import (
	"errors"
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

// An acknowledgement claiming more snapshot bytes than the snapshot has
// (a broken or hostile spectator, from its own address and token) is
// ignored: the host neither panics on its resend nor stops sending, and
// the spectator loads the snapshot and ends in the players' state.
func TestSpectatorAckBeyondSnapshotIgnored(t *testing.T) {
	rg := newSpecRig(t, netsim.Conditions{Delay: 10 * time.Millisecond}, 300, 3000, 2)
	s := rg.spectator(time.Second, nil)
	forged := 0
	rg.check = func() {
		if forged < 20 && s.sp != nil && s.sp.welcomed && s.sp.State() == StateJoining && rg.bcast.snapTaken {
			for _, extra := range []uint64{1, 1 << 20} {
				rg.bcast.Receive(rg.now, s.addr, specAck(s.sp.id, s.nonce, uint64(len(rg.bcast.snap))+extra, 0))
			}
			forged++
		}
	}
	rg.run(60*time.Second, rg.allDone)
	if forged == 0 {
		t.Fatal("no acknowledgement was forged: the spectator never waited for its snapshot")
	}
	rg.endsWithPlayers(s, 300)
}

// The spectator limit: a Broadcast serves MaxSpectators spectators and
// turns the next one away at once, whatever the limit (1, the most, 8);
// with MaxSpectators 0 every one is refused ("takes no spectators"); a
// limit outside 0..MaxSpectators is refused by NewBroadcast.
func TestSpectatorLimit(t *testing.T) {
	for _, max := range []int{0, 1, MaxSpectators} {
		rg := newSpecRig(t, netsim.Conditions{Delay: 5 * time.Millisecond}, 150, 100, max)
		for i := range max + 1 {
			rg.spectator(time.Duration(i+1)*200*time.Millisecond, nil)
		}
		rg.run(60*time.Second, rg.allDone)
		for i, s := range rg.specs {
			var dropped *Error
			switch {
			case i < max:
				rg.endsWithPlayers(s, 150)
			case max == 0:
				if !errors.As(s.sp.Err(), &dropped) || !errors.Is(dropped, ErrFull) || dropped.What != "no spectators" {
					t.Errorf("max 0: spectator %d: %v", i, s.sp.Err())
				}
			default:
				if !errors.As(s.sp.Err(), &dropped) || !errors.Is(dropped, ErrFull) || dropped.What != "spectators" {
					t.Errorf("max %d: spectator %d: %v", max, i, s.sp.Err())
				}
			}
			if s.sp.Err() != nil && s.sp.Stats().PacketsSent > 3 {
				t.Errorf("max %d: spectator %d refused after %d Hellos, want at once", max, i, s.sp.Stats().PacketsSent)
			}
		}
		if st := rg.bcast.Stats(); st.Joined != int64(max) || st.Rejected != 1 {
			t.Errorf("max %d: %+v", max, st)
		}
	}
	host, _ := newHost(config{Nonce: 1, InputSize: 1, Players: 2, Delay: DefaultDelay}, 0)
	r, _ := newRunner(host, newSpecGame(0, 2), newSpecGame(0, 2), runnerConfig{Netcode: Lockstep})
	for _, bad := range []int{-1, MaxSpectators + 1} {
		if _, err := newBroadcast(r, broadcastConfig{MaxSpectators: bad}); !errors.Is(err, ErrInvalid) {
			t.Errorf("MaxSpectators %d: %v", bad, err)
		}
	}
}

// A host Session without a Broadcast (no spectators served) answers a
// spectator's Hello with a Reject at once, in the lobby and in the game,
// with a datagram smaller than the Hello; the players go on.
func TestSessionRefusesSpectators(t *testing.T) {
	host, join, carry := running(t)
	for _, when := range []string{"in the game"} {
		sp, _ := newSpectator(spectatorConfig{Nonce: 7, InputSize: testInputSize}, addr(0), 100*ms)
		var sizes []int
		for now := 100 * ms; now < 200*ms && sp.Err() == nil; now += ms {
			sp.Poll(now, sendFunc(func(_ string, p []byte) { host.Receive(now, addr(5), p) }))
			host.Poll(now, sendFunc(func(to string, p []byte) {
				if to == addr(5) {
					sizes = append(sizes, len(p))
					sp.Receive(now, addr(0), p)
				}
			}))

			carry(now, false)
		}
		var dropped *Error
		if !errors.As(sp.Err(), &dropped) || !errors.Is(dropped, ErrFull) || dropped.What != "no spectators" || len(sizes) != 1 || sizes[0] >= helloSize {
			t.Errorf("%s: %v, answers of %v bytes", when, sp.Err(), sizes)
		}
	}
	if host.Err() != nil || join.Err() != nil || host.Stats().BadPackets != 0 {
		t.Errorf("players: %v %v, %d bad packets", host.Err(), join.Err(), host.Stats().BadPackets)
	}
	lobby, _ := newHost(config{Nonce: 1, InputSize: testInputSize, Players: 2, Delay: DefaultDelay}, 0)
	sp, _ := newSpectator(spectatorConfig{Nonce: 7, InputSize: testInputSize}, addr(0), 0)
	for now := time.Duration(0); now < 50*ms && sp.Err() == nil; now += ms {
		sp.Poll(now, sendFunc(func(_ string, p []byte) { lobby.Receive(now, addr(5), p) }))
		lobby.Poll(now, sendFunc(func(_ string, p []byte) { sp.Receive(now, addr(0), p) }))
	}
	if !errors.Is(sp.Err(), ErrFull) {
		t.Errorf("in the lobby: %v", sp.Err())
	}
}

// A lost snapshot chunk is sent again: the second chunk of the snapshot
// is dropped the first time (the chunks after it arrive), and the
// spectator still loads the host's state and ends in the players'.
func TestSpectatorLostChunkResent(t *testing.T) {
	rg := newSpecRig(t, netsim.Conditions{Delay: 10 * time.Millisecond}, 300, 5000, 2)
	s := rg.spectator(time.Second, nil)
	dropped, after := 0, 0
	rg.filter = func(from, to string, pkt []byte) []byte {
		if off, _, n, ok := specData(pkt); ok && n > 0 {
			switch {
			case off == chunkSize && dropped == 0:
				dropped++
				return nil
			case off > chunkSize && dropped == 1:
				after++
			}
		}
		return pkt
	}
	rg.run(60*time.Second, rg.allDone)
	if dropped != 1 || after == 0 {
		t.Fatalf("the scenario: %d chunks dropped, %d after it arrived", dropped, after)
	}
	rg.endsWithPlayers(s, 300)
}

// A corrupted snapshot chunk (one byte flipped, the datagram otherwise
// well formed) is refused by the snapshot's own checksum before the
// game's state is set: a SnapshotError naming the checksum the host
// announced, and SetState never called.
func TestSpectatorCorruptChunkRefused(t *testing.T) {
	rg := newSpecRig(t, netsim.Conditions{Delay: 10 * time.Millisecond}, 300, 5000, 2)
	s := rg.spectator(time.Second, nil)
	corrupted := 0
	rg.filter = func(from, to string, pkt []byte) []byte {
		if _, at, n, ok := specData(pkt); ok && n > 0 && corrupted == 0 {
			corrupted++
			pkt = append([]byte(nil), pkt...)
			pkt[at+n/2] ^= 0x40
		}
		return pkt
	}
	rg.run(60*time.Second, rg.allDone)
	var bad *Error
	if corrupted != 1 || !errors.As(s.sp.Err(), &bad) || bad.Reason != ErrMismatch || bad.Remote != rg.bcast.snapSum || bad.Local == bad.Remote {
		t.Fatalf("%d chunks corrupted: %v (announced %016x)", corrupted, s.sp.Err(), rg.bcast.snapSum)
	}
	if s.g == nil || s.g.sets != 0 {
		t.Errorf("SetState called on a corrupted snapshot")
	}
	for i, p := range rg.players {
		if p.s.Err() != nil || p.r.Head() != 300 {
			t.Errorf("player %d: %v at tick %d", i, p.s.Err(), p.r.Head())
		}
	}
}

// A watcher whose loop owes ticks at real time (one per tick of the
// clock, no faster) and joins late, with a snapshot that takes a while,
// catches up with the players: from a second after its snapshot on, it is
// never more than a tick behind what the host had confirmed (it loaded
// the snapshot a round trip before the ticks since came).
func TestWatcherAtRealTimeCatchesUp(t *testing.T) {
	// A snapshot of two rounds of acknowledgements (more than
	// snapshotWindow), 100 ms each way: the watcher starts well behind.
	rg := newSpecRig(t, netsim.Conditions{Delay: 100 * time.Millisecond}, 600, snapshotWindow+50000, 2)
	var start time.Duration
	var played int64
	s := rg.spectator(2*time.Second, func(now time.Duration) (int, int, bool) {
		if start == 0 {
			start = now
		}
		due := int64((now-start)/rg.tick) - played
		played += due
		return int(due), 5, true
	})
	worst, checked := int64(0), 0
	rg.check = func() {
		if s.w == nil || !s.w.Loaded() || s.sp.over() || rg.now < s.sp.loadedAt+time.Second {
			return
		}
		checked++
		worst = max(worst, s.w.Behind())
	}
	rg.run(60*time.Second, rg.allDone)
	rg.endsWithPlayers(s, 600)
	if st := s.sp.Stats(); st.JoinTime < 300*time.Millisecond {
		t.Fatalf("the scenario: the snapshot took %v, not two round trips", st.JoinTime)
	}
	if checked < 100 || worst > 1 {
		t.Errorf("the watcher was up to %d ticks behind the host's confirmed ticks (%d frames checked)", worst, checked)
	}
	t.Logf("joined at tick %d in %v; at most %d behind", s.sp.Stats().Start, s.sp.Stats().JoinTime, worst)
}

// A spectator whose loop stalls (it still acknowledges what it holds, so
// it is not silent) is dropped by the host before the host's input log
// wraps over the ticks it still needs: at every frame a served spectator
// lacks no tick older than the log's margin, and it ends with a
// DroppedError ("too far behind"); the players are not held back.
func TestStalledSpectatorDroppedBeforeLogWraps(t *testing.T) {
	rg := newSpecRig(t, netsim.Conditions{Delay: 5 * time.Millisecond}, spectatorLog+1500, 0, 2)
	rg.tick = 5 * time.Millisecond
	stallAt := uint64(200)
	s := rg.spectator(100*time.Millisecond, nil)
	s.pace = func(now time.Duration) (int, int, bool) {
		return 1, 5, s.w == nil || s.w.Head() < stallAt
	}
	worst := uint64(0)
	rg.check = func() {
		b := rg.bcast
		for i := range b.specs {
			if sp := &b.specs[i]; sp.used && sp.bound {
				worst = max(worst, b.logged-min(b.logged, sp.start+sp.have))
			}
		}
	}
	rg.run(120*time.Second, rg.allDone)
	var dropped *Error
	if !errors.As(s.sp.Err(), &dropped) || !errors.Is(dropped, ErrBehind) {
		t.Fatalf("stalled spectator: %v", s.sp.Err())
	}
	if s.w.Head() != stallAt || rg.bcast.Stats().Dropped != 1 {
		t.Errorf("the scenario: the watcher stalled at %d, %d dropped", s.w.Head(), rg.bcast.Stats().Dropped)
	}
	if worst >= spectatorLog-spectatorWindow {
		t.Errorf("a served spectator lacked ticks %d behind the host's log (it keeps %d, a spectator is sent up to %d ahead of its acknowledgement)", worst, spectatorLog, spectatorWindow)
	}
	for i, p := range rg.players {
		if p.s.Err() != nil || p.r.Head() != spectatorLog+1500 {
			t.Errorf("player %d: %v at tick %d", i, p.s.Err(), p.r.Head())
		}
	}
}

// A watcher slower than its data (a tick every other frame, at most one,
// while the host confirms two a frame: it falls more than its buffer
// behind) never has a tick it has not played overwritten: it plays every
// tick with the players' inputs, and ends in their state.
func TestSlowWatcherNeverOverwritten(t *testing.T) {
	const ticks = 2 * spectatorWindow
	rg := newSpecRig(t, netsim.Conditions{Delay: 5 * time.Millisecond}, ticks, 0, 2)
	rg.tick = 5 * time.Millisecond / 2
	frame := 0
	s := rg.spectator(100*time.Millisecond, func(now time.Duration) (int, int, bool) {
		frame++
		return 1, 1, frame%2 == 0
	})
	most := int64(0)
	rg.check = func() {
		if s.w != nil && s.w.Loaded() {
			most = max(most, s.w.Behind())
		}
	}
	rg.run(120*time.Second, rg.allDone)
	if most <= spectatorWindow {
		t.Fatalf("the scenario: the watcher was at most %d ticks behind, not more than its buffer (%d)", most, spectatorWindow)
	}
	rg.endsWithPlayers(s, ticks)
}
