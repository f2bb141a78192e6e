package netplay

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// floodTransport always has another datagram: Read must still return.
type floodTransport struct {
	pkt  []byte
	sent int
}

func (f *floodTransport) Send(string, []byte)          { f.sent++ }
func (f *floodTransport) Recv() (string, []byte, bool) { return "10.9.9.9:9", f.pkt, true }
func (f *floodTransport) Unreachable() (string, bool)  { return "", false }

// A transport that never runs dry cannot hold a frame: Read takes a
// bounded number of datagrams, and the session counts them as bad
// (a stranger's garbage) without growing.
func TestReadBoundedUnderFlood(t *testing.T) {
	s, err := newHost(config{InputSize: 1, Nonce: 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := &floodTransport{pkt: []byte("garbage, not a packet")}
	if n := receiveAll(0, f, s); n != readLimit {
		t.Fatalf("Read took %d datagrams, want the bound %d", n, readLimit)
	}
	if got := s.Stats().BadPackets; got != readLimit {
		t.Errorf("%d bad packets counted, want %d", got, readLimit)
	}
	if a := testing.AllocsPerRun(20, func() { receiveAll(0, f, s) }); a != 0 {
		t.Errorf("Read allocated %v times a call under a flood", a)
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
