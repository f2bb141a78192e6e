package sim_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/physics"
)

// tapRun plays one tap of the Right key on the real fixed loop and the real
// world, on a generated clock, and returns how far ball 0 moved under the
// player's control, in world units. frame is the frame interval (200 ms is
// 5 FPS). With perTick, every tick gets its own input record (package
// input); without, the keys are sampled once per frame and every tick of
// the frame acts on that sample, as a naive loop does.
func tapRun(t *testing.T, frame, start, hold time.Duration, perTick bool) float64 {
	t.Helper()
	w, err := physics.New(physics.Config{})
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := loop.NewFixed(loop.FixedConfig{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	events := []input.Event{
		{Time: start, Button: input.Right, Down: true},
		{Time: start + hold, Button: input.Right, Down: false},
	}
	s := input.NewSampler()
	var prev input.Record
	var before int32 // ball 0's x before the player's first tick
	taken := false
	end := start + hold + time.Second
	for now := time.Duration(0); now < end; now += frame {
		held := false // the naive loop's sample, taken at the frame
		for len(events) > 0 && events[0].Time <= now {
			s.Push(events[0])
			events = events[1:]
		}
		// What a naive loop sees: whether the key is down at the frame.
		held = s.Held().Has(input.Right)
		plan := fixed.Step(now)
		for j := 0; j < plan.Ticks; j++ {
			rec := s.Tick(plan.Span(j).End)
			var c physics.Control
			if perTick {
				c.X = input.Axis(rec.Down(prev), input.Left, input.Right)
			} else if held {
				c.X = 1
			}
			prev = rec
			if c.X != 0 && !taken {
				taken, before = true, w.Next[0]
			}
			w.Tick(c)
		}
	}
	if !taken {
		return 0
	}
	return float64(w.Next[0]-before) / physics.One
}

// TestTapDistanceDoesNotDependOnFrameRate is the seed's low-frame-rate
// complaint, measured: a tap moves ball 0 by the ticks whose spans it
// overlaps, 16 units each, whether the game draws at 5 or 1000 FPS. The
// same tap sampled once per frame is lost at 5 FPS, or applied to every
// catch-up tick of the frame. It lives here, in the demo's module,
// because it needs input, loop and physics: in input's module it would
// make the other two requirements of every game that takes input.
func TestTapDistanceDoesNotDependOnFrameRate(t *testing.T) {
	var table strings.Builder
	fmt.Fprintf(&table, "%-6s  %-22s  %-22s  %-22s\n", "tap", "per-tick, 1000 FPS", "per-tick, 5 FPS", "sampled per frame, 5 FPS")
	for _, hold := range []time.Duration{5 * time.Millisecond, 39 * time.Millisecond, 41 * time.Millisecond, 100 * time.Millisecond, 400 * time.Millisecond} {
		var fast, slow, naive []float64
		// The tap starts at every millisecond of a 200 ms window, so it
		// falls at every phase of the 40 ms ticks and the 200 ms frames.
		for phase := time.Duration(0); phase < 200*time.Millisecond; phase += time.Millisecond {
			// Early in the run, so that ball 0 (which starts in the middle,
			// moving right) is far enough from the right wall.
			start := 200*time.Millisecond + phase
			f := tapRun(t, time.Millisecond, start, hold, true)
			s := tapRun(t, 200*time.Millisecond, start, hold, true)
			if f != s {
				t.Errorf("%v tap at +%v: %v units at 1000 FPS, %v at 5 FPS", hold, phase, f, s)
			}
			// Expected: the ticks whose 40 ms spans [k*40, (k+1)*40) the
			// hold [start, start+hold] overlaps (a release right on a
			// span's end belongs to that span), 16 units each.
			first := int64(start / (40 * time.Millisecond))
			last := int64((start + hold - 1) / (40 * time.Millisecond))
			if want := float64(16 * (last - first + 1)); f != want {
				t.Errorf("%v tap at +%v: moved %v units, want %v", hold, phase, f, want)
			}
			fast, slow = append(fast, f), append(slow, s)
			naive = append(naive, tapRun(t, 200*time.Millisecond, start, hold, false))
		}
		fmt.Fprintf(&table, "%-6v  %-22s  %-22s  %-22s\n", hold, spread(fast), spread(slow), spread(naive))
		if hold < 200*time.Millisecond && spread(naive) == spread(slow) {
			t.Errorf("%v tap: sampling per frame at 5 FPS gives %s, like per-tick input: the comparison shows nothing", hold, spread(naive))
		}
	}
	t.Logf("ball 0's movement for one tap of Right (units; 16 per tick; min-max over 200 tap phases):\n%s", table.String())
}

func spread(v []float64) string {
	lo, hi := v[0], v[0]
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%v-%v", lo, hi)
}
