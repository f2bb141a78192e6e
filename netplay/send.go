package netplay

import (
	"time"
)

// Poll does the session's timed work at now and sends what is due through
// out (to a player's address; pkt is only valid during the call): new
// input at once, unacknowledged data again every Resend, a keepalive every
// KeepAlive, the Hello of a joiner, the Welcome of a host. It detects
// silent peers, decides kicks (host), and moves an ended session to
// StateEnded once the others acknowledged the end or Linger passed. Call
// it once a frame, after the frame's ticks.
func (s *session) Poll(now time.Duration, out sender) {
	s.now = max(s.now, now)
	switch s.state {
	case StateEnded:
		return
	case StateJoining:
		if now-s.born >= s.cfg.JoinTimeout {
			s.finish(0, 0, &Error{Reason: ErrTimeout, Host: s.hostAddr, For: s.cfg.JoinTimeout}, "")
			s.state = StateEnded
			return
		}
		if !s.helloSent || now-s.lastHello >= helloEvery {
			s.helloSent, s.lastHello = true, now
			p := &s.out
			p.typ, p.session, p.token = msgHello, 0, s.cfg.Nonce
			s.emit(out, s.hostAddr, p)
		}
		return
	}
	if s.state < StateEnding {
		s.checkSilence(now)
	}
	if s.state == StateRunning {
		s.checkInterrupts(now)
	}
	if s.role == roleHost {
		if s.state == StateLobby {
			s.maybeStart(now)
		}
		if s.state == StateRunning && s.cfg.KickAfter > 0 {
			s.checkKicks(now)
		}
	}
	if s.state == StateEnding && !s.endAtSet {
		s.endAt, s.endAtSet = now, true
	}
	if s.role == roleHost {
		s.hostSend(now, out)
	} else {
		s.joinerSend(now, out)
	}
	s.reportSend(now, out)
	if s.state == StateEnding && (s.allDone(now) || now-s.endAt >= s.linger()) && s.reportSettled(now) {
		s.state = StateEnded
	}
}

// emit encodes p and sends it.
func (s *session) emit(out sender, to string, p *packet) {
	if p.typ != msgWelcome {
		p.inputSize = s.inputSize
	}
	n := p.encode(s.buf[:])
	if n == 0 {
		s.encodeFail++ // a bug: tests check that it stays 0
		return
	}
	s.sent++
	s.bytesOut += int64(n)
	out.Send(to, s.buf[:n])
}

func (s *session) linger() time.Duration {
	if s.atAgreedEnd() {
		return 2 * s.cfg.Linger // the last inputs may still be on their way
	}
	return s.cfg.Linger
}

// atAgreedEnd reports whether the game ended at the tick every peer stops
// at by itself: the tick limit or a quit's (not in the lobby).
func (s *session) atAgreedEnd() bool {
	return !s.inLobby && (s.end.reason == endTickLimit || s.end.reason == endQuit)
}

// settled (host) reports whether joiner j and the host owe each other
// nothing more: the end tick is agreed and j knows it, the host has j's
// records up to it, and j has everyone else's. Then j reaches the end by
// itself, and its silence is no fault: it may be done already.
func (s *session) settled(j int) bool {
	end, ok := s.EndTick()
	r := &s.peers[j]
	if !ok || s.have[j] < end || (s.quitSet && s.quit.tick == end && !s.knowsQuit(r)) {
		return false
	}
	for q := range s.players {
		lim := end
		if s.kckd[q] {
			lim = min(lim, s.kick[q].from)
		}
		if q != j && r.have[q] < lim {
			return false
		}
	}
	return true
}

// settledJoiner (joiner) is settled's view from a joiner: the host knows
// the end tick and has our records up to it, and we have everyone's.
func (s *session) settledJoiner() bool {
	end, ok := s.EndTick()
	r := &s.peers[0]
	return ok && s.Confirmed() >= end && r.have[s.index] >= end &&
		!(s.quitSet && s.quit.tick == end && !s.knowsQuit(r))
}

func (s *session) checkSilence(now time.Duration) {
	if s.role == roleJoiner {
		if s.state == StateLobby && !s.peers[0].sentAny {
			return // the host answers our first word after the Welcome: see joinerSend
		}
		if now-s.peers[0].lastHeard >= s.cfg.Silence && !s.settledJoiner() {
			s.finish(endLeft, uint8(s.index), &Error{Reason: ErrSilent, Player: 0, For: now - s.peers[0].lastHeard}, "")
		}
		return
	}
	for j := 1; j < s.players; j++ {
		r := &s.peers[j]
		limit := s.cfg.Silence
		if s.state == StateLobby && !r.confirmed {
			// A joiner with its Welcome sets up its game (a window, a
			// renderer) before it answers, which tells us it is ready.
			limit = max(limit, s.cfg.JoinTimeout)
		}
		if !s.active(j) || now-r.lastHeard < limit || (s.state == StateRunning && s.settled(j)) {
			continue
		}
		if s.state == StateLobby {
			*r = peer{}
			s.joined--
			s.event(Event{Kind: EventSynchronizing, Joined: s.joined, Players: s.players})
			continue
		}
		s.gone(now, j, kickSilent)
	}
}

// gone (host, running) handles a joiner that went silent or left with an
// error, as Config.Disconnect says: dropped as a kick drops a player, or
// the end of the game.
func (s *session) gone(now time.Duration, j int, why uint8) {
	if s.cfg.Disconnect == disconnectContinue {
		s.doKick(now, j, why, 0)
		return
	}
	s.disconnected(j, Reason(why), s.next)
	if why == kickSilent {
		s.finish(endSilent, uint8(j), &Error{Reason: ErrSilent, Player: j, For: now - s.peers[j].lastHeard}, "")
	} else {
		s.finish(endLeft, uint8(j), &Error{Reason: ErrLeft, Player: j}, "")
	}
}

// maybeStart (host) starts the game once every slot is taken and every
// joiner has its Welcome.
func (s *session) maybeStart(now time.Duration) {
	for j := 1; j < s.players; j++ {
		if !s.peers[j].used || !s.peers[j].confirmed {
			return
		}
	}
	s.state, s.startedAt = StateRunning, now
	s.event(Event{Kind: EventStarted})
	s.samples[0] = heldSample{at: now}
	s.nSamples, s.sampleHead = 1, 1
	for j := range s.peers {
		s.peers[j].news = true
	}
}

// heldBack (host) is the time the game was held back by player q: the
// time some peer waited for q's input alone (waitedFor), counted only as
// far as q itself was slow (slowOf). A wait for q alone while q waited
// for someone else, or while its record was on its way (a network slower
// than the input delay covers), or while it caught up after such a wait,
// is nobody's slowness: q's own slowness does not grow then.
func (s *session) heldBack(q int) time.Duration {
	return min(s.waitedFor(q), s.slowOf(q))
}

// waitedFor (host) is the longest any peer in the game waited with only
// player q's input missing.
func (s *session) waitedFor(q int) time.Duration {
	h := s.waited[q]
	for j := 1; j < s.players; j++ {
		if j != q && s.active(j) {
			h = max(h, time.Duration(s.peers[j].waited[q])*time.Millisecond)
		}
	}
	return h
}

// slowOf (host) is player q's own slowness (see ReportLoad): the host's
// own, or the one joiner q last reported in its own slot of the waits.
func (s *session) slowOf(q int) time.Duration {
	if q == s.index {
		return s.slow
	}
	return time.Duration(s.peers[q].waited[q]) * time.Millisecond
}

// checkKicks (host) kicks the joiners that held the game back more than
// KickAfter within the last KickWindow. Both measures of every player are
// sampled every half second; what counts is the smaller of their growths
// since the oldest sample within the window: the time the others waited
// for the player alone, as far as it was slow by itself.
func (s *session) checkKicks(now time.Duration) {
	var waited, slow [MaxPlayers]time.Duration
	for q := range s.players {
		waited[q], slow[q] = s.waitedFor(q), s.slowOf(q)
	}
	last := &s.samples[(s.sampleHead+kickSamples-1)%kickSamples]
	if now-last.at >= kickSampleStep {
		s.samples[s.sampleHead] = heldSample{at: now, waited: waited, slow: slow}
		s.sampleHead = (s.sampleHead + 1) % kickSamples
		s.nSamples = min(s.nSamples+1, kickSamples)
	}
	for j := 1; j < s.players; j++ {
		if !s.active(j) {
			continue
		}
		baseW, baseS := waited[j], slow[j]
		for i := range s.nSamples {
			sm := &s.samples[(s.sampleHead+kickSamples-s.nSamples+i)%kickSamples]
			if now-sm.at <= kickWindow {
				baseW, baseS = sm.waited[j], sm.slow[j]
				break
			}
		}
		if d := min(waited[j]-baseW, slow[j]-baseS); d > s.cfg.KickAfter {
			s.doKick(now, j, kickSlow, d)
		}
	}
}

// doKick (host) kicks joiner j: from the first tick whose record the host
// does not have, j's records are zero and its ball autonomous. Nobody can
// have run that tick: the joiners get j's records only from the host.
func (s *session) doKick(now time.Duration, j int, why uint8, held time.Duration) {
	s.kckd[j] = true
	s.kick[j] = kickMsg{player: uint8(j), from: s.have[j], reason: why, heldMs: uint64(held / time.Millisecond)}
	s.nKick++
	s.peers[j].notifyUntil = now + s.cfg.Linger
	for i := range s.peers {
		s.peers[i].news = true
	}
	s.disconnected(j, Reason(why), s.kick[j].from)
}

func (s *session) hostSend(now time.Duration, out sender) {
	if s.rejectDue {
		p := &s.out
		p.typ, p.version, p.session, p.reason = msgReject, protocolVersion, 0, s.rejectWhy
		// A Reject speaks the host's version; encode writes p.version.
		s.emit(out, s.reject, p)
		s.rejectDue = false
	}
	if s.specRejectDue {
		w := specHeader(s.buf[:], msgSpecReject, 0)
		w.u64(s.specRejectTok)
		w.u8(specRejectNone)
		s.sent++
		s.bytesOut += int64(len(w.b))
		out.Send(s.specReject, w.b)
		s.specRejectDue = false
	}
	lobby := s.state == StateLobby || (s.state == StateEnding && s.inLobby)
	for j := 1; j < s.players; j++ {
		r := &s.peers[j]
		switch {
		case !r.used:
		case lobby:
			// An unconfirmed slot gets one Welcome per Hello and nothing
			// else: a forged Hello gains nothing but a smaller answer.
			if r.welcome {
				s.sendWelcome(out, j)
			}
			if r.confirmed {
				s.sendLobby(now, out, j)
			}
		case s.kckd[j]:
			// It hears of its kick until it says so or Linger passes.
			if !r.ended && now < r.notifyUntil && (!r.sentAny || now-r.lastSent >= s.cfg.Resend) {
				s.sendGame(now, out, j, true)
			}
		default:
			s.sendGame(now, out, j, false)
		}
	}
}

func (s *session) joinerSend(now time.Duration, out sender) {
	if s.state == StateLobby || (s.state == StateEnding && s.inLobby) {
		if r := &s.peers[0]; !r.sentAny {
			// The host sends nothing between its Welcome and our answer
			// (it waits for us to set up): its silence counts from here.
			r.lastHeard = max(r.lastHeard, now)
		}
		s.sendLobby(now, out, 0)
		return
	}
	s.sendGame(now, out, 0, false)
}

func (s *session) sendWelcome(out sender, j int) {
	r := &s.peers[j]
	p := &s.out
	p.typ, p.session, p.token = msgWelcome, s.id, r.token
	p.index, p.players, p.delay = uint8(j), uint8(s.players), uint8(s.delay)
	p.tickLimit, p.inputSize, p.every = s.tickLimit, s.inputSize, s.every
	p.tickUs = uint64(s.tick / time.Microsecond)
	p.nSettings = copy(p.settings[:], s.settings)
	s.emit(out, r.addr, p)
	r.welcome = false
}

func (s *session) sendLobby(now time.Duration, out sender, j int) {
	r := &s.peers[j]
	ending := s.state == StateEnding
	if !(r.news || !r.sentAny || now-r.lastSent >= s.cfg.KeepAlive || (ending && r.byes == 0)) {
		return
	}
	p := &s.out
	p.typ, p.session = msgLobby, s.id
	s.fillLink(p, r, now)
	p.flags, p.joined = 0, 0
	if ending {
		p.flags = flagEnded
	}
	if s.role == roleHost {
		p.joined = uint8(s.joined)
	}
	s.emit(out, r.addr, p)
	if ending {
		r.byes++
	}
	r.news, r.lastSent, r.sentAny = false, now, true
}

// fillLink stamps p for r.
func (s *session) fillLink(p *packet, r *peer, now time.Duration) {
	r.seqOut++
	p.link = link{from: uint8(s.index), seq: r.seqOut, stamp: stamp(now)}
	if r.stampIn != 0 {
		p.link.echo = r.stampIn
		p.link.hold = uint32(min(max(now-r.stampAt, 0)/time.Microsecond, 1<<32-1))
	}
}

// sendGame sends a game packet to peer j if one is due: at once when it
// brings something new (input, a checkpoint, a kick, the end) or answers
// something new; every Resend while j lacks something; every KeepAlive
// otherwise. notify: j is a kicked player, told only about the kicks.
func (s *session) sendGame(now time.Duration, out sender, j int, notify bool) {
	if !s.gameDue(now, j, notify) {
		return
	}
	r := &s.peers[j]
	ending := s.state == StateEnding
	end, hasEnd := s.endSection()
	p := &s.out
	s.fillInputs(p, j, notify)
	p.typ, p.session = msgGame, s.id
	s.fillLink(p, r, now)
	p.flags = 0
	if ending {
		p.flags |= flagEnded
	}
	if hasEnd {
		p.flags |= flagEnd
		p.end = end
	}
	p.tick, p.n, p.have = s.ranTicks(), uint8(s.players), s.have
	p.load.debtMs = uint64(s.debt / time.Millisecond)
	p.load.capped = uint64(s.capped)
	for q := range s.players {
		p.load.waited[q] = uint64(s.waited[q] / time.Millisecond)
	}
	// Nobody waits for its own input: the own slot carries the sender's
	// own slowness instead.
	p.load.waited[s.index] = uint64(s.slow / time.Millisecond)
	p.nKick = 0
	if s.role == roleHost {
		p.flags |= flagHost
		s.fillPeerInfo(p, j, now)
	}
	s.emit(out, r.addr, p)
	for i := range p.nBlock {
		b := &p.blocks[i]
		r.sentTop[b.player] = max(r.sentTop[b.player], b.first+uint64(b.n))
	}
	for i := range p.nHash {
		c := &p.hashes[i]
		r.sentCk[c.player] = max(r.sentCk[c.player], c.tick)
	}
	r.sentKix = s.nKick
	if ending {
		r.byes++
	}
	if hasEnd {
		r.toldEnd = end
	}
	r.news, r.lastSent, r.sentAny = false, now, true
}

// gameDue reports whether a game packet to peer j is due now: it has
// news (inputs, hashes, kicks or an end it has not had), it was never
// sent one, something it has not acknowledged waits a Resend, or the
// KeepAlive passed. A notify packet carries no inputs.
func (s *session) gameDue(now time.Duration, j int, notify bool) bool {
	r := &s.peers[j]
	fresh, unacked := false, false
	for q := range s.players {
		if notify || !s.relays(j, q) {
			continue
		}
		if to := s.sendable(q); to > r.have[q] {
			unacked = true
			fresh = fresh || to > r.sentTop[q]
		}
	}
	for q := range s.players {
		if c := s.latest[q].tick; c != 0 && s.relays(j, q) {
			fresh = fresh || c > r.sentCk[q]
		}
	}
	ending := s.state == StateEnding
	end, hasEnd := s.endSection()
	fresh = fresh || s.nKick > r.sentKix || (ending && r.byes == 0) || (hasEnd && r.toldEnd != end)
	// Our end goes out until the peer's game is over too, and at least a
	// few times: the last word of the one who leaves first may be lost,
	// and the other would wait for it until Linger passes.
	unacked = unacked || (ending && (!r.ended || r.byes < goodbyes)) ||
		(s.quitSet && !ending && !s.knowsQuit(r))
	return fresh || r.news || !r.sentAny || (unacked && now-r.lastSent >= s.cfg.Resend) ||
		now-r.lastSent >= s.cfg.KeepAlive
}

// fillInputs puts in p the latest state hash and the inputs peer j has
// not acknowledged (a window's worth at most) of every player whose
// records go to j; a notify packet carries the hashes only.
func (s *session) fillInputs(p *packet, j int, notify bool) {
	r := &s.peers[j]
	p.nBlock, p.nHash = 0, 0
	for q := range s.players {
		if !s.relays(j, q) {
			continue
		}
		if c := s.latest[q]; c.tick != 0 {
			p.hashes[p.nHash] = c
			p.nHash++
		}
		from, to := r.have[q], s.sendable(q)
		if notify || to <= from {
			continue
		}
		b := &p.blocks[p.nBlock]
		p.nBlock++
		b.player, b.first, b.n = uint8(q), from, int(min(to-from, inputWindow))
		for k := range b.n {
			b.recs[k] = s.fullRecord(q, from+uint64(k))
		}
	}
}

// fillPeerInfo (host) puts in p, for joiner j, the lowest tick of its
// input some peer lacks, each player's tick, load, round trip and time
// held back as the host knows them, and the kicks.
func (s *session) fillPeerInfo(p *packet, j int, now time.Duration) {
	p.low = s.lowOf(j)
	for q := range s.players {
		pi := &p.peers[q]
		if q == 0 {
			*pi = peerInfo{tick: p.tick, debtMs: p.load.debtMs, capped: p.load.capped}
		} else {
			o := &s.peers[q]
			*pi = peerInfo{tick: o.tick, debtMs: o.debtMs, capped: o.capped, rttUs: o.rttUs}
			// Not heard yet: as old as can be, so that nobody waits for it.
			pi.ageUs = 1<<32 - 1
			if o.tickSet {
				pi.ageUs = uint64(min(max(now-o.tickAt, 0)/time.Microsecond, 1<<32-1))
			}
		}
		pi.heldMs = uint64(s.heldBack(q) / time.Millisecond)
		if s.kckd[q] {
			p.kicks[p.nKick] = s.kick[q]
			p.nKick++
		}
	}
}

// endSection is the end section of the game packets: why the game ended,
// or, while it runs on to a quit's tick, the quit.
func (s *session) endSection() (endMsg, bool) {
	switch {
	case s.state == StateEnding:
		return s.end, true
	case s.quitSet:
		return s.quit, true
	}
	return endMsg{}, false
}

// relays reports whether player q's records and hashes go to peer j: the
// host sends everyone's but j's own, a joiner only its own.
func (s *session) relays(j, q int) bool {
	if s.role == roleJoiner {
		return q == s.index
	}
	return q != j
}

// sendable is one past the last record of player q that may be sent: a
// kicked player's records stop at its kick, everyone's at the end tick
// (nobody runs it).
func (s *session) sendable(q int) uint64 {
	to := s.have[q]
	if s.kckd[q] {
		to = min(to, s.kick[q].from)
	}
	if end, ok := s.EndTick(); ok {
		to = min(to, end)
	}
	return to
}

// allDone reports whether an ending session has delivered everything the
// others need.
func (s *session) allDone(now time.Duration) bool {
	if s.role == roleJoiner {
		r := &s.peers[0]
		switch {
		case s.inLobby || s.kckd[s.index]:
			return r.byes > 0 // nobody waits for us: one goodbye is enough
		case r.ended:
			return r.byes >= goodbyes
		}
		return s.atAgreedEnd() && s.settledJoiner()
	}
	for j := 1; j < s.players; j++ {
		r := &s.peers[j]
		if s.kckd[j] && !r.ended && now < r.notifyUntil {
			return false // it has not heard of its kick yet
		}
		if !s.active(j) || (s.inLobby && !r.confirmed) {
			continue
		}
		if !s.inLobby && r.byes < goodbyes {
			return false
		}
		if r.ended {
			continue
		}
		if !s.atAgreedEnd() || !s.settled(j) {
			return false
		}
	}
	return true
}
