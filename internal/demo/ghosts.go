package demo

import (
	"time"

	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/physics"
)

// ghostHold is how long the ghosts of a misprediction stay on screen,
// fading: long enough to be seen at 25 ticks per second.
const ghostHold = 600 * time.Millisecond

// Ghost colours (premultiplied at full opacity): where the prediction had
// a remote ball, and where the corrected inputs put it.
var (
	ghostPredicted = [3]float32{1, 0.25, 0.25}
	ghostCorrected = [3]float32{0.25, 1, 0.4}
)

// ghostOpacity is a ghost's opacity at age: full for the first two
// thirds of ghostHold, then fading to a half, so that red and green read
// at a glance on the world's dark blue, in a screenshot too.
func ghostOpacity(age time.Duration) float32 {
	const full = 2 * ghostHold / 3
	if age <= full {
		return 1
	}
	return 1 - 0.5*float32(age-full)/float32(ghostHold-full)
}

// ghosts shows rollback's mispredictions with G on: for each remote
// player, the last correction's predicted position as a red ring and its
// corrected position as a green one, at the tick the correction found,
// fading over ghostHold. With -rollback-smooth the ball is seen gliding
// from the first to the second.
type ghosts struct {
	mark [physics.MaxPlayers]ghostMark
	buf  [2 * physics.MaxPlayers]Marker
}

type ghostMark struct {
	pred, corr [2]int32 // Q8 world units
	at         time.Duration
	set        bool
}

// update takes this frame's mispredictions (after sim.Frame). self is the
// local player, whose input is never predicted.
func (g *ghosts) update(s *sim.Sim, self int, now time.Duration) {
	for p := range g.mark {
		if p == self {
			continue
		}
		if pred, corr, ok := s.Misprediction(p); ok && pred != corr {
			g.mark[p] = ghostMark{pred: pred, corr: corr, at: now, set: true}
		}
	}
}

// markers returns the rings to draw at now, in world units. The slice is
// g's own: no allocation.
func (g *ghosts) markers(now time.Duration) []Marker {
	out := g.buf[:0]
	for p := range g.mark {
		m := &g.mark[p]
		if !m.set {
			continue
		}
		age := now - m.at
		if age >= ghostHold || age < 0 {
			m.set = false
			continue
		}
		a := ghostOpacity(age)
		for _, k := range [2]struct {
			pos [2]int32
			rgb [3]float32
		}{{m.pred, ghostPredicted}, {m.corr, ghostCorrected}} {
			out = append(out, Marker{
				X: float64(k.pos[0]) / physics.One, Y: float64(k.pos[1]) / physics.One,
				R: k.rgb[0] * a, G: k.rgb[1] * a, B: k.rgb[2] * a, A: a,
			})
		}
	}
	return out
}
