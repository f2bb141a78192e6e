package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
	"github.com/interpdemo/interpdemo/netplay/webrtc"
	"github.com/interpdemo/interpdemo/replay"
)

// The in-process platform the tests run the demo on: a manual clock, a
// display that says what vsync it was asked for, files in memory, and a
// simulated network; and a front end's frame loop over them.

// testDisplay is a display that grants any vsync (or refuses every one).
type testDisplay struct {
	refuse  bool
	refresh time.Duration
	asked   []Vsync
}

func (t *testDisplay) SetVsync(v Vsync) (string, error) {
	t.asked = append(t.asked, v)
	if t.refuse {
		return "unsupported", fmt.Errorf("vsync %s: That operation is not supported", v)
	}
	return v.String(), nil
}

func (t *testDisplay) RefreshInterval() time.Duration { return t.refresh }

// memFiles are files in memory; a path in fail cannot be written.
type memFiles struct {
	files map[string][]byte
	fail  map[string]error
}

func newMemFiles() *memFiles {
	return &memFiles{files: map[string][]byte{}, fail: map[string]error{}}
}

func (m *memFiles) CheckWritable(path string) error { return m.fail[path] }

func (m *memFiles) SameFile(a, b string) bool { return a == b }

func (m *memFiles) Create(path string) (File, error) {
	if err := m.fail[path]; err != nil {
		return nil, err
	}
	return &memFile{m: m, path: path}, nil
}

func (m *memFiles) WriteFile(path string, write func(io.Writer) error) error {
	f, err := m.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

func (m *memFiles) ReadRecording(path string) (*replay.Recording, error) {
	b, ok := m.files[path]
	if !ok {
		return nil, fmt.Errorf("replay file %s: no such file or directory", path)
	}
	rec, err := replay.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("replay file %s: %v", path, err)
	}
	return rec, nil
}

type memFile struct {
	m    *memFiles
	path string
	buf  bytes.Buffer
	done bool
}

func (f *memFile) Write(p []byte) (int, error) { return f.buf.Write(p) }

func (f *memFile) Commit() error {
	if f.done {
		return errors.New("committed twice")
	}
	f.done = true
	f.m.files[f.path] = bytes.Clone(f.buf.Bytes())
	return nil
}

func (f *memFile) Abort() { f.done = true }

// simNet is an in-process network on a manual clock: every datagram goes
// through one netsim.Path (delay, loss, duplication, reordering), to
// the socket bound to its address. While one peer waits in Conn.Wait
// (a joiner waiting for the host's welcome), the network runs the other
// peers' sessions, as their own processes would.
type simNet struct {
	t       *testing.T
	clock   *loop.ManualClock
	sim     *netsim.Path
	conns   []*simConn
	nonce   uint64
	rooms   map[string]*simRoom // the lobby's, by the room's URL path
	lobbies []webrtc.Config     // what each Lobby was given
}

// simRoom is a room of simNet's lobby: its host's socket and players.
type simRoom struct {
	host    *simConn
	players int
}

func newSimNet(t *testing.T, clock *loop.ManualClock, c netsim.Conditions) *simNet {
	sim, err := netsim.NewPath(c, 7, 4096)
	if err != nil {
		t.Fatal(err)
	}
	return &simNet{t: t, clock: clock, sim: sim}
}

func addrOf(port uint16) string {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), port).String()
}

func (n *simNet) Listen(address string, cond netsim.Conditions, seed uint64) (Conn, error) {
	port := uint16(40000 + len(n.conns))
	if strings.HasPrefix(address, ":") && address != ":0" {
		var p int
		if _, err := fmt.Sscanf(address, ":%d", &p); err != nil {
			return nil, err
		}
		port = uint16(p)
	}
	for _, c := range n.conns {
		if c.addr == addrOf(port) {
			return nil, fmt.Errorf("listen udp %s: bind: address already in use", address)
		}
	}
	c := &simConn{n: n, addr: addrOf(port), inbox: make([]datagram, inboxSize)}
	for i := range c.inbox {
		c.inbox[i].pkt = make([]byte, 0, netplay.MaxPacketSize)
	}
	c.inbox = c.inbox[:0]
	n.conns = append(n.conns, c)
	return c, nil
}

func (n *simNet) Resolve(_ context.Context, hostport string) (string, error) {
	ap, err := netip.ParseAddrPort(hostport)
	return ap.String(), err
}

// bind makes d the owner of the sockets opened since the last bind: the
// demo whose endpoint a Wait elsewhere serves.
func (n *simNet) bind(d *Demo) {
	for _, c := range n.conns {
		if c.demo == nil {
			c.demo = d
		}
	}
}

// Lobby is a lobby in the same process: the first to enter a room
// hosts it, with the players its URL asks for; the others join its host,
// who must be there; a room's URL that asks for other players is refused,
// as the lobby does. A ctx done already gives up at once, as a lobby
// still to answer would when ctx ends.
func (n *simNet) Lobby(ctx context.Context, rawURL string, cfg webrtc.Config) (Room, error) {
	n.lobbies = append(n.lobbies, cfg)
	if err := ctx.Err(); err != nil {
		return Room{}, err
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return Room{}, err
	}
	q := u.Query()
	_, spectate := q["spectate"]
	players, _ := strconv.Atoi(q.Get("players"))
	if n.rooms == nil {
		n.rooms = map[string]*simRoom{}
	}
	r := n.rooms[u.Path]
	if r != nil && !spectate && players != r.players {
		return Room{}, fmt.Errorf("lobby: room %q plays with %d players, not %d", u.Path, r.players, players)
	}
	if r == nil && spectate {
		return Room{}, fmt.Errorf("lobby: room %q has no game to watch", u.Path)
	}
	conn, err := n.Listen(":0", netsim.Conditions{}, 0)
	if err != nil {
		return Room{}, err
	}
	if r == nil {
		n.rooms[u.Path] = &simRoom{host: conn.(*simConn), players: players}
		return Room{Conn: conn, Host: true, Players: players}, nil
	}
	return Room{Conn: conn, HostAddr: r.host.addr, Players: r.players}, nil
}

func (n *simNet) Nonce() (uint64, error) {
	n.nonce++
	return 0x5eed0000 + n.nonce, nil
}

// deliver hands the datagrams due by now to their sockets' inboxes.
func (n *simNet) deliver(now time.Duration) {
	n.sim.Deliver(now, func(from, to string, pkt []byte) {
		for _, c := range n.conns {
			if c.addr == to && !c.closed {
				c.push(from, pkt)
			}
		}
	})
}

type datagram struct {
	from string
	pkt  []byte
}

type simConn struct {
	n      *simNet
	addr   string
	inbox  []datagram
	next   int   // the inbox's next datagram for Recv
	demo   *Demo // whose socket this is (simNet.bind): Wait elsewhere serves its endpoint
	closed bool
}

// inboxSize is more datagrams than a socket here gets between two reads.
const inboxSize = 256

// push copies a datagram into the inbox. The inbox and a buffer of the
// largest packet for each of its datagrams are made with the socket and
// kept, so that, as with a real socket, the traffic allocates nothing
// here: the allocation tests count whole frames.
func (c *simConn) push(from string, pkt []byte) {
	if len(c.inbox) == cap(c.inbox) {
		c.inbox = append(c.inbox, datagram{}) // more than ever: it grows
	} else {
		c.inbox = c.inbox[:len(c.inbox)+1] // a datagram with its buffer
	}
	d := &c.inbox[len(c.inbox)-1]
	d.from, d.pkt = from, append(d.pkt[:0], pkt...)
}

// Recv takes the inbox's datagrams one by one, and when it is empty
// the ones the network delivers by now.
func (c *simConn) Recv() (string, []byte, bool) {
	if c.next >= len(c.inbox) {
		c.inbox, c.next = c.inbox[:0], 0
		c.n.deliver(c.n.clock.Now())
		if len(c.inbox) == 0 {
			return "", nil, false
		}
	}
	d := &c.inbox[c.next]
	c.next++
	return d.from, d.pkt, true
}

func (c *simConn) Send(to string, pkt []byte) { c.n.sim.Send(c.n.clock.Now(), c.addr, to, pkt) }

func (c *simConn) Unreachable() (string, bool) { return "", false }

// pump moves the datagrams of the demo owning c, running no tick: its
// session's or its spectator's.
func (c *simConn) pump(now time.Duration) {
	switch g := c.demo.net; {
	case g == nil:
	case g.sess != nil:
		g.sess.Frame(now, 0, 0)
	case g.spec != nil:
		g.spec.Frame(now, 0, 0)
	}
}

// Wait serves the other demos' sessions (a demo that waits blocks the
// test's frame loop), then lets d pass.
func (c *simConn) Wait(d time.Duration) bool {
	for _, o := range c.n.conns {
		if o != c && o.demo != nil && !o.closed {
			o.pump(c.n.clock.Now())
		}
	}
	c.n.clock.Advance(d)
	c.n.deliver(c.n.clock.Now())
	return len(c.inbox) > c.next
}

func (c *simConn) LocalAddr() string { return c.addr }

func (c *simConn) Close() error {
	c.closed = true
	return nil
}

// front is a test's front end: one demo on the in-process platform, its
// frame loop on the manual clock.
type front struct {
	t       *testing.T
	d       *Demo
	clock   *loop.ManualClock
	display *testDisplay
	files   *memFiles
	log     bytes.Buffer
	frame   time.Duration // the time a frame takes
	upload  int64         // bytes the fake renderer was sent
	version uint64
	scene   *Scene
}

// platform returns the platform of a front on clock.
func (f *front) platform(network Network) Platform {
	return Platform{
		Clock: f.clock, Display: f.display, Files: f.files, Network: network, Log: &f.log,
		Load: func(d time.Duration) { f.clock.Advance(d) },
	}
}

// newFront parses args and makes the demo, on clock (a new one if nil),
// drawing frames of 1 ms.
func newFront(t *testing.T, clock *loop.ManualClock, network Network, args ...string) *front {
	t.Helper()
	f, err := tryFront(t, clock, network, args...)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return f
}

func tryFront(t *testing.T, clock *loop.ManualClock, network Network, args ...string) (*front, error) {
	return tryFrontOn(t, clock, network, &testDisplay{}, args...)
}

// tryFrontOn is tryFront on the display disp.
func tryFrontOn(t *testing.T, clock *loop.ManualClock, network Network, disp *testDisplay, args ...string) (*front, error) {
	if clock == nil {
		clock = loop.NewManualClock(time.Second)
	}
	f := &front{t: t, clock: clock, display: disp, files: newMemFiles(), frame: time.Millisecond}
	p := f.platform(network)
	cfg, err := Parse(args, io.Discard, p)
	if err != nil {
		return nil, err
	}
	if f.d, err = New(cfg, p); err != nil {
		return nil, err
	}
	if n, ok := network.(*simNet); ok {
		n.bind(f.d)
	}
	t.Cleanup(f.d.Close)
	if err := f.d.Start(clock.Now()); err != nil {
		return nil, err
	}
	return f, nil
}

// sync is the fake renderer's Sync: positions are sent when the world
// moved on (8 bytes a ball), nothing on a frame between ticks.
func (f *front) sync(last, next []int32, version, moved uint64) int {
	if version+moved == f.version {
		return 0
	}
	f.version = version + moved
	return 4 * len(next)
}

// step runs one frame, with keys pressed at its start.
func (f *front) step(keys ...Key) {
	d, now := f.d, f.clock.Now()
	d.StartFrame(now)
	for _, k := range keys {
		d.Key(KeyEvent{Key: k, Down: true, Time: now})
		d.Key(KeyEvent{Key: k, Down: false, Time: now})
	}
	if t, ok := d.Update(now); ok && t > now {
		f.clock.Set(t)
	}
	d.BeginDraw(f.clock.Now())
	up := d.SyncWorld(f.sync)
	f.upload += int64(up)
	f.scene = f.sceneAt(now)
	f.clock.Advance(d.RenderLoad())
	if wake, vblank, ok := d.VblankWait(f.clock.Now()); ok {
		f.clock.Set(max(f.clock.Now(), wake))
		d.Presented(vblank, wake, f.clock.Now())
	} else {
		d.Presented(f.clock.Now(), 0, 0)
	}
	d.EndFrame(now, f.clock.Now(), up)
	d.Title(now)
	f.clock.Set(max(f.clock.Now(), now+max(f.frame, d.FrameInterval())))
}

// run runs frames until the demo is done, at most n.
func (f *front) run(n int) {
	f.t.Helper()
	for i := 0; i < n && !f.d.Done(); i++ {
		f.step()
	}
	if !f.d.Done() {
		f.t.Fatalf("not done after %d frames", n)
	}
}

// finish ends the run and returns what -stats printed, and Finish's
// error.
func (f *front) finish() (string, error) {
	var out bytes.Buffer
	err := f.d.Finish(f.clock.Now(), &out, nil)
	return out.String(), err
}

// sceneAt is the frame's Scene in the window the front end opened for the
// demo's configuration.
func (f *front) sceneAt(now time.Duration) *Scene {
	w, h := f.d.Config().WindowSize()
	return f.d.Scene(now, w, h)
}
