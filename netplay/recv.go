package netplay

import (
	"time"
)

// Receive takes one datagram that arrived at now from the address from.
// Anything that is not a well-formed packet of this game from one of its
// players is dropped and counted (Stats.BadPackets): garbage, truncated or
// oversized datagrams, another protocol version, another session ID,
// unknown addresses. Nothing is ever sent back from Receive; answers go out
// in the next Poll, and only to players (and, from a host in the lobby, to
// a well-formed Hello while a slot is free). pkt is not kept.
func (s *session) Receive(now time.Duration, from string, pkt []byte) {
	if s.state == StateEnded {
		return
	}
	s.recv++
	s.bytesIn += int64(len(pkt))
	s.now = max(s.now, now)
	if isReport(pkt) {
		s.reportReceive(now, from, pkt) // a desync report's
		return
	}
	p := &s.in
	p.inputSize = s.inputSize
	err := p.decode(pkt)
	if s.role == roleHost {
		s.hostReceive(now, from, pkt, err)
	} else {
		s.joinerReceive(now, from, err)
	}
}

// hostReceive takes a decoded datagram (err, if it was not one) on the
// host: from a stranger, or from joiner j in the lobby or the game.
func (s *session) hostReceive(now time.Duration, from string, pkt []byte, err error) {
	p := &s.in
	j := s.slotOf(from)
	if j < 0 {
		s.hostFromStranger(now, from, pkt, err)
		return
	}
	r := &s.peers[j]
	if err != nil {
		s.bad++
		return
	}
	switch p.typ {
	case msgHello:
		// The Welcome was lost: send it again (in the lobby only).
		if s.state == StateLobby && !r.confirmed {
			r.token, r.welcome, r.lastHeard = p.token, true, now
		}
		return
	case msgLobby, msgGame:
	default:
		s.bad++
		return
	}
	if p.session != s.id || int(p.link.from) != j {
		s.bad++
		return
	}
	s.link(r, now)
	if p.typ == msgLobby {
		s.hostLobbyPacket(now, j, r)
		return
	}
	s.hostGamePacket(now, j, r)
}

// hostLobbyPacket takes joiner j's lobby packet: its quit (which frees
// its slot in the lobby, or ends the game at its first tick once the game
// runs) or its confirmation of the Welcome.
func (s *session) hostLobbyPacket(now time.Duration, j int, r *peer) {
	p := &s.in
	if p.flags&flagEnded != 0 {
		switch s.state {
		case StateLobby: // it quit in the lobby: free the slot
			s.quitters.add(now, r.addr, r.token)
			*r = peer{}
			s.joined--
			s.event(Event{Kind: EventSynchronizing, Joined: s.joined, Players: s.players})
		case StateRunning: // it quit before it heard of the start
			// It ran no tick and sent no input: the game ends for
			// everyone at the first tick that needs its input.
			r.ended = true
			s.takeQuit(j, s.have[j])
		default:
			r.ended = true
		}
		return
	}
	if !r.confirmed && s.state == StateLobby {
		s.event(Event{Kind: EventSynchronized, Player: j})
	}
	r.confirmed = true
	if s.state >= StateRunning {
		r.news = true // it missed the start
	}
}

// hostGamePacket takes joiner j's game packet: what it has of the others'
// inputs, its own inputs and state hashes, its load, and its end.
func (s *session) hostGamePacket(now time.Duration, j int, r *peer) {
	p := &s.in
	if int(p.n) != s.players || s.state < StateRunning {
		s.bad++
		return
	}
	if p.flags&flagEnded != 0 {
		r.ended = true
	}
	if s.kckd[j] {
		return
	}
	r.confirmed = true
	for q := range s.players {
		if q != j {
			r.have[q] = max(r.have[q], min(p.have[q], s.have[q]))
		}
	}
	if s.newer {
		r.tick, r.tickAt, r.tickSet = p.tick, now, true
		r.debtMs, r.capped = p.load.debtMs, p.load.capped
		r.waited = p.load.waited
	}
	for i := range p.nBlock {
		b := &p.blocks[i]
		if int(b.player) == j && s.takeBlock(b) {
			r.news = true
		}
	}
	for i := range p.nHash {
		if c := &p.hashes[i]; int(c.player) == j {
			s.remoteCheckpoint(j, c.tick, c.hash)
		}
	}
	if p.flags&flagEnd == 0 {
		return
	}
	r.heard(&p.end)
	switch {
	case p.end.reason == endQuit && int(p.end.player) == j:
		// It quits: nobody has run the first tick whose record of it
		// the host lacks (the others get its records from the host).
		s.takeQuit(j, max(p.end.tick, s.have[j]))
	case (p.end.reason == endSilent || p.end.reason == endLeft) && s.state == StateRunning:
		s.gone(now, j, kickLeft)
	}
	// Another player's quit is the host's own news, echoed: the joiner
	// knows of it (heard).
}

// hostFromStranger takes a datagram from an address that is no
// player's: a spectator's Hello to a host that serves none is told so,
// a joiner's Hello takes a free slot in the lobby or is told why not;
// anything else is dropped.
func (s *session) hostFromStranger(now time.Duration, from string, pkt []byte, err error) {
	p := &s.in
	if tok, ok := specHelloToken(pkt); ok {
		// A spectator's Hello to a host that serves none (a Broadcast
		// takes them): it is told so at once rather than left to wait.
		// The answer is smaller than the Hello, one a Poll.
		if !s.specRejectDue {
			s.specReject, s.specRejectTok, s.specRejectDue = from, tok, true
		}
		return
	}
	// Strangers get an answer only to a Hello: a Welcome in the
	// lobby while a slot is free; else a Reject, so that a joiner
	// that finds no room, or speaks another version, knows at once
	// rather than wait JoinTimeout.
	free := s.freeSlot()
	switch {
	case err == nil && p.typ == msgHello && (s.state != StateLobby || free < 0):
		s.bad++
		if !s.rejectDue {
			s.reject, s.rejectDue, s.rejectWhy = from, true, rejectFull
		}
	case s.state != StateLobby || free < 0:
		s.bad++
	case err == errVersion && p.typ == msgHello && (len(pkt) == helloSize || len(pkt) == helloSizeV1):
		s.bad++ // not ours, but answered so that the joiner knows why
		if !s.rejectDue {
			s.reject, s.rejectDue, s.rejectWhy = from, true, rejectVersion
		}
	case err != nil || p.typ != msgHello:
		s.bad++
	case s.quitters.has(now, from, p.token, s.cfg.Silence):
		// A late copy of the Hello of a joiner that quit: gone.
	default:
		s.peers[free] = peer{used: true, welcome: true, addr: from, token: p.token, lastHeard: now}
		s.joined++
		s.event(Event{Kind: EventSynchronizing, Joined: s.joined, Players: s.players})
	}
}

// joinerReceive takes a decoded datagram (err, if it was not one) on a
// joiner: only the host's count, while it joins, in the lobby or the game.
func (s *session) joinerReceive(now time.Duration, from string, err error) {
	p := &s.in
	if from != s.hostAddr {
		s.bad++
		return
	}
	if err != nil {
		s.bad++
		return
	}
	r := &s.peers[0]
	if s.state == StateJoining {
		s.joinerJoiningPacket(now)
		return
	}
	switch p.typ {
	case msgLobby, msgGame:
	case msgWelcome, msgReject:
		return // a duplicate, or late
	default:
		s.bad++
		return
	}
	if p.session != s.id || p.link.from != 0 {
		s.bad++
		return
	}
	s.link(r, now)
	if p.typ == msgLobby {
		s.joinerLobbyPacket(r)
		return
	}
	s.joinerGamePacket(now, r)
}

// joinerJoiningPacket takes the host's packet while the joiner waits for
// its Welcome: the Welcome, or a Reject that ends the join.
func (s *session) joinerJoiningPacket(now time.Duration) {
	p := &s.in
	switch {
	case p.typ == msgReject:
		s.finish(0, 0, rejected(p.version, p.reason == rejectFull), "")
		s.state = StateEnded
	case p.typ == msgWelcome && p.token == s.cfg.Nonce:
		s.welcome(now)
	case p.typ == msgLobby || p.typ == msgGame:
		// Overtook the Welcome: it is resent until we answer.
	default:
		s.bad++ // a forged or stale Welcome
	}
}

// joinerLobbyPacket takes the host's lobby packet: how many have joined,
// and whether the host quit.
func (s *session) joinerLobbyPacket(r *peer) {
	p := &s.in
	if s.newer && s.joined != int(p.joined) {
		s.joined = int(p.joined)
		s.event(Event{Kind: EventSynchronizing, Joined: s.joined, Players: s.players})
	}
	if p.flags&flagEnded != 0 {
		r.ended = true
		if s.state == StateLobby {
			s.finish(endQuit, 0, nil, playerNote(0, " quit"))
		}
	}
}

// joinerGamePacket takes the host's game packet: the start, what the
// others have of ours, the kicks, the others' inputs and state hashes,
// and the end.
func (s *session) joinerGamePacket(now time.Duration, r *peer) {
	p := &s.in
	if int(p.n) != s.players {
		s.bad++
		return
	}
	if s.state == StateLobby {
		s.state, s.startedAt = StateRunning, now
		s.event(Event{Kind: EventStarted})
	}
	if p.flags&flagEnded != 0 {
		r.ended = true
	}
	r.have[s.index] = max(r.have[s.index], min(p.have[s.index], s.have[s.index]))
	s.low = max(s.low, min(p.low, s.have[s.index]))
	if s.newer {
		s.info, s.infoAt = p.peers, now
		r.tick, r.tickAt, r.tickSet = p.tick, now, true
	}
	for i := range p.nKick {
		s.takeKick(&p.kicks[i])
	}
	for i := range p.nBlock {
		if b := &p.blocks[i]; int(b.player) != s.index && s.takeBlock(b) {
			r.news = true
		}
	}
	for i := range p.nHash {
		if c := &p.hashes[i]; int(c.player) != s.index {
			s.remoteCheckpoint(int(c.player), c.tick, c.hash)
		}
	}
	if p.flags&flagEnd != 0 {
		s.joinerEndSection(r)
	}
}

// joinerEndSection takes the end section of the host's game packet: a
// player's quit, or a player gone silent or left that ends the game.
func (s *session) joinerEndSection(r *peer) {
	p := &s.in
	r.heard(&p.end)
	q := int(p.end.player)
	switch p.end.reason {
	case endQuit:
		s.takeQuit(q, p.end.tick) // the game goes on to the quit's tick
	case endSilent, endLeft:
		if s.state >= StateEnding {
			break // said before
		}
		if p.end.reason == endSilent {
			s.disconnected(q, ErrSilent, s.next)
			s.finish(endSilent, uint8(q), &Error{Reason: ErrSilent, Player: q, For: s.cfg.Silence}, "")
		} else {
			s.disconnected(q, ErrLeft, s.next)
			s.finish(endLeft, uint8(q), &Error{Reason: ErrLeft, Player: q}, "")
		}
	}
}

// welcome takes the host's Welcome: the game's settings and our index.
func (s *session) welcome(now time.Duration) {
	p := &s.in
	s.id = p.session
	s.index = int(p.index)
	s.players = int(p.players)
	s.delay = int(p.delay)
	s.tickLimit = p.tickLimit
	s.every = p.every
	host := time.Duration(p.tickUs) * time.Microsecond
	if s.tick != 0 && s.tick != host {
		s.finish(0, 0, &Error{Reason: ErrMismatch, What: "tick", Remote: uint64(host), Local: uint64(s.tick)}, "")
		s.state = StateEnded
		return
	}
	s.tick = host
	if p.inputSize != s.inputSize {
		s.finish(0, 0, &Error{Reason: ErrMismatch, What: "input size", Remote: uint64(p.inputSize), Local: uint64(s.inputSize)}, "")
		s.state = StateEnded
		return
	}
	if p.nSettings > s.cfg.MaxSettings {
		s.finish(0, 0, &Error{Reason: ErrTooLarge, What: "settings", Size: p.nSettings, Limit: s.cfg.MaxSettings}, "")
		s.state = StateEnded
		return
	}
	s.settings = append([]byte(nil), p.settings[:p.nSettings]...)
	s.state = StateLobby
	s.initTicks()
	r := &s.peers[0]
	r.lastHeard, r.news = now, true
	for q := range s.players {
		r.have[q] = uint64(s.delay)
	}
	s.event(Event{Kind: EventSynchronized, Player: 0})
}

// link updates the link state from a packet of r that passed the checks:
// it was heard now and, if the packet is newer than any before (not a
// duplicate or a late one), its stamp and the round trip. s.newer says
// which.
func (s *session) link(r *peer, now time.Duration) {
	l := &s.in.link
	r.lastHeard = now
	s.newer = !r.gotSeq || int32(l.seq-r.seqIn) > 0
	if !s.newer {
		return
	}
	r.gotSeq, r.seqIn = true, l.seq
	r.stampIn, r.stampAt = l.stamp, now
	if l.echo == 0 {
		return
	}
	d := stamp(now) - l.echo - l.hold
	if int32(d) < 0 {
		return
	}
	if !r.rttSet {
		r.rttUs, r.rttSet = uint64(d), true
	} else {
		r.rttUs = (7*r.rttUs + uint64(d)) / 8
	}
}

// stamp is the clock in µs for the wire: odd, so never 0.
func stamp(now time.Duration) uint32 { return uint32(now/time.Microsecond) | 1 }

// takeBlock stores the records of b that extend what is known of its
// player, and reports whether there were any.
func (s *session) takeBlock(b *block) bool {
	q := int(b.player)
	h := s.have[q]
	if b.first > h || h-b.first >= uint64(b.n) {
		return false // a gap (the sender resends from our acknowledgement), or nothing new
	}
	limit := s.floor(q) + ringSize
	if s.kckd[q] {
		limit = min(limit, s.kick[q].from)
	}
	took := false
	for i := int(h - b.first); i < b.n && h < limit; i++ {
		s.ring[q][h%ringSize] = b.recs[i]
		h++
		took = true
	}
	s.have[q] = h
	return took
}

// takeKick (joiner) applies a kick the host announced.
func (s *session) takeKick(k *kickMsg) {
	q := int(k.player)
	if s.kckd[q] {
		return
	}
	s.kckd[q], s.kick[q] = true, *k
	s.nKick++
	if s.have[q] > k.from {
		s.have[q] = k.from // cannot happen with a sane host
	}
	s.disconnected(q, Reason(k.reason), k.from)
	if q == s.index && s.state < StateEnding {
		why := Reason(k.reason)
		e := &Error{Reason: ErrKicked, Why: why, For: time.Duration(k.heldMs) * time.Millisecond, Tick: k.from}
		s.finish(endKicked, uint8(q), e, "")
	}
}

func kickWhy(reason uint8) string { return Reason(reason).name() }

// disconnected says that player q is out of the game, for why, from tick.
func (s *session) disconnected(q int, why Reason, tick uint64) {
	s.interrupted &^= 1 << q
	s.event(Event{Kind: EventDisconnected, Player: q, Why: why, Tick: tick})
}

// slotOf (host) returns the joiner slot of addr, or -1.
func (s *session) slotOf(addr string) int {
	for j := 1; j < s.players; j++ {
		if s.peers[j].used && s.peers[j].addr == addr {
			return j
		}
	}
	return -1
}

// freeSlot (host) returns the lowest free joiner slot, or -1.
func (s *session) freeSlot() int {
	for j := 1; j < s.players; j++ {
		if !s.peers[j].used {
			return j
		}
	}
	return -1
}

func playerNote(p int, what string) string {
	return "player " + string(rune('0'+p)) + what
}
