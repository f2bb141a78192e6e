package demo

import (
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/physics"
)

// TestGhostsShowAndFade: a misprediction shows as two rings, predicted
// (red) then corrected (green), placed by the mapping given, bright, then
// fading, and gone after ghostHold; drawing them allocates nothing.
func TestGhostsShowAndFade(t *testing.T) {
	var g ghosts
	at := 5 * time.Second
	g.mark[1] = ghostMark{pred: [2]int32{100 * physics.One, 50 * physics.One}, corr: [2]int32{110 * physics.One, 44 * physics.One}, at: at, set: true}
	ms := g.markers(at)
	if len(ms) != 2 {
		t.Fatalf("%d markers, want 2", len(ms))
	}
	if ms[0].X != 100 || ms[0].Y != 50 || ms[1].X != 110 || ms[1].Y != 44 {
		t.Errorf("markers at (%v, %v) and (%v, %v), want (100, 50) and (110, 44) in world units", ms[0].X, ms[0].Y, ms[1].X, ms[1].Y)
	}
	if ms[0].R <= ms[0].G || ms[1].G <= ms[1].R || ms[0].A != 1 {
		t.Errorf("predicted %+v should be red, corrected %+v green, both opaque at first", ms[0], ms[1])
	}
	// Full for two thirds of ghostHold, so that a screenshot catches
	// them bright; then fading, never below a half.
	prev := ms[0].A
	for now := at + ghostHold/8; now < at+ghostHold; now += ghostHold / 8 {
		ms = g.markers(now)
		full := now-at <= 2*ghostHold/3
		if len(ms) != 2 || ms[0].A > prev || ms[0].A < 0.5 || ms[0].R > ms[0].A || full && ms[0].A != 1 || !full && ms[0].A >= prev {
			t.Fatalf("at +%v: %+v, want two rings at full opacity for 2/3 of %v, then fading from alpha %v to 0.5 (premultiplied)", now-at, ms, ghostHold, prev)
		}
		prev = ms[0].A
	}
	if ms = g.markers(at + ghostHold); len(ms) != 0 {
		t.Errorf("after %v: %d markers left", ghostHold, len(ms))
	}
	if g.mark[1].set {
		t.Error("an expired mark stays set")
	}

	g.mark[2] = ghostMark{at: at, set: true}
	if n := testing.AllocsPerRun(100, func() { g.markers(at + time.Millisecond) }); n != 0 {
		t.Errorf("markers allocates %v times", n)
	}
}
