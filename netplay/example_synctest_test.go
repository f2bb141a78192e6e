package netplay_test

import (
	"fmt"

	"github.com/interpdemo/interpdemo/netplay"
)

// tally is a deterministic game of one player: a tick count and a running
// sum of the inputs (its input is the tick), saved and loaded in slots
// made once.
type tally struct {
	now   [2]uint32 // tick, sum
	slots [6][2]uint32
	// forgetful games save the tick but not the sum.
	forgetful bool
}

func (g *tally) Advance(in *netplay.Inputs) {
	g.now = [2]uint32{g.now[0] + 1, g.now[1]*31 + uint32(in.Input(0)[0])}
}
func (g *tally) Load(slot int)                             { g.now = g.slots[slot] }
func (g *tally) Hash() uint64                              { return uint64(g.now[0])<<32 | uint64(g.now[1]) }
func (g *tally) LocalInput(tick uint64, _ int, dst []byte) { dst[0] = byte(tick) }

func (g *tally) Save(slot int) {
	g.slots[slot] = g.now
	if g.forgetful {
		g.slots[slot][1] = 0
	}
}

// A sync test runs a game on one machine and, after every tick, rolls it
// back CheckDistance ticks and runs them again with the same inputs, as a
// rollback game over the network would. A game whose Save and Load do
// not hold its whole state (or whose Advance is not deterministic) gets
// another state hash the second time, and the test names the tick.
func ExampleSyncTest() {
	for _, g := range []*tally{{}, {forgetful: true}} {
		s, _ := netplay.SyncTest(netplay.Config{InputSize: 1, CheckDistance: 4}, g) // slots 0..CheckDistance+1
		for range 100 {
			s.Frame(0, 1, 1) // one tick a frame
		}
		st := s.Stats()
		fmt.Printf("forgetful %v: %d ticks, %d run again; err: %v\n", g.forgetful, st.Ticks, st.Resimulated, s.Err())
	}
	// Output:
	// forgetful false: 100 ticks, 388 run again; err: <nil>
	// forgetful true: 6 ticks, 12 run again; err: synctest: tick 3 simulates to 0000000300000002 the second time, 0000000300000021 the first (rolled back 4 ticks)
}
