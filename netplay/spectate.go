package netplay

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/bits"
	"time"
)

// Spectators watch a game: they receive the confirmed inputs from the
// host, send none, and never make the players wait. A spectator that
// arrives while the game runs first receives a snapshot of the game's
// state at a confirmed tick (through the game's Snapshotter), chunked,
// acknowledged and checked against its hash, then the inputs from that
// tick on.
//
// The snapshot's pace is set by acknowledgements, not by frames: the
// host keeps up to a window of snapshot bytes in flight beyond what the
// spectator has in order (256 KiB at first, growing by what each
// acknowledgement acknowledges up to 1 MiB, halved when chunks are lost),
// sends all the window allows at each Poll, and, once nothing new has been
// acknowledged for specResend, resends only the chunks that the
// spectator's acknowledgements do not list (a bitmap of the chunks it
// holds past its first gap). A spectator stays StateJoining
// until the whole snapshot is in, so that a caller that pumps its socket
// while the spectator joins (as it waits for the Welcome, without drawing
// frames) receives the snapshot as fast as datagrams come; a 2.4 MB
// snapshot then takes a few of the host's frames.
//
// The ticks go out as the players confirm them, up to 1,024 past what
// the spectator acknowledged, and a spectator takes them in order only.
// The host times each spectator's round trip (from its Welcome, then
// from datagrams of new ticks, as TCP does: RFC 6298), and sends the
// ticks from the first one not acknowledged again when an
// acknowledgement comes a round trip and a quarter after that tick went
// out without it (a spectator acknowledges at once when ticks arrive
// past a gap), or when none comes for a round trip and a half (doubled
// at each such time out until the next round trip measured).
//
// On the host, a Broadcast wraps the host's Session and its Runner: pass
// the Broadcast, not the Session, to the transport (netplay/udp's Conn
// takes either), and it serves up to MaxSpectators spectators besides the
// players. A spectator is a Spectator (the transport's endpoint) and a
// Watcher (it plays the game it receives, like a Runner).
//
// Spectator messages (the header as in the package documentation):
//
//	type        from       body
//	SpecHello   spectator  u64 token; zeros up to HelloSize bytes in all
//	SpecWelcome host       u64 token, u8 players, u8 input size, uv tick limit,
//	                       uv start tick, uv snapshot size, u64 snapshot FNV-64a,
//	                       u64 state hash at the start tick, uv settings length, the settings
//	SpecReject  host       u64 token, u8 reason (1 full, 2 dropped: too far behind)
//	SpecData    host       u32 sequence, u8 flags (bit 0 end), [end] uv end tick,
//	                       uv ticks confirmed, u8 kicks, each: u8 player, uv first autonomous tick,
//	                       uv snapshot offset, uv chunk length, the chunk,
//	                       uv first tick, u8 ticks, each: players × input size bytes
//	SpecAck     spectator  u64 token, uv snapshot bytes received (in order, from 0),
//	                       uv ticks received, [u8 n (0..128), n bytes: bit i of the
//	                       bitmap (byte i/8, bit i%8) says chunk first+1+i is held,
//	                       where first is the chunk at the bytes received]
//	SpecBye     spectator  u64 token: it goes; the header's session ID is the
//	                       Welcome's, or 0 before it (Spectator.Leave)

const (
	msgSpecHello   msgType = 6
	msgSpecWelcome msgType = 7
	msgSpecReject  msgType = 8
	msgSpecData    msgType = 9
	msgSpecAck     msgType = 10
	msgSpecBye     msgType = 11
)

// Spectator limits and defaults.
const (
	// MaxSpectators is the most spectators a Broadcast serves.
	MaxSpectators = 8
	// defaultMaxSnapshot bounds the snapshot a Spectator accepts when
	// SpectatorConfig.MaxSnapshot is 0.
	defaultMaxSnapshot = 64 << 20
	// maxSnapshotWire is the largest snapshot the wire describes, 1 TiB:
	// larger sizes are garbage.
	maxSnapshotWire = 1 << 40
	// spectatorLog is the number of confirmed ticks a Broadcast keeps: a
	// spectator further behind is dropped.
	spectatorLog = 4096
	// spectatorWindow is the most ticks a Broadcast sends ahead of what a
	// spectator acknowledged, and the ticks a Spectator buffers.
	spectatorWindow = 1024
	// snapshotWindow is the snapshot bytes a host first keeps in flight
	// beyond what a spectator has in order; the window grows by what
	// each acknowledgement acknowledges, up to maxSnapshotWindow, and is
	// halved (down to minSnapshotWindow) when chunks are lost.
	snapshotWindow    = 256 * chunkSize
	minSnapshotWindow = 64 * chunkSize
	maxSnapshotWindow = 1024 * chunkSize
	// sackBytes is the most bytes of an acknowledgement's bitmap: a
	// chunk a bit past the first gap, the largest window's worth.
	sackBytes  = maxSnapshotWindow / chunkSize / 8
	chunkSize  = 1024
	specResend = 50 * time.Millisecond
)

const (
	specRejectFull    = 1
	specRejectDropped = 2
	specRejectNone    = 3 // the host serves no spectators
)

// specHelloToken reports whether pkt is a well-formed spectator's Hello,
// and its token.
func specHelloToken(pkt []byte) (uint64, bool) {
	if len(pkt) != helloSize || pkt[0] != magic0 || pkt[1] != magic1 || pkt[2] != protocolVersion ||
		msgType(pkt[3]) != msgSpecHello || binary.LittleEndian.Uint64(pkt[4:]) != 0 {
		return 0, false
	}
	token := binary.LittleEndian.Uint64(pkt[headerSize:])
	return token, token != 0
}

// A Snapshotter is a Game that can be copied to a spectator joining a
// game in progress: the bytes of its whole state, and the state taken
// from such bytes (on a game made from the same settings).
type Snapshotter interface {
	AppendState(dst []byte) []byte
	SetState(b []byte) error
}

// Snapshot appends the game's state at the last confirmed tick to dst,
// and returns that tick and the game's hash there. With Lockstep the
// game is there; with Rollback it is loaded from the tick's save, copied,
// and the game runs the ticks since again (as a rollback would). The game
// must be a Snapshotter.
func (r *runner) Snapshot(dst []byte) (b []byte, tick, hash uint64, err error) {
	snap, ok := r.game.(Snapshotter)
	if !ok || r.s == nil {
		return dst, 0, 0, fmt.Errorf("netplay: %w: the game is not a Snapshotter, or the Runner has no session", ErrInvalid)
	}
	c, head := r.s.NextTick(), r.head
	if head == c {
		return snap.AppendState(dst), c, r.game.Hash(), nil
	}
	// Tick c is not confirmed, so it ran on a prediction: saved.
	r.game.Load(r.slot(c))
	dst, hash = snap.AppendState(dst), r.game.Hash()
	for t := c; t < head; t++ {
		r.tick(t, true)
	}
	return dst, c, hash, nil
}

// broadcastConfig sets up a Broadcast.
type broadcastConfig struct {
	// MaxSpectators is the most spectators served at once,
	// 0..MaxSpectators.
	MaxSpectators int
	// Silence is how long a spectator may send nothing before its slot
	// is freed (default: the host Session's Config.Silence).
	Silence time.Duration
}

// broadcastStats are a Broadcast's counts.
type broadcastStats struct {
	Spectators    int   // served now
	Joined        int64 // spectators welcomed
	Rejected      int64 // turned away: every slot taken
	Dropped       int64 // too far behind, or silent
	Left          int64 // said they go (Spectator.Leave): their slots freed at once
	Snapshots     int64 // snapshots taken
	SnapshotBytes int   // the size of the last
	BytesSent     int64
}

// A broadcast is a host's Session with spectators: it passes the players'
// datagrams to the Session and serves the spectators itself, from the
// confirmed inputs the Session holds and snapshots the Runner takes.
type broadcast struct {
	s   *session
	r   *runner
	cfg broadcastConfig

	log    [][MaxPlayers]record // confirmed inputs by tick % spectatorLog
	logged uint64               // ticks in the log

	specs [MaxSpectators]specPeer
	snap  []byte
	// The snapshot's tick and hashes; snapFor is the number of spectators
	// still loading it.
	snapTick, snapSum, snapHash uint64
	snapTaken                   bool

	rejects  [4]rejectTo
	nRejects int

	// gone: the spectators that said Bye, so that a copy of a Hello
	// arriving after its Bye, or a Hello that its Bye overtook, takes no
	// slot: before, it took one and was served a snapshot until its
	// silence freed it.
	gone departed

	buf [MaxPacketSize]byte
	st  broadcastStats
}

type specPeer struct {
	used      bool
	addr      string
	token     uint64
	welcome   bool // a Welcome is due
	lastHeard time.Duration
	lastSent  time.Duration
	seq       uint32
	bound     bool   // it has its snapshot: the one being sent
	start     uint64 // the snapshot's tick
	snapAcked int    // snapshot bytes acknowledged in order, from 0
	// sack: the chunks past snapAcked's acknowledged out of order; bit
	// i is chunk snapAcked/chunkSize+1+i.
	sack     [sackBytes / 8]uint64
	snapSent int           // the next snapshot byte never sent
	resendAt int           // the next byte the resend after a loss looks at
	window   int           // snapshot bytes allowed in flight past snapAcked
	grown    int           // the window after the last loss: it grows slowly from there
	snapAt   time.Duration // when snapshot bytes last went out
	ackAt    time.Duration // when an acknowledgement last acknowledged new snapshot bytes
	have     uint64        // ticks acknowledged (from start)
	sentTop  uint64        // one past the last tick sent
	news     bool
	// The ticks' retransmission: sentAt[t%spectatorWindow] is when tick
	// t last went out, sentMax one past the last tick ever sent; rtt and
	// rttVar the smoothed round trip and its mean deviation, from the
	// first Welcome (sent at welcomeAt, when welcomeSent; timedWelcome
	// once the first acknowledgement timed it) and from probes (probeTop: one past the last tick of a datagram of new
	// ticks, sent at probeAt); lost says an acknowledgement came a round
	// trip after the first tick in flight went out, without it; backoff
	// doubles the timeout after each going back for a time out, until a
	// round trip is measured again.
	sentAt       [spectatorWindow]time.Duration
	sentMax      uint64
	rtt          time.Duration
	rttVar       time.Duration
	welcomeAt    time.Duration
	welcomeSent  bool
	timedWelcome bool
	probeTop     uint64
	probeAt      time.Duration
	probing      bool
	lost         bool
	backoff      uint8
}

// tickTimeout is how long a tick sent to sp may go unacknowledged, with
// no acknowledgement at all to say it was lost, before the host takes it
// for lost and sends it again, and those after it: the round trip and
// four of its mean deviations, as TCP times its retransmissions, and at
// least a round trip and a half (past lossWindow's judgement) and
// specResend; doubled for each time out since the last round trip
// measured, up to 16 times.
func (sp *specPeer) tickTimeout() time.Duration {
	return max(specResend, sp.rtt+4*sp.rttVar, sp.rtt+sp.rtt/2) << min(sp.backoff, 4)
}

// lossWindow is how long past a round trip after a tick went out an
// acknowledgement without it may come before the tick is taken for lost:
// twice the round trip's mean deviation, and at least a quarter of the
// round trip (for jitter and reordering; RACK's window).
func (sp *specPeer) lossWindow() time.Duration { return max(2*sp.rttVar, sp.rtt/4) }

// sample adds a round trip measured to sp's estimate (RFC 6298's).
func (sp *specPeer) sample(rtt time.Duration) {
	if sp.rtt == 0 {
		sp.rtt, sp.rttVar = max(rtt, 1), rtt/2
	} else {
		d := rtt - sp.rtt
		sp.rtt += d / 8
		sp.rttVar += (max(d, -d) - sp.rttVar) / 4
	}
	sp.backoff = 0
}

// newBroadcast serves spectators of the game the host's Runner r plays.
//
// A Runner takes one Broadcast: a second returns an error wrapping
// ErrInvalid, as a second NewRunner on a Session does: two would each
// pass the players' datagrams to the one Session, poll it, and take their
// own snapshots of the one game.
func newBroadcast(r *runner, c broadcastConfig) (*broadcast, error) {
	if r == nil || r.s == nil || r.s.role != roleHost {
		return nil, fmt.Errorf("netplay: %w: NewBroadcast needs the host's Runner", ErrInvalid)
	}
	if r.bcast {
		return nil, fmt.Errorf("netplay: %w: NewBroadcast: the Runner has a Broadcast already", ErrInvalid)
	}
	if c.MaxSpectators < 0 || c.MaxSpectators > MaxSpectators {
		return nil, fmt.Errorf("netplay: %w: BroadcastConfig.MaxSpectators %d not in 0..%d", ErrInvalid, c.MaxSpectators, MaxSpectators)
	}
	if c.Silence <= 0 {
		c.Silence = r.s.cfg.Silence // the players' own patience
	}
	if _, ok := r.game.(Snapshotter); !ok && c.MaxSpectators > 0 {
		return nil, fmt.Errorf("netplay: %w: spectators need a game that is a Snapshotter", ErrInvalid)
	}
	r.bcast = true
	return &broadcast{s: r.s, r: r, cfg: c, log: make([][MaxPlayers]record, spectatorLog)}, nil
}

// Stats returns the Broadcast's counts.
func (b *broadcast) Stats() broadcastStats {
	st := b.st
	for i := range b.specs {
		if b.specs[i].used {
			st.Spectators++
		}
	}
	return st
}

// Done reports whether the game is over and every spectator has the end
// (or was given up on): the host may close its socket.
func (b *broadcast) Done() bool {
	if !b.s.Done() {
		return false
	}
	for i := range b.specs {
		if sp := &b.specs[i]; sp.used && sp.start+sp.have < b.logged {
			return false
		}
	}
	return true
}

// Unreachable passes the transport's news of an unreachable address to
// the Session (see Session.Unreachable); a spectator's is ignored, its
// silence drops it.
func (b *broadcast) Unreachable(now time.Duration, addr string) { b.s.Unreachable(now, addr) }

// Receive takes a datagram: a spectator's, or the players' (for the
// Session).
func (b *broadcast) Receive(now time.Duration, from string, pkt []byte) {
	if len(pkt) < headerSize || pkt[0] != magic0 || pkt[1] != magic1 || pkt[2] != protocolVersion ||
		(msgType(pkt[3]) != msgSpecHello && msgType(pkt[3]) != msgSpecAck && msgType(pkt[3]) != msgSpecBye) {
		b.s.Receive(now, from, pkt)
		return
	}
	r := reader{b: pkt, off: headerSize}
	session := binary.LittleEndian.Uint64(pkt[4:])
	token := r.u64()
	switch msgType(pkt[3]) {
	case msgSpecHello:
		if len(pkt) != helloSize || session != 0 || token == 0 {
			b.s.bad++
			return
		}
		b.hello(now, from, token)
	case msgSpecBye:
		if r.err != nil || r.off != len(pkt) {
			b.s.bad++
			return
		}
		sp := b.spec(from, token)
		if sp == nil {
			// A copy of a Bye already taken, or one that overtook its
			// Hello: that Hello, when it comes, takes no slot.
			if session == 0 || session == b.s.id {
				b.gone.add(now, from, token)
			}
			return
		}
		if session != b.s.id && session != 0 {
			b.s.bad++
			return
		}
		*sp = specPeer{}
		b.st.Left++
		b.gone.add(now, from, token)
	case msgSpecAck:
		// Bounded by what the wire carries, not by a spectator's default
		// bound (a spectator may allow more: Config.MaxSnapshot) nor by the
		// snapshot held now (one taken since for another spectator may be
		// smaller than the one this spectator loaded).
		snapGot := r.uvMax(maxSnapshotWire)
		have := r.uvMax(maxTick)
		var sack [sackBytes]byte
		nSack := 0
		if r.err == nil && r.off < len(pkt) {
			nSack = int(r.uvMax(sackBytes))
			r.bytes(sack[:nSack])
		}
		if r.err != nil || r.off != len(pkt) || session != b.s.id {
			b.s.bad++
			return
		}
		sp := b.spec(from, token)
		if sp == nil {
			b.s.bad++
			return
		}
		sp.lastHeard = now
		sp.welcome = false
		if sp.welcomeSent && !sp.timedWelcome {
			// The first acknowledgement: a round trip since the first
			// Welcome (or more, if that one was lost: the timeouts start
			// long, not short).
			sp.sample(now - sp.welcomeAt)
			sp.timedWelcome = true
		}
		if sp.bound && int(snapGot) <= len(b.snap) {
			b.snapAck(now, sp, int(snapGot), sack[:nSack])
		}
		if have > sp.have && have <= sp.sentTop {
			sp.have = have
			sp.news = true
			if sp.probing && sp.start+have >= sp.probeTop {
				// Tick probeTop-1 went out once, at probeAt: a round trip.
				sp.probing = false
				sp.sample(now - sp.probeAt)
			}
		}
		// An acknowledgement sent after the first tick in flight should
		// have arrived, and without it: lost (as TCP's RACK judges; a
		// quarter of a round trip allowed for reordering and jitter).
		if acked := sp.start + sp.have; sp.rtt > 0 && sp.sentTop > acked &&
			now-sp.sentAt[acked%spectatorWindow] > sp.rtt+sp.lossWindow() {
			sp.lost = true
		}
	}
}

func (b *broadcast) spec(from string, token uint64) *specPeer {
	for i := range b.specs {
		if sp := &b.specs[i]; sp.used && sp.addr == from && sp.token == token {
			return sp
		}
	}
	return nil
}

// hello takes a spectator's Hello: a slot, and a Welcome once the game
// runs (the snapshot is taken then).
func (b *broadcast) hello(now time.Duration, from string, token uint64) {
	if sp := b.spec(from, token); sp != nil {
		sp.welcome, sp.lastHeard = true, now // its Welcome was lost
		return
	}
	if b.gone.has(now, from, token, b.cfg.Silence) {
		return // late: the spectator has gone
	}
	free := -1
	for i := range b.cfg.MaxSpectators {
		if !b.specs[i].used {
			free = i
			break
		}
	}
	if free < 0 || b.s.state > StateRunning {
		b.st.Rejected++
		reason := uint8(specRejectFull)
		if b.cfg.MaxSpectators == 0 {
			reason = specRejectNone
		}
		b.reject(from, token, reason)
		return
	}
	b.specs[free] = specPeer{used: true, addr: from, token: token, lastHeard: now, welcome: true}
	b.st.Joined++
}

// reject queues a Reject to a spectator: the next Poll sends it. A Reject
// is smaller than the Hello it answers.
func (b *broadcast) reject(to string, token uint64, reason uint8) {
	if b.nRejects < len(b.rejects) {
		b.rejects[b.nRejects] = rejectTo{to, token, reason}
		b.nRejects++
	}
}

type rejectTo struct {
	addr   string
	token  uint64
	reason uint8
}

// Poll does the Session's timed work, then the spectators': Welcomes,
// snapshot chunks, the confirmed inputs they lack, the end.
func (b *broadcast) Poll(now time.Duration, out sender) {
	b.s.Poll(now, out)
	for i := range b.nRejects {
		rj := &b.rejects[i]
		w := b.header(msgSpecReject, 0)
		w.u64(rj.token)
		w.u8(rj.reason)
		b.emit(out, rj.addr, &w)
	}
	b.nRejects = 0
	b.takeLog()
	running := b.s.state >= StateRunning
	for i := range b.specs {
		sp := &b.specs[i]
		if !sp.used {
			continue
		}
		if now-sp.lastHeard >= b.cfg.Silence {
			*sp = specPeer{}
			b.st.Dropped++
			continue
		}
		if b.logged > sp.start+sp.have && b.logged-(sp.start+sp.have) >= spectatorLog-spectatorWindow {
			b.reject(sp.addr, sp.token, specRejectDropped)
			*sp = specPeer{}
			b.st.Dropped++
			continue
		}
		if !running {
			continue
		}
		if sp.welcome {
			if !b.snapshotReady() {
				continue
			}
			if !sp.bound {
				sp.bound = true // to this snapshot, whatever Welcome is lost
				sp.start, sp.sentTop = b.snapTick, b.snapTick
				sp.window, sp.snapAt, sp.ackAt = snapshotWindow, now, now
			}
			b.sendWelcome(out, sp)
			sp.welcome = false
			sp.lastSent = now
			if !sp.welcomeSent {
				sp.welcomeAt, sp.welcomeSent = now, true
			}
			continue
		}
		b.sendData(now, out, sp)
	}
}

// takeLog copies the ticks the Session confirmed since the last Poll
// into the log.
func (b *broadcast) takeLog() {
	s := b.s
	for b.logged < s.NextTick() {
		t := b.logged
		row := &b.log[t%spectatorLog]
		for p := range s.players {
			in, ok := s.Input(p, t)
			if !ok {
				return // not buffered any more: cannot happen when Poll runs every frame
			}
			row[p] = toRecord(in)
		}
		b.logged++
	}
}

// snapshotReady takes a snapshot for the spectators waiting for a
// Welcome, unless a recent one is still being sent to others.
func (b *broadcast) snapshotReady() bool {
	loading := false
	for i := range b.specs {
		if sp := &b.specs[i]; sp.used && sp.bound && sp.snapAcked < len(b.snap) {
			loading = true
		}
	}
	if b.snapTaken && (loading || b.snapTick == b.logged) {
		return true
	}
	if b.s.NextTick() != b.logged {
		return false
	}
	snap, tick, hash, err := b.r.Snapshot(b.snap[:0])
	if err != nil {
		return false
	}
	sum := fnv.New64a()
	sum.Write(snap)
	b.snap, b.snapTick, b.snapHash, b.snapSum, b.snapTaken = snap, tick, hash, sum.Sum64(), true
	b.st.Snapshots++
	b.st.SnapshotBytes = len(snap)
	return true
}

// header starts a spectator message.
func (b *broadcast) header(typ msgType, session uint64) writer {
	return specHeader(b.buf[:], typ, session)
}

// specHeader starts a spectator message of type typ in buf.
func specHeader(buf []byte, typ msgType, session uint64) writer {
	w := writer{b: buf[:0:MaxPacketSize], ok: true}
	w.u8(magic0)
	w.u8(magic1)
	w.u8(protocolVersion)
	w.u8(uint8(typ))
	w.u64(session)
	return w
}

func (b *broadcast) emit(out sender, to string, w *writer) {
	if !w.ok {
		b.s.encodeFail++
		return
	}
	b.st.BytesSent += int64(len(w.b))
	out.Send(to, w.b)
}

func (b *broadcast) sendWelcome(out sender, sp *specPeer) {
	s := b.s
	w := b.header(msgSpecWelcome, s.id)
	w.u64(sp.token)
	w.u8(uint8(s.players))
	w.u8(uint8(s.inputSize))
	w.uv(s.tickLimit)
	w.uv(sp.start)
	w.uv(uint64(len(b.snap)))
	w.u64(b.snapSum)
	w.u64(b.snapHash)
	w.uv(uint64(len(s.settings)))
	w.bytes(s.settings)
	b.emit(out, sp.addr, &w)
}

// sendData sends a spectator what it lacks: snapshot bytes, then ticks
// (again from the first not acknowledged, once lost: this file's first
// comment says when); the end once the game is over; a keepalive
// otherwise.
func (b *broadcast) sendData(now time.Duration, out sender, sp *specPeer) {
	s := b.s
	over := s.state >= StateEnding
	stale := now-sp.lastSent >= specResend // send something: the spectator hears the host
	if acked := sp.start + sp.have; sp.sentTop > acked {
		// Go back: what was sent and not acknowledged is lost, by the
		// acknowledgements or for lack of one in time. (Not only when
		// nothing went out for a while: a running game sends new ticks
		// every tick, and a spectator takes ticks in order only.) A round
		// trip measured across it would be wrong.
		timedOut := now-sp.sentAt[acked%spectatorWindow] >= sp.tickTimeout()
		if sp.lost || timedOut {
			sp.sentTop, sp.probing = acked, false
			if !sp.lost {
				sp.backoff = min(sp.backoff+1, 4)
			}
		}
	}
	sp.lost = false
	if sp.snapSent > sp.snapAcked && now-sp.snapAt >= specResend && now-sp.ackAt >= specResend {
		// Nothing acknowledged since the last chunks went out: those
		// not acknowledged are lost. Send them again, fewer at a time.
		sp.resendAt = sp.snapAcked
		sp.lose()
	}
	for sent := 0; sent < maxSnapshotWindow/chunkSize; sent++ {
		off, snapLeft := b.nextChunk(sp)
		top := min(b.logged, sp.start+sp.have+spectatorWindow)
		ticksLeft := sp.snapAcked == len(b.snap) && sp.sentTop < top
		if !snapLeft && !ticksLeft && !(sent == 0 && (stale || sp.news)) {
			break
		}
		sp.news = false
		sp.seq++
		w := b.header(msgSpecData, s.id)
		w.u32(sp.seq)
		var flags uint8
		if over {
			flags = 1
		}
		w.u8(flags)
		if over {
			w.uv(b.logged)
		}
		w.uv(b.logged)
		w.u8(uint8(s.nKick))
		for p := range s.players {
			if s.kckd[p] {
				w.u8(uint8(p))
				w.uv(s.kick[p].from)
			}
		}
		n := 0
		if snapLeft {
			n = min(chunkSize, len(b.snap)-off)
			sp.snapSent = max(sp.snapSent, off+n)
			sp.resendAt = off + n
			sp.snapAt = now
		}
		w.uv(uint64(off))
		w.uv(uint64(n))
		w.bytes(b.snap[off : off+n])
		w.uv(sp.sentTop)
		countAt := len(w.b)
		w.u8(0)
		k := 0
		if ticksLeft {
			row := s.players * s.inputSize
			for ; k < 255 && sp.sentTop+uint64(k) < top && len(w.b)+row <= cap(w.b); k++ {
				t := sp.sentTop + uint64(k)
				rec := &b.log[t%spectatorLog]
				for p := range s.players {
					w.bytes(rec[p][:s.inputSize])
				}
				sp.sentAt[t%spectatorWindow] = now
			}
			sp.sentTop += uint64(k)
			if sp.sentTop > sp.sentMax {
				if !sp.probing && sp.sentTop-uint64(k) >= sp.sentMax {
					// Only new ticks: their acknowledgement times a round trip.
					sp.probing, sp.probeTop, sp.probeAt = true, sp.sentTop, now
				}
				sp.sentMax = sp.sentTop
			}
		}
		if w.ok {
			w.b[countAt] = uint8(k)
		}
		b.emit(out, sp.addr, &w)
		sp.lastSent = now
	}
}

// nextChunk is the offset of the next snapshot chunk to send to sp: a
// chunk lost before (from resendAt, which the spectator has not
// acknowledged), or one never sent, within sp's window.
func (b *broadcast) nextChunk(sp *specPeer) (off int, ok bool) {
	limit := sp.snapAcked + sp.window
	first := sp.snapAcked / chunkSize
	for off = max(sp.resendAt, sp.snapAcked); off < sp.snapSent && off < limit; off += chunkSize {
		if i := off/chunkSize - first - 1; i < 0 || i >= len(sp.sack)*64 || sp.sack[i/64]&(1<<(i%64)) == 0 {
			return off, true
		}
	}
	sp.resendAt = sp.snapSent
	off = sp.snapSent
	return off, off < len(b.snap) && off < limit
}

// snapAck takes a spectator's acknowledgement of got snapshot bytes in
// order and the bitmap of the chunks it holds past them; an older one
// (fewer bytes in order than an earlier) is ignored.
func (b *broadcast) snapAck(now time.Duration, sp *specPeer, got int, bitmap []byte) {
	if got < sp.snapAcked || got > len(b.snap) || (got < len(b.snap) && got%chunkSize != 0) {
		return
	}
	var sack [len(sp.sack)]uint64
	for i, x := range bitmap {
		sack[i/8] |= uint64(x) << (8 * (i % 8))
	}
	if got == sp.snapAcked {
		for i := range sack {
			sack[i] |= sp.sack[i] // an acknowledgement overtaken by a later one lists fewer
		}
	}
	// The bytes newly acknowledged: in order, and out of order (counted
	// against the previous bitmap when the gap has not moved).
	fresh := got - sp.snapAcked
	for i := range sack {
		n := bits.OnesCount64(sack[i])
		if got == sp.snapAcked {
			n -= bits.OnesCount64(sp.sack[i])
		}
		fresh += n * chunkSize
	}
	sp.snapAcked, sp.sack = got, sack
	if got > sp.snapSent {
		sp.snapSent = got
	}
	if fresh > 0 {
		if sp.grown > 0 && sp.window >= sp.grown {
			fresh /= 8 // past the last loss's window: an eighth more a round
		}
		sp.window = min(sp.window+fresh, maxSnapshotWindow)
		sp.ackAt = now
		sp.news = true
	}
}

// lose halves the snapshot window after a loss.
func (sp *specPeer) lose() {
	sp.window = max(sp.window/2, minSnapshotWindow)
	sp.grown = sp.window
}

// spectatorConfig sets up a Spectator.
type spectatorConfig struct {
	// Nonce is 64 random bits, the token of its Hello; 0 has
	// NewSpectator draw one, as Config.Nonce.
	Nonce uint64
	// InputSize must be the host's.
	InputSize int
	// MaxSettings bounds the host's settings (default MaxSettingsSize).
	MaxSettings int
	// MaxSnapshot bounds the snapshot accepted, in bytes (default
	// DefaultMaxSnapshot): a larger one is refused before any of it is
	// held (SnapshotTooLargeError).
	MaxSnapshot int
	// Silence is how long the host may send nothing before the
	// spectator gives up (default 2 s); JoinTimeout how long it waits for
	// the Welcome (default 10 s).
	Silence, JoinTimeout time.Duration
}

// spectatorStats are a Spectator's figures.
type spectatorStats struct {
	State           State
	Start           uint64        // the tick its snapshot is of
	Received        uint64        // ticks received, from 0
	HostConfirmed   uint64        // ticks the host had confirmed, at its last packet
	SnapshotBytes   int           // the snapshot's size
	JoinTime        time.Duration // from the first Hello to the snapshot loaded
	BytesReceived   int64
	BytesSent       int64
	PacketsReceived int64
	PacketsSent     int64
	BadPackets      int64
}

// A spectator watches a game hosted at an address: the transport's
// endpoint (Receive, Poll) and the inputs' store. A Watcher plays them.
type spectator struct {
	cfg   spectatorConfig
	host  string
	state State
	err   error

	born, lastHello, lastHeard, lastAck, loadedAt time.Duration
	helloSent                                     bool
	welcomed                                      bool
	news                                          bool
	// told: the game played to its end, or the spectator left (Leave),
	// and the host was told so (Poll).
	told bool
	left bool

	id                    uint64
	players, inputSize    int
	tickLimit             uint64
	settings              []byte
	start                 uint64
	snap                  []byte
	held                  []uint64 // the snapshot's chunks received, a bit each
	snapGot               int      // snapshot bytes received in order, from 0
	snapLen               int
	snapSum, stateHash    uint64
	confirmed             uint64
	endSet                bool
	end                   uint64
	kicked                [MaxPlayers]bool
	kickFrom              [MaxPlayers]uint64
	seqIn                 uint32
	ring                  [][MaxPlayers]record // by tick % spectatorWindow
	received              uint64               // ticks received, from 0 (start at first)
	played                uint64               // ticks the Watcher ran
	bytesIn, bytesOut     int64
	packetsIn, packetsOut int64
	bad                   int64
	buf                   [MaxPacketSize]byte
}

// newSpectator starts watching the game hosted at host, at now.
func newSpectator(c spectatorConfig, host string, now time.Duration) (*spectator, error) {
	if c.Nonce == 0 {
		c.Nonce = randomNonce()
	}
	switch {
	case c.InputSize < 1 || c.InputSize > MaxInputSize:
		return nil, fmt.Errorf("netplay: %w: SpectatorConfig.InputSize %d not in 1..%d", ErrInvalid, c.InputSize, MaxInputSize)
	case host == "":
		return nil, fmt.Errorf("netplay: %w: no host address", ErrInvalid)
	case c.MaxSettings < 0 || c.MaxSettings > MaxSettingsSize || c.MaxSnapshot < 0 || c.Silence < 0 || c.JoinTimeout < 0:
		return nil, fmt.Errorf("netplay: %w: SpectatorConfig out of range", ErrInvalid)
	}
	if c.MaxSettings == 0 {
		c.MaxSettings = MaxSettingsSize
	}
	if c.MaxSnapshot == 0 {
		c.MaxSnapshot = defaultMaxSnapshot
	}
	if c.Silence == 0 {
		c.Silence = defaultSilence
	}
	if c.JoinTimeout == 0 {
		c.JoinTimeout = defaultJoinTimeout
	}
	return &spectator{cfg: c, host: host, state: StateJoining, born: now, lastHeard: now,
		inputSize: c.InputSize, ring: make([][MaxPlayers]record, spectatorWindow)}, nil
}

// State is where the spectator is: joining (waiting for the Welcome,
// then receiving the snapshot: a caller that pumps its socket until the
// spectator leaves this state, as it waits for the Welcome, receives the
// snapshot at the network's pace, not its frames'), lobby (the snapshot
// is here: the Watcher's next Frame loads it), running, ending (the game
// is over; the Watcher plays the last ticks), ended. Settings are known
// from the Welcome on (Stats: SnapshotBytes is then set).
func (sp *spectator) State() State { return sp.state }

// Err is why the spectator ended, nil if the game ended cleanly.
func (sp *spectator) Err() error { return sp.err }

// Players, InputSize, Settings and TickLimit are the game's, from the
// Welcome.
func (sp *spectator) Players() int { return sp.players }

// InputSize is the size of a player's input for a tick, from the Welcome.
func (sp *spectator) InputSize() int { return sp.inputSize }

// Settings are the game's settings, from the Welcome.
func (sp *spectator) Settings() []byte { return sp.settings }

// TickLimit is the game's tick limit (0: none), from the Welcome.
func (sp *spectator) TickLimit() uint64 { return sp.tickLimit }

// Stats returns the spectator's figures.
func (sp *spectator) Stats() spectatorStats {
	st := spectatorStats{State: sp.state, Start: sp.start, Received: sp.received, HostConfirmed: sp.confirmed,
		SnapshotBytes: sp.snapLen, BytesReceived: sp.bytesIn, BytesSent: sp.bytesOut,
		PacketsReceived: sp.packetsIn, PacketsSent: sp.packetsOut, BadPackets: sp.bad}
	if sp.loadedAt > 0 {
		st.JoinTime = sp.loadedAt - sp.born
	}
	return st
}

// Leave ends the watching before the game's end: the next Poll tells the
// host, which frees the spectator's slot at once and does not wait for it
// at the end (without it, a spectator that goes is served until its
// silence, BroadcastConfig.Silence). For Silence after the goodbye, the
// host takes no Hello of this spectator's still on the way: a Spectator
// that watches again from the same address with the same
// SpectatorConfig.Nonce is served after that. The state is StateEnded,
// Err stays nil, and the Watcher runs no more ticks; once it is Done
// (that Poll), the caller may close its socket. A spectator already ended
// is left as it is: one that played to the end told the host so itself.
func (sp *spectator) Leave(now time.Duration) {
	if sp.state == StateEnded {
		return
	}
	sp.left, sp.state = true, StateEnded
}

func (sp *spectator) fail(err error) {
	if sp.err == nil {
		sp.err = err
	}
	sp.state = StateEnded
}

// Receive takes a datagram from the host.
func (sp *spectator) Receive(now time.Duration, from string, pkt []byte) {
	if sp.state == StateEnded {
		return
	}
	sp.bytesIn += int64(len(pkt))
	sp.packetsIn++
	if from != sp.host || len(pkt) < headerSize || len(pkt) > MaxPacketSize || pkt[0] != magic0 || pkt[1] != magic1 || pkt[2] != protocolVersion {
		sp.bad++
		return
	}
	session := binary.LittleEndian.Uint64(pkt[4:])
	r := reader{b: pkt, off: headerSize}
	switch msgType(pkt[3]) {
	case msgSpecWelcome:
		if sp.welcomed || r.u64() != sp.cfg.Nonce || session == 0 {
			if !sp.welcomed {
				sp.bad++
			}
			return
		}
		sp.welcome(now, session, &r)
	case msgSpecReject:
		if r.u64() != sp.cfg.Nonce || session != 0 {
			sp.bad++
			return
		}
		err := &Error{Reason: ErrFull, What: "spectators"}
		switch r.u8() {
		case specRejectDropped:
			err = &Error{Reason: ErrBehind}
		case specRejectNone:
			err.What = "no spectators"
		}
		sp.fail(err)
	case msgSpecData:
		if !sp.welcomed || session != sp.id {
			sp.bad++
			return
		}
		sp.data(now, &r)
	default:
		sp.bad++
	}
}

func (sp *spectator) welcome(now time.Duration, session uint64, r *reader) {
	players, size := int(r.u8()), int(r.u8())
	limit := r.uvMax(maxTick)
	start := r.uvMax(maxTick)
	snapLen := r.uvMax(maxSnapshotWire)
	sum, hash := r.u64(), r.u64()
	n := int(r.uvMax(MaxSettingsSize))
	var settings [MaxSettingsSize]byte
	r.bytes(settings[:n])
	if r.err != nil || r.off != len(r.b) || players < MinPlayers || players > MaxPlayers {
		sp.bad++
		return
	}
	switch {
	case size != sp.inputSize:
		sp.fail(&Error{Reason: ErrMismatch, What: "input size", Remote: uint64(size), Local: uint64(sp.inputSize)})
		return
	case n > sp.cfg.MaxSettings:
		sp.fail(&Error{Reason: ErrTooLarge, What: "settings", Size: n, Limit: sp.cfg.MaxSettings})
		return
	case snapLen > uint64(sp.cfg.MaxSnapshot):
		sp.fail(&Error{Reason: ErrTooLarge, What: "snapshot", Size: int(min(snapLen, 1<<62)), Limit: sp.cfg.MaxSnapshot})
		return
	}
	sp.id, sp.players, sp.tickLimit, sp.start = session, players, limit, start
	sp.settings = append([]byte(nil), settings[:n]...)
	sp.snap = make([]byte, snapLen) // bounded by MaxSnapshot
	sp.held = make([]uint64, (snapLen+chunkSize*64-1)/(chunkSize*64))
	sp.snapLen = int(snapLen)
	sp.snapSum, sp.stateHash = sum, hash
	sp.received, sp.played = start, start
	sp.welcomed, sp.lastHeard, sp.news = true, now, true
	if snapLen == 0 {
		sp.state = StateLobby
	}
}

// chunk takes the snapshot's chunk at off, in any order: a chunk is
// chunkSize bytes from a multiple of chunkSize (the last one shorter).
func (sp *spectator) chunk(off int, b []byte) {
	if sp.snap == nil || off%chunkSize != 0 || len(b) != min(chunkSize, sp.snapLen-off) {
		return
	}
	i := off / chunkSize
	if sp.held[i/64]&(1<<(i%64)) != 0 {
		return // a duplicate
	}
	sp.held[i/64] |= 1 << (i % 64)
	copy(sp.snap[off:], b)
	for sp.snapGot < sp.snapLen {
		j := sp.snapGot / chunkSize
		if sp.held[j/64]&(1<<(j%64)) == 0 {
			break
		}
		sp.snapGot = min(sp.snapGot+chunkSize, sp.snapLen)
	}
	sp.news = true
	if sp.snapGot == sp.snapLen && sp.state == StateJoining {
		sp.state = StateLobby // the whole snapshot is here: the Watcher loads it
	}
}

func (sp *spectator) data(now time.Duration, r *reader) {
	seq := r.u32()
	flags := r.u8()
	var end uint64
	if flags&1 != 0 {
		end = r.uvMax(maxTick)
	}
	confirmed := r.uvMax(maxTick)
	nk := int(r.u8())
	var kp [MaxPlayers]uint8
	var kf [MaxPlayers]uint64
	for i := range nk {
		if i >= MaxPlayers {
			r.fail(errRange)
			break
		}
		kp[i], kf[i] = r.u8(), r.uvMax(maxTick)
		if int(kp[i]) >= sp.players {
			r.fail(errRange)
		}
	}
	off := int(r.uvMax(uint64(sp.snapLen)))
	n := int(r.uvMax(chunkSize))
	if r.err == nil && off+n > sp.snapLen {
		r.fail(errRange)
	}
	var chunk []byte
	if r.err == nil {
		chunk = r.b[r.off:min(len(r.b), r.off+n)]
		r.off += n
		if r.off > len(r.b) {
			r.fail(errShort)
		}
	}
	first := r.uvMax(maxTick)
	k := int(r.u8())
	row := sp.players * sp.inputSize
	if r.err == nil && (len(r.b)-r.off != k*row || flags > 1) {
		r.fail(errTrailing)
	}
	if r.err != nil {
		sp.bad++
		return
	}
	sp.lastHeard = now
	if int32(seq-sp.seqIn) > 0 {
		sp.seqIn = seq
		sp.confirmed = max(sp.confirmed, confirmed)
	}
	for i := range nk {
		p := int(kp[i])
		if !sp.kicked[p] {
			sp.kicked[p], sp.kickFrom[p] = true, kf[i]
		}
	}
	if flags&1 != 0 && !sp.endSet {
		sp.endSet, sp.end = true, end
	}
	if n > 0 {
		sp.chunk(off, chunk)
	}
	body := r.b[r.off:]
	if k > 0 && first > sp.received {
		// Ticks past a gap: say at once what arrived in order, so that
		// the host sends the gap again about a round trip after it went
		// out, not a time out after.
		sp.news = true
	}
	for i := range k {
		t := first + uint64(i)
		if t != sp.received || t >= sp.played+spectatorWindow {
			continue
		}
		rec := &sp.ring[t%spectatorWindow]
		for p := range sp.players {
			rec[p] = toRecord(body[i*row+p*sp.inputSize : i*row+(p+1)*sp.inputSize])
		}
		sp.received++
		sp.news = true
	}
}

// Unreachable is the transport's word that the system reports nothing
// listening at addr (an ICMP port unreachable, which a connected socket
// reads as a refused connection): before the Welcome, a spectator of
// that address ends at once with an UnreachableError instead of waiting
// JoinTimeout for an answer that cannot come. Later it is ignored (a
// host that just closed: the end or the silence say the rest).
func (sp *spectator) Unreachable(now time.Duration, addr string) {
	if sp.state == StateJoining && addr == sp.host {
		sp.fail(&Error{Reason: ErrUnreachable, Host: sp.host})
	}
}

// Poll sends the Hello, and the acknowledgements; it gives up on a silent
// host.
func (sp *spectator) Poll(now time.Duration, out sender) {
	switch sp.state {
	case StateEnded:
		if sp.err == nil && !sp.told {
			// Played to the end: the host serves a spectator until it
			// acknowledges the end, so say so now, before the Watcher is
			// done and the caller goes. (Before, the last ticks, which
			// come with the end, went unacknowledged, and the host waited
			// for the spectator's silence, then dropped it.) Left: say
			// goodbye. Copies against loss: nothing answers them.
			sp.told = true
			for range finalAcks {
				if sp.left {
					w := sp.header(msgSpecBye, sp.id)
					w.u64(sp.cfg.Nonce)
					sp.send(out, &w)
				} else {
					sp.ack(out)
				}
			}
		}
		return
	case StateJoining:
		if sp.welcomed {
			break // loading the snapshot
		}
		if now-sp.born >= sp.cfg.JoinTimeout {
			sp.fail(&Error{Reason: ErrTimeout, Host: sp.host, For: sp.cfg.JoinTimeout})
			return
		}
		if !sp.helloSent || now-sp.lastHello >= helloEvery {
			sp.helloSent, sp.lastHello = true, now
			w := sp.header(msgSpecHello, 0)
			w.u64(sp.cfg.Nonce)
			for len(w.b) < helloSize {
				w.b = append(w.b, 0)
			}
			sp.send(out, &w)
		}
		return
	}
	if now-sp.lastHeard >= sp.cfg.Silence && !sp.over() {
		sp.fail(&Error{Reason: ErrSilent, Player: 0, For: sp.cfg.Silence})
		return
	}
	if sp.news || now-sp.lastAck >= defaultKeepAlive {
		sp.news, sp.lastAck = false, now
		sp.ack(out)
	}
}

// finalAcks is how many copies of its last acknowledgement (or of its
// Bye) a spectator sends: where the network loses one datagram in ten,
// all three are lost once in a thousand games, and the host ends after
// Silence then, as before.
const finalAcks = 3

// ack sends the host an acknowledgement: the snapshot bytes and the
// ticks received.
func (sp *spectator) ack(out sender) {
	w := sp.header(msgSpecAck, sp.id)
	w.u64(sp.cfg.Nonce)
	w.uv(uint64(sp.snapGot))
	w.uv(sp.received - sp.start)
	sp.appendHeld(&w)
	sp.send(out, &w)
}

// appendHeld appends to an acknowledgement the bitmap of the snapshot's
// chunks held past the first gap (nothing once the snapshot is whole).
func (sp *spectator) appendHeld(w *writer) {
	if sp.snap == nil || sp.snapGot >= sp.snapLen {
		return
	}
	var bm [sackBytes]byte
	n := 0
	first := sp.snapGot/chunkSize + 1
	for i := range sackBytes * 8 {
		j := first + i
		if j*chunkSize >= sp.snapLen {
			break
		}
		if sp.held[j/64]&(1<<(j%64)) != 0 {
			bm[i/8] |= 1 << (i % 8)
			n = i/8 + 1
		}
	}
	w.uv(uint64(n))
	w.bytes(bm[:n])
}

// over: every tick of the game is here.
func (sp *spectator) over() bool { return sp.endSet && sp.received >= sp.end }

func (sp *spectator) header(typ msgType, session uint64) writer {
	return specHeader(sp.buf[:], typ, session)
}

func (sp *spectator) send(out sender, w *writer) {
	sp.bytesOut += int64(len(w.b))
	sp.packetsOut++
	out.Send(sp.host, w.b)
}

// A watcher plays the game a Spectator receives: from the snapshot's
// state (Snapshotter.SetState, checked against the host's hash), every
// received tick with its inputs, MaxLoops a frame, never ahead of what
// arrived. A watcher behind the host catches up at MaxLoops ticks a
// frame. It ends at the game's end.
type watcher struct {
	sp     *spectator
	game   Game
	snap   Snapshotter
	conf   Confirmer
	loaded bool
	head   uint64
	owed   int64
	in     Inputs
	ticks  int64
}

// newWatcher plays what sp receives on g, which must be a Snapshotter
// made from the game's settings (Spectator.Settings, known from the
// Welcome on; make it once the spectator is in the lobby or later).
func newWatcher(sp *spectator, g Game) (*watcher, error) {
	snap, ok := g.(Snapshotter)
	if sp == nil || !ok {
		return nil, fmt.Errorf("netplay: %w: NewWatcher needs a spectator and a game that is a Snapshotter", ErrInvalid)
	}
	w := &watcher{sp: sp, game: g, snap: snap}
	w.conf, _ = g.(Confirmer)
	return w, nil
}

// Head is the game's next tick.
func (w *watcher) Head() uint64 { return w.head }

// Behind is how many ticks the game is behind the host's confirmed ones.
func (w *watcher) Behind() int64 { return int64(w.sp.confirmed) - int64(w.head) }

// Loaded reports whether the snapshot is in the game.
func (w *watcher) Loaded() bool { return w.loaded }

// Done reports whether the game ran to its end, or the spectator left
// (Spectator.Leave), and the host was told so (the Spectator's next Poll),
// or the spectator failed: the caller may close its socket.
func (w *watcher) Done() bool {
	sp := w.sp
	return sp.err != nil || (sp.left && sp.told) || (w.loaded && sp.endSet && w.head >= sp.end && sp.told)
}

// Frame runs the ticks due (as Runner.Frame), those that arrived.
func (w *watcher) Frame(now time.Duration, due, maxLoops int) (ran int) {
	sp := w.sp
	if sp.err != nil || sp.left {
		return 0
	}
	if !w.loaded {
		if sp.state != StateLobby || sp.snapGot < sp.snapLen {
			return 0
		}
		sum := fnv.New64a()
		sum.Write(sp.snap)
		if got := sum.Sum64(); got != sp.snapSum {
			sp.fail(&Error{Reason: ErrMismatch, What: "snapshot", Local: got, Remote: sp.snapSum})
			return 0
		}
		if err := w.snap.SetState(sp.snap); err != nil {
			sp.fail(fmt.Errorf("the snapshot: %w", err))
			return 0
		}
		if got := w.game.Hash(); got != sp.stateHash {
			sp.fail(&Error{Reason: ErrMismatch, What: "snapshot", Local: got, Remote: sp.stateHash})
			return 0
		}
		w.loaded, w.head = true, sp.start
		sp.state, sp.loadedAt = StateRunning, now
		sp.snap, sp.held = nil, nil // taken: let it go
		return 0
	}
	w.owed += int64(max(due, 0))
	// Behind the host: owe what it confirmed, so the loop catches up.
	w.owed = max(w.owed, int64(sp.confirmed)-int64(w.head)-1)
	for w.owed > 0 && ran < maxLoops && w.head < sp.received {
		t := w.head
		in := &w.in
		*in = Inputs{Tick: t, players: sp.players, size: sp.inputSize}
		in.in = sp.ring[t%spectatorWindow]
		for p := range sp.players {
			if sp.kicked[p] && t >= sp.kickFrom[p] {
				in.auto |= 1 << p
				in.in[p] = record{}
			}
		}
		w.game.Advance(in)
		if w.conf != nil {
			w.conf.Confirmed(in, 0, false)
		}
		w.head++
		sp.played = w.head
		w.owed--
		ran++
		w.ticks++
	}
	if sp.endSet && w.head >= sp.end {
		w.owed = 0
		if sp.state < StateEnded {
			sp.state = StateEnded
		}
	}
	return ran
}
