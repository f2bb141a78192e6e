package webrtc

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/pion/webrtc/v4"
)

// peer is one connection: a peer connection with its data channel.
type peer struct {
	t    *Transport
	addr netplay.Addr
	pc   *webrtc.PeerConnection
	dc   *webrtc.DataChannel

	open      atomic.Bool
	opened    chan struct{} // closed when the data channel opens
	openOnce  sync.Once
	failed    chan struct{} // closed when the connection is lost
	failOnce  sync.Once
	closeOnce sync.Once
	release   func() // undoes watchCandidates

	mu            sync.Mutex
	timer         *time.Timer // a host's: the connect deadline
	described     bool        // our offer or answer has been sent
	localPending  []webrtc.ICECandidateInit
	remoteSet     bool // the peer's offer or answer is set
	remotePending []webrtc.ICECandidateInit
}

// newPeer makes a connection to addr, not yet negotiated, with its data
// channel: negotiated out of band (ID 0, the same at both ends), unordered
// and never retransmitted.
func (t *Transport) newPeer(addr netplay.Addr) (*peer, error) {
	pc, err := t.api.NewPeerConnection(t.conf)
	if err != nil {
		return nil, fmt.Errorf("webrtc: new connection to %q: %v", addr, err)
	}
	ordered, negotiated := false, true
	var zero uint16
	dc, err := pc.CreateDataChannel(Label, &webrtc.DataChannelInit{
		Ordered:        &ordered,
		MaxRetransmits: &zero,
		Negotiated:     &negotiated,
		ID:             &zero,
	})
	if err != nil {
		_ = pc.Close()
		return nil, fmt.Errorf("webrtc: data channel to %q: %v", addr, err)
	}
	p := &peer{
		t:      t,
		addr:   addr,
		pc:     pc,
		dc:     dc,
		opened: make(chan struct{}),
		failed: make(chan struct{}),
	}
	prepareChannel(dc)
	p.release = watchCandidates(pc, p.local)
	dc.OnOpen(func() {
		p.open.Store(true)
		p.openOnce.Do(func() { close(p.opened) })
	})
	dc.OnClose(func() { t.lose(p) })
	dc.OnMessage(func(msg webrtc.DataChannelMessage) { t.push(addr, msg.Data) })
	pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		if s == webrtc.PeerConnectionStateFailed || s == webrtc.PeerConnectionStateClosed {
			t.lose(p)
		}
	})
	return p, nil
}

// local sends a candidate found here to the peer, or holds it until our
// session description is sent.
func (p *peer) local(c webrtc.ICECandidateInit) {
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
func (p *peer) remote(c webrtc.ICECandidateInit) {
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
	if p.pc.AddICECandidate(c) != nil {
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
	return "ICE state " + p.pc.ICEConnectionState().String()
}

// setRemote sets the peer's offer or answer, then the candidates that
// came before it.
func (p *peer) setRemote(typ webrtc.SDPType, sdp string) error {
	if err := p.pc.SetRemoteDescription(webrtc.SessionDescription{Type: typ, SDP: sdp}); err != nil {
		return err
	}
	p.mu.Lock()
	p.remoteSet = true
	pending := p.remotePending
	p.remotePending = nil
	p.mu.Unlock()
	for _, c := range pending {
		if p.pc.AddICECandidate(c) != nil {
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
		_ = p.dc.Close() // in a browser, this releases its handlers
		_ = p.pc.Close()
		p.release()
	})
}
