package netplay_test

import (
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// Two peers play 100 ticks over a simulated network with 30 ms of delay
// and 10% loss, on a manual clock. Each player's input is one byte, the
// game's state a number, and its settings the number's starting value.
func Example() {
	const tick = 40 * time.Millisecond
	net, _ := netsim.NewPath(netsim.Conditions{Delay: 30 * time.Millisecond, Loss: 0.1}, 1, 0)
	hostAddr := "10.0.0.1:7000"
	joinAddr := "10.0.0.2:7000"
	host, _ := netplay.NewHost(netplay.Config{InputSize: 1, Nonce: 0x1234, Players: 2, Settings: []byte{7}, TickLimit: 100, Delay: netplay.DefaultDelay}, 0)
	join, _ := netplay.NewJoiner(netplay.Config{InputSize: 1, Nonce: 0x5678}, hostAddr, 0)
	peers := []*netplay.Session{host, join}
	addrs := []string{hostAddr, joinAddr}

	var now time.Duration
	inputs := make([][]byte, 0, netplay.MaxPlayers)
	var state [2]uint64 // each peer's game
	for !host.Done() || !join.Done() {
		net.Deliver(now, func(from, to string, pkt []byte) {
			for i, s := range peers {
				if addrs[i] == to {
					s.Receive(now, from, pkt)
				}
			}
		})
		for i, s := range peers {
			// The ticks this peer owes since its start, 5 a frame at most.
			for ran := 0; s.State() == netplay.StateRunning && ran < 5 &&
				s.NextTick() < uint64((now-s.StartedAt())/tick); ran++ {
				if s.NextTick() == 0 {
					state[i] = uint64(s.Settings()[0])
				}
				if s.NeedInput() {
					t := s.InputTick()
					if s.AddLocalInput(t, []byte{byte(t * uint64(s.Index()+1))}) != nil {
						break
					}
				}
				var ok bool
				if inputs, ok = s.Next(now, inputs); !ok {
					break
				}
				for p, in := range inputs {
					state[i] = state[i]*31 + uint64(p+1)*uint64(in[0])
				}
				s.Advance(func() uint64 { return state[i] })
			}
			s.Poll(now, netplay.SendFunc(func(to string, pkt []byte) { net.Send(now, addrs[i], to, pkt) }))
		}
		now += 10 * time.Millisecond
	}
	for i, s := range peers {
		st := s.Stats()
		fmt.Printf("%s: %d ticks, %s, err %v, same world: %v\n", st.Role, st.Tick, st.End, s.Err(), state[i] == state[0])
	}
	fmt.Println("settings from the host:", join.Settings())
	// Output:
	// host: 100 ticks, tick limit reached, err <nil>, same world: true
	// join: 100 ticks, tick limit reached, err <nil>, same world: true
	// settings from the host: [7]
}
