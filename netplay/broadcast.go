package netplay

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/bits"
	"time"
)

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
		b.bye(now, from, session, token, &r)
	case msgSpecAck:
		b.specAck(now, from, session, token, &r)
	}
}

// bye takes a spectator's Bye (the rest of it in r): its slot is freed,
// and a Hello from it that comes later takes none.
func (b *broadcast) bye(now time.Duration, from string, session, token uint64, r *reader) {
	if r.err != nil || r.off != len(r.b) {
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
}

// specAck takes a spectator's acknowledgement (the rest of it in r): the
// snapshot's bytes and the ticks it holds, a round trip's sample, and
// whether a tick in flight was lost.
func (b *broadcast) specAck(now time.Duration, from string, session, token uint64, r *reader) {
	// Bounded by what the wire carries, not by a spectator's default
	// bound (a spectator may allow more: Config.MaxSnapshot) nor by the
	// snapshot held now (one taken since for another spectator may be
	// smaller than the one this spectator loaded).
	snapGot := r.uvMax(maxSnapshotWire)
	have := r.uvMax(maxTick)
	var sack [sackBytes]byte
	nSack := 0
	if r.err == nil && r.off < len(r.b) {
		nSack = int(r.uvMax(sackBytes))
		r.bytes(sack[:nSack])
	}
	if r.err != nil || r.off != len(r.b) || session != b.s.id {
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

// spec returns the slot of the spectator at from with token, or nil.
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
	stale := now-sp.lastSent >= specResend // send something: the spectator hears the host
	b.judgeLosses(now, sp)
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
		b.appendGameState(&w)
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
			k = b.appendTicks(now, sp, &w, top)
		}
		if w.ok {
			w.b[countAt] = uint8(k)
		}
		b.emit(out, sp.addr, &w)
		sp.lastSent = now
	}
}

// judgeLosses decides, before a spectator's Data goes out, what was
// sent to it and lost: the ticks from the first one not acknowledged
// (sent again from there), and the snapshot's chunks not acknowledged
// (sent again, fewer at a time).
func (b *broadcast) judgeLosses(now time.Duration, sp *specPeer) {
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
}

// appendGameState appends to a Data message what it says of the game:
// the flags (and the end tick once the game ends), the ticks confirmed,
// and the kicked players with their first autonomous ticks.
func (b *broadcast) appendGameState(w *writer) {
	s := b.s
	over := s.state >= StateEnding
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
}

// appendTicks appends to a Data message the inputs of the ticks from
// sp.sentTop on, below top, as many as fit (255 at most), and returns
// how many; it times the first that are new to measure a round trip.
func (b *broadcast) appendTicks(now time.Duration, sp *specPeer, w *writer, top uint64) int {
	s := b.s
	row := s.players * s.inputSize
	k := 0
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
	return k
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
