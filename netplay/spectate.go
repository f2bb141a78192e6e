package netplay

import (
	"encoding/binary"
	"fmt"
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
