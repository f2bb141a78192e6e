package netplay

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// floodTransport has another datagram at every Recv, for up to 100,000
// of them: a bounded Read stops long before, an unbounded one ends there
// (rather than hang the test until go test's timeout).
type floodTransport struct {
	pkt  []byte
	read int
	sent int
}

func (f *floodTransport) Send(string, []byte) { f.sent++ }
func (f *floodTransport) Recv() (string, []byte, bool) {
	if f.read >= 100_000 {
		return "", nil, false
	}
	f.read++
	return "10.9.9.9:9", f.pkt, true
}
func (f *floodTransport) Unreachable() (string, bool) { return "", false }

// A transport that never runs dry cannot hold a frame: a frame takes at
// most 4,096 datagrams (Session.Frame's documented bound), and the
// session counts them as bad (a stranger's garbage) without growing.
func TestReadBoundedUnderFlood(t *testing.T) {
	f := &floodTransport{pkt: []byte("garbage, not a packet")}
	s, err := Host(Config{InputSize: 1, Nonce: 1, Tick: 20 * time.Millisecond}, &counter{}, f, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.Frame(0, 0, 1)
	if got := s.Stats().BadPackets; got != 4096 || f.read != 4096 {
		t.Fatalf("a frame took %d datagrams of the flood and counted %d bad, want 4,096", f.read, got)
	}
	f.read = 0
	if a := testing.AllocsPerRun(20, func() { f.read = 0; s.Frame(0, 0, 1) }); a != 0 {
		t.Errorf("a frame allocated %v times under a flood", a)
	}
}

// manyDead is a transport that has found several addresses unreachable.
type manyDead struct {
	floodTransport
	dead []string
}

func (m *manyDead) Recv() (string, []byte, bool) { return "", nil, false }
func (m *manyDead) Unreachable() (string, bool) {
	if len(m.dead) == 0 {
		return "", false
	}
	a := m.dead[0]
	m.dead = m.dead[1:]
	return a, true
}

// deadNews records the unreachable addresses an endpoint was told of.
type deadNews struct {
	endpoint
	told []string
}

func (d *deadNews) Unreachable(_ time.Duration, addr string) { d.told = append(d.told, addr) }

// Every unreachable address a transport reports goes to the endpoint in
// the same read, not one a frame: a joiner's own host among several dead
// addresses ends it at once.
func TestReadPassesEveryUnreachable(t *testing.T) {
	tr := &manyDead{dead: []string{"a", "b", "c"}}
	d := &deadNews{}
	receiveAll(0, tr, d)
	if strings.Join(d.told, ",") != "a,b,c" {
		t.Errorf("one read passed on %q, want a, b and c", d.told)
	}
	j, err := Join(Config{InputSize: 1, Nonce: 2, JoinTimeout: time.Minute}, &counter{}, &manyDead{dead: []string{"x", "y", "host"}}, "host", 0)
	if err != nil {
		t.Fatal(err)
	}
	j.Frame(0, 0, 1)
	if !errors.Is(j.Err(), ErrUnreachable) || j.State() != StateEnded {
		t.Errorf("a joiner whose host was the third unreachable address: %v, %v after one frame", j.Err(), j.State())
	}
}

// refusing is a netsim.Port whose Unreachable reports one address once.
type refusing struct {
	*netsim.Port
	dead string
}

func (r *refusing) Unreachable() (string, bool) {
	a := r.dead
	r.dead = ""
	return a, a != ""
}

// A transport's news that nothing answers at the host's address ends a
// joiner at once, through Read, with an UnreachableError naming it.
func TestReadPassesUnreachable(t *testing.T) {
	net, err := netsim.NewNet(netsim.Conditions{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := net.Port("me")
	j, err := newJoiner(config{InputSize: 1, Nonce: 2, JoinTimeout: time.Minute}, "nobody", 0)
	if err != nil {
		t.Fatal(err)
	}
	tr := &refusing{Port: p, dead: "nobody"}
	sendDue(0, tr, j)
	receiveAll(time.Millisecond, tr, j)
	var u *Error
	if !errors.As(j.Err(), &u) || u.Reason != ErrUnreachable || u.Host != "nobody" || !j.Done() {
		t.Fatalf("joiner after the news: done %v, err %v", j.Done(), j.Err())
	}
}

// A session a Runner plays refuses the tick calls and a second Runner,
// each with a one-line error: a game must not be run twice.
func TestRunnerOwnsTheTickCalls(t *testing.T) {
	s, err := newHost(config{InputSize: 1, Nonce: 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := newToyGame(t, "host")
	local := noInput{}
	if _, err := newRunner(s, g, local, runnerConfig{Netcode: Lockstep}); err != nil {
		t.Fatal(err)
	}
	if _, err := newRunner(s, g, local, runnerConfig{Netcode: Lockstep}); !errors.Is(err, ErrInvalid) || strings.Contains(err.Error(), "\n") {
		t.Errorf("a second Runner: %v", err)
	}
	if err := s.AddLocalInput(s.InputTick(), []byte{1}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "Runner") {
		t.Errorf("AddLocalInput under a Runner: %v", err)
	}
	if err := s.Advance(func() uint64 { return 0 }); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "Runner") {
		t.Errorf("Advance under a Runner: %v", err)
	}
	if _, ok := s.Next(0, nil); ok {
		t.Error("Next under a Runner gave a tick")
	}
}

type noInput struct{}

func (noInput) LocalInput(uint64, int, []byte) {}
