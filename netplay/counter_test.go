package netplay

// counter is the smallest Game for the tests of the public API: a tick
// count and a running sum of the players' first input bytes; its player
// presses tick/4 plus its seed.
type counter struct {
	ticks, sum uint64
	slots      [maxMaxPrediction + 2][2]uint64
	seed       byte
}

func (g *counter) Advance(in *Inputs) {
	for p := range in.Players() {
		g.sum = g.sum*31 + uint64(in.Input(p)[0])
	}
	g.ticks++
}
func (g *counter) Save(slot int)                             { g.slots[slot] = [2]uint64{g.ticks, g.sum} }
func (g *counter) Load(slot int)                             { g.ticks, g.sum = g.slots[slot][0], g.slots[slot][1] }
func (g *counter) Hash() uint64                              { return g.ticks<<40 ^ g.sum }
func (g *counter) LocalInput(tick uint64, _ int, dst []byte) { dst[0] = byte(tick/4) + g.seed }
