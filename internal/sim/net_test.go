package sim

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/replay"
)

// netPeer is one machine of a simulated network game: a Sim with its
// session, its address and its frame rate.
type netPeer struct {
	s     *Sim
	sess  *netplay.Session
	spec  *netplay.Spectator // a spectator's, instead of sess
	addr  string
	frame time.Duration
	next  time.Duration
}

func peerAddr(i int) string {
	return fmt.Sprintf("10.0.0.%d:%d", 1+i, 7000+i)
}

// netGame runs a game of n bot players through a simulated network with
// conditions c on one manual clock, a millisecond at a time, until every
// peer is done. frames[i] is peer i's frame interval.
func netGame(t *testing.T, n int, c netsim.Conditions, ticks uint64, frames []time.Duration, record bool) []*netPeer {
	return netGameOpts(t, n, c, ticks, frames, gameOpts{record: record})
}

// gameOpts are the less common choices of a test game.
type gameOpts struct {
	balls    uint32 // 0: 20
	record   bool
	rollback bool
	keys     func(peer int, s *Sim, now time.Duration) []input.Event
	before   func(peer int, s *Sim) // just before each of the peer's frames
	after    func(peer int, s *Sim) // after each of the peer's frames
	// spectateAt, if positive, is when a spectator arrives: the last of
	// the peers returned.
	spectateAt time.Duration
	kickAfter  time.Duration // the host's KickAfter
}

// netConfig is a test peer's session configuration: the host's game
// (players, world, tick limit) on player 0.
func netConfig(i, n int, o gameOpts, world Settings, ticks uint64) netplay.Config {
	c := netplay.Config{Nonce: uint64(100 + i), InputSize: InputSize, Tick: world.Tick, Netcode: netplay.Lockstep}
	if o.rollback {
		c.Netcode = netplay.Rollback
	}
	if i == 0 {
		c.Nonce, c.Players, c.Settings, c.TickLimit, c.KickAfter = 0xabcdef, n, EncodeSettings(world), ticks, o.kickAfter
		if !o.rollback {
			c.Delay = netplay.DefaultDelay
		}
		if o.spectateAt > 0 {
			c.MaxSpectators = 2
		}
	}
	return c
}

func netGameOpts(t *testing.T, n int, c netsim.Conditions, ticks uint64, frames []time.Duration, o gameOpts) []*netPeer {
	if o.balls == 0 {
		o.balls = 20
	}
	t.Helper()
	clock := loop.NewManualClock(0)
	simnet, err := netsim.NewNet(c, 42)
	if err != nil {
		t.Fatal(err)
	}
	port := func(i int) *netsim.Port {
		p, err := simnet.Port(peerAddr(i))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	world := DefaultSettings()
	world.Balls = o.balls
	var peers []*netPeer
	for i := 0; i < n; i++ {
		var sess *netplay.Session
		if i == 0 {
			sess, err = netplay.Host(netConfig(i, n, o, world, ticks), nil, port(i), 0)
		} else {
			sess, err = netplay.Join(netConfig(i, n, o, world, ticks), nil, port(i), peerAddr(0), 0)
		}
		if err != nil {
			t.Fatal(err)
		}
		peers = append(peers, &netPeer{sess: sess, addr: peerAddr(i), frame: frames[i], next: time.Duration(i*3) * time.Millisecond})
	}
	for ms := 0; ; ms++ {
		if ms > 600_000 {
			t.Fatal("the game did not end in 10 simulated minutes")
		}
		now := clock.Now()
		simnet.SetTime(now)
		if o.spectateAt > 0 && now == o.spectateAt {
			sp, err := netplay.Watch(netplay.Config{Nonce: 999, InputSize: InputSize}, nil, port(9), peerAddr(0), now)
			if err != nil {
				t.Fatal(err)
			}
			peers = append(peers, &netPeer{spec: sp, addr: peerAddr(9), frame: 16 * time.Millisecond, next: now})
		}
		done := true
		for i, p := range peers {
			if !p.step(t, i, clock, o) {
				done = false
			}
		}
		if done {
			return peers
		}
		clock.Advance(time.Millisecond)
	}
}

// step is peer i's millisecond: a frame when one is due (the session's
// datagrams in the lobby, before the Sim exists); it reports whether the
// peer is done.
func (p *netPeer) step(t *testing.T, i int, clock *loop.ManualClock, o gameOpts) bool {
	now := clock.Now()
	if p.s == nil {
		if p.spec != nil && p.spec.State() >= netplay.StateLobby && p.spec.Err() == nil {
			s, err := New(Config{Spectate: p.spec}, clock, now)
			if err != nil {
				t.Fatal(err)
			}
			p.s = s
		}
		if p.sess != nil && p.sess.State() >= netplay.StateLobby {
			// The world's settings are known (from the Welcome): the
			// simulation can start.
			bot := o.keys == nil || i != 0
			s, err := New(Config{Net: p.sess, Bot: bot, BotSeed: uint64(7 + i), Record: o.record}, clock, now)
			if err != nil {
				t.Fatal(err)
			}
			p.s = s
		}
	}
	if now < p.next {
		return p.s != nil && p.s.Finished()
	}
	p.next += p.frame
	switch {
	case p.s == nil && p.spec != nil:
		p.spec.Frame(now, 0, 0)
	case p.s == nil:
		p.sess.Frame(now, 0, 0)
	default:
		var evs []input.Event
		if o.keys != nil && i == 0 {
			evs = o.keys(i, p.s, now)
		}
		if o.before != nil {
			o.before(i, p.s)
		}
		p.s.Frame(now, evs)
		if o.after != nil {
			o.after(i, p.s)
		}
	}
	if p.spec != nil && p.spec.Err() != nil {
		t.Fatalf("spectator: %v", p.spec.Err())
	}
	return p.s != nil && p.s.Finished()
}

func TestNetworkGameAgrees(t *testing.T) {
	for _, c := range []struct {
		players int
		cond    netsim.Conditions
		frames  []time.Duration
	}{
		{2, netsim.Conditions{}, []time.Duration{16 * time.Millisecond, 16 * time.Millisecond}},
		{2, netsim.Conditions{Delay: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.1}, []time.Duration{16 * time.Millisecond, 7 * time.Millisecond}},
		{3, netsim.Conditions{Delay: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.1, Duplicate: 0.05, Reorder: 0.05}, []time.Duration{16 * time.Millisecond, 33 * time.Millisecond, 5 * time.Millisecond}},
	} {
		t.Run(fmt.Sprintf("%d players %+v", c.players, c.cond), func(t *testing.T) {
			peers := netGame(t, c.players, c.cond, 300, c.frames, true)
			want := peers[0].s.World().Hash()
			for i, p := range peers {
				if err := p.s.Err(); err != nil {
					t.Errorf("peer %d: %v", i, err)
				}
				if got := p.s.Ticks(); got != 300 {
					t.Errorf("peer %d ran %d ticks, want 300", i, got)
				}
				if got := p.s.World().Hash(); got != want {
					t.Errorf("peer %d ends at %016x, the host at %016x", i, got, want)
				}
				if p.s.World().Players() == 0 {
					t.Errorf("peer %d: no ball was ever a player's (the bots' input did not arrive)", i)
				}
			}
			// Every peer's recording replays alone to the same state.
			for i, p := range peers {
				rec := roundTrip(t, p.s.RecordingSoFar())
				if rec.Settings.Players != uint32(c.players) {
					t.Fatalf("peer %d recorded %d players", i, rec.Settings.Players)
				}
				r := replayAll(t, rec, 10*time.Millisecond, true)
				if err := r.s.Err(); err != nil || !r.s.ReplayOK() || r.s.World().Hash() != want {
					t.Errorf("peer %d's recording replays to %016x (err %v), the game ended at %016x", i, r.s.World().Hash(), err, want)
				}
			}
		})
	}
}

// TestNetworkGameRefusesLocalChanges: a peer cannot change the shared
// world, the speed, the mode, or pause: the others would not follow.
func TestNetworkGameRefusesLocalChanges(t *testing.T) {
	simnet, _ := netsim.NewNet(netsim.Conditions{}, 1)
	port, _ := simnet.Port("host")
	sess, err := netplay.Host(netplay.Config{Nonce: 1, InputSize: InputSize, Tick: DefaultSettings().Tick, Players: 2,
		Settings: EncodeSettings(DefaultSettings()), Delay: netplay.DefaultDelay, Netcode: netplay.Lockstep}, nil, port, 0)
	if err != nil {
		t.Fatal(err)
	}
	clock := loop.NewManualClock(0)
	s, err := New(Config{Net: sess}, clock, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Queue(replay.Command{Kind: replay.CmdReset}) == nil {
		t.Error("a command was queued in a network game")
	}
	if s.SetSpeed(2) == nil || s.SetPaused(true) == nil || s.SetMode(ModeVariable, 0) == nil {
		t.Error("speed, pause or mode changed in a network game")
	}
	if !s.Settings().Lockstep {
		t.Error("a network game discards time debt")
	}
	// In the lobby nothing runs.
	for i := 0; i < 50; i++ {
		clock.Advance(20 * time.Millisecond)
		if f := s.Frame(clock.Now(), nil); f.Ticks != 0 {
			t.Fatalf("a tick ran in the lobby")
		}
	}
}

// TestRollbackGameIsTheLockstepGame: two peers with the rollback netcode
// over a delayed, jittery, lossy network agree, roll back, and end in the
// very state a lockstep game with the same bots reaches: the confirmed
// history is the same game.
func TestRollbackGameIsTheLockstepGame(t *testing.T) {
	cond := netsim.Conditions{Delay: 60 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05}
	frames := []time.Duration{16 * time.Millisecond, 11 * time.Millisecond}
	jumps := 0
	var drawn [2][2]int32 // each peer's other player's ball at the end of its last frame
	rb := netGameOpts(t, 2, cond, 400, frames, gameOpts{record: true, rollback: true, after: func(i int, s *Sim) {
		self := s.Net().Index()
		other := 1 - self
		if pred, corr, ok := s.Misprediction(other); ok {
			// The prediction is what the last frame left: where the
			// ball was drawn from before this frame corrected it.
			if pred != drawn[i] {
				t.Errorf("peer %d: misprediction says the ball was predicted at %v; the last frame left it at %v", i, pred, drawn[i])
			}
			if corr != pred {
				jumps++
			}
			if pred, corr, _ := s.Misprediction(self); pred != corr {
				t.Errorf("peer %d: its own ball jumped from %v to %v: its input is never predicted", i, pred, corr)
			}
		}
		w := s.World()
		drawn[i] = [2]int32{w.Next[2*other], w.Next[2*other+1]}
	}})
	ls := netGameOpts(t, 2, cond, 400, frames, gameOpts{})
	want := ls[0].s.World().Hash()
	if jumps == 0 {
		t.Error("no correction moved the other player's ball: nothing for -rollback-smooth to glide")
	}
	for i, p := range rb {
		if err := p.s.Err(); err != nil {
			t.Fatalf("rollback peer %d: %v", i, err)
		}
		if got := p.s.World().Hash(); got != want {
			t.Errorf("rollback peer %d ends at %016x, the lockstep game at %016x", i, got, want)
		}
		st, ok := p.s.Rollback()
		if !ok || st.Rollbacks == 0 || st.Resimulated < st.Rollbacks || st.PredictionErrors == 0 {
			t.Errorf("rollback peer %d: %d rollbacks, %d ticks resimulated, %d prediction errors (delay %d); want rollbacks",
				i, st.Rollbacks, st.Resimulated, st.PredictionErrors, p.sess.Config().Delay)
		}
		if st.MaxRollback > DefaultMaxPrediction {
			t.Errorf("peer %d rolled back %d ticks, more than the prediction window", i, st.MaxRollback)
		}
		rec := roundTrip(t, p.s.RecordingSoFar())
		r := replayAll(t, rec, 10*time.Millisecond, true)
		if r.s.Err() != nil || r.s.World().Hash() != want {
			t.Errorf("rollback peer %d's recording replays to %016x (%v), want %016x", i, r.s.World().Hash(), r.s.Err(), want)
		}
	}
}

// TestInputLatencyByNetcode measures, on the peer that pressed a key, the
// ticks from the press to the first tick that acts on it: the press falls
// in the span of the tick in progress when it is made (the next to run),
// and that is the tick that acts on it with rollback; lockstep adds the
// input delay (2 ticks).
func TestInputLatencyByNetcode(t *testing.T) {
	for _, c := range []struct {
		rollback bool
		want     int
	}{{false, netplay.DefaultDelay}, {true, 0}} {
		var pressedAt uint64
		state := 0 // 0: not yet, 1: pushed this frame, 2: done
		keys := func(_ int, s *Sim, now time.Duration) []input.Event {
			if state == 0 && s.World().Ticks() >= 50 {
				state = 1
				return []input.Event{{Time: now - time.Millisecond, Button: input.Right, Down: true}}
			}
			return nil
		}
		after := func(_ int, s *Sim) {
			if state == 1 {
				// The frame ran the ticks whose spans ended before the
				// press: the next tick to run is the one it falls in.
				state, pressedAt = 2, s.World().Ticks()
			}
		}
		peers := netGameOpts(t, 2, netsim.Conditions{Delay: 30 * time.Millisecond}, 120, []time.Duration{40 * time.Millisecond, 40 * time.Millisecond},
			gameOpts{rollback: c.rollback, record: true, keys: keys, after: after})
		if state != 2 || peers[0].s.Err() != nil {
			t.Fatalf("rollback=%v: pressed %v, err %v", c.rollback, state, peers[0].s.Err())
		}
		rec := peers[0].s.RecordingSoFar()
		p := rec.Player()
		ins := make([]input.Record, 2)
		first := -1
		for tk := 0; ; tk++ {
			if _, ok := p.NextPlayers(ins); !ok {
				break
			}
			if ins[0].Pressed != 0 {
				first = tk
				break
			}
		}
		if got := first - int(pressedAt); got != c.want {
			t.Errorf("rollback=%v: the press acts %d ticks after the tick it falls in, want %d", c.rollback, got, c.want)
		}
	}
}

// TestRollbackWithFewerBallsThanPlayers: the demo's default, one ball and
// two players (player 1 has no ball to move); corrections must not reach
// for a ball that does not exist.
func TestRollbackWithFewerBallsThanPlayers(t *testing.T) {
	cond := netsim.Conditions{Delay: 60 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05}
	peers := netGameOpts(t, 2, cond, 200, []time.Duration{16 * time.Millisecond, 16 * time.Millisecond}, gameOpts{balls: 1, rollback: true})
	for i, p := range peers {
		if err := p.s.Err(); err != nil {
			t.Errorf("peer %d: %v", i, err)
		}
		if st, _ := p.s.Rollback(); st.Rollbacks == 0 {
			t.Errorf("peer %d: no rollback", i)
		}
	}
	if peers[0].s.World().Hash() != peers[1].s.World().Hash() {
		t.Error("the peers disagree")
	}
}

// TestSpectatorSeesTheGame: a spectator that arrives 3 s into a game gets
// the world at a confirmed tick, then every confirmed tick, and ends in
// the players' state at their last tick, in lockstep and in rollback,
// over a lossy network.
func TestSpectatorSeesTheGame(t *testing.T) {
	cond := netsim.Conditions{Delay: 30 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05}
	for _, rollback := range []bool{false, true} {
		peers := netGameOpts(t, 2, cond, 250, []time.Duration{16 * time.Millisecond, 11 * time.Millisecond},
			gameOpts{rollback: rollback, spectateAt: 3 * time.Second, balls: 300})
		spec := peers[len(peers)-1]
		want := peers[0].s.World().Hash()
		st := spec.spec.Stats()
		if st.Start == 0 {
			t.Errorf("rollback %v: the spectator started at tick 0: it did not join late", rollback)
		}
		for i, p := range peers {
			if got := p.s.World().Hash(); got != want || p.s.World().Ticks() != 250 {
				t.Errorf("rollback %v: peer %d at tick %d with %016x, want 250 and %016x", rollback, i, p.s.World().Ticks(), got, want)
			}
		}
		t.Logf("rollback %v: joined at tick %d in %v (%d bytes of snapshot)", rollback, st.Start, st.JoinTime, st.SnapshotBytes)
	}
}

// TestNetworkFrameAllocatesNothing: once a network game runs, a frame
// allocates nothing, with either netcode, on the host and on the joiner,
// over a network that delays, loses, duplicates and reorders (so that the
// measured frames stall, catch up, roll back and compare hashes).
func TestNetworkFrameAllocatesNothing(t *testing.T) {
	cond := netsim.Conditions{Delay: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.1, Duplicate: 0.05, Reorder: 0.05}
	frames := []time.Duration{5 * time.Millisecond, 7 * time.Millisecond}
	// Three windows of 100 ticks each, after 100 ticks of warm-up. The
	// count is process-wide: a stray allocation of the runtime can land
	// in one window; the least of three is the frames' own (one a frame
	// would show in every window, hundreds of times).
	const warmup, window, windows = 100, 100, 3
	for _, rollback := range []bool{false, true} {
		var (
			ms     runtime.MemStats
			start  uint64
			in     [2]int // the window of the frame in progress, or -1
			allocs [2][windows]uint64
			count  [2][windows]int
		)
		before := func(i int, s *Sim) {
			in[i] = -1
			if tk := s.World().Ticks(); tk >= warmup && tk < warmup+windows*window && s.Net().State() < netplay.StateEnding {
				in[i] = int(tk-warmup) / window
				runtime.ReadMemStats(&ms)
				start = ms.Mallocs
			}
		}
		after := func(i int, _ *Sim) {
			if w := in[i]; w >= 0 {
				runtime.ReadMemStats(&ms)
				allocs[i][w] += ms.Mallocs - start
				count[i][w]++
			}
		}
		peers := netGameOpts(t, 2, cond, warmup+windows*window+50, frames, gameOpts{rollback: rollback, before: before, after: after})
		if st, _ := peers[1].s.Rollback(); rollback && st.Rollbacks < 10 {
			t.Errorf("the joiner rolled back %d times: the measured frames did not roll back", st.Rollbacks)
		}
		for i, role := range []string{"host", "joiner"} {
			least := min(allocs[i][0], allocs[i][1], allocs[i][2])
			if least != 0 {
				t.Errorf("rollback=%v, %s: %d allocations in %v frames (the least of the windows, %v)", rollback, role, least, count[i], allocs[i])
			}
			if count[i][0] < window || count[i][windows-1] < window {
				t.Errorf("rollback=%v, %s: only %v frames measured", rollback, role, count[i])
			}
		}
	}
}

// TestSnapshotSlotsArePresized: the rollback ring's snapshots are sized
// when the game is made, as netplay.Game asks. Otherwise each slot's first
// Save allocates, and a deeper prediction than any before, long after the
// warm-up, reaches a slot for the first time.
func TestSnapshotSlotsArePresized(t *testing.T) {
	checked := [2]bool{}
	before := func(i int, s *Sim) {
		if checked[i] {
			return
		}
		checked[i] = true // before the first frame: no slot holds a state the Runner needs
		g := s.net.game
		// Every slot already holds a world of this size, so a Save into it
		// copies into the memory it has.
		want := s.world.N() * physics.StateBytesPerBall
		for slot := range g.snaps {
			if got := g.snaps[slot].Bytes(); got != want {
				t.Errorf("peer %d: slot %d holds %d bytes before the first Save, want %d", i, slot, got, want)
			}
		}
		// (The count is process-wide: averaged over many runs, a stray
		// allocation of the runtime's does not count.)
		if n := testing.AllocsPerRun(50, func() {
			for slot := range g.snaps {
				g.Save(slot)
			}
		}); n != 0 || len(g.snaps) == 0 {
			t.Errorf("peer %d: a Save into each of %d slots made %v allocations", i, len(g.snaps), n)
		}
	}
	netGameOpts(t, 2, netsim.Conditions{}, 10, []time.Duration{16 * time.Millisecond, 16 * time.Millisecond}, gameOpts{rollback: true, before: before})
}

// TestKickedPlayerRecordingReplays: a slow player is kicked, in lockstep
// and in rollback; the host's recording holds the kicked ball's release
// and replays to the state the game ended in.
func TestKickedPlayerRecordingReplays(t *testing.T) {
	for _, rollback := range []bool{false, true} {
		frames := []time.Duration{16 * time.Millisecond, 16 * time.Millisecond, 300 * time.Millisecond}
		peers := netGameOpts(t, 3, netsim.Conditions{Delay: 10 * time.Millisecond}, 400, frames,
			gameOpts{rollback: rollback, record: true, kickAfter: time.Second})
		host := peers[0]
		if k := host.sess.Stats().Kicks; k != 1 {
			t.Fatalf("rollback %v: %d kicks, want 1", rollback, k)
		}
		want := host.s.World().Hash()
		if peers[1].s.World().Hash() != want {
			t.Errorf("rollback %v: the players disagree", rollback)
		}
		r := replayAll(t, roundTrip(t, host.s.RecordingSoFar()), 10*time.Millisecond, true)
		if err := r.s.Err(); err != nil || !r.s.ReplayOK() || r.s.World().Hash() != want {
			t.Errorf("rollback %v: the host's recording replays to %016x (err %v), the game ended at %016x", rollback, r.s.World().Hash(), err, want)
		}
	}
}
