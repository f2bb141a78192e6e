package netplay

import (
	"errors"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// paceRig is a lockstep game of two players whose frames come every
// frame (a slow host: a game of many objects on a slow machine), and a
// spectator that joins while it runs. Each endpoint takes its datagrams
// only when it is pumped, as a frame loop does: the players once a frame,
// the spectator every millisecond while it joins (a loop that waits for
// the Welcome and the snapshot without drawing, as netplay/udp's Wait
// lets it) and once a frame after. A spectator's inbox holds at most
// inbox datagrams between two pumps (a socket's buffer): the rest are
// lost.
type paceRig struct {
	t       *testing.T
	net     *netsim.Path
	now     time.Duration
	frame   time.Duration
	inbox   int
	players [2]struct {
		s  *session
		r  *runner
		ep interface {
			Poll(time.Duration, sender)
		}
		in  [][]byte
		frm []string
	}
	bcast    *broadcast
	sp       *spectator
	w        *watcher
	spIn     [][]byte
	lost     int
	chunks   int // snapshot chunks the host sent
	polls    int // host Polls that sent snapshot bytes
	snapSize int
}

func newPaceRig(t *testing.T, snap int, frame time.Duration, inbox int) *paceRig {
	t.Helper()
	net, err := netsim.NewPath(netsim.Conditions{Delay: 200 * time.Microsecond}, 3, netsim.MaxCapacity)
	if err != nil {
		t.Fatal(err)
	}
	rg := &paceRig{t: t, net: net, frame: frame, inbox: inbox, snapSize: snap}
	for i := range 2 {
		var s *session
		if i == 0 {
			s, err = newHost(config{Nonce: 1, InputSize: 1, Players: 2, Delay: 2, Settings: []byte("pace"), Silence: time.Minute}, 0)
		} else {
			s, err = newJoiner(config{Nonce: 2, InputSize: 1, Silence: time.Minute}, addr(0), 0)
		}
		if err != nil {
			t.Fatal(err)
		}
		g := newSpecGame(snap, 2)
		g.seed, g.index = uint64(i+1), i
		for k := range g.fill {
			g.fill[k] = byte(k*7 + k>>8 + 3)
		}
		r, err := newRunner(s, g, g, runnerConfig{Netcode: Lockstep})
		if err != nil {
			t.Fatal(err)
		}
		p := &rg.players[i]
		p.s, p.r, p.ep = s, r, s
		if i == 0 {
			if rg.bcast, err = newBroadcast(r, broadcastConfig{MaxSpectators: 1}); err != nil {
				t.Fatal(err)
			}
			p.ep = rg.bcast
		}
	}
	return rg
}

// run plays until the spectator's Watcher has loaded the snapshot (or
// limit), the spectator saying Hello at joinAt.
func (rg *paceRig) run(joinAt, limit time.Duration) {
	const tick = 20 * time.Millisecond
	deliver := func(from, to string, pkt []byte) {
		b := append([]byte(nil), pkt...)
		switch to {
		case addr(0), addr(1):
			p := &rg.players[addrIndex(to)]
			p.in, p.frm = append(p.in, b), append(p.frm, from)
		default:
			if len(rg.spIn) >= rg.inbox {
				rg.lost++
				return
			}
			rg.spIn = append(rg.spIn, b)
		}
	}
	var start [2]time.Duration
	for ; rg.now < limit; rg.now += time.Millisecond {
		now := rg.now
		rg.net.Deliver(now, deliver)
		if now%rg.frame == 0 {
			for i := range rg.players {
				p := &rg.players[i]
				for k, b := range p.in {
					if i == 0 {
						rg.bcast.Receive(now, p.frm[k], b)
					} else {
						p.s.Receive(now, p.frm[k], b)
					}
				}
				p.in, p.frm = p.in[:0], p.frm[:0]
				if p.s.State() == StateRunning && start[i] == 0 {
					start[i] = now
				}
				due := 0
				if start[i] > 0 {
					due = int((now-start[i])/tick) - int(p.r.Stats().Ticks+p.r.Owed())
				}
				p.r.Frame(now, due, 5)
				sent := false
				p.ep.Poll(now, sendFunc(func(to string, pkt []byte) {
					if _, _, n, ok := specData(pkt); ok && n > 0 {
						rg.chunks++
						sent = true
					}
					rg.net.Send(now, addr(i), to, pkt)
				}))

				if sent {
					rg.polls++
				}
			}
		}
		if now == joinAt {
			var err error
			if rg.sp, err = newSpectator(spectatorConfig{Nonce: 77, InputSize: 1, Silence: time.Minute}, addr(0), now); err != nil {
				rg.t.Fatal(err)
			}
		}
		if rg.sp == nil || (rg.sp.State() > StateJoining && now%rg.frame != 0) {
			continue
		}
		for _, b := range rg.spIn {
			rg.sp.Receive(now, addr(0), b)
		}
		rg.spIn = rg.spIn[:0]
		if rg.w == nil && rg.sp.State() >= StateLobby && rg.sp.Err() == nil {
			var err error
			if rg.w, err = newWatcher(rg.sp, newSpecGame(rg.snapSize, 1)); err != nil {
				rg.t.Fatal(err)
			}
		}
		if rg.w != nil {
			rg.w.Frame(now, 1, 5)
			if rg.w.Loaded() {
				return
			}
		}
		rg.sp.Poll(now, sendFunc(func(to string, pkt []byte) { rg.net.Send(now, addr(10), to, pkt) }))
		if rg.sp.Err() != nil {
			rg.t.Fatalf("spectator: %v", rg.sp.Err())
		}
	}
	rg.t.Fatalf("the spectator has not loaded its snapshot after %v: %+v", limit, rg.sp.Stats())
}

// A late joiner's snapshot of 2.4 MB (the demo's 100,000 balls) goes at
// the pace of acknowledgements, not of the host's frames: with the host
// drawing 10 frames a second and the spectator pumping its socket while it
// joins, it is loaded within a second of the Hello, in a few of the
// host's frames, each chunk sent once on a link that loses nothing.
// (Acknowledged once a host frame, 128 KiB a round, it took 19 frames.)
func TestSnapshotPaceIndependentOfFrames(t *testing.T) {
	const size = 2_400_068
	rg := newPaceRig(t, size, 100*time.Millisecond, 1<<20)
	joinAt := 2 * time.Second
	rg.run(joinAt, 30*time.Second)
	chunks := (size + chunkSize - 1) / chunkSize
	st := rg.sp.Stats()
	t.Logf("joined in %v over %d of the host's frames; %d chunks sent for %d", st.JoinTime, rg.polls, rg.chunks, chunks)
	if st.JoinTime > time.Second || rg.polls > 6 {
		t.Errorf("joined in %v, the snapshot sent over %d host frames: want under 1 s and at most 6", st.JoinTime, rg.polls)
	}
	if rg.chunks != chunks {
		t.Errorf("%d chunks sent for a snapshot of %d: a lossless link needs each once", rg.chunks, chunks)
	}
	if rg.sp.Err() != nil || rg.w.Head() != st.Start {
		t.Errorf("spectator: %v, at tick %d of %d", rg.sp.Err(), rg.w.Head(), st.Start)
	}
}

// A spectator whose socket holds only 300 datagrams between its reads
// loses much of a large window's burst: the host resends only the chunks
// its acknowledgements do not list (resending every chunk past the gap
// sends 45 % more), halves its window and still sends the snapshot within
// 2 s, with under 30 % of the chunks sent again (measured: 1.6 s, 25 %).
func TestSnapshotPaceOverflowingReceiver(t *testing.T) {
	const size = 2_400_068
	rg := newPaceRig(t, size, 100*time.Millisecond, 300)
	rg.run(2*time.Second, 30*time.Second)
	chunks := (size + chunkSize - 1) / chunkSize
	st := rg.sp.Stats()
	t.Logf("joined in %v over %d host frames; %d chunks sent for %d, %d lost", st.JoinTime, rg.polls, rg.chunks, chunks, rg.lost)
	if rg.lost == 0 {
		t.Fatal("the scenario: no datagram was lost")
	}
	if st.JoinTime > 2*time.Second || rg.chunks > chunks*13/10 {
		t.Errorf("joined in %v with %d chunks sent for %d: want at most 2 s and under 1.3 times", st.JoinTime, rg.chunks, chunks)
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
