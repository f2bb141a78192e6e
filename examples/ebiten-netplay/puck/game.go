// Package puck is a small two-player game, Puck, and its network play:
// two squares on a field push a puck into each other's goal. It is the
// game of examples/ebiten-netplay, written to show that package netplay
// puts a deterministic game that it knows nothing of on the network.
//
// The simulation (Game, State) is integer Q8 fixed point, with no floats,
// maps, clock or goroutines: the same inputs give the same bits on every
// machine. Its per-tick input is one byte of direction bits (InputSize),
// its settings a 15-byte blob (Settings.Encode). Peer is one player's
// end of a network game, driven by an engine's fixed update, one tick a
// call, with the clock read once:
//
//	conn, _ := udp.Listen(":7777", udp.Config{}) // any netplay.Transport
//	peer, _ := puck.Host(conn, puck.DefaultSettings(), 0, puck.PeerConfig{}, clock.Now())
//	for !peer.Done() { // Update, TPS times a second
//		now := clock.Now()
//		peer.Update(now)
//		draw(&peer.Game().State, now-peer.TickAt()) // Body.At(percent)
//	}
//
// Nothing in it draws, reads a clock or opens a socket: its tests play
// whole network games in memory on generated timestamps.
package puck

import (
	"github.com/interpdemo/interpdemo/netplay"
)

// One is a pixel in the game's fixed-point units: positions and
// velocities are int32 in 1/256 pixel (Q8), so every peer computes the
// same bits.
const One = 256

// The bodies' sizes and speeds. Speeds are per second and turned into
// units per tick once, by integer division, from the settings.
const (
	PlayerHalf = 8 * One // a player is a 16×16 square
	PuckHalf   = 4 * One // the puck an 8×8 one

	playerSpeed = 150 * One // per second
	serveSpeed  = 120 * One
	minSpeed    = 60 * One // a pushed puck leaves at least this fast
	maxSpeed    = 360 * One
)

// The input bits: one byte a player a tick, the directions held at any
// moment of the tick's span.
const (
	Left byte = 1 << iota
	Right
	Up
	Down
)

// InputSize is the size of one player's input for one tick, in bytes.
const InputSize = 1

// Players is the number of players of the game.
const Players = 2

// Body is a square's position, its centre in Q8 units: Last before the
// latest tick, Pos after it. Drawing interpolates between them.
type Body struct {
	Last, Pos [2]int32
}

// At returns the body's centre in pixels at percentWithinTick pct (0:
// Last, 1: Pos).
func (b Body) At(pct float64) (x, y float64) {
	x = (float64(b.Last[0]) + pct*float64(b.Pos[0]-b.Last[0])) / One
	y = (float64(b.Last[1]) + pct*float64(b.Pos[1]-b.Last[1])) / One
	return x, y
}

// State is the whole game, a plain value: saving it is a copy. Player 0
// defends the left goal, player 1 the right one.
type State struct {
	Tick    uint64 // ticks run
	Players [Players]Body
	Puck    Body
	V       [2]int32 // the puck's velocity, Q8 units a tick
	Score   [Players]uint16
	Hits    uint32 // pushes of the puck by a player, so far
	Serve   int32  // ticks until the puck moves again after a goal
	Rng     uint64 // splitmix64 state: the serves' directions
}

// Game is the game as a netplay.Session plays it (with the local
// player's input, which Peer adds): State, saved to and loaded from
// slots allocated once (SetSlots), hashed with FNV-1a.
type Game struct {
	State State

	set   Settings
	w, h  int32 // the field, Q8
	speed int32 // a player's step a tick
	serve int32 // the puck's speed after a goal, a tick
	minV  int32
	maxV  int32
	slots []State
}

// NewGame returns the game at tick 0 for the settings (which must be
// valid: DecodeSettings checks them).
func NewGame(set Settings) *Game {
	tps := int32(set.TPS)
	g := &Game{
		set: set, w: int32(set.Width) * One, h: int32(set.Height) * One,
		speed: playerSpeed / tps, serve: serveSpeed / tps, minV: minSpeed / tps, maxV: maxSpeed / tps,
	}
	s := &g.State
	s.Rng = set.Seed
	s.Players[0].Pos = [2]int32{g.w / 4, g.h / 2}
	s.Players[1].Pos = [2]int32{g.w - g.w/4, g.h / 2}
	for p := range s.Players {
		s.Players[p].Last = s.Players[p].Pos
	}
	g.resetPuck()
	return g
}

// Settings returns the game's settings.
func (g *Game) Settings() Settings { return g.set }

// SetSlots allocates n save slots: netplay.Config.MaxPrediction+2.
func (g *Game) SetSlots(n int) { g.slots = make([]State, n) }

// Save keeps the state in slot.
func (g *Game) Save(slot int) { g.slots[slot] = g.State }

// Load restores the state saved in slot.
func (g *Game) Load(slot int) { g.State = g.slots[slot] }

// Advance runs one tick with the players' inputs (a sync test has one
// player: the other stands still).
func (g *Game) Advance(in *netplay.Inputs) {
	var bits [Players]byte
	for p := range min(in.Players(), Players) {
		bits[p] = in.Input(p)[0]
	}
	g.Step(bits)
}

// Step runs one tick with each player's input bits.
func (g *Game) Step(in [Players]byte) {
	s := &g.State
	s.Tick++
	for p := range s.Players {
		b := &s.Players[p]
		b.Last = b.Pos
		b.Pos[0] = clamp(b.Pos[0]+g.speed*axis(in[p], Left, Right), PlayerHalf, g.w-PlayerHalf)
		b.Pos[1] = clamp(b.Pos[1]+g.speed*axis(in[p], Up, Down), PlayerHalf, g.h-PlayerHalf)
	}
	k := &s.Puck
	k.Last = k.Pos
	if s.Serve > 0 {
		s.Serve--
		return
	}
	k.Pos[0] += s.V[0]
	k.Pos[1] += s.V[1]
	for p := range s.Players {
		g.push(&s.Players[p])
	}
	// The side walls, but for the goal mouths: the middle half of each.
	if k.Pos[1] < PuckHalf {
		k.Pos[1], s.V[1] = PuckHalf+min(PuckHalf-k.Pos[1], g.h/2), abs(s.V[1])
	} else if k.Pos[1] > g.h-PuckHalf {
		k.Pos[1], s.V[1] = g.h-PuckHalf-min(k.Pos[1]-(g.h-PuckHalf), g.h/2), -abs(s.V[1])
	}
	mouth := abs(k.Pos[1]-g.h/2) < g.h/4
	switch {
	case k.Pos[0] < PuckHalf && mouth:
		g.goal(1)
	case k.Pos[0] > g.w-PuckHalf && mouth:
		g.goal(0)
	case k.Pos[0] < PuckHalf:
		k.Pos[0], s.V[0] = PuckHalf+min(PuckHalf-k.Pos[0], g.w/2), abs(s.V[0])
	case k.Pos[0] > g.w-PuckHalf:
		k.Pos[0], s.V[0] = g.w-PuckHalf-min(k.Pos[0]-(g.w-PuckHalf), g.w/2), -abs(s.V[0])
	}
}

// push moves the puck out of player b, along the axis it overlaps least,
// and sends it away with the player's own motion added.
func (g *Game) push(b *Body) {
	s := &g.State
	k := &s.Puck
	dx, dy := k.Pos[0]-b.Pos[0], k.Pos[1]-b.Pos[1]
	ox, oy := PlayerHalf+PuckHalf-abs(dx), PlayerHalf+PuckHalf-abs(dy)
	if ox <= 0 || oy <= 0 {
		return
	}
	s.Hits++
	i, d := 0, dx
	if oy < ox {
		i, d = 1, dy
	}
	dir := int32(1)
	if d < 0 {
		dir = -1
	}
	k.Pos[i] = b.Pos[i] + dir*(PlayerHalf+PuckHalf)
	v := dir*abs(s.V[i]) + (b.Pos[i] - b.Last[i])
	if dir*v < g.minV {
		v = dir * g.minV
	}
	s.V[i] = v
	s.V[0], s.V[1] = clamp(s.V[0], -g.maxV, g.maxV), clamp(s.V[1], -g.maxV, g.maxV)
}

// goal scores for player p and serves the puck again from the centre.
func (g *Game) goal(p int) {
	g.State.Score[p]++
	g.resetPuck()
}

// resetPuck puts the puck in the centre, still for half a second, then
// off in a direction drawn from the state's random numbers. Last is the
// centre too: the drawing does not sweep the puck across the field.
func (g *Game) resetPuck() {
	s := &g.State
	s.Puck.Pos = [2]int32{g.w / 2, g.h / 2}
	s.Puck.Last = s.Puck.Pos
	s.Serve = int32(g.set.TPS / 2)
	r := splitmix(&s.Rng)
	s.V[0] = g.serve
	if r&1 != 0 {
		s.V[0] = -g.serve
	}
	s.V[1] = g.serve * (int32(r>>1%9) - 4) / 8 // -1/2 to 1/2 of it
}

// Hash is FNV-1a (64-bit) of the state, field by field in little-endian
// order.
func (g *Game) Hash() uint64 { return g.State.Hash() }

// Hash is FNV-1a (64-bit) of the state, field by field in little-endian
// order.
func (s *State) Hash() uint64 {
	h := uint64(fnvOffset)
	h = fnv(h, s.Tick)
	for _, b := range [...]*Body{&s.Players[0], &s.Players[1], &s.Puck} {
		for i := range 2 {
			h = fnv(h, uint64(uint32(b.Last[i]))|uint64(uint32(b.Pos[i]))<<32)
		}
	}
	h = fnv(h, uint64(uint32(s.V[0]))|uint64(uint32(s.V[1]))<<32)
	h = fnv(h, uint64(s.Score[0])|uint64(s.Score[1])<<16|uint64(s.Hits)<<32)
	h = fnv(h, uint64(uint32(s.Serve)))
	return fnv(h, s.Rng)
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// fnv hashes the 8 bytes of v, least significant first, into h.
func fnv(h, v uint64) uint64 {
	for range 8 {
		h ^= v & 0xff
		h *= fnvPrime
		v >>= 8
	}
	return h
}

// splitmix is SplitMix64: the next random number of the sequence x.
func splitmix(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// axis is -1, 0 or 1: which of the two directions in holds alone.
func axis(in, neg, pos byte) int32 {
	var a int32
	if in&neg != 0 {
		a--
	}
	if in&pos != 0 {
		a++
	}
	return a
}

func clamp(v, lo, hi int32) int32 { return max(lo, min(v, hi)) }

func abs(v int32) int32 { return max(v, -v) }
