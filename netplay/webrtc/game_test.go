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
	slots [10]counterState // MaxPrediction (8) + 2
	s     *netplay.Session
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

// LocalInput is the local player's button: it depends on the tick and
// on who the player is.
func (g *counterGame) LocalInput(tick uint64, _ int, dst []byte) {
	dst[0] = byte(tick/8) * byte(g.s.Index()+1)
}

// play runs a peer's frame loop over its transport, on the real clock,
// until its session is done or the deadline passes.
func play(tr *Transport, s *netplay.Session, epoch time.Time, tick time.Duration, deadline time.Time) error {
	counted := 0
	for !s.Done() {
		if time.Now().After(deadline) {
			return fmt.Errorf("player %d: not done by the deadline, state %v", s.Index(), s.State())
		}
		now := time.Since(epoch)
		due := 0
		if st := s.Stats(); st.State == netplay.StateRunning {
			ticks := int((now - st.StartedAt) / tick)
			due, counted = ticks-counted, ticks
		}
		s.Frame(now, due, 5)
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
	games := []*counterGame{{}, {}}
	host, err := netplay.Host(netplay.Config{InputSize: 1, Players: 2, TickLimit: ticks, Tick: tick}, games[0], hostT, 0)
	if err != nil {
		t.Fatal(err)
	}
	join, err := netplay.Join(netplay.Config{InputSize: 1}, games[1], joinT, "h", 0)
	if err != nil {
		t.Fatal(err)
	}
	games[0].s, games[1].s = host, join
	sessions := []*netplay.Session{host, join}
	transports := []*Transport{hostT, joinT}
	errs := make(chan error, 2)
	deadline := time.Now().Add(20 * time.Second)
	for i, s := range sessions {
		go func() { errs <- play(transports[i], s, epoch, tick, deadline) }()
	}
	for range sessions {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for i, g := range games {
		t.Logf("player %d: tick %d, sum %d; transport %+v", i, g.now.Tick, g.now.Sum, transports[i].Stats())
		if g.now.Tick != ticks {
			t.Errorf("player %d ended at tick %d, want %d", i, g.now.Tick, ticks)
		}
	}
	if games[0].now != games[1].now {
		t.Errorf("host %+v, joiner %+v: the games differ", games[0].now, games[1].now)
	}
}
