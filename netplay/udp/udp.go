// Package udp is a netplay.Transport over a UDP socket, with netplay's
// network simulator on the way out and in when conditions are set (delay,
// jitter, loss, duplication, reordering, each way). A peer's string
// is its "host:port" (Resolve makes one from a name).
//
// A Session reads it at the start of a frame and writes to it after the
// frame's ticks; neither blocks. Go's UDPConn has
// no non-blocking read (and a read deadline already past fails without
// reading), so one goroutine per Conn blocks in ReadFromUDPAddrPort and
// hands the datagrams over in a fixed ring of buffers; Recv takes what is
// there. When the ring is full the goroutine stops reading and the
// kernel's socket buffer drops the excess: memory stays bounded under a
// flood. Nothing allocates per datagram or per frame (a peer's address is
// made once, when its first datagram arrives).
//
//	conn, err := udp.Listen(":7777", udp.Config{})
//	sess, err := netplay.Host(cfg, game, conn, clock.Now())
//	// A joiner: udp.Listen(":0", ...), then host, err := conn.Connect("example.org:7777")
//	// and netplay.Join(cfg, game, conn, host, clock.Now()).
//	for !sess.Done() {
//		sess.Frame(clock.Now(), due, maxLoops) // or sess.Update(clock.Now()) once a tick
//		draw()
//	}
//	conn.Close()
package udp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

var _ netplay.Transport = (*Conn)(nil)

// DefaultQueue is the number of datagrams a Conn buffers between reads.
const DefaultQueue = 256

// Config sets up a Conn. The zero value is a plain socket.
type Config struct {
	// Outgoing and Incoming are the simulated network conditions applied
	// to the datagrams sent and received (zero: none).
	Outgoing, Incoming netsim.Conditions
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
	Out, In netsim.Stats
}

// Conn is a UDP socket for one Session: a netplay.Transport. Recv, Send,
// Unreachable and Wait must be called from one goroutine (the frame
// loop's).
type Conn struct {
	c     *net.UDPConn
	local netip.AddrPort
	start time.Time // the simulators' clock counts from here

	bufs  [][]byte
	lens  []int
	froms []netip.AddrPort
	ready chan int // buffers holding a datagram, in arrival order
	free  chan int // buffers the reader may fill
	quit  chan struct{}
	done  chan struct{}

	peeked  int // a buffer Wait took from ready, or -1
	lent    int // the buffer the last Recv handed out, or -1
	timer   *time.Timer
	closed  bool
	readErr atomic.Int64

	names map[netip.AddrPort]string // peers' Addrs, made once each

	peer    netip.AddrPort // Connect's: the only address, or none
	refused atomic.Bool    // the system reported that nothing listens at peer

	out, in *netsim.Path // nil: no conditions that way

	read    int64
	written int64
	wErr    int64
}

// maxNames bounds the Addrs a Conn remembers: a flood from many source
// addresses makes it forget them all and start again, not grow.
const maxNames = 1024

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
	if cfg.Queue < 1 || cfg.Queue > netsim.MaxCapacity {
		return nil, fmt.Errorf("%w: queue %d not in 1..%d", netplay.ErrInvalid, cfg.Queue, netsim.MaxCapacity)
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
		lent:   -1,
		timer:  time.NewTimer(time.Hour),
		start:  time.Now(),
		names:  map[netip.AddrPort]string{},
	}
	c.timer.Stop()
	for i := range c.bufs {
		// One byte more than a packet may have, to tell oversized
		// datagrams (which the system truncates) from full ones.
		c.bufs[i] = make([]byte, netplay.MaxPacketSize+1)
		c.free <- i
	}
	if !cfg.Outgoing.Perfect() {
		c.out, _ = netsim.NewPath(cfg.Outgoing, cfg.Seed, cfg.Queue)
	}
	if !cfg.Incoming.Perfect() {
		c.in, _ = netsim.NewPath(cfg.Incoming, cfg.Seed^0x5eed, cfg.Queue)
	}
	go c.reader()
	return c, nil
}

// Resolve turns "host:port" into the Addr of a peer there (the first of
// the host's addresses; an IPv4 one is preferred).
func Resolve(hostport string) (string, error) {
	return ResolveContext(context.Background(), hostport)
}

// ResolveContext is Resolve, giving up when ctx is done: a name server
// that does not answer is otherwise waited for as long as the system's
// resolver says (seconds, for each server and attempt), and a user's
// Ctrl-C with it.
func ResolveContext(ctx context.Context, hostport string) (string, error) {
	host, service, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", err
	}
	port, err := resolver.LookupPort(ctx, "udp", service)
	if err != nil {
		return "", err
	}
	ip, err := netip.ParseAddr(host) // a literal keeps its zone, which a lookup drops
	if err != nil && host != "" {
		ips, err := resolver.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return "", err
		}
		if len(ips) == 0 {
			return "", fmt.Errorf("lookup %s: no address", host)
		}
		ip = ips[0]
		for _, a := range ips {
			if a.Unmap().Is4() {
				ip = a
				break
			}
		}
	}
	ap := unmap(netip.AddrPortFrom(ip, uint16(port)))
	if !ap.Addr().IsValid() || ap.Addr().IsUnspecified() || ap.Port() == 0 {
		return "", fmt.Errorf("%w: %q is not a host and port to send to", netplay.ErrInvalid, hostport)
	}
	return ap.String(), nil
}

// resolver looks up names and ports: the system's (tests replace it).
var resolver = net.DefaultResolver

// parse turns an Addr back into the socket's address.
func parse(a string) (netip.AddrPort, bool) {
	ap, err := netip.ParseAddrPort(string(a))
	if err != nil || !ap.Addr().IsValid() || ap.Port() == 0 {
		return netip.AddrPort{}, false
	}
	return unmap(ap), true
}

// name returns ap's Addr, made on first use.
func (c *Conn) name(ap netip.AddrPort) string {
	if a, ok := c.names[ap]; ok {
		return a
	}
	if len(c.names) >= maxNames {
		clear(c.names)
	}
	a := ap.String()
	c.names[ap] = a
	return a
}

// unmap turns an IPv4-mapped IPv6 address (what a dual-stack socket
// reports) into the IPv4 one, so that it compares equal to the address the
// peer was given.
func unmap(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// Connect ties the socket to the one peer a joiner or a spectator talks
// to, its host at hostport (a name is resolved, as Resolve does), and
// returns the host's address for netplay.Join or netplay.Watch. Call it
// before the session's first frame. The system then delivers datagrams
// from that address alone, and says when nothing listens there (on
// loopback or a LAN, at once: an ICMP port unreachable, which a connected
// socket reads as a refused connection): a session still joining ends at
// once (netplay.ErrUnreachable) instead of waiting for an answer that
// cannot come. Where the system has no connected sockets the Conn stays
// as it was and the join timeout bounds the wait. A host's Conn, which
// talks to everyone, must not be connected.
func (c *Conn) Connect(hostport string) (addr string, err error) {
	if c.closed {
		return "", net.ErrClosed
	}
	if addr, err = Resolve(hostport); err != nil {
		return "", err
	}
	to, _ := parse(addr)
	rc, err := c.c.SyscallConn()
	if err == nil {
		err = connect(rc, to)
	}
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		return addr, nil
	case err != nil:
		return "", fmt.Errorf("udp connect %v: %w", to, err)
	}
	c.peer = to
	return addr, nil
}

// LocalAddr returns the socket's address (with the port the system
// picked). Joiners on the same machine reach a host on ":port" at
// 127.0.0.1:port.
func (c *Conn) LocalAddr() string { return c.local.String() }

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

// now is the simulators' clock.
func (c *Conn) now() time.Duration { return time.Since(c.start) }

// take returns a buffer holding a datagram from the ring, or -1.
func (c *Conn) take() int {
	if i := c.peeked; i >= 0 {
		c.peeked = -1
		return i
	}
	select {
	case i := <-c.ready:
		return i
	default:
		return -1
	}
}

// Recv takes the next datagram that arrived (through the incoming
// simulator, if set, which holds it back for its delay). It never blocks;
// pkt is valid until the next Recv.
func (c *Conn) Recv() (from string, pkt []byte, ok bool) {
	if c.lent >= 0 {
		c.free <- c.lent
		c.lent = -1
	}
	if c.closed {
		return "", nil, false
	}
	var now time.Duration // the simulators' clock, read once a call
	if c.out != nil || c.in != nil {
		now = c.now()
	}
	if c.out != nil {
		c.flush(now) // every frame's Read comes here: what is due goes out
	}
	if c.in == nil {
		i := c.take()
		if i < 0 {
			return "", nil, false
		}
		c.lent = i
		c.read++
		return c.name(c.froms[i]), c.bufs[i][:c.lens[i]], true
	}
	for {
		i := c.take()
		if i < 0 {
			break
		}
		c.read++
		pkt := c.bufs[i][:c.lens[i]]
		if len(pkt) > netplay.MaxPacketSize {
			c.lent = i // an oversized one is the session's to count
			return c.name(c.froms[i]), pkt, true
		}
		c.in.Send(now, c.name(c.froms[i]), "", pkt)
		c.free <- i
	}
	from, _, pkt, ok = c.in.Next(now)
	return from, pkt, ok
}

// Unreachable reports, once, that the system said nothing listens at the
// address the Conn is connected to (see Connect).
func (c *Conn) Unreachable() (string, bool) {
	if c.peer.IsValid() && c.refused.Load() && c.refused.CompareAndSwap(true, false) {
		return c.name(c.peer), true
	}
	return "", false
}

// Send sends pkt to the peer at to (through the outgoing simulator if set,
// which sends what its delays let out by now; it is flushed at every Send
// and Recv). An Addr that is not a host and port is counted as a failed
// write.
func (c *Conn) Send(to string, pkt []byte) {
	if c.closed {
		return
	}
	if c.out != nil {
		now := c.now()
		c.out.Send(now, "", to, pkt)
		c.flush(now)
		return
	}
	c.write(to, pkt)
}

// flush writes what the outgoing simulator lets out by now.
func (c *Conn) flush(now time.Duration) {
	for {
		_, to, pkt, ok := c.out.Next(now)
		if !ok {
			return
		}
		c.write(to, pkt)
	}
}

func (c *Conn) write(addr string, pkt []byte) {
	to, ok := parse(addr)
	if !ok {
		c.wErr++
		return
	}
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
