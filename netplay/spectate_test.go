package netplay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// specGame is a small deterministic game with a state of its own size:
// each player moves a counter by its input; the state also holds filler
// bytes that change every tick, so that snapshots have a size to send.
type specGame struct {
	// lossy, in a spectator's game, makes SetState drop the tick count:
	// the state taken is not the host's.
	lossy bool
	pos   [MaxPlayers]int64
	ticks uint64
	fill  []byte
	slots []specGameState
	seed  uint64 // the bot's seed: player index + 1
	index int
}

type specGameState struct {
	pos   [MaxPlayers]int64
	ticks uint64
	fill  []byte
}

func newSpecGame(fill, slots int) *specGame {
	g := &specGame{fill: make([]byte, fill), slots: make([]specGameState, slots)}
	for i := range g.slots {
		g.slots[i].fill = make([]byte, fill)
	}
	return g
}

func (g *specGame) Advance(in *Inputs) {
	for p := range in.Players() {
		g.pos[p] += int64(int8(in.Input(p)[0]))
	}
	if len(g.fill) > 0 {
		g.fill[g.ticks%uint64(len(g.fill))] ^= byte(g.ticks)
	}
	g.ticks++
}

func (g *specGame) Save(slot int) {
	s := &g.slots[slot]
	s.pos, s.ticks = g.pos, g.ticks
	copy(s.fill, g.fill)
}

func (g *specGame) Load(slot int) {
	s := &g.slots[slot]
	g.pos, g.ticks = s.pos, s.ticks
	copy(g.fill, s.fill)
}

func (g *specGame) Hash() uint64 {
	h := uint64(14695981039346656037)
	for _, b := range g.AppendState(nil) {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return h
}

func (g *specGame) AppendState(dst []byte) []byte {
	for _, p := range g.pos {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(p))
	}
	dst = binary.LittleEndian.AppendUint64(dst, g.ticks)
	return append(dst, g.fill...)
}

func (g *specGame) SetState(b []byte) error {
	if len(b) != 8*MaxPlayers+8+len(g.fill) {
		return fmt.Errorf("state of %d bytes", len(b))
	}
	for p := range g.pos {
		g.pos[p] = int64(binary.LittleEndian.Uint64(b[8*p:]))
	}
	g.ticks = binary.LittleEndian.Uint64(b[8*MaxPlayers:])
	if g.lossy {
		g.ticks = 0
	}
	copy(g.fill, b[8*MaxPlayers+8:])
	return nil
}

// LocalInput: a bot that moves by -2..2, changing every 3 ticks.
func (g *specGame) LocalInput(tick uint64, _ int, dst []byte) {
	dst[0] = byte(int8(mix64(g.seed^(tick/3))%5) - 2)
}

// specPlayer is a player of the spectated game: a session, its Runner,
// its game and its clock.
type specPlayer struct {
	s     *session
	r     *runner
	g     *specGame
	ep    endpoint
	addr  string
	start time.Duration
}

// frame is one frame of the player's loop: the ticks due by its clock
// since its game started (5 a frame at most), then its datagrams.
func (p *specPlayer) frame(now, tick time.Duration, out sender) {
	if p.s.State() == StateRunning && p.start == 0 {
		p.start = now
	}
	due := 0
	if p.start > 0 {
		due = int((now-p.start)/tick) - int(p.r.Stats().Ticks+p.r.Owed())
	}
	p.r.Frame(now, due, 5)
	p.ep.Poll(now, out)
}

// spectated plays a 2-player rollback game of ticks ticks over net, with
// a Broadcast on the host, and a spectator that joins at joinAt; it
// returns the players, the spectator and its Watcher's game when all are
// done. A spectator whose Watcher is done leaves at once, as the demo's
// does (it closes its socket): the host must not have to wait for its
// silence, nor drop it, to end.
func spectated(t *testing.T, c netsim.Conditions, ticks uint64, joinAt time.Duration, fill int, scfg spectatorConfig) ([]*specPlayer, *spectator, *watcher, *specGame) {
	return spectatedLossy(t, c, ticks, joinAt, fill, scfg, false)
}

func spectatedLossy(t *testing.T, c netsim.Conditions, ticks uint64, joinAt time.Duration, fill int, scfg spectatorConfig, lossy bool) ([]*specPlayer, *spectator, *watcher, *specGame) {
	t.Helper()
	players, sp, w, sg, _ := spectatedUntil(t, c, ticks, joinAt, 0, fill, scfg, lossy)
	return players, sp, w, sg
}

// specPlayers makes the two players of a spectated game, host (with
// hostCfg) and joiner, each with its Runner (netcode) and a specGame of
// fill bytes, and the host's Broadcast, serving up to maxSpectators: the
// host's endpoint.
func specPlayers(t *testing.T, hostCfg config, netcode Netcode, fill, maxSpectators int) ([]*specPlayer, *broadcast) {
	t.Helper()
	var players []*specPlayer
	var bcast *broadcast
	for i := range 2 {
		var s *session
		var err error
		if i == 0 {
			s, err = newHost(hostCfg, 0)
		} else {
			s, err = newJoiner(config{Nonce: 2, InputSize: hostCfg.InputSize}, addr(0), 0)
		}
		if err != nil {
			t.Fatal(err)
		}
		g := newSpecGame(fill, maxMaxPrediction+2)
		g.seed, g.index = uint64(i+1), i
		r, err := newRunner(s, g, g, runnerConfig{Netcode: netcode})
		if err != nil {
			t.Fatal(err)
		}
		p := &specPlayer{s: s, r: r, g: g, ep: s, addr: addr(i)}
		if i == 0 {
			if bcast, err = newBroadcast(r, broadcastConfig{MaxSpectators: maxSpectators}); err != nil {
				t.Fatal(err)
			}
			p.ep = bcast
		}
		players = append(players, p)
	}
	return players, bcast
}

// spectatedUntil is spectatedLossy with a spectator that leaves
// (Spectator.Leave) at leaveAt, if not 0, and the host's Broadcast.
func spectatedUntil(t *testing.T, c netsim.Conditions, ticks uint64, joinAt, leaveAt time.Duration, fill int, scfg spectatorConfig, lossy bool) ([]*specPlayer, *spectator, *watcher, *specGame, *broadcast) {
	t.Helper()
	net, err := netsim.NewPath(c, 11, 4096)
	if err != nil {
		t.Fatal(err)
	}
	const tick = 20 * time.Millisecond
	players, bcast := specPlayers(t, config{Nonce: 1, InputSize: 1, Players: 2, TickLimit: ticks, Settings: []byte("spec")}, Rollback, fill, 2)
	specAddr := addr(5)
	var sp *spectator
	var w *watcher
	var sg *specGame
	var now time.Duration
	left := false // the spectator left: it neither receives nor sends
	deliver := func(from, to string, pkt []byte) {
		for _, p := range players {
			if p.addr == to {
				p.ep.Receive(now, from, pkt)
			}
		}
		if sp != nil && !left && to == specAddr {
			sp.Receive(now, from, pkt)
		}
	}
	var specStart, leftAt, freedAt, sessionDoneAt, bcastDoneAt time.Duration
	for ; now < 120*time.Second; now += 5 * time.Millisecond {
		net.Deliver(now, deliver)
		for _, p := range players {
			p.frame(now, tick, sendFunc(func(to string, pkt []byte) { net.Send(now, p.addr, to, pkt) }))
		}
		if sp == nil && now >= joinAt {
			if sp, err = newSpectator(scfg, addr(0), now); err != nil {
				t.Fatal(err)
			}
		}
		if sp != nil && !left {
			if leaveAt > 0 && now >= leaveAt && sp.State() != StateEnded {
				sp.Leave(now)
			}
			if w == nil && sp.State() >= StateLobby && sp.Err() == nil && !(leaveAt > 0 && now >= leaveAt) {
				sg = newSpecGame(fill, 1)
				sg.lossy = lossy
				if w, err = newWatcher(sp, sg); err != nil {
					t.Fatal(err)
				}
			}
			if w != nil {
				if w.Loaded() && specStart == 0 {
					specStart = now
				}
				due := 0
				if specStart > 0 {
					due = 1 // the spectator's loop owes a tick every frame at most
				}
				w.Frame(now, due, 5)
			}
			sp.Poll(now, sendFunc(func(to string, pkt []byte) { net.Send(now, specAddr, to, pkt) }))
			if w != nil && w.Done() && sp.Err() == nil {
				left, leftAt = true, now
			}
			if w == nil && leaveAt > 0 && now >= leaveAt {
				left, leftAt = true, now // it left before it had a Watcher
			}
		}
		if left && freedAt == 0 && bcast.Stats().Spectators == 0 {
			freedAt = now
		}
		if sessionDoneAt == 0 && players[0].s.Done() {
			sessionDoneAt = now
		}
		if bcastDoneAt == 0 && bcast.Done() {
			bcastDoneAt = now
		}
		if players[0].s.Done() && players[1].s.Done() && bcast.Done() && sp != nil && (sp.Err() != nil || left || (w != nil && w.Done())) {
			break
		}
	}
	if left {
		// The host heard that the spectator has the end, or goes: it did
		// not give it up as silent (DefaultSilence), nor serve it long
		// after it left and the players' session ended.
		if d := bcast.Stats().Dropped; d != 0 {
			t.Errorf("the host dropped %d spectators; the one that left told it (it had the end, or said goodbye)", d)
		}
		if end := max(leftAt, sessionDoneAt); bcastDoneAt == 0 || bcastDoneAt-end > 250*time.Millisecond {
			t.Errorf("the host's Broadcast done at %v; the spectator left at %v, the host's session done at %v", bcastDoneAt, leftAt, sessionDoneAt)
		}
		// One that left before the end said goodbye: its slot is freed
		// as soon as the Bye arrives; one that played to the end did not
		// need to. (One whose Bye overtook its Hello, or whose Hellos
		// were lost, was never served: none joined, none left.)
		st := bcast.Stats()
		wantLeft := int64(0)
		if leaveAt > 0 && leftAt >= leaveAt {
			wantLeft = st.Joined
		}
		if st.Left != wantLeft {
			t.Errorf("the host counts %d spectators that left, want %d", st.Left, wantLeft)
		}
		if wantLeft == 1 && (freedAt == 0 || freedAt-leftAt > 250*time.Millisecond) {
			t.Errorf("the spectator left at %v; its slot freed at %v", leftAt, freedAt)
		}
	}
	return players, sp, w, sg, bcast
}

// A spectator that watched the game to its end and left at once (its
// Watcher done, its socket closed) lets the host end with the players'
// session: the host heard it had the end, and did not drop it after its
// silence (spectated checks both). Before, the last ticks, which come with
// the end, went unacknowledged: the host served the spectator for
// DefaultSilence after it left (the demo's host, for its -net-timeout).
func TestHostEndsWhenTheSpectatorLeaves(t *testing.T) {
	for _, c := range []netsim.Conditions{{}, {Delay: 20 * time.Millisecond}, {Delay: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.1}} {
		for _, ticks := range []uint64{100, 301} {
			_, sp, w, _ := spectated(t, c, ticks, 500*time.Millisecond, 0, spectatorConfig{Nonce: 9, InputSize: 1})
			if sp.Err() != nil || w == nil || !w.Done() || w.Head() != ticks {
				t.Fatalf("%+v, %d ticks: spectator %v, %v", c, ticks, sp.Err(), sp.State())
			}
		}
	}
}

// A spectator that arrives while the game runs gets a snapshot, then the
// inputs, and ends in the players' state at the players' last tick,
// over a lossy network; the host never waited for it.
func TestSpectatorJoinsLate(t *testing.T) {
	for _, fill := range []int{0, 5000} {
		c := netsim.Conditions{Delay: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.1, Duplicate: 0.05, Reorder: 0.05}
		players, sp, w, sg := spectated(t, c, 400, 2*time.Second, fill, spectatorConfig{Nonce: 9, InputSize: 1})
		if sp.Err() != nil || w == nil || !w.Done() {
			t.Fatalf("fill %d: spectator %v, state %v", fill, sp.Err(), sp.State())
		}
		st := sp.Stats()
		if st.Start == 0 || st.Start >= 400 {
			t.Errorf("fill %d: the snapshot is of tick %d: the spectator did not join late", fill, st.Start)
		}
		for i, p := range players {
			if p.s.Err() != nil || p.r.Head() != 400 {
				t.Fatalf("player %d: %v at tick %d", i, p.s.Err(), p.r.Head())
			}
		}
		if want := players[0].g.Hash(); sg.Hash() != want || w.Head() != 400 || players[1].g.Hash() != want {
			t.Errorf("fill %d: spectator at tick %d with %016x, players %016x %016x", fill, w.Head(), sg.Hash(), want, players[1].g.Hash())
		}
		if st.SnapshotBytes != 8*MaxPlayers+8+fill {
			t.Errorf("fill %d: snapshot of %d bytes", fill, st.SnapshotBytes)
		}
		t.Logf("fill %d: joined at tick %d in %v, %d bytes received", fill, st.Start, st.JoinTime, st.BytesReceived)
	}
}

// A snapshot larger than the spectator's bound is refused before any of
// it is held; a host with every spectator slot taken turns one away.
func TestSpectatorRefusals(t *testing.T) {
	_, sp, _, _ := spectated(t, netsim.Conditions{}, 200, time.Second, 5000, spectatorConfig{Nonce: 9, InputSize: 1, MaxSnapshot: 4096})
	var tooLarge *Error
	if !errors.As(sp.Err(), &tooLarge) || tooLarge.Reason != ErrTooLarge || tooLarge.Size != 8*MaxPlayers+8+5000 || tooLarge.Limit != 4096 {
		t.Errorf("snapshot over the bound: %v", sp.Err())
	}
	_, sp, _, _ = spectated(t, netsim.Conditions{}, 200, time.Second, 0, spectatorConfig{Nonce: 9, InputSize: 2})
	if !errors.Is(sp.Err(), ErrMismatch) {
		t.Errorf("another input size: %v", sp.Err())
	}
}

// A Runner takes one Broadcast: a second is refused with a one-line error
// wrapping ErrInvalid, as a second Runner on a Session is. A refused
// NewBroadcast (a bad config) takes nothing, and another host's Runner
// takes its own.
func TestBroadcastOnePerRunner(t *testing.T) {
	runner := func() *runner {
		t.Helper()
		host, err := newHost(config{Nonce: 1, InputSize: 1, Players: 2, Delay: DefaultDelay}, 0)
		if err != nil {
			t.Fatal(err)
		}
		g := newSpecGame(0, 2)
		r, err := newRunner(host, g, g, runnerConfig{Netcode: Lockstep})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := runner()
	if _, err := newBroadcast(r, broadcastConfig{MaxSpectators: MaxSpectators + 1}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("MaxSpectators %d: %v", MaxSpectators+1, err)
	}
	if _, err := newBroadcast(r, broadcastConfig{MaxSpectators: 1}); err != nil {
		t.Fatalf("the first Broadcast after a refused one: %v", err)
	}
	for _, c := range []broadcastConfig{{MaxSpectators: 1}, {}} {
		b, err := newBroadcast(r, c)
		if b != nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "Broadcast already") || strings.Contains(err.Error(), "\n") {
			t.Errorf("a second Broadcast (%+v): a Broadcast %t, error %v; want no Broadcast and a one-line error wrapping ErrInvalid", c, b != nil, err)
		}
	}
	if _, err := newBroadcast(runner(), broadcastConfig{MaxSpectators: 1}); err != nil {
		t.Errorf("another host's Broadcast: %v", err)
	}
}

// A snapshot that does not give the state the host announced (here, a
// game whose SetState loses part of it) ends the spectator with a
// SnapshotError; the players play on.
func TestSpectatorSnapshotChecked(t *testing.T) {
	players, sp, _, _ := spectatedLossy(t, netsim.Conditions{}, 200, time.Second, 100, spectatorConfig{Nonce: 9, InputSize: 1}, true)
	var bad *Error
	if !errors.As(sp.Err(), &bad) || bad.Reason != ErrMismatch || bad.Remote == bad.Local {
		t.Errorf("a state that is not the host's: %v", sp.Err())
	}
	for i, p := range players {
		if p.s.Err() != nil || p.r.Head() != 200 {
			t.Errorf("player %d: %v at tick %d", i, p.s.Err(), p.r.Head())
		}
	}
}

// A spectator that leaves before the end (Spectator.Leave) says goodbye:
// the host frees its slot when the Bye arrives and ends with the players'
// session, without dropping it as silent (spectatedUntil checks all
// three), over a clean network, a lossy one and one that copies and
// reorders datagrams (where a Bye counted twice would fail it), loading
// or watching, and shortly before the end, when the host would otherwise
// wait for its silence after the game.
func TestSpectatorLeaves(t *testing.T) {
	for _, c := range []netsim.Conditions{{}, {Delay: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.1},
		{Delay: 40 * time.Millisecond, Jitter: 30 * time.Millisecond, Duplicate: 0.5, Reorder: 0.3}} {
		for _, leaveAt := range []time.Duration{505 * time.Millisecond, 2 * time.Second, 5500 * time.Millisecond} {
			players, sp, w, _, bcast := spectatedUntil(t, c, 301, 500*time.Millisecond, leaveAt, 0, spectatorConfig{Nonce: 9, InputSize: 1}, false)
			if sp.Err() != nil || sp.State() != StateEnded {
				t.Fatalf("%+v, left at %v: spectator %v, %v", c, leaveAt, sp.Err(), sp.State())
			}
			if w != nil && (!w.Done() || w.Head() >= 301) {
				t.Errorf("%+v, left at %v: the Watcher done %v at tick %d: it watched on", c, leaveAt, w.Done(), w.Head())
			}
			for i, p := range players {
				if p.s.Err() != nil || p.r.Head() != 301 {
					t.Errorf("%+v, left at %v: player %d: %v at tick %d", c, leaveAt, i, p.s.Err(), p.r.Head())
				}
			}
			// Leaving at 505 ms, it may not have been served yet: its
			// Hellos lost, or its Bye ahead of them.
			st := bcast.Stats()
			if st.Left != st.Joined || st.Joined > 1 || (st.Joined == 0 && leaveAt > time.Second) || st.Dropped != 0 || st.Spectators != 0 {
				t.Errorf("%+v, left at %v: %+v", c, leaveAt, st)
			}
		}
	}
}

// A Bye frees the slot it names, only that one, and another spectator
// takes it; a Bye from another address, with another token or another
// session ID frees nothing, and copies of one already taken are ignored.
func TestSpectatorByeFreesTheSlot(t *testing.T) {
	s, bcast := lobbyHost(t, 1)
	now := time.Duration(0)
	say := func(sp *spectator, a string) int { return len(polled(sp, now, bcast, a, true)) }
	a, b := newSpec(t, 9, now), newSpec(t, 10, now)
	say(a, addr(5))
	say(b, addr(6))
	if st := bcast.Stats(); st.Spectators != 1 || st.Rejected != 1 {
		t.Fatalf("one slot, two Hellos: %+v", st)
	}
	bye := func(session, token uint64) []byte {
		var buf [MaxPacketSize]byte
		w := specHeader(buf[:], msgSpecBye, session)
		w.u64(token)
		return append([]byte(nil), w.b...)
	}
	bad := s.Stats().BadPackets
	bcast.Receive(now, addr(6), bye(0, 9))                // another address
	bcast.Receive(now, addr(5), bye(0, 10))               // another token
	bcast.Receive(now, addr(5), bye(77, 9))               // another session
	bcast.Receive(now, addr(5), bye(0, 9)[:headerSize+4]) // cut short
	if st := bcast.Stats(); st.Spectators != 1 || st.Left != 0 {
		t.Fatalf("forged Byes freed the slot: %+v", st)
	}
	if got := s.Stats().BadPackets - bad; got != 2 {
		t.Errorf("%d bad packets counted for the session and length forgeries, want 2", got)
	}
	a.Leave(now)
	if n := say(a, addr(5)); n != finalAcks {
		t.Errorf("Leave sent %d Byes, want %d", n, finalAcks)
	}
	if n := say(a, addr(5)); n != 0 {
		t.Errorf("a second Poll after Leave sent %d more", n)
	}
	if st := bcast.Stats(); st.Spectators != 0 || st.Left != 1 || s.Stats().BadPackets-bad != 2 {
		t.Fatalf("after the Bye: %+v, %d bad", st, s.Stats().BadPackets-bad)
	}
	now += helloEvery
	say(b, addr(6))
	if st := bcast.Stats(); st.Spectators != 1 || st.Rejected != 1 || st.Joined != 2 {
		t.Errorf("the freed slot was not taken: %+v", st)
	}
}

// lobbyHost is a host's Session, not started, and its Broadcast, with
// slots spectators' slots.
func lobbyHost(t *testing.T, slots int) (*session, *broadcast) {
	t.Helper()
	s, err := newHost(config{Nonce: 1, InputSize: 1, Players: 2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := newSpecGame(0, maxMaxPrediction+2)
	r, err := newRunner(s, g, g, runnerConfig{Netcode: Rollback})
	if err != nil {
		t.Fatal(err)
	}
	bcast, err := newBroadcast(r, broadcastConfig{MaxSpectators: slots})
	if err != nil {
		t.Fatal(err)
	}
	return s, bcast
}

// newSpec is a Spectator of host addr(0) with the given nonce.
func newSpec(t *testing.T, nonce uint64, now time.Duration) *spectator {
	t.Helper()
	sp, err := newSpectator(spectatorConfig{Nonce: nonce, InputSize: 1}, addr(0), now)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// polled is what sp sends in a Poll at now, each datagram copied; passed
// on to bcast from a when deliver is true.
func polled(sp *spectator, now time.Duration, bcast *broadcast, a string, deliver bool) [][]byte {
	var sent [][]byte
	sp.Poll(now, sendFunc(func(_ string, pkt []byte) {
		pkt = append([]byte(nil), pkt...)
		sent = append(sent, pkt)
		if deliver {
			bcast.Receive(now, a, pkt)
		}
	}))
	return sent
}

// A Hello that arrives after its spectator's Bye, a late copy or one the
// Bye overtook, takes no slot: the host serves nobody, and the slot is
// there for the next spectator at once (before, the late Hello took it,
// was served a snapshot, and held it until its silence, Config.Silence
// later). After Silence the same address and token are served again (a
// Spectator with a fixed Nonce that watches again).
func TestSpectatorLateHelloTakesNoSlot(t *testing.T) {
	for _, overtaken := range []bool{false, true} {
		s, bcast := lobbyHost(t, 1)
		now := time.Duration(0)
		a := newSpec(t, 9, now)
		hello := polled(a, now, bcast, addr(5), !overtaken) // the first Hello
		if len(hello) != 1 {
			t.Fatalf("the first Poll sent %d datagrams, want a Hello", len(hello))
		}
		wantJoined := int64(1)
		if overtaken {
			wantJoined = 0
		}
		if st := bcast.Stats(); st.Joined != wantJoined {
			t.Fatalf("overtaken %v: before the Bye: %+v", overtaken, st)
		}
		now += 10 * time.Millisecond
		a.Leave(now)
		if n := len(polled(a, now, bcast, addr(5), true)); n != finalAcks {
			t.Fatalf("Leave sent %d Byes, want %d", n, finalAcks)
		}
		now += 10 * time.Millisecond
		bcast.Receive(now, addr(5), hello[0]) // late
		if st := bcast.Stats(); st.Spectators != 0 || st.Joined != wantJoined {
			t.Errorf("overtaken %v: a Hello after its Bye: %+v", overtaken, st)
		}
		b := newSpec(t, 10, now)
		polled(b, now, bcast, addr(6), true)
		if st := bcast.Stats(); st.Spectators != 1 || st.Rejected != 0 || st.Joined != wantJoined+1 {
			t.Errorf("overtaken %v: the next spectator: %+v", overtaken, st)
		}
		if got := s.Stats().BadPackets; got != 0 {
			t.Errorf("overtaken %v: %d bad packets", overtaken, got)
		}
		// b leaves; past Silence, a's address and token are a new
		// spectator's.
		b.Leave(now)
		polled(b, now, bcast, addr(6), true)
		now += defaultSilence
		bcast.Receive(now, addr(5), hello[0])
		if st := bcast.Stats(); st.Spectators != 1 || st.Joined != wantJoined+2 {
			t.Errorf("overtaken %v: the same token after Silence: %+v", overtaken, st)
		}
	}
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
