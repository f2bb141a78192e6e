package netplay

import "time"

// sender is the sending half of a Transport: what an endpoint's Poll
// hands its datagrams to (a Transport, or a test's function).
type sender interface {
	Send(to string, pkt []byte)
}

// sendFunc makes a function a Sender.
type sendFunc func(to string, pkt []byte)

// Send calls f(to, pkt).
func (f sendFunc) Send(to string, pkt []byte) { f(to, pkt) }

// Transport carries datagrams between peers: the thing to write to put
// netplay on another network (a WebRTC data channel, Steam's sockets, a
// relay). netplay/udp is one, netplay/webrtc another, and netplay/netsim's
// ports are one in memory.
//
// A Transport need not be reliable nor ordered: the session numbers,
// acknowledges and resends what it needs, ignores a duplicate or a
// datagram older than what it has, and counts and drops a datagram it
// cannot decode (truncated, corrupted, from an unknown peer, of another
// game). It is used from one goroutine, the game loop's; a transport that
// reads with goroutines of its own hands their datagrams over itself, and
// it must bound what it buffers (drop what does not fit, and count it).
type Transport interface {
	// Send sends one datagram to the peer at to, best effort, and must
	// not block. pkt is lent for the call: copy what is kept after it
	// returns. len(pkt) is at most MaxPacketSize. A datagram may be lost,
	// duplicated, delayed or reordered, and a Send to an unknown or
	// departed peer may do nothing: the session resends what matters.
	Send(to string, pkt []byte)
	// Recv returns the next datagram that has arrived, or ok false when
	// none is waiting; it must not block. pkt is the transport's and need
	// only stay valid until the next call to Recv. A datagram longer than
	// MaxPacketSize may be returned: the session counts it and drops it.
	Recv() (from string, pkt []byte, ok bool)
	// Unreachable returns an address found unreachable since the last
	// call, or ok false: news that nothing answers there (UDP's "port
	// unreachable", a lobby saying that a peer left): a join that cannot
	// succeed ends at once instead of waiting out its timeout. A transport
	// that cannot tell returns ok false.
	Unreachable() (addr string, ok bool)
}

var (
	_ endpoint = (*session)(nil)
	_ endpoint = (*spectator)(nil)
	_ endpoint = (*broadcast)(nil)
)

// endpoint is what a Transport carries datagrams for: a Session, a
// Spectator, or a Broadcast (a host with spectators).
type endpoint interface {
	// Receive hands the endpoint one datagram that arrived from a peer.
	Receive(now time.Duration, from string, pkt []byte)
	// Poll lets the endpoint send what is due by now.
	Poll(now time.Duration, out sender)
	// Unreachable tells the endpoint that nothing answers at addr.
	Unreachable(now time.Duration, addr string)
}

// receiveAll hands every datagram waiting in t to e, and any unreachable
// address t reports, and returns how many datagrams it handed over. A
// game loop calls it at the start of a frame, before its ticks. It does
// not block and, with a transport that does not, allocates nothing (hold
// t and e in variables of these interface types, or of concrete types:
// Go's conversion of one interface type to another may allocate once, at
// random, long after the first calls). It
// takes at most 4,096 datagrams a call, so that a flood cannot hold up a
// frame: the rest wait in the transport, which bounds them.
func receiveAll(now time.Duration, t Transport, e endpoint) int {
	n := 0
	for n < readLimit {
		from, pkt, ok := t.Recv()
		if !ok {
			break
		}
		e.Receive(now, from, pkt)
		n++
	}
	for range readLimit {
		addr, ok := t.Unreachable()
		if !ok {
			break
		}
		e.Unreachable(now, addr)
	}
	return n
}

// readLimit bounds the datagrams one Read takes.
const readLimit = 4096

// sendDue lets e send through t what is due by now. A game loop calls it
// after its ticks, so that new input goes out in the frame it was made.
func sendDue(now time.Duration, t Transport, e endpoint) {
	e.Poll(now, t)
}
