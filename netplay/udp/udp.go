// Package udp carries a netplay.Session over a UDP socket: a thin shell
// that reads datagrams into the session and writes out what the session
// sends, through netplay's network simulator when conditions are set
// (delay, jitter, loss, duplication, reordering, each way).
//
// A frame loop calls Read at the start of a frame and Write after the
// frame's ticks (or Pump, both at once); neither blocks. Go's UDPConn has
// no non-blocking read (and a read deadline already past fails without
// reading), so one goroutine per Conn blocks in ReadFromUDPAddrPort and
// hands the datagrams over in a fixed ring of buffers; Read takes what is
// there. When the ring is full the goroutine stops reading and the
// kernel's socket buffer drops the excess: memory stays bounded under a
// flood. Nothing allocates per datagram or per frame.
//
//	conn, err := udp.Listen(":7777", udp.Config{})
//	sess, err := netplay.NewHost(cfg, clock.Now())
//	for !sess.Done() {
//		now := clock.Now()
//		conn.Read(now, sess)
//		... run the ticks the session allows ...
//		conn.Write(now, sess)
//		draw()
//	}
//	conn.Close()
package udp

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
)

// Endpoint is what a Conn carries datagrams for: a netplay.Session.
type Endpoint interface {
	Receive(now time.Duration, from netip.AddrPort, pkt []byte)
	Poll(now time.Duration, send func(to netip.AddrPort, pkt []byte))
}

var _ Endpoint = (*netplay.Session)(nil)

// Unreachable is an Endpoint that hears of an address where nothing
// listens (netplay's Session and Spectator): see Conn.Connect.
type Unreachable interface {
	Unreachable(now time.Duration, addr netip.AddrPort)
}

var (
	_ Unreachable = (*netplay.Session)(nil)
	_ Unreachable = (*netplay.Spectator)(nil)
)

// DefaultQueue is the number of datagrams a Conn buffers between reads.
const DefaultQueue = 256

// Config sets up a Conn. The zero value is a plain socket.
type Config struct {
	// Outgoing and Incoming are the simulated network conditions applied
	// to the datagrams sent and received (zero: none).
	Outgoing, Incoming netplay.Conditions
	// Seed drives the simulators' randomness.
	Seed uint64
	// Queue is the number of datagrams buffered between two Reads
	// (default DefaultQueue); it is also the capacity of each simulator.
	Queue int
}

// Stats counts what a Conn did.
type Stats struct {
	Read        int64 `json:"read"`         // datagrams read from the socket
	Written     int64 `json:"written"`      // datagrams written to the socket
	WriteErrors int64 `json:"write_errors"` // writes that failed (the peer's port closed, ...)
	ReadErrors  int64 `json:"read_errors"`  // reads that failed, other than the close
	// Simulated: what the simulators did, when conditions are set.
	Out, In netplay.NetSimStats
}

// Conn is a UDP socket for one Session. Read, Write, Pump and Wait must be
// called from one goroutine (the frame loop's).
type Conn struct {
	c     *net.UDPConn
	local netip.AddrPort

	bufs  [][]byte
	lens  []int
	froms []netip.AddrPort
	ready chan int // buffers holding a datagram, in arrival order
	free  chan int // buffers the reader may fill
	quit  chan struct{}
	done  chan struct{}

	peeked  int // a buffer Wait took from ready, or -1
	timer   *time.Timer
	closed  bool
	readErr atomic.Int64

	peer    netip.AddrPort // Connect's: the only address, or none
	refused atomic.Bool    // the system reported that nothing listens at peer

	out, in *netplay.NetSim // nil: no conditions that way

	// Set for the duration of a Read or Write, so that the callbacks
	// below are made once, not per call.
	target  Endpoint
	now     time.Duration
	sendFn  func(netip.AddrPort, []byte)
	inFn    func(from, to netip.AddrPort, pkt []byte)
	outFn   func(from, to netip.AddrPort, pkt []byte)
	read    int64
	written int64
	wErr    int64
}

// Listen opens a UDP socket on address ("127.0.0.1:0", ":7777"; port 0
// lets the system pick) and starts reading it.
func Listen(address string, cfg Config) (*Conn, error) {
	if err := cfg.Outgoing.Validate(); err != nil {
		return nil, fmt.Errorf("outgoing: %w", err)
	}
	if err := cfg.Incoming.Validate(); err != nil {
		return nil, fmt.Errorf("incoming: %w", err)
	}
	if cfg.Queue == 0 {
		cfg.Queue = DefaultQueue
	}
	if cfg.Queue < 1 || cfg.Queue > netplay.MaxNetSimCapacity {
		return nil, fmt.Errorf("%w: queue %d not in 1..%d", netplay.ErrInvalid, cfg.Queue, netplay.MaxNetSimCapacity)
	}
	ua, err := net.ResolveUDPAddr("udp", address)
	if err != nil {
		return nil, fmt.Errorf("udp listen %q: %w", address, err)
	}
	uc, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, err
	}
	// A late joiner's snapshot arrives as a burst of datagrams while its
	// process may be waiting for a CPU: the system's default receive
	// buffer (208 KiB on Linux) drops much of it, and each loss costs a
	// resend round. The system caps what it grants (net.core.rmem_max).
	_ = uc.SetReadBuffer(readBuffer)
	c := &Conn{
		c:      uc,
		local:  unmap(uc.LocalAddr().(*net.UDPAddr).AddrPort()),
		bufs:   make([][]byte, cfg.Queue),
		lens:   make([]int, cfg.Queue),
		froms:  make([]netip.AddrPort, cfg.Queue),
		ready:  make(chan int, cfg.Queue),
		free:   make(chan int, cfg.Queue),
		quit:   make(chan struct{}),
		done:   make(chan struct{}),
		peeked: -1,
		timer:  time.NewTimer(time.Hour),
	}
	c.timer.Stop()
	for i := range c.bufs {
		// One byte more than a packet may have, to tell oversized
		// datagrams (which the system truncates) from full ones.
		c.bufs[i] = make([]byte, netplay.MaxPacketSize+1)
		c.free <- i
	}
	if !cfg.Outgoing.Perfect() {
		c.out, _ = netplay.NewNetSim(cfg.Outgoing, cfg.Seed, cfg.Queue)
	}
	if !cfg.Incoming.Perfect() {
		c.in, _ = netplay.NewNetSim(cfg.Incoming, cfg.Seed^0x5eed, cfg.Queue)
	}
	c.sendFn = c.send
	c.inFn = func(from, _ netip.AddrPort, pkt []byte) { c.target.Receive(c.now, from, pkt) }
	c.outFn = func(_, to netip.AddrPort, pkt []byte) { c.write(to, pkt) }
	go c.reader()
	return c, nil
}

// Resolve turns "host:port" into an address a Session can use (the
// first of the host's addresses; an IPv4 one is preferred).
func Resolve(hostport string) (netip.AddrPort, error) {
	ua, err := net.ResolveUDPAddr("udp", hostport)
	if err != nil {
		return netip.AddrPort{}, err
	}
	ap := unmap(ua.AddrPort())
	if !ap.Addr().IsValid() || ap.Addr().IsUnspecified() || ap.Port() == 0 {
		return netip.AddrPort{}, fmt.Errorf("%w: %q is not a host and port to send to", netplay.ErrInvalid, hostport)
	}
	return ap, nil
}

// unmap turns an IPv4-mapped IPv6 address (what a dual-stack socket
// reports) into the IPv4 one, so that it compares equal to the address the
// peer was given.
func unmap(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// Connect ties the socket to the one address a joiner or a spectator
// talks to, its host (call it before the first Write). The system then
// delivers datagrams from that address alone, and says when nothing
// listens there (on loopback or a LAN, at once: an ICMP port unreachable,
// which a connected socket reads as a refused connection); Read passes
// that on to an endpoint that is an Unreachable (netplay's Session and
// Spectator end at once with an UnreachableError instead of waiting for
// an answer that cannot come). Where the system has no such socket it
// returns an error and the Conn goes on as before; a host's Conn, which
// talks to everyone, must not be connected.
func (c *Conn) Connect(to netip.AddrPort) error {
	if c.closed {
		return net.ErrClosed
	}
	to = unmap(to)
	rc, err := c.c.SyscallConn()
	if err == nil {
		err = connect(rc, to)
	}
	if err != nil {
		return fmt.Errorf("udp connect %v: %w", to, err)
	}
	c.peer = to
	return nil
}

// LocalAddr returns the socket's address (with the port the system
// picked). Joiners on the same machine reach a host on ":port" at
// 127.0.0.1:port.
func (c *Conn) LocalAddr() netip.AddrPort { return c.local }

func (c *Conn) reader() {
	defer close(c.done)
	for {
		var i int
		select {
		case i = <-c.free:
		case <-c.quit:
			return
		}
		n, from, err := c.c.ReadFromUDPAddrPort(c.bufs[i])
		if err != nil {
			c.free <- i
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if errors.Is(err, syscall.ECONNREFUSED) {
				c.refused.Store(true) // nothing listens at peer
			}
			c.readErr.Add(1)
			continue
		}
		c.lens[i], c.froms[i] = n, unmap(from)
		c.ready <- i
	}
}

// Read hands every datagram that arrived since the last Read to e.Receive
// (through the incoming simulator, if set, which holds them back for their
// delay), and returns how many it read from the socket. It never blocks.
func (c *Conn) Read(now time.Duration, e Endpoint) int {
	if c.closed {
		return 0
	}
	c.target, c.now = e, now
	n := 0
	for {
		i := c.peeked
		if i >= 0 {
			c.peeked = -1
		} else {
			select {
			case i = <-c.ready:
			default:
			}
		}
		if i < 0 {
			break
		}
		pkt, from := c.bufs[i][:c.lens[i]], c.froms[i]
		if c.in == nil || len(pkt) > netplay.MaxPacketSize {
			e.Receive(now, from, pkt) // an oversized one is the session's to count
		} else {
			c.in.Send(now, from, c.local, pkt)
		}
		c.free <- i
		n++
	}
	if c.in != nil {
		c.in.Deliver(now, c.inFn)
	}
	if c.refused.Load() && c.refused.CompareAndSwap(true, false) && c.peer.IsValid() {
		if u, ok := e.(Unreachable); ok {
			u.Unreachable(now, c.peer)
		}
	}
	c.read += int64(n)
	c.target = nil
	return n
}

// Write lets e.Poll send what is due, through the outgoing simulator if
// set (which sends what its delays let out by now).
func (c *Conn) Write(now time.Duration, e Endpoint) {
	if c.closed {
		return
	}
	c.now = now
	e.Poll(now, c.sendFn)
	if c.out != nil {
		c.out.Deliver(now, c.outFn)
	}
}

func (c *Conn) send(to netip.AddrPort, pkt []byte) {
	if c.out != nil {
		c.out.Send(c.now, c.local, to, pkt)
		return
	}
	c.write(to, pkt)
}

func (c *Conn) write(to netip.AddrPort, pkt []byte) {
	var err error
	if c.peer.IsValid() && to == c.peer {
		_, err = c.c.Write(pkt) // connected: some systems refuse an address
	} else {
		_, err = c.c.WriteToUDPAddrPort(pkt, to)
	}
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			c.refused.Store(true) // the error was reported here, not to the reader
		}
		c.wErr++
		return
	}
	c.written++
}

// Wait blocks until a datagram has arrived or d has passed, and reports
// whether one has: a headless loop with nothing to draw waits here instead
// of spinning. It does not see the simulators' delays: pass a d no longer
// than the time to the next frame.
func (c *Conn) Wait(d time.Duration) bool {
	if c.closed {
		return false
	}
	if c.peeked >= 0 {
		return true
	}
	select {
	case c.peeked = <-c.ready:
		return true
	default:
	}
	if d <= 0 {
		return false
	}
	c.timer.Reset(d)
	defer c.timer.Stop()
	select {
	case c.peeked = <-c.ready:
		return true
	case <-c.timer.C:
		return false
	}
}

// Stats returns the counts so far.
func (c *Conn) Stats() Stats {
	st := Stats{Read: c.read, Written: c.written, WriteErrors: c.wErr, ReadErrors: c.readErr.Load()}
	if c.out != nil {
		st.Out = c.out.Stats()
	}
	if c.in != nil {
		st.In = c.in.Stats()
	}
	return st
}

// Close closes the socket and stops the reader. Datagrams still held by
// the simulators are dropped. Closing twice is harmless.
func (c *Conn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	close(c.quit)
	err := c.c.Close()
	<-c.done
	return err
}

// readBuffer is the socket receive buffer Listen asks for: 4 MiB, what a
// 100,000-body snapshot (2.4 MB) needs in flight at once.
const readBuffer = 4 << 20
