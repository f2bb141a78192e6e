package webrtc

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
)

// counterGame is a whole deterministic game: a tick count and a running
// sum of every player's one-byte input.
type counterGame struct {
	now   counterState
	slots []counterState
}

type counterState struct{ Tick, Sum uint32 }

func (g *counterGame) Advance(in *netplay.Inputs) {
	for p := range in.Players() {
		g.now.Sum = g.now.Sum*31 + uint32(in.Input(p)[0])
	}
	g.now.Tick++
}

func (g *counterGame) Save(slot int) { g.slots[slot] = g.now }
func (g *counterGame) Load(slot int) { g.now = g.slots[slot] }
func (g *counterGame) Hash() uint64  { return uint64(g.now.Tick)<<32 | uint64(g.now.Sum) }

// keyboard is the local player: its button depends on the tick and on
// who it is.
type keyboard struct{ s *netplay.Session }

func (k keyboard) LocalInput(tick uint64, _ int, dst []byte) {
	dst[0] = byte(tick/8) * byte(k.s.Index()+1)
}

// play runs a peer's frame loop over tr, on the real clock, until its
// session is done or the deadline passes.
func play(tr *Transport, s *netplay.Session, r *netplay.Runner, epoch time.Time, tick time.Duration, deadline time.Time) error {
	counted := 0
	for !s.Done() {
		if time.Now().After(deadline) {
			return fmt.Errorf("%v: not done by the deadline, state %v", s.Role(), s.State())
		}
		now := time.Since(epoch)
		netplay.Read(now, tr, s)
		due := 0
		if s.State() == netplay.StateRunning {
			ticks := int((now - s.StartedAt()) / tick)
			due, counted = ticks-counted, ticks
		}
		r.Frame(now, due, 5)
		netplay.Write(now, tr, s)
		tr.Wait(tick / 4)
	}
	return s.Err()
}

// TestGame plays a two-player rollback game between two netplay
// sessions over WebRTC, each in its own goroutine on the real clock.
func TestGame(t *testing.T) {
	const (
		tick  = 10 * time.Millisecond
		ticks = 120
	)
	h := newHub()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	hostT, err := Host(ctx, h.join("h"), testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer hostT.Close()
	joinT, err := Dial(ctx, h.join("j1"), "h", testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer joinT.Close()

	epoch := time.Now()
	host, err := netplay.NewHost(netplay.Config{InputSize: 1, Players: 2, TickLimit: ticks}, 0)
	if err != nil {
		t.Fatal(err)
	}
	join, err := netplay.NewJoiner(netplay.Config{InputSize: 1}, "h", 0)
	if err != nil {
		t.Fatal(err)
	}
	sessions := []*netplay.Session{host, join}
	transports := []*Transport{hostT, joinT}
	games := []*counterGame{{}, {}}
	errs := make(chan error, 2)
	deadline := time.Now().Add(20 * time.Second)
	for i, s := range sessions {
		r, err := netplay.NewRunner(s, games[i], keyboard{s}, netplay.RunnerConfig{Netcode: netplay.Rollback, Tick: tick})
		if err != nil {
			t.Fatal(err)
		}
		games[i].slots = make([]counterState, r.Slots())
		go func() { errs <- play(transports[i], s, r, epoch, tick, deadline) }()
	}
	for range sessions {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for i, g := range games {
		t.Logf("%v: tick %d, sum %d; transport %+v", sessions[i].Role(), g.now.Tick, g.now.Sum, transports[i].Stats())
		if g.now.Tick != ticks {
			t.Errorf("%v ended at tick %d, want %d", sessions[i].Role(), g.now.Tick, ticks)
		}
	}
	if games[0].now != games[1].now {
		t.Errorf("host %+v, joiner %+v: the games differ", games[0].now, games[1].now)
	}
}
