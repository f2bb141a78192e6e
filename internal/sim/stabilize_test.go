package sim

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/replay"
)

// TestStabilizeKeepsWhatTicksDo: tick-count stabilisation moves when the
// ticks run, never what they do. The same frames (60 Hz, wobbling across
// the boundaries of a 1/60 s tick) and the same key presses give, after
// the same number of ticks, the same world with and without it, and the
// stabilised recording replays to the same hash; only the ticks per frame
// differ (steady with it, 0/2 without).
func TestStabilizeKeepsWhatTicksDo(t *testing.T) {
	st := DefaultSettings()
	st.Tick, st.Balls = time.Second/60, 20
	var hashes [2]uint64
	var ones [2]int
	var rec *replay.Recording
	for k, window := range []time.Duration{0, 4 * time.Millisecond} {
		r := newRig(t, Config{Settings: st, TickLimit: 600, Stabilize: window, Record: true})
		rng := rand.New(rand.NewPCG(3, 4))
		start := r.clock.Now()
		for i := 1; !r.s.Finished(); i++ {
			if i > 2000 {
				t.Fatal("the tick limit was never reached")
			}
			now := start + time.Duration(int64(i)*1e9/60) + time.Duration(rng.Int64N(int64(2*time.Millisecond))) - time.Millisecond
			var evs []input.Event
			if i%7 == 0 {
				evs = append(evs, press(now-time.Duration(rng.Int64N(int64(10*time.Millisecond))), input.Button(rng.IntN(4))))
			}
			if i%11 == 0 {
				evs = append(evs, release(now-time.Duration(rng.Int64N(int64(10*time.Millisecond))), input.Button(rng.IntN(4))))
			}
			r.clock.Set(now)
			info := r.s.Frame(now, evs)
			if info.Ticks == 1 {
				ones[k]++
			}
		}
		if r.s.Ticks() != 600 {
			t.Fatalf("window %v: %d ticks", window, r.s.Ticks())
		}
		hashes[k] = r.s.World().Hash()
		if window > 0 {
			rec = r.s.RecordingSoFar()
		}
	}
	if hashes[0] != hashes[1] {
		t.Fatalf("after 600 ticks: hash %x without stabilisation, %x with", hashes[0], hashes[1])
	}
	if ones[1] <= ones[0] || ones[1] < 590 {
		t.Fatalf("one-tick frames: %d without stabilisation, %d with", ones[0], ones[1])
	}
	if p := replayAll(t, roundTrip(t, rec), 16*time.Millisecond, false); !p.s.ReplayOK() || p.s.World().Hash() != hashes[1] {
		t.Fatalf("the stabilised recording replays to %x (ok %v), want %x", p.s.World().Hash(), p.s.ReplayOK(), hashes[1])
	}
}

// TestDrawnTime: FrameInfo.Drawn is the game time the frame shows: in
// fixed mode the loop's clock less the stabilisation lag while it keeps
// up (here game time is the raw time: speed 1, never paused), in the
// other modes the game time reached. SetStabilize reaches the running
// loop and survives a change of mode.
func TestDrawnTime(t *testing.T) {
	window := 3 * time.Millisecond
	r := newRig(t, Config{Stabilize: window})
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 500; i++ {
		info := r.frame(time.Duration(1+rng.Int64N(int64(30*time.Millisecond))), nil...)
		lag := r.clock.Now() - info.Drawn
		if info.Percent < 1 && (lag < 0 || lag > window) {
			t.Fatalf("frame %d: drawn %v, %v before now (percent %v)", i, info.Drawn, lag, info.Percent)
		}
	}
	if err := r.s.SetStabilize(-1); err == nil {
		t.Fatal("SetStabilize(-1): no error")
	}
	if err := r.s.SetStabilize(0); err != nil || r.s.Stabilize() != 0 {
		t.Fatalf("SetStabilize(0): %v, window %v", err, r.s.Stabilize())
	}
	if info := r.frame(10 * time.Millisecond); info.Percent < 1 && info.Drawn != r.clock.Now() {
		t.Fatalf("without stabilisation: drawn %v at %v", info.Drawn, r.clock.Now())
	}
	if err := r.s.SetMode(ModeVariable, r.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if err := r.s.SetStabilize(window); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if info := r.frame(16 * time.Millisecond); info.Drawn != r.clock.Now() {
			t.Fatalf("variable mode: drawn %v at %v", info.Drawn, r.clock.Now())
		}
	}
	if err := r.s.SetMode(ModeFixed, r.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if r.s.Stabilize() != window {
		t.Fatalf("window %v after the change of mode, want %v", r.s.Stabilize(), window)
	}
}
