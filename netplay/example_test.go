package netplay_test

import (
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// counterGame is a whole deterministic game: a tick count and a running
// sum of every player's one-byte input. A session asks it to advance one
// tick, for the local player's input, and, to roll back, to save and load
// its state in slots made once.
type counterGame struct {
	now   counterState
	slots [10]counterState // Config.MaxPrediction (8) + 2
	me    *netplay.Session
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

// LocalInput is the local player's button: it depends on the tick and on
// who the player is.
func (g *counterGame) LocalInput(tick uint64, _ int, dst []byte) {
	dst[0] = byte(tick/8) * byte(g.me.Index()+1)
}

// Two peers play 120 ticks over a network in memory with 40 ms of delay
// and 10% loss, on a manual clock: first with rollback netcode (a tick
// runs at once, on a prediction of the other player's input, and runs
// again if the prediction proves wrong), then in lockstep (a tick waits
// for every input, and an input delay of 3 ticks hides the network's).
// Both end in the same state on both peers.
func Example() {
	play(netplay.Rollback, 0)
	play(netplay.Lockstep, 3)
	// Output:
	// rollback: player 0 at tick 120, sum 1522904392, err <nil>
	// rollback: player 1 at tick 120, sum 1522904392, err <nil>
	// lockstep: player 0 at tick 120, sum 1522904392, err <nil>
	// lockstep: player 1 at tick 120, sum 1522904392, err <nil>
}

func play(netcode netplay.Netcode, delay int) {
	const tick = 20 * time.Millisecond
	net, _ := netsim.NewNet(netsim.Conditions{Delay: 40 * time.Millisecond, Loss: 0.1}, 1)
	hostPort, _ := net.Port("host")
	joinPort, _ := net.Port("join")
	games := []*counterGame{{}, {}}
	host, _ := netplay.Host(netplay.Config{InputSize: 1, Tick: tick, Netcode: netcode, Players: 2, Delay: delay, TickLimit: 120},
		games[0], hostPort, 0)
	join, _ := netplay.Join(netplay.Config{InputSize: 1, Netcode: netcode}, games[1], joinPort, "host", 0)
	sessions := []*netplay.Session{host, join}
	games[0].me, games[1].me = host, join

	var now time.Duration
	counted := []int{0, 0} // the ticks each peer's fixed-step loop counted
	for !host.Done() || !join.Done() {
		// A frame of each peer, every 10 ms: the ticks due by its clock
		// since the game started, 5 a frame at most.
		net.SetTime(now)
		for i, s := range sessions {
			due := 0
			if st := s.Stats(); st.State == netplay.StateRunning {
				ticks := int((now - st.StartedAt) / tick)
				due, counted[i] = ticks-counted[i], ticks
			}
			s.Frame(now, due, 5)
		}
		now += 10 * time.Millisecond
	}
	for i, s := range sessions {
		fmt.Printf("%v: player %d at tick %d, sum %d, err %v\n", netcode, i, games[i].now.Tick, games[i].now.Sum, s.Err())
	}
}
