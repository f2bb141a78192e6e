package netplay

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"
)

// gen makes random valid packets.
// gen makes random packets. inputSize is the size of their input records;
// 0: a random one for each packet.
type gen struct {
	rng       uint64
	inputSize int
}

func (g *gen) size() int {
	if g.inputSize != 0 {
		return g.inputSize
	}
	return int(1 + g.num(MaxInputSize-1))
}

func (g *gen) u64() uint64 {
	g.rng += 0x9e3779b97f4a7c15
	return mix64(g.rng)
}

// num returns a number of a random size up to max: small ones are common,
// as on the wire, but every length of varint shows up.
func (g *gen) num(max uint64) uint64 {
	x := g.u64() >> (g.u64() % 64)
	if max != math.MaxUint64 {
		x %= max + 1
	}
	return x
}

// record is a random record of n bytes: often a small one, as inputs
// are, sometimes any.
func (g *gen) record(n int) record {
	var r record
	x := g.u64()
	for i := range n {
		if i%8 == 0 {
			x = g.u64()
			if x&3 != 0 {
				x &= 0x0303030303030303
			}
		}
		r[i] = byte(x >> (8 * (i % 8)))
	}
	return r
}

func (g *gen) packet(typ msgType) *packet {
	p := &packet{typ: typ, version: protocolVersion, session: 1 + g.num(math.MaxUint64-1)}
	switch typ {
	case msgHello:
		p.session, p.token = 0, 1+g.num(math.MaxUint64-1)
	case msgWelcome:
		p.token = 1 + g.num(math.MaxUint64-1)
		p.players = uint8(MinPlayers + g.num(MaxPlayers-MinPlayers))
		p.index = uint8(1 + g.num(uint64(p.players)-2))
		p.delay = uint8(g.num(MaxDelay))
		p.tickLimit = g.num(maxTick)
		p.inputSize = g.size()
		p.nSettings = int(g.num(MaxSettingsSize))
		for i := range p.nSettings {
			p.settings[i] = byte(g.u64())
		}
	case msgReject:
		p.session, p.version, p.reason = 0, protocolVersion+1+uint8(g.num(200)), rejectVersion
		if g.num(2) == 0 {
			p.version, p.reason = protocolVersion, rejectFull
		}
	case msgLobby:
		g.link(p, MaxPlayers)
		p.flags &= flagEnded
		p.joined = uint8(g.num(MaxPlayers))
	case msgGame:
		n := int(MinPlayers + g.num(MaxPlayers-MinPlayers))
		p.n = uint8(n)
		p.inputSize = g.size()
		g.link(p, n)
		p.tick = g.num(maxTick)
		for i := range n {
			p.have[i] = g.num(maxTick)
			p.load.waited[i] = g.num(maxTick)
			p.peers[i] = peerInfo{g.num(maxTick), g.num(maxTick), g.num(maxTick), g.num(maxTick), g.num(math.MaxUint32), g.num(math.MaxUint32)}
		}
		p.low = g.num(maxTick)
		p.load.debtMs, p.load.capped = g.num(maxTick), g.num(maxTick)
		for q := range n {
			if g.u64()&1 == 0 {
				p.hashes[p.nHash] = ckpt{player: uint8(q), tick: 1 + g.num(maxTick-1), hash: g.u64()}
				p.nHash++
			}
			if q > 0 && g.u64()&3 == 0 {
				p.kicks[p.nKick] = kickMsg{player: uint8(q), from: g.num(maxTick), reason: uint8(1 + g.num(kickMax-1)), heldMs: g.num(maxTick)}
				p.nKick++
			}
			if g.u64()&1 == 0 {
				b := &p.blocks[p.nBlock]
				p.nBlock++
				b.player, b.first, b.n = uint8(q), g.num(maxTick), int(1+g.num(inputWindow-1))
				for k := 0; k < b.n; {
					r := g.record(p.inputSize)
					for run := 1 + g.num(5); run > 0 && k < b.n; run-- {
						b.recs[k] = r
						k++
					}
				}
			}
		}
		if p.flags&flagHost == 0 {
			p.low, p.nKick, p.peers = 0, 0, [MaxPlayers]peerInfo{}
		}
		if p.flags&flagEnd != 0 {
			p.end = endMsg{reason: uint8(1 + g.num(endMax-1)), player: uint8(g.num(uint64(n) - 1))}
			if p.end.reason == endQuit {
				p.end.tick = g.num(maxTick)
			}
		}
	}
	return p
}

func (g *gen) link(p *packet, n int) {
	p.link = link{from: uint8(g.num(uint64(n) - 1)), seq: uint32(g.u64()), stamp: uint32(g.u64()) | 1}
	if g.u64()&1 == 0 {
		p.link.echo, p.link.hold = uint32(g.u64())|1, uint32(g.num(math.MaxUint32))
	}
	p.flags = uint8(g.u64()) & flagsAll
}

// sameWire compares the fields of a's type in a and b (after a decode the
// others are stale). Blocks compare up to b's record count, which encode
// may have cut.
// matchesGolden checks that p encodes to exactly want and that want
// decodes to p, and returns the decoded packet.
func matchesGolden(t *testing.T, p *packet, want []byte) *packet {
	t.Helper()
	buf := make([]byte, MaxPacketSize)
	n := p.encode(buf)
	if !bytes.Equal(buf[:n], want) {
		t.Fatalf("encoded\n% x\nwant\n% x", buf[:n], want)
	}
	in := &packet{inputSize: p.inputSize}
	if err := in.decode(want); err != nil {
		t.Fatal(err)
	}
	sameWire(t, p, in)
	return in
}

func sameWire(t *testing.T, a, b *packet) {
	t.Helper()
	type view struct {
		typ       msgType
		version   uint8
		session   uint64
		token     uint64
		index     uint8
		players   uint8
		delay     uint8
		tickLimit uint64
		inputSize int
		settings  string
		reason    uint8
		link      link
		flags     uint8
		joined    uint8
		tick      uint64
		n         uint8
		have      [MaxPlayers]uint64
		low       uint64
		hashes    []ckpt
		load      load
		peers     [MaxPlayers]peerInfo
		kicks     []kickMsg
		end       endMsg
	}
	v := func(p *packet) view {
		x := view{typ: p.typ, session: p.session}
		switch p.typ {
		case msgHello:
			x.token = p.token
		case msgWelcome:
			x.token, x.index, x.players, x.delay, x.tickLimit = p.token, p.index, p.players, p.delay, p.tickLimit
			x.inputSize, x.settings = p.inputSize, string(p.settings[:p.nSettings])
		case msgReject:
			x.version, x.reason = p.version, p.reason
		case msgLobby:
			x.link, x.flags, x.joined = p.link, p.flags, p.joined
		case msgGame:
			x.link, x.flags, x.tick, x.n, x.have = p.link, p.flags, p.tick, p.n, p.have
			x.hashes, x.load = p.hashes[:p.nHash], p.load
			if p.flags&flagHost != 0 {
				x.low, x.peers, x.kicks = p.low, p.peers, p.kicks[:p.nKick]
			}
			if p.flags&flagEnd != 0 {
				x.end = p.end
			}
		}
		return x
	}
	va, vb := v(a), v(b)
	if va.typ != vb.typ || va.version != vb.version || va.session != vb.session || va.token != vb.token ||
		va.index != vb.index || va.players != vb.players || va.delay != vb.delay || va.tickLimit != vb.tickLimit ||
		va.inputSize != vb.inputSize || va.settings != vb.settings || va.reason != vb.reason || va.link != vb.link || va.flags != vb.flags ||
		va.joined != vb.joined || va.tick != vb.tick || va.n != vb.n || va.have != vb.have || va.low != vb.low ||
		va.load != vb.load || va.peers != vb.peers || va.end != vb.end ||
		!equalSlices(va.hashes, vb.hashes) || !equalSlices(va.kicks, vb.kicks) {
		t.Fatalf("decoded\n%+v\nwant\n%+v", vb, va)
	}
	if a.typ != msgGame {
		return
	}
	if b.nBlock > a.nBlock {
		t.Fatalf("%d blocks decoded, %d encoded", b.nBlock, a.nBlock)
	}
	for i := range b.nBlock {
		x, y := &a.blocks[i], &b.blocks[i]
		if x.player != y.player || x.first != y.first || y.n > x.n || y.n < 1 {
			t.Fatalf("block %d: player %d first %d n %d, want %d %d %d", i, y.player, y.first, y.n, x.player, x.first, x.n)
		}
		for k := range y.n {
			if x.recs[k] != y.recs[k] {
				t.Fatalf("block %d record %d: %v, want %v", i, k, y.recs[k], x.recs[k])
			}
		}
	}
}

func equalSlices[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Every packet decodes to what was encoded, and encodes back to the same
// bytes; blocks that did not fit were cut, keeping their oldest records.
func TestWireRoundTrip(t *testing.T) {
	g := &gen{rng: 1}
	buf := make([]byte, 2*MaxPacketSize)
	buf2 := make([]byte, 2*MaxPacketSize)
	var in packet
	for i := range 20000 {
		typ := msgType(1 + i%5)
		p := g.packet(typ)
		orig := *p
		n := p.encode(buf)
		if n == 0 || n > MaxPacketSize {
			t.Fatalf("%v: encoded %d bytes", typ, n)
		}
		if typ == msgHello && n != helloSize {
			t.Fatalf("hello of %d bytes", n)
		}
		in.inputSize = p.inputSize
		if err := in.decode(buf[:n]); err != nil {
			t.Fatalf("%v: %v\n% x", typ, err, buf[:n])
		}
		sameWire(t, &orig, &in)
		if m := in.encode(buf2); !bytes.Equal(buf[:n], buf2[:m]) {
			t.Fatalf("%v: re-encoded differently", typ)
		}
	}
}

// No answer of the host is larger than the Hello: a Welcome with every
// field at its largest, and the largest settings, still fits in HelloSize.
func TestWelcomeNoLargerThanHello(t *testing.T) {
	p := &packet{typ: msgWelcome, session: math.MaxUint64, token: math.MaxUint64,
		index: MaxPlayers - 1, players: MaxPlayers, delay: MaxDelay, tickLimit: maxTick,
		inputSize: MaxInputSize, nSettings: MaxSettingsSize}
	buf := make([]byte, MaxPacketSize)
	if n := p.encode(buf); n == 0 || n > helloSize {
		t.Errorf("largest Welcome: %d bytes, Hello %d", n, helloSize)
	}
}

// The largest game packet, every field at its largest and every player's
// block full of records that differ, stays within MaxPacketSize: the
// blocks are cut, each keeping a share and its oldest records. With 4
// players each block keeps 5 records at least; with MaxPlayers, whose
// fixed sections take more than half the packet, one at least (every
// packet still moves every player's input on), and 3 once the numbers
// are those of a real game (ticks in the tens of thousands, hashes of
// every player, 32-byte inputs).
func TestGamePacketBounded(t *testing.T) {
	for _, c := range []struct {
		players, minRecs int
		big              bool
	}{{4, 5, true}, {MaxPlayers, 1, true}, {MaxPlayers, 3, false}} {
		name := fmt.Sprintf("%d players, largest fields %v", c.players, c.big)
		tick, held, rtt := uint64(maxTick), uint64(maxTick), uint64(math.MaxUint32)
		if !c.big {
			tick, held, rtt = 30_000, 900, 250_000
		}
		p := &packet{typ: msgGame, session: math.MaxUint64, n: uint8(c.players), flags: flagsAll, tick: tick, low: tick, inputSize: MaxInputSize}
		p.link = link{from: 3, seq: math.MaxUint32, stamp: math.MaxUint32, echo: math.MaxUint32, hold: math.MaxUint32}
		p.end = endMsg{reason: endQuit, player: 3, tick: tick} // the largest end section
		p.load = load{debtMs: held, capped: held}
		for q := range c.players {
			p.have[q] = tick
			p.load.waited[q] = held
			p.peers[q] = peerInfo{tick, held, held, held, rtt, rtt}
			p.hashes[q] = ckpt{uint8(q), tick, math.MaxUint64}
			if q > 0 {
				p.kicks[q-1] = kickMsg{uint8(q), tick, kickMax, held}
			}
			b := &p.blocks[q]
			b.player, b.first, b.n = uint8(q), tick, inputWindow
			for k := range inputWindow {
				for i := range b.recs[k] {
					b.recs[k][i] = byte(255 - k)
				}
			}
		}
		p.nHash, p.nKick, p.nBlock = c.players, c.players-1, c.players
		orig := *p
		buf := make([]byte, 4*MaxPacketSize)
		n := p.encode(buf)
		if n == 0 || n > MaxPacketSize {
			t.Fatalf("%s: encoded %d bytes", name, n)
		}
		in := packet{inputSize: MaxInputSize}
		if err := in.decode(buf[:n]); err != nil {
			t.Fatal(name, err)
		}
		sameWire(t, &orig, &in)
		if in.nBlock != c.players {
			t.Errorf("%s: %d blocks kept, want all %d", name, in.nBlock, c.players)
		}
		total := 0
		for i := range in.nBlock {
			total += in.blocks[i].n
			if in.blocks[i].n < c.minRecs {
				t.Errorf("%s: block %d kept %d records, want %d at least", name, i, in.blocks[i].n, c.minRecs)
			}
		}
		// The fixed part leaves room for a block of a record of every
		// player.
		p2 := orig
		p2.nBlock = 0
		m := p2.encode(buf)
		if perBlock := 1 + uvLen(tick) + 1 + 1 + MaxInputSize; m+c.players*perBlock > MaxPacketSize {
			t.Errorf("%s: fixed part of the largest game packet: %d bytes", name, m)
		}
		t.Logf("%s: %d bytes, %d of %d records; the fixed part %d bytes", name, n, total, c.players*inputWindow, m)
	}
}

// A hand-made packet, byte by byte: the layout in the package
// documentation.
func TestWireGolden(t *testing.T) {
	p := &packet{typ: msgGame, session: 0x0102030405060708, n: 2, flags: flagEnded | flagEnd, tick: 130, inputSize: 3}
	p.link = link{from: 1, seq: 7, stamp: 0x1001, echo: 0x0f01, hold: 200}
	p.have = [MaxPlayers]uint64{128, 131}
	p.hashes[0] = ckpt{player: 1, tick: 125, hash: 0xa1a2a3a4a5a6a7a8}
	p.nHash = 1
	p.load = load{debtMs: 3, capped: 1, waited: [MaxPlayers]uint64{300, 0}}
	p.end = endMsg{reason: endQuit, player: 1, tick: 133}
	b := &p.blocks[0]
	b.player, b.first, b.n = 1, 129, 3
	b.recs = [inputWindow]record{{1, 1, 0}, {1, 0, 0}, {1, 0, 0}}
	p.nBlock = 1
	want := []byte{
		'N', 'P', protocolVersion, 5, // magic, version, type game
		8, 7, 6, 5, 4, 3, 2, 1, // session ID
		1,          // from: player 1
		7, 0, 0, 0, // seq
		0x01, 0x10, 0, 0, // stamp
		0x01, 0x0f, 0, 0, // echo
		0xc8, 0x01, // hold 200 µs
		0x03,       // flags: ended, end
		0x82, 0x01, // ticks run (head) 130
		2,                      // players
		0x80, 0x01, 0x83, 0x01, // have 128, 131
		1, 1, 125, 0xa8, 0xa7, 0xa6, 0xa5, 0xa4, 0xa3, 0xa2, 0xa1, // 1 hash: player 1 after 125 ticks
		3, 1, 0xac, 0x02, 0, // load: debt 3 ms, 1 capped frame, waited 300 ms, 0 ms
		1, 1, 0x85, 0x01, // end: player 1 quits at tick 133
		1,                // 1 block
		1, 0x81, 0x01, 3, // player 1, from tick 129, 3 records
		1, 1, 1, 0, // 1 × the record 01 01 00
		2, 1, 0, 0, // 2 × the record 01 00 00
	}
	matchesGolden(t, p, want)
}

// A hand-made packet of the host, with its peers section: each player's
// head, load, held-back time, round trip to the host, and the age of the
// head the host relays (time sync between joiners).
func TestWireGoldenHost(t *testing.T) {
	p := &packet{typ: msgGame, session: 0x0102030405060708, n: 2, flags: flagHost, tick: 40, low: 38, inputSize: 3}
	p.link = link{from: 0, seq: 9, stamp: 0x2001, echo: 0x1f01, hold: 16}
	p.have = [MaxPlayers]uint64{41, 38}
	p.peers[0] = peerInfo{tick: 40}
	p.peers[1] = peerInfo{tick: 39, debtMs: 2, rttUs: 120000, ageUs: 5000}
	want := []byte{
		'N', 'P', protocolVersion, 5, // magic, version, type game
		8, 7, 6, 5, 4, 3, 2, 1, // session ID
		0,          // from: the host
		9, 0, 0, 0, // seq
		0x01, 0x20, 0, 0, // stamp
		0x01, 0x1f, 0, 0, // echo
		16,     // hold 16 µs
		0x04,   // flags: host sections
		40,     // ticks run (head) 40
		2,      // players
		41, 38, // have
		38,         // low
		0,          // no hashes
		0, 0, 0, 0, // load: debt, capped frames, waited, waited
		40, 0, 0, 0, 0, 0, // player 0: head 40, debt, capped, held back, rtt, age
		39, 2, 0, 0, 0xc0, 0xa9, 0x07, 0x88, 0x27, // player 1: head 39, debt 2 ms, rtt 120000 µs, age 5000 µs
		0, // no kicks
		0, // no blocks
	}
	in := matchesGolden(t, p, want)
	// The age is bounded as the round trip is: a 33-bit one is garbage.
	bad := append(append(append([]byte(nil), want[:len(want)-4]...), 0x80, 0x80, 0x80, 0x80, 0x10), 0, 0)
	if err := in.decode(bad); err != errRange {
		t.Errorf("an age of 2^32 µs: %v, want %v", err, errRange)
	}
}

// The decoder takes one encoding per packet and nothing else.
func TestWireRejects(t *testing.T) {
	g := &gen{rng: 7}
	buf := make([]byte, MaxPacketSize)
	enc := func(p *packet) []byte { return append([]byte(nil), buf[:p.encode(buf)]...) }
	game := &packet{typ: msgGame, session: 5, n: 2, have: [MaxPlayers]uint64{2, 2}, inputSize: 3}
	game.link = link{from: 1, seq: 1, stamp: 1}
	good := enc(game)
	in := packet{inputSize: 3}
	if err := in.decode(good); err != nil {
		t.Fatal(err)
	}
	lobby := enc(g.packet(msgLobby))
	hello := enc(g.packet(msgHello))
	mod := func(b []byte, f func([]byte) []byte) []byte { return f(append([]byte(nil), b...)) }
	at := func(i int, v byte) func([]byte) []byte {
		return func(b []byte) []byte { b[i] = v; return b }
	}
	cases := []struct {
		name string
		b    []byte
		err  error
	}{
		{"empty", nil, errShort},
		{"short header", good[:headerSize-1], errShort},
		{"magic", mod(good, at(0, 'X')), errMagic},
		{"version", mod(good, at(2, protocolVersion+1)), errVersion},
		{"type 0", mod(good, at(3, 0)), errType},
		{"type 6", mod(good, at(3, 6)), errType},
		{"trailing byte", append(append([]byte(nil), good...), 0), errTrailing},
		{"truncated", good[:len(good)-1], errShort},
		{"too long", make([]byte, MaxPacketSize+1), errLong},
		{"session 0", mod(good, func(b []byte) []byte { clear(b[4:12]); return b }), errRange},
		{"from >= players", mod(good, at(12, 2)), errRange},
		{"even stamp", mod(good, at(17, 2)), errRange},
		{"unknown flag", mod(good, at(26, 0x80)), errRange},
		{"non-minimal varint", mod(good, func(b []byte) []byte {
			// tick 0 as 0x80 0x00
			return append(append(append([]byte(nil), b[:27]...), 0x80, 0x00), b[28:]...)
		}), errCanonical},
		{"1 player", mod(good, at(28, 1)), errRange},
		{"MaxPlayers+1 players", mod(good, at(28, MaxPlayers+1)), errRange},
		{"hello short", hello[:helloSize-1], errShort},
		{"hello padding", mod(hello, at(helloSize-1, 1)), errPadding},
		{"hello with session", mod(hello, at(4, 1)), errRange},
		{"lobby with end flag", mod(lobby, at(26, flagEnd)), errRange},
		{"reject of our version", []byte{'N', 'P', protocolVersion, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1}, errRange},
		{"full from another version", []byte{'N', 'P', 9, 3, 0, 0, 0, 0, 0, 0, 0, 0, 2}, errRange},
		{"reject reason", []byte{'N', 'P', protocolVersion, 3, 0, 0, 0, 0, 0, 0, 0, 0, 3}, errRange},
		{"full with a session", []byte{'N', 'P', protocolVersion, 3, 1, 0, 0, 0, 0, 0, 0, 0, 2}, errRange},
	}
	// A block whose runs are not maximal (two runs of the same record).
	nm := *game
	nm.nBlock = 1
	nm.blocks[0] = block{player: 1, first: 2, n: 2}
	b := enc(&nm)
	// ... 1 block: player 1, first 2, count 2, run 2 × zero record.
	if !bytes.HasSuffix(b, []byte{1, 1, 2, 2, 2, 0, 0, 0}) {
		t.Fatalf("unexpected block encoding % x", b)
	}
	split := append(append([]byte(nil), b[:len(b)-4]...), 1, 0, 0, 0, 1, 0, 0, 0)
	cases = append(cases,
		struct {
			name string
			b    []byte
			err  error
		}{"runs not maximal", split, errCanonical},
		struct {
			name string
			b    []byte
			err  error
		}{"run past count", append(append([]byte(nil), b[:len(b)-4]...), 3, 0, 0, 0), errRange},
		struct {
			name string
			b    []byte
			err  error
		}{"block of 65", append(append([]byte(nil), b[:len(b)-5]...), 65, 65, 0, 0, 0), errRange},
	)
	for _, c := range cases {
		err := in.decode(c.b)
		if err != c.err {
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
		if !errors.Is(err, errBadPacket) {
			t.Errorf("%s: %v does not wrap errBadPacket", c.name, err)
		}
	}
}

// The end section: a quit carries its tick (a minimal varint, at most
// MaxTick), and no other reason carries one.
func TestWireEndSection(t *testing.T) {
	buf := make([]byte, MaxPacketSize)
	game := func(end endMsg) *packet {
		p := &packet{typ: msgGame, session: 5, n: 2, flags: flagEnd, have: [MaxPlayers]uint64{2, 2}, inputSize: 3, end: end}
		p.link = link{from: 1, seq: 1, stamp: 1}
		return p
	}
	// Everything up to the end section, then the section, then no blocks.
	head := buf[:game(endMsg{reason: endLeft}).encode(buf)-3]
	head = append([]byte(nil), head...)
	in := packet{inputSize: 3}
	for _, c := range []struct {
		name string
		end  []byte
		want endMsg
		err  error
	}{
		{"quit at 0", []byte{endQuit, 1, 0}, endMsg{endQuit, 1, 0}, nil},
		{"quit at 300", []byte{endQuit, 0, 0xac, 0x02}, endMsg{endQuit, 0, 300}, nil},
		{"tick limit", []byte{endTickLimit, 1}, endMsg{endTickLimit, 1, 0}, nil},
		{"quit without its tick", []byte{endQuit, 1}, endMsg{}, errShort},
		{"quit tick not minimal", []byte{endQuit, 1, 0x80, 0x00}, endMsg{}, errCanonical},
		{"quit tick past MaxTick", []byte{endQuit, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}, endMsg{}, errRange},
	} {
		b := append(append(append([]byte(nil), head...), c.end...), 0) // 0 blocks
		err := in.decode(b)
		if err != c.err || (err == nil && in.end != c.want) {
			t.Errorf("%s: %v %+v, want %v %+v", c.name, err, in.end, c.err, c.want)
			continue
		}
		if err == nil {
			if n := game(c.want).encode(buf); !bytes.Equal(buf[:n], b) {
				t.Errorf("%s: encodes as\n% x\nwant\n% x", c.name, buf[:n], b)
			}
		}
	}
	if n := game(endMsg{reason: endTickLimit, player: 1, tick: 5}).encode(buf); n != 0 {
		t.Errorf("a tick on a tick-limit end encoded (%d bytes): it has no place on the wire", n)
	}
}
