package netplay

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"time"
)

// Wire constants; the package documentation has the layout.
const (
	// protocolVersion is the version of the wire format this package
	// speaks. Peers of different versions do not play together: the host
	// answers a Hello of another version with a Reject.
	protocolVersion = 5
	// MaxPacketSize is the largest datagram a Session sends or accepts.
	// It stays under the 1280-byte minimum MTU of IPv6 with room for the
	// IP and UDP headers, so no packet is ever fragmented.
	MaxPacketSize = 1200
	// helloSize is the exact size of a Hello: it is padded, as QUIC pads
	// its first packet, so that no answer of the host (a Welcome with the
	// game's settings) is larger than the Hello that asked for it, and a
	// forged source address gains no amplification.
	helloSize = MaxPacketSize
	// maxTickUs is the longest tick the wire carries, an hour in µs.
	maxTickUs = uint64(time.Hour / time.Microsecond)
	// Version 5 added the length of a tick to the Welcome.
	// Version 3 added the desync check interval to the Welcome and the
	// host's kick by hand (kick reason 4). Version 4 allows games of up
	// to 8 players (MaxPlayers) where version 3 allowed 4; the encoding
	// is the same, but a peer of version 3 would take a Welcome, game
	// packet or spectator's welcome of 5 players or more for garbage
	// and wait for an answer that never comes: the version tells it at
	// once instead.
	//
	// helloSizeV1 was the size of a Hello of version 1, which a host
	// answers with a Reject.
	helloSizeV1 = 96
	// maxTick is the largest tick number the wire carries (2^40 ticks,
	// over 800 years at 25 ticks a second); larger numbers are garbage.
	maxTick = 1 << 40
)

const (
	magic0, magic1 = 'N', 'P'
	headerSize     = 12
)

// msgType is the fourth byte of every packet.
type msgType uint8

const (
	msgHello   msgType = 1 // joiner to host: let me in
	msgWelcome msgType = 2 // host to joiner: your index and the game's settings
	msgReject  msgType = 3 // host to joiner: another protocol version, or no room
	msgLobby   msgType = 4 // both ways before the start: keepalive, RTT
	msgGame    msgType = 5 // both ways from the start: inputs, acks, hashes, status
)

// Flags of lobby and game packets.
const (
	flagEnded = 1 << 0 // the sender's game is over
	flagEnd   = 1 << 1 // an end section follows (why the game ended)
	flagHost  = 1 << 2 // the host's sections follow (low, peers, kicks)
	flagsAll  = flagEnded | flagEnd | flagHost
)

// Why a host rejects a Hello. A Reject is smaller than the Hello it
// answers, and a host sends one a Poll at most.
const (
	rejectVersion = 1 // it speaks another protocol version (the Reject's)
	rejectFull    = 2 // its game takes no more players: every slot is taken, or it started
)

// Why a game ended, in the end section of a packet.
const (
	endQuit      = 1 // player quits (Q): the game ends at the end's tick
	endTickLimit = 2 // the tick limit was reached
	endSilent    = 3 // player went silent
	endLeft      = 4 // player ended with an error and left
	endKicked    = 5 // the sender was kicked (it says it knows)
	endMax       = endKicked
)

// Why a player was kicked, in the kicks section.
const (
	kickSlow   = 1 // held the game back more than KickAfter in 10 s
	kickSilent = 2 // no packet for the silence timeout
	kickLeft   = 3 // it ended with an error
	kickManual = 4 // the host kicked it by hand (Session.Kick)
	kickMax    = kickManual
)

// link is the part of lobby and game packets that measures the round trip
// and orders the packets of one direction.
type link struct {
	from  uint8  // the sender's player index
	seq   uint32 // per direction, +1 a packet
	stamp uint32 // the sender's clock in µs, odd (never 0)
	echo  uint32 // the newest stamp received from the addressee, 0 if none
	hold  uint32 // µs between receiving that stamp and sending this packet
}

// record is one player's input for one tick: the session's InputSize
// bytes, the rest zero, so that records compare with ==.
type record [MaxInputSize]byte

// block is a run of consecutive input records of one player.
type block struct {
	player uint8
	first  uint64 // the tick of recs[0]
	n      int    // 1..Window
	recs   [inputWindow]record
}

// ckpt is a state hash: the hash after tick ticks have run.
type ckpt struct {
	player uint8
	tick   uint64
	hash   uint64
}

// load is what a peer says about its own timing.
type load struct {
	debtMs uint64             // the loop's time debt, ms
	capped uint64             // frames that hit MaxLoops so far
	waited [MaxPlayers]uint64 // ms waited with only player p's input missing; the sender's own slot: its own slowness
}

// peerInfo is what the host tells everyone about each player.
type peerInfo struct {
	tick   uint64 // the player's head: ticks its game has run, predicted ones included
	debtMs uint64
	capped uint64
	heldMs uint64 // the longest any peer waited for it alone, as far as it was slow by itself, ms
	rttUs  uint64 // host <-> player round trip, µs (0 for the host)
	ageUs  uint64 // µs from the host hearing tick to sending this packet (0 for the host)
}

// kickMsg announces that player is autonomous from tick from on.
type kickMsg struct {
	player uint8
	from   uint64
	reason uint8
	heldMs uint64
}

// endMsg says why the sender's game ended, or, for a quit, that it ends
// at tick: player quits, and nobody runs tick or any later one.
type endMsg struct {
	reason uint8
	player uint8
	tick   uint64 // endQuit only: the first tick nobody runs
}

// packet is every message, decoded; only the fields of its type are
// meaningful. It is big (about 18 KiB, for the input blocks) and meant to
// be kept and reused: decode and encode never allocate.
type packet struct {
	typ     msgType
	version uint8 // ProtocolVersion, except in a decoded Reject
	session uint64
	// inputSize is the size of an input record in the game's blocks: the
	// session sets it before decode and encode (1..MaxInputSize); a
	// Welcome carries its own, which decode sets.
	inputSize int

	// hello, welcome
	token uint64
	// welcome
	index, players, delay uint8
	tickLimit             uint64
	every                 uint64 // ticks between state-hash checkpoints, 0: none
	tickUs                uint64 // the length of a tick, µs
	nSettings             int
	settings              [MaxSettingsSize]byte
	// reject
	reason uint8
	// lobby, game
	link  link
	flags uint8
	// lobby
	joined uint8
	// game
	tick   uint64 // the sender's head: ticks its game has run, predicted ones included
	n      uint8  // players
	have   [MaxPlayers]uint64
	low    uint64 // flagHost
	nHash  int
	hashes [MaxPlayers]ckpt
	load   load
	peers  [MaxPlayers]peerInfo // flagHost
	nKick  int
	kicks  [MaxPlayers]kickMsg // flagHost
	end    endMsg              // flagEnd
	nBlock int
	blocks [MaxPlayers]block
}

// Decoding errors. They are values, so that a flood of garbage costs no
// allocation; every one wraps errBadPacket.
var (
	errShort     = badPacket("truncated")
	errLong      = badPacket("longer than MaxPacketSize")
	errMagic     = badPacket("bad magic")
	errVersion   = badPacket("other protocol version")
	errType      = badPacket("unknown type")
	errVarint    = badPacket("bad varint")
	errRange     = badPacket("field out of range")
	errTrailing  = badPacket("trailing bytes")
	errPadding   = badPacket("non-zero padding")
	errCanonical = badPacket("not canonical")
)

func badPacket(what string) error { return &wireError{what} }

type wireError struct{ what string }

func (e *wireError) Error() string        { return "netplay: bad packet: " + e.what }
func (e *wireError) Unwrap() error        { return errBadPacket }
func (e *wireError) Is(target error) bool { return target == errBadPacket }

// errBadPacket is wrapped by every decoding error: the datagram was not a
// packet of this protocol and version (garbage, truncated, oversized, or
// not canonical).
var errBadPacket = errors.New("netplay: bad packet")

// reader decodes; its first error sticks and later reads return zeros.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *reader) u8() uint8 {
	if r.err != nil || r.off >= len(r.b) {
		r.fail(errShort)
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *reader) u32() uint32 {
	if r.err != nil || len(r.b)-r.off < 4 {
		r.fail(errShort)
		return 0
	}
	x := binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	return x
}

func (r *reader) u64() uint64 {
	if r.err != nil || len(r.b)-r.off < 8 {
		r.fail(errShort)
		return 0
	}
	x := binary.LittleEndian.Uint64(r.b[r.off:])
	r.off += 8
	return x
}

// bytes reads len(dst) bytes into dst.
func (r *reader) bytes(dst []byte) {
	if r.err != nil || len(r.b)-r.off < len(dst) {
		r.fail(errShort)
		return
	}
	r.off += copy(dst, r.b[r.off:])
}

// uv reads a minimal unsigned LEB128 varint.
func (r *reader) uv() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.b[r.off:])
	switch {
	case n == 0:
		r.fail(errShort)
		return 0
	case n < 0:
		r.fail(errVarint)
		return 0
	case n != uvLen(x):
		r.fail(errCanonical)
		return 0
	}
	r.off += n
	return x
}

// uvMax reads a varint that must be at most max.
func (r *reader) uvMax(max uint64) uint64 {
	x := r.uv()
	if x > max {
		r.fail(errRange)
		return 0
	}
	return x
}

// writer encodes into a fixed buffer; ok turns false when something does
// not fit, and every later write is dropped.
type writer struct {
	b  []byte // len: written so far; cap: the limit
	ok bool
}

func (w *writer) room(n int) bool {
	if !w.ok || cap(w.b)-len(w.b) < n {
		w.ok = false
		return false
	}
	return true
}

func (w *writer) u8(x uint8) {
	if w.room(1) {
		w.b = append(w.b, x)
	}
}

func (w *writer) u32(x uint32) {
	if w.room(4) {
		w.b = binary.LittleEndian.AppendUint32(w.b, x)
	}
}

func (w *writer) u64(x uint64) {
	if w.room(8) {
		w.b = binary.LittleEndian.AppendUint64(w.b, x)
	}
}

func (w *writer) bytes(b []byte) {
	if w.room(len(b)) {
		w.b = append(w.b, b...)
	}
}

func (w *writer) uv(x uint64) {
	if w.room(uvLen(x)) {
		w.b = binary.AppendUvarint(w.b, x)
	}
}

// uvLen is the length of the minimal varint of x.
func uvLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

// runLen is the encoded size of a run of records: its count and one
// record.
func (p *packet) runLen(count uint64) int { return uvLen(count) + p.inputSize }

// decode parses b into p. It never panics and never allocates; on error
// p holds garbage. It accepts exactly what encode writes (minimal varints,
// maximal runs, sections in order), so that every packet has one encoding.
func (p *packet) decode(b []byte) error {
	if len(b) > MaxPacketSize {
		return errLong
	}
	if len(b) < headerSize {
		return errShort
	}
	if b[0] != magic0 || b[1] != magic1 {
		return errMagic
	}
	p.version, p.typ = b[2], msgType(b[3])
	p.session = binary.LittleEndian.Uint64(b[4:])
	if p.typ == msgReject {
		// A Reject carries the host's version, whatever it is.
		if len(b) != headerSize+1 {
			return errShort
		}
		p.reason = b[headerSize]
		switch {
		case p.session != 0:
			return errRange
		case p.reason == rejectVersion && p.version != protocolVersion:
		case p.reason == rejectFull && p.version == protocolVersion:
		default:
			return errRange
		}
		return nil
	}
	if p.version != protocolVersion {
		return errVersion
	}
	r := reader{b: b, off: headerSize}
	switch p.typ {
	case msgHello:
		p.decodeHello(&r)
	case msgWelcome:
		p.decodeWelcome(&r)
	case msgLobby:
		p.decodeLobby(&r)
	case msgGame:
		p.decodeGame(&r)
	default:
		return errType
	}
	if r.err == nil && r.off != len(b) {
		r.err = errTrailing
	}
	return r.err
}

func (p *packet) decodeHello(r *reader) {
	if p.session != 0 {
		r.fail(errRange)
		return
	}
	if len(r.b) != helloSize {
		r.fail(errShort)
		return
	}
	p.token = r.u64()
	if p.token == 0 {
		r.fail(errRange)
	}
	for _, c := range r.b[r.off:] {
		if c != 0 {
			r.fail(errPadding)
			return
		}
	}
	r.off = len(r.b)
}

func (p *packet) decodeWelcome(r *reader) {
	p.token = r.u64()
	p.index = r.u8()
	p.players = r.u8()
	p.delay = r.u8()
	p.tickLimit = r.uvMax(maxTick)
	p.every = r.uvMax(maxTick)
	p.tickUs = r.uvMax(maxTickUs)
	p.inputSize = int(r.u8())
	p.nSettings = int(r.uvMax(MaxSettingsSize))
	if r.err == nil && (p.session == 0 || p.token == 0 ||
		p.players < MinPlayers || p.players > MaxPlayers ||
		p.index == 0 || p.index >= p.players || p.delay > MaxDelay ||
		p.inputSize < 1 || p.inputSize > MaxInputSize) {
		r.fail(errRange)
	}
	r.bytes(p.settings[:p.nSettings])
}

func (p *packet) decodeLink(r *reader) {
	l := &p.link
	l.from = r.u8()
	l.seq = r.u32()
	l.stamp = r.u32()
	l.echo = r.u32()
	l.hold = uint32(r.uvMax(math.MaxUint32))
	p.flags = r.u8()
	if r.err == nil && (p.session == 0 || l.from >= MaxPlayers || l.stamp&1 == 0 ||
		(l.echo == 0 && l.hold != 0) || p.flags&^flagsAll != 0) {
		r.fail(errRange)
	}
}

func (p *packet) decodeLobby(r *reader) {
	p.decodeLink(r)
	p.joined = r.u8()
	if r.err == nil && (p.flags&^flagEnded != 0 || p.joined > MaxPlayers) {
		r.fail(errRange)
	}
}

func (p *packet) decodeGame(r *reader) {
	p.decodeLink(r)
	p.tick = r.uvMax(maxTick)
	p.n = r.u8()
	if r.err == nil && (p.n < MinPlayers || p.n > MaxPlayers || p.link.from >= p.n) {
		r.fail(errRange)
	}
	if r.err != nil {
		return
	}
	n := int(p.n)
	// Nothing of an earlier packet may show through.
	p.have, p.load, p.peers, p.low, p.nKick = [MaxPlayers]uint64{}, load{}, [MaxPlayers]peerInfo{}, 0, 0
	for i := range n {
		p.have[i] = r.uvMax(maxTick)
	}
	host := p.flags&flagHost != 0
	if host {
		p.low = r.uvMax(maxTick)
	}
	p.nHash = p.decodeCount(r, n)
	for i := range p.nHash {
		c := &p.hashes[i]
		c.player = r.u8()
		c.tick = r.uvMax(maxTick)
		c.hash = r.u64()
		if r.err == nil && (c.player >= p.n || (i > 0 && c.player <= p.hashes[i-1].player) || c.tick == 0) {
			r.fail(errRange)
		}
	}
	p.load.debtMs = r.uvMax(maxTick)
	p.load.capped = r.uvMax(maxTick)
	for i := range n {
		p.load.waited[i] = r.uvMax(maxTick)
	}
	if host {
		for i := range n {
			pi := &p.peers[i]
			pi.tick = r.uvMax(maxTick)
			pi.debtMs = r.uvMax(maxTick)
			pi.capped = r.uvMax(maxTick)
			pi.heldMs = r.uvMax(maxTick)
			pi.rttUs = r.uvMax(math.MaxUint32)
			pi.ageUs = r.uvMax(math.MaxUint32)
		}
		p.nKick = p.decodeCount(r, n-1)
		for i := range p.nKick {
			k := &p.kicks[i]
			k.player = r.u8()
			k.from = r.uvMax(maxTick)
			k.reason = r.u8()
			k.heldMs = r.uvMax(maxTick)
			if r.err == nil && (k.player == 0 || k.player >= p.n || (i > 0 && k.player <= p.kicks[i-1].player) ||
				k.reason == 0 || k.reason > kickMax) {
				r.fail(errRange)
			}
		}
	}
	p.end = endMsg{}
	if p.flags&flagEnd != 0 {
		p.end.reason = r.u8()
		p.end.player = r.u8()
		if r.err == nil && (p.end.reason == 0 || p.end.reason > endMax || p.end.player >= p.n) {
			r.fail(errRange)
		}
		if p.end.reason == endQuit {
			p.end.tick = r.uvMax(maxTick)
		}
	}
	p.nBlock = p.decodeCount(r, n)
	for i := range p.nBlock {
		p.decodeBlock(r, &p.blocks[i])
		if r.err == nil && (p.blocks[i].player >= p.n || (i > 0 && p.blocks[i].player <= p.blocks[i-1].player)) {
			r.fail(errRange)
		}
	}
}

func (p *packet) decodeCount(r *reader, max int) int {
	c := r.u8()
	if int(c) > max {
		r.fail(errRange)
		return 0
	}
	return int(c)
}

func (p *packet) decodeBlock(r *reader, b *block) {
	b.player = r.u8()
	b.first = r.uvMax(maxTick)
	c := r.u8()
	if r.err == nil && (c == 0 || c > inputWindow) {
		r.fail(errRange)
	}
	if r.err != nil {
		return
	}
	b.n = int(c)
	for i := 0; i < b.n && r.err == nil; {
		count := r.uvMax(uint64(b.n - i))
		var rec record
		r.bytes(rec[:p.inputSize])
		if r.err != nil {
			return
		}
		if count == 0 || (i > 0 && b.recs[i-1] == rec) {
			r.fail(errCanonical) // runs are maximal
			return
		}
		for range count {
			b.recs[i] = rec
			i++
		}
	}
}

// encode writes p into buf (at most MaxPacketSize bytes of it) and returns
// the length. The input blocks go last and are cut to fit: a block keeps
// its oldest records (the ones the peer needs first), and p.blocks[i].n
// and p.nBlock are lowered to what was written. Anything else that does
// not fit, or a field out of range, is a bug of the caller: encode then
// returns 0.
func (p *packet) encode(buf []byte) int {
	w := writer{b: buf[:0:min(len(buf), MaxPacketSize)], ok: true}
	w.u8(magic0)
	w.u8(magic1)
	v := uint8(protocolVersion)
	if p.typ == msgReject {
		v = p.version
	}
	w.u8(v)
	w.u8(uint8(p.typ))
	w.u64(p.session)
	switch p.typ {
	case msgHello:
		w.u64(p.token)
		for len(w.b) < helloSize && w.room(1) {
			w.b = append(w.b, 0)
		}
	case msgWelcome:
		w.u64(p.token)
		w.u8(p.index)
		w.u8(p.players)
		w.u8(p.delay)
		w.uv(p.tickLimit)
		w.uv(p.every)
		w.uv(p.tickUs)
		if p.inputSize < 1 || p.inputSize > MaxInputSize || p.nSettings < 0 || p.nSettings > MaxSettingsSize {
			return 0
		}
		w.u8(uint8(p.inputSize))
		w.uv(uint64(p.nSettings))
		w.bytes(p.settings[:p.nSettings])
	case msgReject:
		w.u8(p.reason)
	case msgLobby:
		p.encodeLink(&w)
		w.u8(p.joined)
	case msgGame:
		p.encodeGame(&w)
	default:
		return 0
	}
	if !w.ok {
		return 0
	}
	return len(w.b)
}

func (p *packet) encodeLink(w *writer) {
	l := &p.link
	w.u8(l.from)
	w.u32(l.seq)
	w.u32(l.stamp)
	w.u32(l.echo)
	w.uv(uint64(l.hold))
	w.u8(p.flags)
}

func (p *packet) encodeGame(w *writer) {
	p.encodeLink(w)
	w.uv(p.tick)
	w.u8(p.n)
	n := int(p.n)
	if n > MaxPlayers {
		w.ok = false
		return
	}
	for i := range n {
		w.uv(p.have[i])
	}
	host := p.flags&flagHost != 0
	if host {
		w.uv(p.low)
	}
	w.u8(uint8(p.nHash))
	for i := range p.nHash {
		c := &p.hashes[i]
		w.u8(c.player)
		w.uv(c.tick)
		w.u64(c.hash)
	}
	w.uv(p.load.debtMs)
	w.uv(p.load.capped)
	for i := range n {
		w.uv(p.load.waited[i])
	}
	if host {
		for i := range n {
			pi := &p.peers[i]
			w.uv(pi.tick)
			w.uv(pi.debtMs)
			w.uv(pi.capped)
			w.uv(pi.heldMs)
			w.uv(pi.rttUs)
			w.uv(pi.ageUs)
		}
		w.u8(uint8(p.nKick))
		for i := range p.nKick {
			k := &p.kicks[i]
			w.u8(k.player)
			w.uv(k.from)
			w.u8(k.reason)
			w.uv(k.heldMs)
		}
	}
	if p.flags&flagEnd != 0 {
		w.u8(p.end.reason)
		w.u8(p.end.player)
		switch {
		case p.end.reason == endQuit:
			w.uv(p.end.tick)
		case p.end.tick != 0:
			w.ok = false // only a quit has a tick: one encoding per packet
			return
		}
	}
	p.encodeBlocks(w)
}

// encodeBlocks appends the input blocks: as many records as fit, oldest
// first, each block getting an equal share of the room left (an unused
// share passes on to the next). It leaves in p the blocks and records
// that went out.
func (p *packet) encodeBlocks(w *writer) {
	countAt := len(w.b)
	w.u8(0)
	if !w.ok {
		return
	}
	written := 0
	for i := range p.nBlock {
		b := &p.blocks[i]
		limit := len(w.b) + (cap(w.b)-len(w.b))/(p.nBlock-i)
		// The header and at least one record must fit.
		if b.n <= 0 || b.n > inputWindow || len(w.b)+1+uvLen(b.first)+1+p.runLen(1) > limit {
			break
		}
		w.u8(b.player)
		w.uv(b.first)
		nAt := len(w.b)
		w.u8(0)
		k := 0
		for k < b.n {
			rec := b.recs[k]
			run := 1
			for k+run < b.n && b.recs[k+run] == rec {
				run++
			}
			// run <= Window < 128: its count is one byte, whatever its length.
			if len(w.b)+p.runLen(uint64(run)) > limit {
				break
			}
			w.uv(uint64(run))
			w.bytes(rec[:p.inputSize])
			k += run
		}
		w.b[nAt] = uint8(k)
		b.n = k
		written++
	}
	p.nBlock = written
	w.b[countAt] = uint8(written)
}
