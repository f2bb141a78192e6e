package webrtc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
)

const (
	// DefaultTimeout is how long Dial waits for its connection, and a
	// host for a joiner's, when Config.Timeout is zero.
	DefaultTimeout = 10 * time.Second
	// DefaultQueue is the number of datagrams a Transport buffers between
	// two Recvs when Config.Queue is zero.
	DefaultQueue = 256
	// DefaultSendBuffer is the most a data channel may hold unsent before
	// Send drops, when Config.SendBuffer is zero.
	DefaultSendBuffer = 1 << 20
	// MaxQueue is the largest Config.Queue.
	MaxQueue = 1 << 16
	// MaxPeers is the most connections a host holds at once: an offer
	// from one more peer is ignored.
	MaxPeers = 64
	// Label is the data channel's label.
	Label = "netplay"
)

// closeTimeout bounds Close.
const closeTimeout = 5 * time.Second

// maxPending bounds the ICE candidates held for a connection until its
// session descriptions are exchanged, each way.
const maxPending = 64

// ICEServer is a STUN or TURN server that helps two peers find a path
// between them, each with its own credentials (a TURN server needs them).
type ICEServer struct {
	// URLs of the server: "stun:host:port", "turn:host:port?transport=udp",
	// "turns:host:port?transport=tcp".
	URLs []string
	// Username and Credential authenticate to a TURN server.
	Username, Credential string
}

// Config sets up a Transport. The zero value connects through host
// candidates only (peers on one network, or with addresses that reach
// each other), with the defaults above.
type Config struct {
	// ICEServers are the STUN and TURN servers to use (none by default:
	// no server-reflexive nor relayed candidates).
	ICEServers []ICEServer
	// Timeout is how long Dial waits for its connection to open, and how
	// long a host waits for a joiner's after its offer (DefaultTimeout if
	// zero).
	Timeout time.Duration
	// Queue is the number of datagrams buffered between two Recvs
	// (DefaultQueue if zero); what arrives when it is full is dropped,
	// and counted.
	Queue int
	// SendBuffer is the most bytes a connection may hold unsent (its data
	// channel's buffered amount) before Send drops (DefaultSendBuffer if
	// zero).
	SendBuffer int
	// IncludeLoopback makes a native peer offer its loopback addresses
	// (127.0.0.1, ::1) as candidates too, which pion leaves out by
	// default: two peers on one machine with no other network interface
	// then connect. Off by default: a peer on another machine cannot use
	// them. Browsers never offer them; in a browser it does nothing.
	IncludeLoopback bool
	// RelayOnly makes a peer gather and use relayed candidates alone (ICE
	// transport policy "relay"): all its traffic then goes through a TURN
	// server, which ICEServers must have. It is what a peer needs behind
	// a router that blocks direct paths, and how to prove that a TURN
	// server works. Off by default: a direct path is used where one
	// exists.
	RelayOnly bool

	// loopbackOnly (tests): gather loopback candidates alone, and no mDNS.
	loopbackOnly bool
}

// Stats counts what a Transport did.
type Stats struct {
	Sent          int64 `json:"sent"`           // datagrams handed to a data channel
	SentBytes     int64 `json:"sent_bytes"`     // their bytes
	SendDropped   int64 `json:"send_dropped"`   // datagrams Send dropped: no open connection to the peer, its buffer full, an error
	Received      int64 `json:"received"`       // datagrams queued for Recv
	ReceivedBytes int64 `json:"received_bytes"` // their bytes
	RecvDropped   int64 `json:"recv_dropped"`   // datagrams that arrived while the queue was full
	BadSignals    int64 `json:"bad_signals"`    // signaling messages ignored: malformed, unexpected, or from a peer not known
	Peers         int   `json:"peers"`          // connections open now
}

// Transport is a netplay.Transport over WebRTC data channels: a host's
// connections to its joiners, or a joiner's to its host. A peer's
// string is its ID in the Signaler (the lobby). Recv and Wait are
// for one goroutine, the game loop's (Send, Unreachable, Peers and Stats
// are safe from any); the connections and the signaling run on
// goroutines of their own until Close.
type Transport struct {
	sig  Signaler
	cfg  Config
	rtc  rtcConfig // the platform's, for its links
	host string    // Dial's: the host's ID; "" on the host

	ctx    context.Context // ends with Close: stops the signaling
	cancel context.CancelFunc
	sendMu sync.Mutex // serializes sig.Send

	mu     sync.RWMutex
	closed bool
	peers  map[string]*peer
	lost   []string       // for Unreachable
	wg     sync.WaitGroup // goroutines of ours; Add only under mu while !closed, or in Close

	rmu     sync.Mutex // guards the ring
	rclosed bool
	ring    []slot
	head, n int
	cur     []byte        // the buffer Recv's last pkt lies in
	notify  chan struct{} // a datagram was queued (capacity 1)
	done    chan struct{} // closed by Close
	timer   *time.Timer   // Wait's

	sent, sentBytes, sendDropped     atomic.Int64
	received, receivedBytes, dropped atomic.Int64
	badSignals                       atomic.Int64

	sigEnded chan struct{} // closed when the signaling ends, sigErr set before
	sigErr   error         // why the Signaler's Recv failed
}

var _ netplay.Transport = (*Transport)(nil)

// slot is one datagram in the receive ring.
type slot struct {
	from string
	n    int
	buf  []byte // MaxPacketSize+1 bytes: a longer datagram is cut there, still too long for netplay to accept
}

// Host starts a host's Transport: from now on it answers every offer
// that arrives through sig (one connection per peer, keyed by its ID; a
// second offer from a peer replaces its connection) until Close. ctx
// bounds Host's own setup only: the Transport lives until Close.
func Host(ctx context.Context, sig Signaler, cfg Config) (*Transport, error) {
	t, err := newTransport(sig, cfg, "")
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("webrtc: host: %w", err)
	}
	t.wg.Add(1)
	go t.signaling()
	return t, nil
}

// Dial connects to the host named host (its ID in the Signaler) and
// waits until the connection is open, ctx ends or cfg.Timeout passes. ctx
// bounds the connection only: the Transport lives until Close.
func Dial(ctx context.Context, sig Signaler, host string, cfg Config) (*Transport, error) {
	if host == "" {
		return nil, errors.New("webrtc: dial: no host to connect to")
	}
	t, err := newTransport(sig, cfg, host)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	p, err := t.newPeer(string(host))
	if err != nil {
		_ = t.Close()
		return nil, err
	}
	t.peers[p.addr] = p
	t.wg.Add(1)
	go t.signaling() // before the offer, to hear the answer
	if err := t.describe(p, kindOffer); err != nil {
		_ = t.Close()
		return nil, err
	}
	timer := time.NewTimer(t.cfg.Timeout)
	defer timer.Stop()
	sigEnded := t.sigEnded
	var ended error // why the signaling ended, once it has with the answer in
	// fail says how far the connection got and, once the signaling has
	// ended, why: a host that left as it answered (its game over)
	// leaves ICE checking until the deadline, which alone would not say
	// so.
	fail := func(why string) error {
		if ended == nil {
			return fmt.Errorf("webrtc: no connection to host %q%s (%s)", host, why, p.state())
		}
		return fmt.Errorf("webrtc: no connection to host %q%s (%s; the signaling ended: %w)", host, why, p.state(), ended)
	}
	for err == nil {
		select {
		case <-p.opened:
			return t, nil
		case <-p.failed:
			err = fail(fmt.Sprintf(": lost after %v", time.Since(start).Round(time.Millisecond)))
		case <-timer.C:
			err = fail(fmt.Sprintf(" within %v", t.cfg.Timeout))
		case <-ctx.Done():
			err = fail(": " + ctx.Err().Error())
		case <-sigEnded:
			// No answer can come now (the host left the lobby, say):
			// the Signaler's reason, at once. With the answer in, the
			// connection may still open on the candidates it has.
			if !p.hasRemote() {
				err = fmt.Errorf("webrtc: no connection to host %q: the signaling ended before its answer: %w", host, t.sigErr)
			}
			ended, sigEnded = t.sigErr, nil
		}
	}
	_ = t.Close()
	return nil, err
}

func newTransport(sig Signaler, cfg Config, host string) (*Transport, error) {
	if sig == nil {
		return nil, errors.New("webrtc: no signaler")
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Queue == 0 {
		cfg.Queue = DefaultQueue
	}
	if cfg.SendBuffer == 0 {
		cfg.SendBuffer = DefaultSendBuffer
	}
	rtc, err := newRTCConfig(cfg)
	if err != nil {
		return nil, err
	}
	t := &Transport{
		sig:      sig,
		cfg:      cfg,
		rtc:      rtc,
		host:     host,
		peers:    make(map[string]*peer),
		ring:     make([]slot, cfg.Queue),
		cur:      make([]byte, netplay.MaxPacketSize+1),
		notify:   make(chan struct{}, 1),
		done:     make(chan struct{}),
		sigEnded: make(chan struct{}),
		timer:    time.NewTimer(time.Hour),
	}
	t.timer.Stop()
	for i := range t.ring {
		t.ring[i].buf = make([]byte, netplay.MaxPacketSize+1)
	}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	return t, nil
}

// Validate reports what is wrong with c, as Host and Dial would: a
// negative timeout, queue or send buffer, an ICE server's URL that does
// not parse, a TURN server without its username and credential,
// RelayOnly without a TURN server. One line, starting "webrtc: ".
func (c Config) Validate() error { return c.check() }

// check validates c.
func (c Config) check() error {
	if c.Timeout < 0 {
		return fmt.Errorf("webrtc: timeout %v is negative", c.Timeout)
	}
	if c.Queue < 0 || c.Queue > MaxQueue {
		return fmt.Errorf("webrtc: queue %d not in 1..%d", c.Queue, MaxQueue)
	}
	if c.SendBuffer < 0 {
		return fmt.Errorf("webrtc: send buffer %d is negative", c.SendBuffer)
	}
	hasTURN := false
	for _, s := range c.ICEServers {
		if len(s.URLs) == 0 {
			return errors.New("webrtc: an ICE server has no URL")
		}
		for _, u := range s.URLs {
			turn, err := checkICEURL(u)
			if err != nil {
				return fmt.Errorf("webrtc: ICE server %q: %v", u, err)
			}
			if turn && (s.Username == "" || s.Credential == "") {
				return fmt.Errorf("webrtc: TURN server %q needs a username and a credential", u)
			}
			hasTURN = hasTURN || turn
		}
	}
	if c.RelayOnly && !hasTURN {
		return errors.New("webrtc: relay only needs a TURN server among the ICE servers")
	}
	return nil
}

// SignalingErr returns why the signaling ended (the Signaler's Recv
// failed: for a lobby's client, the lobby went away or closed the room),
// or nil while it goes on. Once it has ended no new peer can connect (a
// host waiting for its players waits in vain); the connections open go
// on. It does not block.
func (t *Transport) SignalingErr() error {
	select {
	case <-t.sigEnded:
		return t.sigErr
	default:
		return nil
	}
}

// enter registers a goroutine of ours about to start, unless the
// Transport is closed; the goroutine calls t.wg.Done when it ends.
func (t *Transport) enter() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	t.wg.Add(1)
	return true
}

// signaling reads the Signaler until Close (or until it fails: then no
// new connection is made, and those open go on). It closes sigEnded when
// it returns, with sigErr set.
func (t *Transport) signaling() {
	defer t.wg.Done()
	for {
		from, data, err := t.sig.Recv(t.ctx)
		if err != nil {
			t.sigErr = err
			close(t.sigEnded)
			return
		}
		s, ok := decodeSignal(data)
		if !ok {
			t.badSignals.Add(1)
			continue
		}
		t.handle(from, s)
	}
}

func (t *Transport) handle(from string, s signal) {
	if t.host == "" && s.Kind == kindOffer {
		t.accept(from, s.SDP)
		return
	}
	t.mu.RLock()
	p := t.peers[string(from)]
	t.mu.RUnlock()
	switch {
	case p == nil, from == "":
		t.badSignals.Add(1)
	case s.Candidate != nil:
		p.remote(*s.Candidate)
	case s.Kind == kindAnswer && t.host != "" && !p.hasRemote():
		if err := p.setRemote(kindAnswer, s.SDP); err != nil {
			t.lose(p)
		}
	default:
		t.badSignals.Add(1)
	}
}

// accept answers an offer from a joiner.
func (t *Transport) accept(from, sdp string) {
	addr := string(from)
	t.mu.RLock()
	full := t.peers[addr] == nil && len(t.peers) >= MaxPeers
	t.mu.RUnlock()
	if from == "" || full {
		t.badSignals.Add(1)
		return
	}
	p, err := t.newPeer(addr)
	if err != nil {
		t.badSignals.Add(1)
		return
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		p.close()
		return
	}
	if old := t.peers[addr]; old != nil {
		t.wg.Add(1)
		go func() {
			defer t.wg.Done()
			old.close()
		}()
	}
	t.peers[addr] = p
	t.mu.Unlock()
	p.mu.Lock()
	p.timer = time.AfterFunc(t.cfg.Timeout, func() {
		if !t.enter() {
			return
		}
		defer t.wg.Done()
		if !p.open.Load() {
			t.lose(p)
		}
	})
	p.mu.Unlock()
	if err := p.setRemote(kindOffer, sdp); err != nil {
		t.badSignals.Add(1)
		t.lose(p)
		return
	}
	if err := t.describe(p, kindAnswer); err != nil {
		t.lose(p)
	}
}

// describe makes p's offer or answer, sets it, sends it to the peer, and
// then the candidates found meanwhile.
func (t *Transport) describe(p *peer, kind string) error {
	sdp, err := p.link.describe(kind)
	if err != nil {
		return fmt.Errorf("webrtc: %s for %q: %v", kind, p.addr, err)
	}
	if err := t.signal(p.addr, signal{Kind: kind, SDP: sdp}); err != nil {
		return fmt.Errorf("webrtc: send %s to %q: %v", kind, p.addr, err)
	}
	p.mu.Lock()
	p.described = true
	pending := p.localPending
	p.localPending = nil
	p.mu.Unlock()
	for _, c := range pending {
		_ = t.signal(p.addr, signal{Candidate: &c})
	}
	return nil
}

// signal sends s to the peer at to through the Signaler.
func (t *Transport) signal(to string, s signal) error {
	data, err := encodeSignal(s)
	if err != nil {
		return err
	}
	t.sendMu.Lock()
	defer t.sendMu.Unlock()
	return t.sig.Send(string(to), data)
}

// lose forgets p, whose connection failed or closed or never opened,
// closes it, and reports it to Unreachable, if it is still the peer's
// connection.
func (t *Transport) lose(p *peer) {
	p.open.Store(false)
	p.failOnce.Do(func() { close(p.failed) })
	t.mu.Lock()
	if t.closed || t.peers[p.addr] != p {
		t.mu.Unlock()
		return
	}
	delete(t.peers, p.addr)
	if len(t.lost) < MaxPeers && !slices.Contains(t.lost, p.addr) {
		t.lost = append(t.lost, p.addr)
	}
	t.wg.Add(1)
	t.mu.Unlock()
	go func() {
		defer t.wg.Done()
		p.close()
	}()
}

// push queues a datagram from a data channel for Recv.
func (t *Transport) push(from string, data []byte) {
	t.enqueue(from, len(data), func(dst []byte) int { return copy(dst, data) })
}

// enqueue queues a datagram of size bytes from a data channel for Recv:
// fill copies as much of it as dst holds into dst, and returns how much
// it copied. It does not block (beyond the ring's lock, held briefly):
// a browser's message handler calls it, fill copying straight from the
// message's ArrayBuffer.
func (t *Transport) enqueue(from string, size int, fill func(dst []byte) int) {
	t.rmu.Lock()
	if t.rclosed {
		t.rmu.Unlock()
		return
	}
	if t.n == len(t.ring) {
		t.rmu.Unlock()
		t.dropped.Add(1)
		return
	}
	s := &t.ring[(t.head+t.n)%len(t.ring)]
	s.from, s.n = from, fill(s.buf)
	t.n++
	t.rmu.Unlock()
	t.received.Add(1)
	t.receivedBytes.Add(int64(size))
	select {
	case t.notify <- struct{}{}:
	default:
	}
}

// Send sends pkt to the peer at to over its data channel, at once and
// without blocking (the data channel copies pkt). It drops the datagram,
// and counts it, when no connection to to is open or its send buffer is
// over Config.SendBuffer.
func (t *Transport) Send(to string, pkt []byte) {
	t.mu.RLock()
	p := t.peers[to]
	t.mu.RUnlock()
	if p == nil || !p.open.Load() || p.link.buffered() > t.cfg.SendBuffer {
		t.sendDropped.Add(1)
		return
	}
	if err := p.link.send(pkt); err != nil {
		t.sendDropped.Add(1)
		return
	}
	t.sent.Add(1)
	t.sentBytes.Add(int64(len(pkt)))
}

// Recv returns the next datagram that has arrived, or ok false when none
// is waiting (or after Close); it does not block. pkt stays valid until
// the next call to Recv. A datagram longer than netplay.MaxPacketSize is
// cut to one byte more than that, for the session to count and drop.
func (t *Transport) Recv() (from string, pkt []byte, ok bool) {
	t.rmu.Lock()
	if t.n == 0 || t.rclosed {
		t.rmu.Unlock()
		return "", nil, false
	}
	s := &t.ring[t.head]
	s.buf, t.cur = t.cur, s.buf
	from, n := s.from, s.n
	s.from = ""
	t.head = (t.head + 1) % len(t.ring)
	t.n--
	t.rmu.Unlock()
	return from, t.cur[:n], true
}

// waiting reports whether Recv has a datagram.
func (t *Transport) waiting() bool {
	t.rmu.Lock()
	defer t.rmu.Unlock()
	return t.n > 0 && !t.rclosed
}

// Wait blocks until a datagram has arrived or d has passed, and reports
// whether one has: a headless loop with nothing to draw waits here
// instead of spinning.
func (t *Transport) Wait(d time.Duration) bool {
	if t.waiting() {
		return true
	}
	if d <= 0 {
		return false
	}
	t.timer.Reset(d)
	defer t.timer.Stop()
	for {
		select {
		case <-t.notify:
			if t.waiting() {
				return true
			}
		case <-t.timer.C:
			return t.waiting()
		case <-t.done:
			return false
		}
	}
}

// Unreachable returns a peer whose connection failed or closed (or, on
// a host, never opened within Config.Timeout) since the last call, or ok
// false. The connection is gone: Sends to the peer are dropped until it
// connects again. A peer that closes its end is reported at once; one
// that vanishes (its machine or network gone) when ICE gives up on it,
// after some 30 seconds (pion's and browsers' defaults), by which time
// netplay's own silence timeout has usually ended its part.
func (t *Transport) Unreachable() (addr string, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lost) == 0 {
		return "", false
	}
	addr = t.lost[0]
	copy(t.lost, t.lost[1:])
	t.lost = t.lost[:len(t.lost)-1]
	return addr, true
}

// Peers returns the peers with an open connection, sorted.
func (t *Transport) Peers() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var addrs []string
	for a, p := range t.peers {
		if p.open.Load() {
			addrs = append(addrs, a)
		}
	}
	slices.Sort(addrs)
	return addrs
}

// Stats returns the counts so far.
func (t *Transport) Stats() Stats {
	st := Stats{
		Sent:          t.sent.Load(),
		SentBytes:     t.sentBytes.Load(),
		SendDropped:   t.sendDropped.Load(),
		Received:      t.received.Load(),
		ReceivedBytes: t.receivedBytes.Load(),
		RecvDropped:   t.dropped.Load(),
		BadSignals:    t.badSignals.Load(),
	}
	t.mu.RLock()
	for _, p := range t.peers {
		if p.open.Load() {
			st.Peers++
		}
	}
	t.mu.RUnlock()
	return st
}

// Close closes every connection, stops the signaling (the Signaler's
// Recv must return when its context ends) and waits, 5 seconds at most,
// for the goroutines of the Transport to end. The Signaler is the
// caller's to close. Closing twice is harmless.
func (t *Transport) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	peers := t.peers
	t.peers = nil
	t.lost = nil
	t.mu.Unlock()
	t.cancel()
	t.rmu.Lock()
	t.rclosed = true
	t.rmu.Unlock()
	close(t.done)
	for _, p := range peers {
		t.wg.Add(1)
		go func() {
			defer t.wg.Done()
			p.close()
		}()
	}
	finished := make(chan struct{})
	go func() {
		t.wg.Wait()
		close(finished)
	}()
	timer := time.NewTimer(closeTimeout)
	defer timer.Stop()
	select {
	case <-finished:
		return nil
	case <-timer.C:
		return fmt.Errorf("webrtc: close: still closing after %v", closeTimeout)
	}
}
