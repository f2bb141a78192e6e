package netplay

import (
	"encoding/binary"
	"fmt"
	"time"
)

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
	sp.takeTicks(first, k, r.b[r.off:])
}

// takeTicks takes the k ticks from first on whose inputs body holds (a
// row of players × input size bytes each): those next in order that fit
// the ring; ticks past a gap are acknowledged at once.
func (sp *spectator) takeTicks(first uint64, k int, body []byte) {
	row := sp.players * sp.inputSize
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
