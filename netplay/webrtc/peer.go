package webrtc

import (
	"sync"
	"sync/atomic"
	"time"
)

// link is one peer connection with its one data channel, as the
// platform makes it (newLink): pion's natively (link_pion.go), the
// browser's RTCPeerConnection in a page (link_js.go). Everything else
// (the ring, the peers, the signaling, the deadlines) is shared.
//
// A link reports what happens to it to its peer p, from callbacks that
// must return at once (in a browser they run inside the JavaScript event
// loop, which waits for them): p.opens when the data channel opens,
// p.local for each candidate found here, p.t.lose when the connection
// fails or closes, and p.t.enqueue (or p.t.push) for each datagram.
type link interface {
	// describe creates an offer or an answer (kind), sets it as the
	// local description and returns its SDP.
	describe(kind string) (sdp string, err error)
	// setRemote sets the peer's offer or answer (kind).
	setRemote(kind, sdp string) error
	// addCandidate adds a candidate from the peer, once its description
	// is set.
	addCandidate(c candidate) error
	// buffered is the number of bytes the data channel holds unsent.
	buffered() int
	// send sends pkt over the data channel, which copies it.
	send(pkt []byte) error
	// iceState is the ICE connection state, as WebRTC names it ("new",
	// "checking", "connected", "failed", ...).
	iceState() string
	// close closes the connection and releases what it holds; called
	// once.
	close()
}

// peer is one connection: a link with the bookkeeping around it.
type peer struct {
	t    *Transport
	addr string
	link link

	open      atomic.Bool
	opened    chan struct{} // closed when the data channel opens
	openOnce  sync.Once
	failed    chan struct{} // closed when the connection is lost
	failOnce  sync.Once
	closeOnce sync.Once

	mu            sync.Mutex
	timer         *time.Timer // a host's: the connect deadline
	described     bool        // our offer or answer has been sent
	localPending  []candidate
	remoteSet     bool // the peer's offer or answer is set
	remotePending []candidate
}

// newPeer makes a connection to addr, not yet negotiated, with its data
// channel: negotiated out of band (ID 0, the same at both ends), unordered
// and never retransmitted.
func (t *Transport) newPeer(addr string) (*peer, error) {
	p := &peer{
		t:      t,
		addr:   addr,
		opened: make(chan struct{}),
		failed: make(chan struct{}),
	}
	l, err := newLink(p)
	if err != nil {
		return nil, err
	}
	p.link = l // before any event: none comes until the negotiation starts
	return p, nil
}

// opens records that the data channel is open.
func (p *peer) opens() {
	p.open.Store(true)
	p.openOnce.Do(func() { close(p.opened) })
}

// local sends a candidate found here to the peer, or holds it until our
// session description is sent.
func (p *peer) local(c candidate) {
	p.mu.Lock()
	if !p.described {
		if len(p.localPending) < maxPending {
			p.localPending = append(p.localPending, c)
		}
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	_ = p.t.signal(p.addr, signal{Candidate: &c})
}

// remote adds a candidate from the peer, or holds it until the peer's
// session description is set.
func (p *peer) remote(c candidate) {
	c = normalize(c)
	p.mu.Lock()
	if !p.remoteSet {
		if len(p.remotePending) < maxPending {
			p.remotePending = append(p.remotePending, c)
		}
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	if p.link.addCandidate(c) != nil {
		p.t.badSignals.Add(1)
	}
}

func (p *peer) hasRemote() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.remoteSet
}

// state says how far the connection got, for an error message.
func (p *peer) state() string {
	if !p.hasRemote() {
		return "no answer"
	}
	return "ICE state " + p.link.iceState()
}

// setRemote sets the peer's offer or answer (kind), then the candidates
// that came before it.
func (p *peer) setRemote(kind, sdp string) error {
	if err := p.link.setRemote(kind, sdp); err != nil {
		return err
	}
	p.mu.Lock()
	p.remoteSet = true
	pending := p.remotePending
	p.remotePending = nil
	p.mu.Unlock()
	for _, c := range pending {
		if p.link.addCandidate(c) != nil {
			p.t.badSignals.Add(1)
		}
	}
	return nil
}

// close closes the connection (once).
func (p *peer) close() {
	p.closeOnce.Do(func() {
		p.open.Store(false)
		p.mu.Lock()
		if p.timer != nil {
			p.timer.Stop()
		}
		p.mu.Unlock()
		p.link.close()
	})
}
