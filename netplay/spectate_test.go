package netplay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
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
	s     *Session
	r     *Runner
	g     *specGame
	ep    endpoint
	addr  Addr
	start time.Duration
}

type endpoint interface {
	Receive(now time.Duration, from Addr, pkt []byte)
	Poll(now time.Duration, out Sender)
}

// spectated plays a 2-player rollback game of ticks ticks over net, with
// a Broadcast on the host, and a spectator that joins at joinAt; it
// returns the players, the spectator and its Watcher's game when all are
// done. A spectator whose Watcher is done leaves at once, as the demo's
// does (it closes its socket): the host must not have to wait for its
// silence, nor drop it, to end.
func spectated(t *testing.T, c Conditions, ticks uint64, joinAt time.Duration, fill int, scfg SpectatorConfig) ([]*specPlayer, *Spectator, *Watcher, *specGame) {
	return spectatedLossy(t, c, ticks, joinAt, fill, scfg, false)
}

func spectatedLossy(t *testing.T, c Conditions, ticks uint64, joinAt time.Duration, fill int, scfg SpectatorConfig, lossy bool) ([]*specPlayer, *Spectator, *Watcher, *specGame) {
	t.Helper()
	net, err := NewNetSim(c, 11, 4096)
	if err != nil {
		t.Fatal(err)
	}
	const tick = 20 * time.Millisecond
	var players []*specPlayer
	var bcast *Broadcast
	for i := range 2 {
		var s *Session
		if i == 0 {
			s, err = NewHost(Config{Nonce: 1, InputSize: 1, Players: 2, TickLimit: ticks, Settings: []byte("spec")}, 0)
		} else {
			s, err = NewJoiner(Config{Nonce: 2, InputSize: 1}, addr(0), 0)
		}
		if err != nil {
			t.Fatal(err)
		}
		g := newSpecGame(fill, MaxMaxPrediction+2)
		g.seed, g.index = uint64(i+1), i
		r, err := NewRunner(s, g, g, RunnerConfig{Netcode: Rollback})
		if err != nil {
			t.Fatal(err)
		}
		p := &specPlayer{s: s, r: r, g: g, ep: s, addr: addr(i)}
		if i == 0 {
			if bcast, err = NewBroadcast(r, BroadcastConfig{MaxSpectators: 2}); err != nil {
				t.Fatal(err)
			}
			p.ep = bcast
		}
		players = append(players, p)
	}
	specAddr := addr(5)
	var sp *Spectator
	var w *Watcher
	var sg *specGame
	var now time.Duration
	left := false // the spectator left: it neither receives nor sends
	deliver := func(from, to Addr, pkt []byte) {
		for _, p := range players {
			if p.addr == to {
				p.ep.Receive(now, from, pkt)
			}
		}
		if sp != nil && !left && to == specAddr {
			sp.Receive(now, from, pkt)
		}
	}
	var specStart, leftAt, sessionDoneAt, bcastDoneAt time.Duration
	for ; now < 120*time.Second; now += 5 * time.Millisecond {
		net.Deliver(now, deliver)
		for _, p := range players {
			if p.s.State() == StateRunning && p.start == 0 {
				p.start = now
			}
			due := 0
			if p.start > 0 {
				due = int((now-p.start)/tick) - int(p.r.Stats().Ticks+p.r.Owed())
			}
			p.r.Frame(now, due, 5)
			p.ep.Poll(now, SendFunc(func(to Addr, pkt []byte) { net.Send(now, p.addr, to, pkt) }))
		}
		if sp == nil && now >= joinAt {
			if sp, err = NewSpectator(scfg, addr(0), now); err != nil {
				t.Fatal(err)
			}
		}
		if sp != nil && !left {
			if w == nil && sp.State() >= StateLobby && sp.Err() == nil {
				sg = newSpecGame(fill, 1)
				sg.lossy = lossy
				if w, err = NewWatcher(sp, sg); err != nil {
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
			sp.Poll(now, SendFunc(func(to Addr, pkt []byte) { net.Send(now, specAddr, to, pkt) }))
			if w != nil && w.Done() && sp.Err() == nil {
				left, leftAt = true, now
			}
		}
		if sessionDoneAt == 0 && players[0].s.Done() {
			sessionDoneAt = now
		}
		if bcastDoneAt == 0 && bcast.Done() {
			bcastDoneAt = now
		}
		if players[0].s.Done() && players[1].s.Done() && bcast.Done() && sp != nil && (sp.Err() != nil || (w != nil && w.Done())) {
			break
		}
	}
	if left {
		// The host heard that the spectator has the end: it did not
		// give it up as silent (DefaultSilence), nor serve it long after
		// it left and the players' session ended.
		if d := bcast.Stats().Dropped; d != 0 {
			t.Errorf("the host dropped %d spectators; the one that left at the end had the whole game", d)
		}
		if end := max(leftAt, sessionDoneAt); bcastDoneAt == 0 || bcastDoneAt-end > 250*time.Millisecond {
			t.Errorf("the host's Broadcast done at %v; the spectator left at %v, the host's session done at %v", bcastDoneAt, leftAt, sessionDoneAt)
		}
	}
	return players, sp, w, sg
}

// A spectator that watched the game to its end and left at once (its
// Watcher done, its socket closed) lets the host end with the players'
// session: the host heard it had the end, and did not drop it after its
// silence (spectated checks both). Before, the last ticks, which come with
// the end, went unacknowledged: the host served the spectator for
// DefaultSilence after it left (the demo's host, for its -net-timeout).
func TestHostEndsWhenTheSpectatorLeaves(t *testing.T) {
	for _, c := range []Conditions{{}, {Delay: 20 * time.Millisecond}, {Delay: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.1}} {
		for _, ticks := range []uint64{100, 301} {
			_, sp, w, _ := spectated(t, c, ticks, 500*time.Millisecond, 0, SpectatorConfig{Nonce: 9, InputSize: 1})
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
		c := Conditions{Delay: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.1, Duplicate: 0.05, Reorder: 0.05}
		players, sp, w, sg := spectated(t, c, 400, 2*time.Second, fill, SpectatorConfig{Nonce: 9, InputSize: 1})
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
	_, sp, _, _ := spectated(t, Conditions{}, 200, time.Second, 5000, SpectatorConfig{Nonce: 9, InputSize: 1, MaxSnapshot: 4096})
	var tooLarge *SnapshotTooLargeError
	if !errors.As(sp.Err(), &tooLarge) || tooLarge.Size != 8*MaxPlayers+8+5000 || tooLarge.Max != 4096 {
		t.Errorf("snapshot over the bound: %v", sp.Err())
	}
	_, sp, _, _ = spectated(t, Conditions{}, 200, time.Second, 0, SpectatorConfig{Nonce: 9, InputSize: 2})
	var mismatch *MismatchError
	if !errors.As(sp.Err(), &mismatch) {
		t.Errorf("another input size: %v", sp.Err())
	}
}

// A Runner takes one Broadcast: a second is refused with a one-line error
// wrapping ErrInvalid, as a second Runner on a Session is. A refused
// NewBroadcast (a bad config) takes nothing, and another host's Runner
// takes its own.
func TestBroadcastOnePerRunner(t *testing.T) {
	runner := func() *Runner {
		t.Helper()
		host, err := NewHost(Config{Nonce: 1, InputSize: 1, Players: 2, Delay: DefaultDelay}, 0)
		if err != nil {
			t.Fatal(err)
		}
		g := newSpecGame(0, 2)
		r, err := NewRunner(host, g, g, RunnerConfig{Netcode: Lockstep})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := runner()
	if _, err := NewBroadcast(r, BroadcastConfig{MaxSpectators: MaxSpectators + 1}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("MaxSpectators %d: %v", MaxSpectators+1, err)
	}
	if _, err := NewBroadcast(r, BroadcastConfig{MaxSpectators: 1}); err != nil {
		t.Fatalf("the first Broadcast after a refused one: %v", err)
	}
	for _, c := range []BroadcastConfig{{MaxSpectators: 1}, {}} {
		b, err := NewBroadcast(r, c)
		if b != nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "Broadcast already") || strings.Contains(err.Error(), "\n") {
			t.Errorf("a second Broadcast (%+v): a Broadcast %t, error %v; want no Broadcast and a one-line error wrapping ErrInvalid", c, b != nil, err)
		}
	}
	if _, err := NewBroadcast(runner(), BroadcastConfig{MaxSpectators: 1}); err != nil {
		t.Errorf("another host's Broadcast: %v", err)
	}
}

// A snapshot that does not give the state the host announced (here, a
// game whose SetState loses part of it) ends the spectator with a
// SnapshotError; the players play on.
func TestSpectatorSnapshotChecked(t *testing.T) {
	players, sp, _, _ := spectatedLossy(t, Conditions{}, 200, time.Second, 100, SpectatorConfig{Nonce: 9, InputSize: 1}, true)
	var bad *SnapshotError
	if !errors.As(sp.Err(), &bad) || bad.Want == bad.Got {
		t.Errorf("a state that is not the host's: %v", sp.Err())
	}
	for i, p := range players {
		if p.s.Err() != nil || p.r.Head() != 200 {
			t.Errorf("player %d: %v at tick %d", i, p.s.Err(), p.r.Head())
		}
	}
}
