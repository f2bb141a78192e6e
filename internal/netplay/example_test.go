package netplay_test

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/internal/netplay"
	"github.com/interpdemo/interpdemo/replay"
)

// Two peers play 100 ticks of bots over a simulated network with 30 ms of
// delay and 10% loss, on a manual clock: what the demo does over UDP.
func Example() {
	const tick = 40 * time.Millisecond
	net, _ := netplay.NewNetSim(netplay.Conditions{Delay: 30 * time.Millisecond, Loss: 0.1}, 1, 0)
	hostAddr := netip.MustParseAddrPort("10.0.0.1:7000")
	joinAddr := netip.MustParseAddrPort("10.0.0.2:7000")
	world := replay.Settings{Seed: 7, Balls: 2, Width: 640, Height: 480, Radius: 8, Speed: 400, Tick: tick, MaxLoops: 5, Lockstep: true}
	host, _ := netplay.NewHost(netplay.Config{Nonce: 0x1234, Players: 2, World: world, TickLimit: 100}, 0)
	join, _ := netplay.NewJoiner(netplay.Config{Nonce: 0x5678}, hostAddr, 0)
	peers := []*netplay.Session{host, join}
	addrs := []netip.AddrPort{hostAddr, joinAddr}

	var now time.Duration
	recs := make([]input.Record, 0, netplay.MaxPlayers)
	var state [2]uint64 // each peer's "world": a sum of what it ran
	for !host.Done() || !join.Done() {
		net.Deliver(now, func(from, to netip.AddrPort, pkt []byte) {
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
				if s.NeedInput() {
					t := s.InputTick()
					if s.AddLocalInput(t, netplay.BotInput(uint64(s.Index()), uint64(s.Delay()), t)) != nil {
						break
					}
				}
				var ok bool
				if recs, ok = s.Next(now, recs); !ok {
					break
				}
				for p, r := range recs {
					state[i] = state[i]*31 + uint64(p+1)*uint64(r.Held)
				}
				s.Advance(func() uint64 { return state[i] })
			}
			s.Poll(now, func(to netip.AddrPort, pkt []byte) { net.Send(now, addrs[i], to, pkt) })
		}
		now += 10 * time.Millisecond
	}
	for i, s := range peers {
		st := s.Stats()
		fmt.Printf("%s: %d ticks, %s, err %v, same world: %v\n", st.Role, st.Tick, st.End, s.Err(), state[i] == state[0])
	}
	fmt.Println("world seed from the host:", join.World().Seed)
	// Output:
	// host: 100 ticks, tick limit reached, err <nil>, same world: true
	// join: 100 ticks, tick limit reached, err <nil>, same world: true
	// world seed from the host: 7
}
