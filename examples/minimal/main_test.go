package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The tests run the example for real, as its own process (the test binary
// re-executed as the example: see TestMain), headless through SDL's
// offscreen driver. They wait for it to exit; nothing is timed.

const runAsExample = "INTERPDEMO_MINIMAL_EXAMPLE"

func TestMain(m *testing.M) {
	if os.Getenv(runAsExample) == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

// summaryLine is the example's exit line.
type summaryLine struct {
	ticks, frames int
	alpha         float64
	x, y          float64
	pixel, bg     [3]int
}

// runExample runs the example with args and parses its exit line. Without
// a GL context it skips the test, or fails it under INTERPDEMO_REQUIRE_GL=1
// (make test, CI), where the test must really run.
func runExample(t *testing.T, args ...string) summaryLine {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runAsExample+"=1", "SDL_VIDEODRIVER=offscreen")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second): // a deadline for a hung run, not a measurement
		cmd.Process.Kill()
		<-done
		t.Fatalf("minimal %v did not exit within 60 s; stderr:\n%s", args, stderr.String())
	}
	if err != nil {
		msg := fmt.Sprintf("minimal %v: %v; stderr:\n%s", args, err, stderr.String())
		if strings.Contains(stderr.String(), "no OpenGL 3.3 window") {
			if os.Getenv("INTERPDEMO_REQUIRE_GL") == "1" {
				t.Fatalf("required (INTERPDEMO_REQUIRE_GL=1): %s", msg)
			}
			t.Skip(msg)
		}
		t.Fatal(msg)
	}
	var s summaryLine
	line := strings.TrimSpace(stdout.String())
	_, err = fmt.Sscanf(line, "ticks=%d frames=%d alpha=%g ball=%g,%g pixel=%d,%d,%d background=%d,%d,%d",
		&s.ticks, &s.frames, &s.alpha, &s.x, &s.y, &s.pixel[0], &s.pixel[1], &s.pixel[2], &s.bg[0], &s.bg[1], &s.bg[2])
	if err != nil {
		t.Fatalf("exit line %q: %v", line, err)
	}
	return s
}

// ballAt is where the ball is after n ticks, derived from the original
// demo's description rather than from package physics: it starts at the
// centre of the 640x480 box heading (3/5, 4/5) and moves 16 units a tick,
// so (9.6, 12.8) a tick; it meets no wall in its first 18 ticks. (physics
// rounds the step to 1/256 unit and the direction to 1/16384, a few
// thousandths of a unit a tick: the tolerance of the checks below.)
func ballAt(n int) (x, y float64) { return 320 + 9.6*float64(n), 240 + 12.8*float64(n) }

const tol = 0.05 // units; see ballAt

func checkDrawn(t *testing.T, s summaryLine) {
	t.Helper()
	if s.ticks > 18 {
		t.Fatalf("%d ticks: the ball may have bounced; the test assumes it has not", s.ticks)
	}
	lx, ly := ballAt(s.ticks - 1)
	nx, ny := ballAt(s.ticks)
	wx, wy := lx+s.alpha*(nx-lx), ly+s.alpha*(ny-ly)
	if math.Abs(s.x-wx) > tol || math.Abs(s.y-wy) > tol {
		t.Errorf("after %d ticks at alpha %.4f the ball was drawn at (%.3f, %.3f), want (%.3f, %.3f)", s.ticks, s.alpha, s.x, s.y, wx, wy)
	}
	// The GPU drew it there: the pixel at the ball's centre is the ball's
	// colour, far from the background's.
	d := 0
	for i := range 3 {
		d += max(s.pixel[i]-s.bg[i], s.bg[i]-s.pixel[i])
	}
	if d < 100 {
		t.Errorf("pixel at the ball %v is close to the background %v: the ball was not drawn where the loop put it", s.pixel, s.bg)
	}
}

func TestInterpolatedRun(t *testing.T) {
	s := runExample(t, "-ticks", "5")
	// A frame runs at most MaxLoops = 5 ticks, so the run stops at 5 to 9.
	if s.ticks < 5 || s.ticks > 9 {
		t.Fatalf("ran %d ticks with -ticks 5, want 5 to 9", s.ticks)
	}
	if s.frames < 1 {
		t.Errorf("%d frames", s.frames)
	}
	if s.alpha < 0 || s.alpha > 1 {
		t.Errorf("drawn at percentWithinTick %.4f, outside [0, 1]", s.alpha)
	}
	if x0, _ := ballAt(0); s.x <= x0 {
		t.Errorf("ball drawn at x = %.3f after %d ticks: it did not move from %.0f", s.x, s.ticks, x0)
	}
	checkDrawn(t, s)
}

func TestInterpolationOff(t *testing.T) {
	s := runExample(t, "-ticks", "3", "-interp=false")
	if s.alpha != 1 {
		t.Errorf("interpolation off drew at alpha %.4f, want 1 (the newest state)", s.alpha)
	}
	checkDrawn(t, s)
}

func TestFramesFlag(t *testing.T) {
	s := runExample(t, "-frames", "3")
	if s.frames != 3 {
		t.Errorf("-frames 3 ran %d frames", s.frames)
	}
	if s.ticks == 0 {
		// No tick yet: last = next = the start, whatever alpha.
		if x0, y0 := ballAt(0); math.Abs(s.x-x0) > tol || math.Abs(s.y-y0) > tol {
			t.Errorf("no tick ran but the ball was drawn at (%.3f, %.3f), not at the start (%.0f, %.0f)", s.x, s.y, x0, y0)
		}
		return
	}
	checkDrawn(t, s)
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-frames", "-1"}, {"-ticks", "x"}, {"extra"}} {
		var stdout, stderr bytes.Buffer
		if got := run(args, &stdout, &stderr); got != 2 {
			t.Errorf("run(%q) = %d, want 2; stderr: %s", args, got, stderr.String())
		}
	}
}
