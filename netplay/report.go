package netplay

import (
	"encoding/binary"
	"fmt"
	"strings"
	"time"
)

// A desync report (Config.Report): when a joiner's state hash and the
// host's differ at a checkpoint, the two exchange what they kept of that
// checkpoint (each peer keeps the state hash after every tick of the
// last few hundred, and its state at the last few checkpoints), and each
// says where the states differ: the first tick whose hashes differ, and
// the fields or bytes that differ at the checkpoint (Error.Report).
//
// Report messages (type 12; the header as in the package documentation),
// each peer's to the other, resent until acknowledged:
//
//	u8 sender's player index, u8 kind, uv checkpoint (ticks run), then by kind:
//	1 hashes  uv first, u8 n (1..64), n × u64: the hashes after ticks first+1..first+n
//	2 state   uv size (0: not kept), uv offset, uv n (0..1024), n bytes
//	3 ack     u8 flags (bit 0: the hashes are here), uv state bytes here (in order, from 0)
//
// What a peer sends is its own state, once, a window at a time; what it
// holds of the other's is bounded by Config.MaxSnapshot; the exchange
// gives up after reportTimeout, and the report says what was missing.
const (
	msgReport     msgType = 12
	reportHashes          = 1
	reportState           = 2
	reportAck             = 3
	reportSpan            = 64               // the hashes a report compares, at most
	reportChunk           = 1024             // the state's bytes a message carries, at most
	reportWindow          = 16 * reportChunk // the state's bytes sent ahead of the acknowledgement
	reportTimeout         = 10 * time.Second // an exchange's longest
	reportStates          = 4                // the checkpoints whose states a peer keeps
)

// reportSource is what the tick path keeps for a report: the runner's.
type reportSource interface {
	// reportState is the state after tick ticks, if kept.
	reportState(tick uint64) ([]byte, bool)
	// reportHashes appends to dst the hashes after ticks first+1..tick it
	// kept, at most reportSpan of them.
	reportHashes(tick uint64, dst []uint64) (first uint64, hashes []uint64)
	// reportDiff lists how this peer's state differs from another's.
	reportDiff(mine, theirs []byte) *differ
}

// exchange is a desync report's exchange with one peer.
type exchange struct {
	peer    int
	addr    string
	tick    uint64 // the checkpoint whose hashes differ
	started time.Duration

	mine      []byte // this peer's state at tick; nil: not kept
	kept      bool
	myFirst   uint64
	myHashes  []uint64
	acked     int  // the bytes of mine the other has
	hashesOK  bool // the other has my hashes
	lastSend  time.Duration
	ackDue    bool
	theirs    []byte
	size      int // the size of theirs, once known
	sized     bool
	refused   string // why theirs is not taken
	thFirst   uint64
	thHashes  []uint64
	gotHashes bool
	done      bool // the report is made
}

// startReport begins the exchange of a report of the desync with player
// q at tick, if reports are on and q is the host or this is the host (a
// joiner talks to the host alone); one exchange a session.
func (s *session) startReport(now time.Duration, q int, tick uint64) {
	if s.rep == nil || s.xc != nil || (s.role != roleHost && q != 0) {
		return
	}
	x := &exchange{peer: q, tick: tick, started: now}
	if s.role == roleHost {
		x.addr = s.peers[q].addr
	} else {
		x.addr = s.hostAddr
	}
	x.mine, x.kept = s.rep.reportState(tick)
	x.myFirst, x.myHashes = s.rep.reportHashes(tick, nil)
	x.hashesOK = len(x.myHashes) == 0 // nothing to send
	s.xc = x
}

// isReport reports whether pkt is a report message of this version.
func isReport(pkt []byte) bool {
	return len(pkt) >= headerSize && pkt[0] == magic0 && pkt[1] == magic1 && pkt[2] == protocolVersion && msgType(pkt[3]) == msgReport
}

// reportReceive takes a report message: from the peer of the exchange, of
// this session and its checkpoint; anything else is bad.
func (s *session) reportReceive(now time.Duration, from string, pkt []byte) {
	x := s.xc
	r := reader{b: pkt, off: headerSize}
	sender, kind, tick := int(r.u8()), r.u8(), r.uvMax(maxTick)
	if r.err != nil || x == nil || x.done || from != x.addr || sender != x.peer || tick != x.tick ||
		binary.LittleEndian.Uint64(pkt[4:]) != s.id {
		s.bad++
		return
	}
	ok := false
	switch kind {
	case reportHashes:
		ok = x.takeHashes(&r)
	case reportState:
		ok = x.takeState(&r, s.cfg.MaxReport)
	case reportAck:
		flags, got := r.u8(), r.uvMax(uint64(len(x.mine)))
		if ok = r.err == nil && r.off == len(r.b); ok {
			x.hashesOK = x.hashesOK || flags&1 != 0
			x.acked = max(x.acked, int(got))
		}
	}
	if !ok {
		s.bad++
		return
	}
	s.reportMaybeDone(now)
}

func (x *exchange) takeHashes(r *reader) bool {
	first, n := r.uvMax(maxTick), int(r.u8())
	if r.err != nil || n < 1 || n > reportSpan || x.gotHashes {
		return r.err == nil && x.gotHashes // a copy
	}
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = r.u64()
	}
	if r.err != nil || r.off != len(r.b) || first+uint64(n) != x.tick {
		return false
	}
	x.thFirst, x.thHashes, x.gotHashes, x.ackDue = first, hs, true, true
	return true
}

func (x *exchange) takeState(r *reader, limit int) bool {
	size, off, n := r.uvMax(maxSnapshotWire), r.uvMax(maxSnapshotWire), int(r.uvMax(reportChunk))
	if r.err != nil || r.off+n != len(r.b) || x.sized && uint64(x.size) != size || off+uint64(n) > size {
		return false
	}
	x.ackDue = true
	switch {
	case x.refused != "":
	case size > uint64(limit):
		x.refused = fmt.Sprintf("its state is %d bytes, more than the %d this peer takes (Config.MaxSnapshot)", size, limit)
	case size == 0:
		x.refused = "it did not keep its state at that tick"
	case off == uint64(len(x.theirs)):
		if !x.sized {
			x.theirs, x.size, x.sized = make([]byte, 0, size), int(size), true
		}
		x.theirs = append(x.theirs, r.b[r.off:r.off+n]...)
	}
	return true
}

// reportSend sends what the exchange has due: its hashes and its state
// until acknowledged, a window at a time every Resend, and an
// acknowledgement of what arrived.
func (s *session) reportSend(now time.Duration, out sender) {
	x := s.xc
	if x == nil {
		return
	}
	if x.ackDue {
		x.ackDue = false
		w := s.reportHeader(reportAck)
		flags := uint8(0)
		if x.gotHashes {
			flags = 1
		}
		w.u8(flags)
		w.uv(uint64(len(x.theirs)))
		s.reportEmit(out, &w)
	}
	if now-x.lastSend < s.cfg.Resend && x.lastSend != 0 || x.sent() {
		return
	}
	x.lastSend = max(now, 1)
	if !x.hashesOK {
		w := s.reportHeader(reportHashes)
		w.uv(x.myFirst)
		w.u8(uint8(len(x.myHashes)))
		for _, h := range x.myHashes {
			w.u64(h)
		}
		s.reportEmit(out, &w)
	}
	for off := x.acked; off < x.acked+reportWindow && (off < len(x.mine) || off == 0 && !x.kept); off += reportChunk {
		n := min(reportChunk, len(x.mine)-off)
		w := s.reportHeader(reportState)
		w.uv(uint64(len(x.mine)))
		w.uv(uint64(off))
		w.uv(uint64(n))
		w.bytes(x.mine[off : off+n])
		s.reportEmit(out, &w)
		if !x.kept {
			break
		}
	}
}

// sent reports whether the other has all this peer sends: its hashes and
// its state (or the word that it has none, which takes no
// acknowledgement).
func (x *exchange) sent() bool {
	return x.hashesOK && (x.acked >= len(x.mine) && x.kept || !x.kept && x.lastSend != 0)
}

func (s *session) reportHeader(kind uint8) writer {
	w := specHeader(s.buf[:], msgReport, s.id)
	w.u8(uint8(s.index))
	w.u8(kind)
	w.uv(s.xc.tick)
	return w
}

func (s *session) reportEmit(out sender, w *writer) {
	if !w.ok {
		s.encodeFail++
		return
	}
	s.sent++
	s.bytesOut += int64(len(w.b))
	out.Send(s.xc.addr, w.b)
}

// reportMaybeDone makes the report once the other's hashes and state are
// here (or refused), or the exchange timed out.
func (s *session) reportMaybeDone(now time.Duration) {
	x := s.xc
	if x == nil || x.done {
		return
	}
	stateIn := x.refused != "" || x.sized && len(x.theirs) == x.size
	if !(x.gotHashes && stateIn) && now-x.started < reportTimeout {
		return
	}
	x.done = true
	text := x.report(s.rep)
	if s.desync != nil && s.desync.Tick == x.tick && s.desync.Player == x.peer {
		s.desync.Report = text
	}
	s.event(Event{Kind: EventDesync, Player: x.peer, Tick: x.tick, Report: text})
}

// reportSettled reports whether the exchange, if any, lets the session
// end: the report made and what this peer sends delivered, or the
// exchange timed out.
func (s *session) reportSettled(now time.Duration) bool {
	x := s.xc
	if x == nil {
		return true
	}
	s.reportMaybeDone(now)
	return x.done && x.sent() || now-x.started >= reportTimeout
}

// report is the text of the report: the first tick whose hashes differ,
// and what differs at the checkpoint, here against the other peer.
func (x *exchange) report(src reportSource) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the state hashes differ after tick %d (this peer's against player %d's)\n", x.tick, x.peer)
	switch first, known := x.firstDiff(); {
	case !x.gotHashes || len(x.myHashes) == 0:
		b.WriteString("the hashes of the ticks before it are not both here: the first tick that differs is not known\n")
	case known:
		fmt.Fprintf(&b, "the states first differ after tick %d (the hashes agree up to it)\n", first)
	default:
		fmt.Fprintf(&b, "the states differ after tick %d already, the first the peers compared\n", first)
	}
	switch {
	case !x.kept:
		b.WriteString("this peer did not keep its state at that tick (it came too late)\n")
	case x.refused != "":
		fmt.Fprintf(&b, "the other peer's state is not here: %s\n", x.refused)
	case !x.sized:
		fmt.Fprintf(&b, "the other peer's state did not arrive in %v\n", reportTimeout)
	case len(x.theirs) != x.size:
		fmt.Fprintf(&b, "the other peer's state did not arrive in %v (%d of %d bytes)\n", reportTimeout, len(x.theirs), x.size)
	default:
		fmt.Fprintf(&b, "what differs after tick %d, here vs player %d:\n", x.tick, x.peer)
		b.WriteString(src.reportDiff(x.mine, x.theirs).text())
	}
	return b.String()
}

// firstDiff is the first tick (ticks run) whose hashes differ between the
// two peers' lists, and whether the one before it agreed.
func (x *exchange) firstDiff() (tick uint64, known bool) {
	agreed := false
	if len(x.myHashes) == 0 || len(x.thHashes) == 0 {
		return x.tick, false
	}
	for t := max(x.myFirst, x.thFirst) + 1; t <= x.tick; t++ {
		mine, theirs := x.myHashes[t-x.myFirst-1], x.thHashes[t-x.thFirst-1]
		if mine != theirs {
			return t, agreed
		}
		agreed = true
	}
	return x.tick, agreed
}
