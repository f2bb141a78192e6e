package netplay_test

import (
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// counterGame is a whole deterministic game: a tick count and a running
// sum of every player's one-byte input. A Runner asks it to advance one
// tick and, to roll back, to save and load its state in slots made once.
type counterGame struct {
	now   counterState
	slots []counterState // Runner.Slots() of them
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

// keyboard is the local player: the button it presses depends on the
// tick and on who it is.
type keyboard struct{ s *netplay.Session }

func (k keyboard) LocalInput(tick uint64, _ int, dst []byte) {
	dst[0] = byte(tick/8) * byte(k.s.Index()+1)
}

// Two peers play 120 ticks over a network in memory with 40 ms of delay
// and 10% loss, on a manual clock: first with rollback netcode (a tick
// runs at once, on a prediction of the other player's input, and is run
// again if the prediction proves wrong), then in lockstep (a tick waits
// for every input, and an input delay of 3 ticks hides the network's).
// Both end in the same state on both peers.
func ExampleRunner() {
	play(netplay.Rollback, 0)
	play(netplay.Lockstep, 3)
	// Output:
	// rollback: host at tick 120, sum 1522904392, err <nil>
	// rollback: join at tick 120, sum 1522904392, err <nil>
	// lockstep: host at tick 120, sum 1522904392, err <nil>
	// lockstep: join at tick 120, sum 1522904392, err <nil>
}

func play(netcode netplay.Netcode, delay int) {
	const tick = 20 * time.Millisecond
	net, _ := netsim.NewNet(netsim.Conditions{Delay: 40 * time.Millisecond, Loss: 0.1}, 1)
	hostPort, _ := net.Port("host")
	joinPort, _ := net.Port("join")
	host, _ := netplay.NewHost(netplay.Config{InputSize: 1, Players: 2, Delay: delay, TickLimit: 120}, 0)
	join, _ := netplay.NewJoiner(netplay.Config{InputSize: 1}, "host", 0)
	sessions := []*netplay.Session{host, join}
	ports := []*netsim.Port{hostPort, joinPort}
	games := []*counterGame{{}, {}}
	runners := make([]*netplay.Runner, 2)
	for i, s := range sessions {
		runners[i], _ = netplay.NewRunner(s, games[i], keyboard{s}, netplay.RunnerConfig{Netcode: netcode})
		games[i].slots = make([]counterState, runners[i].Slots())
	}

	var now time.Duration
	counted := []int{0, 0} // the ticks each peer's fixed-step loop counted
	for !host.Done() || !join.Done() {
		// A frame of each peer, every 10 ms: the datagrams that arrived,
		// the ticks due (5 a frame at most), the datagrams to send.
		net.SetTime(now)
		for i, s := range sessions {
			netplay.Read(now, ports[i], s)
			due := 0
			if s.State() == netplay.StateRunning {
				ticks := int((now - s.StartedAt()) / tick)
				due, counted[i] = ticks-counted[i], ticks
			}
			runners[i].Frame(now, due, 5)
			netplay.Write(now, ports[i], s)
		}
		now += 10 * time.Millisecond
	}
	for i, s := range sessions {
		fmt.Printf("%v: %v at tick %d, sum %d, err %v\n", netcode, s.Role(), games[i].now.Tick, games[i].now.Sum, s.Err())
	}
}
