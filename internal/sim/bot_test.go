package sim

import (
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/input"
)

// The bot's records are those an input.Sampler makes of the key events of
// its directions: presses at the start of the first tick of a direction,
// releases at the end of the last one (an independent model of the
// records' meaning).
func TestBotMatchesSampler(t *testing.T) {
	const tick = 40 * time.Millisecond
	for seed := range uint64(20) {
		for _, start := range []uint64{0, 2, 5} {
			s := input.NewSampler()
			var prev input.Buttons
			for k := range uint64(2000) {
				d := botDir(seed, start, k)
				at := time.Duration(k) * tick // start of tick k, end of tick k-1
				for b := input.Button(0); b <= input.Down; b++ {
					if prev.Has(b) && !d.Has(b) {
						s.Push(input.Event{Time: at, Button: b})
					}
				}
				for b := input.Button(0); b <= input.Down; b++ {
					if d.Has(b) && !prev.Has(b) {
						s.Push(input.Event{Time: at, Button: b, Down: true})
					}
				}
				prev = d
				if k == 0 {
					continue
				}
				// Tick k-1 ends at at: all its events are in.
				want := s.Tick(at)
				if got := BotInput(seed, start, k-1); got != want {
					t.Fatalf("seed %d start %d tick %d: %v, the sampler says %v", seed, start, k-1, got, want)
				}
			}
		}
	}
}

func TestBotProperties(t *testing.T) {
	for seed := range uint64(50) {
		const start = 2
		var prev input.Record
		changes, n := 0, uint64(5000)
		for k := range n {
			r := BotInput(seed, start, k)
			d := r.Down(prev)
			if d != botDir(seed, start, k) {
				t.Fatalf("seed %d tick %d: acts on %v, holds %v", seed, k, d, botDir(seed, start, k))
			}
			if k < start && !r.IsZero() {
				t.Fatalf("seed %d tick %d before the start: %v", seed, k, r)
			}
			if (d.Has(input.Left) && d.Has(input.Right)) || (d.Has(input.Up) && d.Has(input.Down)) {
				t.Fatalf("seed %d tick %d: holds opposite buttons %v", seed, k, d)
			}
			if k > 0 && botDir(seed, start, k) != botDir(seed, start, k-1) {
				changes++
			}
			prev = r
		}
		// A direction is held a few ticks at a time: 1 to 7, about 4 on
		// average, less the draws that repeat.
		if mean := float64(n) / float64(changes+1); mean < 3 || mean > 8 {
			t.Errorf("seed %d: a direction lasts %.1f ticks on average", seed, mean)
		}
	}
	// Different seeds, different bots.
	same := 0
	for k := range uint64(1000) {
		if BotInput(1, 0, k) == BotInput(2, 0, k) {
			same++
		}
	}
	if same > 600 {
		t.Errorf("seeds 1 and 2 agree on %d of 1000 ticks", same)
	}
}
