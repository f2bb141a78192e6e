package demo

import (
	"math"
	"time"

	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/physics"
)

// smoothTau is how fast a correction's offset fades: after 100 ms, 5 % of
// it is left.
const smoothTau = 33 * time.Millisecond

// smoother draws a remote player's ball, after a rollback corrected it,
// where it was drawn before the correction, and glides it to where it is
// over about 100 ms, instead of letting it pop (-rollback-smooth). The
// world is not touched: only what is handed to the front end to draw is
// offset.
type smoother struct {
	off  [physics.MaxPlayers][2]float64 // Q8 units still to glide away
	last time.Duration
	bump uint64 // the "moved" count while offsets are drawn: a full upload each frame
}

// update takes this frame's correction (after sim.Frame) and fades the
// offsets by the time since the last frame. self is the local player,
// whose ball never jumps (its input is never predicted).
func (m *smoother) update(s *sim.Sim, self int, now time.Duration) {
	k := math.Exp(-float64(now-m.last) / float64(smoothTau))
	m.last = now
	for p := range m.off {
		for a := range m.off[p] {
			if m.off[p][a] *= k; math.Abs(m.off[p][a]) < 16 { // under 1/16 unit
				m.off[p][a] = 0
			}
		}
		if p == self {
			continue
		}
		if pred, corr, ok := s.Misprediction(p); ok {
			m.off[p][0] -= float64(corr[0] - pred[0])
			m.off[p][1] -= float64(corr[1] - pred[1])
		}
	}
}

func (m *smoother) active() bool { return m.off != [physics.MaxPlayers][2]float64{} }

// sync hands the world to sync with the offsets applied to the players'
// balls, then puts the world back as it was.
func (m *smoother) sync(w *physics.World, sync SyncFunc) int {
	if !m.active() {
		return sync(w.Last, w.Next, w.Ticks()+w.Steps(), w.Moved())
	}
	var saved [physics.MaxPlayers][4]int32
	n := min(physics.MaxPlayers, w.N())
	for p := 0; p < n; p++ {
		saved[p] = [4]int32{w.Last[2*p], w.Last[2*p+1], w.Next[2*p], w.Next[2*p+1]}
		dx, dy := int32(math.Round(m.off[p][0])), int32(math.Round(m.off[p][1]))
		w.Last[2*p] += dx
		w.Last[2*p+1] += dy
		w.Next[2*p] += dx
		w.Next[2*p+1] += dy
	}
	m.bump++
	b := sync(w.Last, w.Next, w.Ticks()+w.Steps(), w.Moved()+1<<62+m.bump)
	for p := 0; p < n; p++ {
		w.Last[2*p], w.Last[2*p+1], w.Next[2*p], w.Next[2*p+1] = saved[p][0], saved[p][1], saved[p][2], saved[p][3]
	}
	return b
}
