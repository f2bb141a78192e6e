package demo

import (
	"math"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/loop"
)

// TestSmootherFades: a correction's offset is mostly gone after 100 ms and
// entirely after a few hundred, frame rate aside.
func TestSmootherFades(t *testing.T) {
	clock := loop.NewManualClock(0)
	s, err := sim.New(sim.Config{Settings: sim.DefaultSettings()}, clock, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, frame := range []time.Duration{time.Millisecond, 7 * time.Millisecond, 16 * time.Millisecond} {
		var m smoother
		m.off[1] = [2]float64{4096, -2048} // a 16-unit jump
		for now := time.Duration(0); now <= 100*time.Millisecond; now += frame {
			m.update(s, 0, now)
		}
		if left := math.Hypot(m.off[1][0], m.off[1][1]); left > 0.06*math.Hypot(4096, 2048) || left == 0 {
			t.Errorf("frames of %v: %.1f of the jump left after 100 ms; want a little", frame, left)
		}
		for now := 100 * time.Millisecond; now <= 500*time.Millisecond; now += frame {
			m.update(s, 0, now)
		}
		if m.active() {
			t.Errorf("frames of %v: still gliding after 500 ms: %v", frame, m.off)
		}
	}
}
