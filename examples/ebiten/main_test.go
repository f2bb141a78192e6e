package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/physics"
)

const runAsExample = "INTERPDEMO_EBITEN_EXAMPLE"

// These tests need a display: on Linux, Ebitengine connects to the X server
// when its package is initialised, before any test runs, and panics without
// one. make test-ebiten runs them under xvfb-run:
//
//	xvfb-run -a go test ./...

// TestMain runs the test binary as the example itself when asked to, so
// that TestRealWindow runs the real program without building it again.
func TestMain(m *testing.M) {
	if os.Getenv(runAsExample) == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

const (
	tick     = 40 * time.Millisecond // physics.DefaultTick, the example's tick
	maxLoops = loop.DefaultMaxLoops
	frameGap = 16 * time.Millisecond // the frames of the tests below: about 60 FPS
)

// The recipe's logic, frame by frame, on a manual clock: game.frame is
// what Update runs, given the time and the key changes, so these tests
// need neither a display nor Ebitengine's loop, and nothing is timed.

// started returns a game whose schedule started at time origin: one frame
// before its first Draw, the (pretended) Draw, and the frame that starts
// the schedule.
func started(t *testing.T, origin time.Duration, maxTicks int64) *game {
	t.Helper()
	g, err := newGame(loop.NewManualClock(0), maxTicks, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.frame(origin-time.Second, nil, nil, true); err != nil || g.started {
		t.Fatalf("before the first Draw: err %v, started %v; want nil, false", err, g.started)
	}
	g.frames++ // what Draw does
	if err := g.frame(origin, nil, nil, true); err != nil || !g.started || g.start != origin || g.ticks != 0 {
		t.Fatalf("first frame after the first Draw: err %v, started %v at %v, %d ticks; want the schedule started at %v, no tick",
			err, g.started, g.start, g.ticks, origin)
	}
	return g
}

// ticksAt is how many ticks the fixed-tick loop has run e after its start
// with frames less than MaxLoops ticks apart: ceil(e/tick)-1 (it runs a
// tick once more than a whole tick is pending).
func ticksAt(e time.Duration) int64 { return max(0, int64((e+tick-1)/tick)-1) }

func TestTicksFollowTheClock(t *testing.T) {
	const origin = 5 * time.Second
	g := started(t, origin, 0)
	for now := origin; now < origin+3*time.Second; now += frameGap {
		if err := g.frame(now, nil, nil, true); err != nil {
			t.Fatal(err)
		}
		if want := ticksAt(now - origin); g.ticks != want || int64(g.world.Ticks()) != want {
			t.Fatalf("at %v after the start: %d ticks (world %d), want %d", now-origin, g.ticks, g.world.Ticks(), want)
		}
		if g.percent < 0 || g.percent > 1 {
			t.Fatalf("percentWithinTick %v", g.percent)
		}
	}
}

// TestArrowMovesBallPerTick holds Right from one frame to another: ball 0
// becomes the player's at the first tick that sees the key and moves 16
// units right on every tick whose span the key was down in, and no more.
func TestArrowMovesBallPerTick(t *testing.T) {
	const origin = time.Second
	g := started(t, origin, 0)
	press, release := origin+10*frameGap, origin+37*frameGap
	for now := origin + frameGap; now <= origin+60*frameGap; now += frameGap {
		var pressed, released []ebiten.Key
		switch now {
		case press:
			pressed = []ebiten.Key{ebiten.KeyArrowRight}
		case release:
			released = []ebiten.Key{ebiten.KeyArrowRight}
		}
		if err := g.frame(now, pressed, released, true); err != nil {
			t.Fatal(err)
		}
	}
	// The reference, from the input package's contract rather than its
	// code: tick i (from 1) spans [origin+(i-1)tick, origin+i*tick) and
	// acts on Right when the key went down before the span's end and came
	// up after its start. The ball starts at the centre heading (3/5,
	// 4/5) at 16 units a tick, autonomous until the first tick with
	// input; from then on it moves 16 units along each held axis.
	var auto, held int64
	for i := int64(1); i <= g.ticks; i++ {
		s, e := origin+time.Duration(i-1)*tick, origin+time.Duration(i)*tick
		switch down := press < e && release > s; {
		case down:
			held++
		case held == 0:
			auto++
		}
	}
	if held == 0 {
		t.Fatal("no tick saw the key: the test's frames are wrong")
	}
	wantX := 320 + 9.6*float64(auto) + 16*float64(held)
	wantY := 240 + 12.8*float64(auto)
	x, y := float64(g.world.Next[0])/physics.One, float64(g.world.Next[1])/physics.One
	// physics rounds the autonomous step to 1/256 unit (a few thousandths
	// of a unit a tick), and moves the player by exactly 16.
	if d := 0.01 * float64(auto); !g.world.Player() || abs(x-wantX) > d || abs(y-wantY) > d {
		t.Errorf("after %d autonomous ticks and %d with Right held: ball at (%.3f, %.3f), player %v; want (%.3f, %.3f), player",
			auto, held, x, y, g.world.Player(), wantX, wantY)
	}
}

func abs(x float64) float64 { return max(x, -x) }

// TestFocusLossReleasesKeys: a key held when the window loses the focus
// is released then, since its release will never be reported.
func TestFocusLossReleasesKeys(t *testing.T) {
	const origin = time.Second
	g := started(t, origin, 0)
	now := origin + frameGap
	g.frame(now, []ebiten.Key{ebiten.KeyArrowRight}, nil, true)
	for ; now < origin+200*time.Millisecond; now += frameGap {
		g.frame(now, nil, nil, true)
	}
	x0 := g.world.Next[0]
	for ; now < origin+300*time.Millisecond; now += frameGap {
		g.frame(now, nil, nil, false) // the focus is lost at 200 ms
	}
	x1 := g.world.Next[0]
	for end := now + time.Second; now < end; now += frameGap {
		g.frame(now, nil, nil, false)
	}
	// Held for 200 ms the ball moved; from the tick after the focus was
	// lost it stands still (it would reach the wall in under a second).
	if !g.world.Player() || x0 <= 320*physics.One || g.world.Next[0] != x1 {
		t.Errorf("ball at x = %d with Right held, %d just after the focus was lost, %d a second later (player %v); want it moved, then stopped",
			x0, x1, g.world.Next[0], g.world.Player())
	}
}

func TestKeys(t *testing.T) {
	g := started(t, time.Second, 0)
	g.frame(time.Second+frameGap, []ebiten.Key{ebiten.KeySpace}, nil, true)
	if g.interp {
		t.Error("Space did not turn interpolation off")
	}
	g.frame(time.Second+2*frameGap, []ebiten.Key{ebiten.KeySpace}, nil, true)
	if !g.interp {
		t.Error("Space did not turn interpolation back on")
	}
	if err := g.frame(time.Second+3*frameGap, []ebiten.Key{ebiten.KeyQ}, nil, true); !errors.Is(err, ebiten.Termination) {
		t.Errorf("Q: %v, want ebiten.Termination", err)
	}
}

// TestTicksFlag: -ticks N ends the game after exactly N ticks, even when
// the frame that reaches N was due more.
func TestTicksFlag(t *testing.T) {
	const origin, n = time.Second, 7
	g := started(t, origin, n)
	var err error
	now := origin
	for err == nil && now < origin+time.Minute {
		now += 150 * time.Millisecond // 3 or 4 ticks a frame: 7 falls inside a frame
		err = g.frame(now, nil, nil, true)
	}
	if !errors.Is(err, ebiten.Termination) || g.ticks != n || g.world.Ticks() != n {
		t.Fatalf("err %v after %d ticks (world %d), want ebiten.Termination after %d", err, g.ticks, g.world.Ticks(), n)
	}
	if e := g.now - g.start; e != now-origin {
		t.Errorf("elapsed %v, want %v", e, now-origin)
	}
}

// A frame allocates nothing.
func TestFrameDoesNotAllocate(t *testing.T) {
	g := started(t, time.Second, 0)
	now := time.Second
	keys := []ebiten.Key{ebiten.KeyArrowRight}
	allocs := testing.AllocsPerRun(500, func() {
		now += frameGap
		g.frame(now, keys, nil, true)
		g.frame(now+frameGap/2, nil, keys, true)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per frame, want 0", allocs)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-ticks", "-1"}, {"-ticks", "x"}, {"extra"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2; stderr: %s", args, code, stderr.String())
		}
	}
}

// TestRealWindow runs the example for real, in a window on the test's
// display (Xvfb's, under make test-ebiten), for n ticks (4 s), and checks
// its exit line.
func TestRealWindow(t *testing.T) {
	const n = 100
	cmd := exec.Command(os.Args[0], "-ticks", strconv.Itoa(n))
	cmd.Env = append(os.Environ(), runAsExample+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the example failed (%v); it must exit with status 0. stderr:\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second): // a deadline for a hung run, not a measurement
		cmd.Process.Kill()
		<-done
		t.Fatalf("the example did not exit within 60 s; stderr:\n%s", stderr.String())
	}
	line := strings.TrimSpace(stdout.String())
	var ticks, frames int64
	var elapsedS, discardedS string
	var tps float64
	if _, err := fmt.Sscanf(line, "ticks=%d frames=%d elapsed=%s discarded=%s tps=%g", &ticks, &frames, &elapsedS, &discardedS, &tps); err != nil {
		t.Fatalf("exit line %q: %v", line, err)
	}
	elapsed, err1 := time.ParseDuration(elapsedS)
	discarded, err2 := time.ParseDuration(discardedS)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatalf("exit line %q: %v", line, err)
	}
	t.Log(line)

	// Exact, by the loop's construction, whatever the machine's speed:
	// the n-th tick runs once more than n ticks of time have passed since
	// the start; and the loop's time, less what it discarded, is the ticks
	// it planned (fewer than n before the last frame, at most MaxLoops in
	// it) plus at most one tick in progress.
	if ticks != n {
		t.Errorf("ran %d ticks, want exactly %d", ticks, n)
	}
	if frames < 1 {
		t.Errorf("%d frames drawn", frames)
	}
	if elapsed <= n*tick {
		t.Errorf("%d ticks in %v: the loop ran ticks ahead of its clock (at least %v needed)", ticks, elapsed, n*tick)
	}
	if limit := (n + maxLoops) * tick; elapsed-discarded > limit {
		t.Errorf("elapsed %v less %v discarded is over %v: the loop fell behind without counting it", elapsed, discarded, limit)
	}
	if want := float64(ticks) / elapsed.Seconds(); abs(tps-want) > 0.01 {
		t.Errorf("printed %.2f ticks per second, but %d ticks in %v is %.2f", tps, ticks, elapsed, want)
	}
	// And on the wall clock, which is what the recipe is for: 25 ticks
	// per second at whatever rate Ebitengine runs the frames. The rate
	// comes from the example's own clock, so this is a wall-clock
	// measurement and gets a tolerance of ±1 tick per second (160 ms over
	// the 4 s run): the last tick runs within a frame of its due time,
	// but a loaded machine can stall a frame for longer than MaxLoops
	// ticks, and the loop then discards the debt (a solo game falls
	// behind real time instead of running a burst of ticks).
	if tps < 24 || tps > 26 {
		t.Errorf("%.2f ticks per second, want 25 ± 1 (%v discarded after stalls)", tps, discarded)
	}
}
