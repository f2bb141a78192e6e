package main

import (
	"image"
	"math"
	"path/filepath"
	"testing"
	"time"

	core "github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/internal/trace"
)

// TestKeysChangeWhatTheDemoReports presses M, P, E, H, F, G, L, K, C, [,
// +, PageUp and R in a real window and reads the result back from the
// title (waiting for each change there) and from -stats.
func TestKeysChangeWhatTheDemoReports(t *testing.T) {
	display := xvfb(t)
	d := startDemo(t, display, "-stats", "-balls", "10")
	mode := func(m string) func(winTitle) bool { return func(w winTitle) bool { return w.mode == m } }
	d.waitTitle("mode fixed", 10*time.Second, mode("fixed"))

	for _, m := range []string{"substep", "timefactor", "adaptive", "variable", "fixed"} {
		d.keys("m")
		d.waitTitle("mode "+m, 3*time.Second, mode(m))
	}
	d.keys("p")
	d.waitTitle("paused", 3*time.Second, func(w winTitle) bool { return w.paused })
	d.keys("p", "e") // resume; interpolate -> extrapolate
	d.waitTitle("running and extrapolating", 3*time.Second, func(w winTitle) bool {
		return !w.paused && w.draw == "interp extrapolate"
	})
	d.keys("h", "f", "g")            // HUD and graph off, ghosts on
	d.keys("l", "l", "l", "shift+l") // render load 0 -> 10 -> 20 -> 50 -> 20 ms
	d.keys("k")                      // logic load 10 ms
	d.keys("c", "c")                 // frame cap off -> 30 -> 60
	d.keys("bracketleft")            // speed 1 -> 0.75
	d.keys("plus")                   // balls 10 -> 100
	d.waitTitle("balls 100", 3*time.Second, func(w winTitle) bool { return w.balls == 100 })
	d.keys("Prior") // tick 40 -> 50 ms
	// R, tested exactly. Paused until the title's TPS (ticks in the last
	// second) drops to 0; resumed until it shows ticks again: the world,
	// now in fixed mode, has ticked. Paused again, R: commands apply at
	// the next frame, paused or not, and the world stays at tick 0 until
	// Q.
	d.keys("p")
	d.waitTitle("paused, no ticks in the last second", 5*time.Second, func(w winTitle) bool { return w.paused && w.tps == 0 })
	d.keys("p")
	d.waitTitle("running, ticks in the last second", 5*time.Second, func(w winTitle) bool { return !w.paused && w.tps > 0 })
	d.keys("p")
	d.waitTitle("paused", 3*time.Second, func(w winTitle) bool { return w.paused })
	d.keys("r", "q")
	d.mustSucceed(5 * time.Second)

	s := d.stats()
	type reported struct {
		Mode                    string
		Paused                  bool
		Draw                    string
		HUD, Graph, Ghosts      bool
		RenderLoadMs, LogicLoad float64
		FPSCap                  int
		Speed                   float64
		Balls                   int
		TickMs                  float64
		WorldTicks              uint64
	}
	got := reported{s.Mode, s.Paused, s.Draw, s.HUD, s.Graph, s.Ghosts, s.RenderLoadMs, s.LogicLoadMs, s.FPSCap, s.Speed, s.Balls, s.TickMs, s.WorldTicks}
	want := reported{"fixed", true, "extrapolate", false, false, true, 20, 10, 60, 0.75, 100, 50, 0}
	if got != want {
		t.Errorf("stats after the keys:\n got %+v\nwant %+v", got, want)
	}
	if s.Ticks < 1 {
		t.Errorf("the run ticked %d times in all; the title said it was ticking", s.Ticks)
	}
}

// TestHUDAndGraphAreDrawn renders headless with and without the overlays
// and compares the pixels where they go.
func TestHUDAndGraphAreDrawn(t *testing.T) {
	dir := t.TempDir()
	shot := func(name string, args ...string) *image.RGBA {
		path := filepath.Join(dir, name+".png")
		// 38 ticks in real time: the run lasts more than 38 x 40 ms = 1.52 s.
		d := runDemo(t, "", 30*time.Second, append([]string{"-headless", "-ticks", "38", "-balls", "0", "-screenshot", path}, args...)...)
		if d.code() != 0 {
			t.Fatalf("%s: %s", name, d.stderr.String())
		}
		return readPNG(t, path).(*image.RGBA)
	}
	with := shot("with", "-hud", "-graph", "-render-load", "20ms")
	without := shot("without", "-hud=false", "-graph=false")

	// Text: bright, near-white glyph pixels in the HUD's corner, none there
	// without it.
	bright := func(img *image.RGBA, r image.Rectangle) int {
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if c := img.RGBAAt(x, y); c.R > 200 && c.G > 200 && c.B > 200 {
					n++
				}
			}
		}
		return n
	}
	hudArea := image.Rect(0, 0, 400, 150)
	if n, m := bright(with, hudArea), bright(without, hudArea); n < 500 || m != 0 {
		t.Errorf("HUD corner: %d text pixels with the HUD, %d without; want many and none", n, m)
	}
	// Graph: bars of the frames' colour (green: frames of 20 ms run 0 or 1
	// tick, grey or green) along the bottom of its strip, below the world
	// (the layout's); none along the bottom of the window without it.
	bars := func(img *image.RGBA, r image.Rectangle) int {
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				c := img.RGBAAt(x, y)
				if (c.G > 150 && c.R < 120 && c.B < 140) || (c.R > 90 && c.R < 130 && math.Abs(float64(c.R)-float64(c.B)) < 15 && c.G > 90) {
					n++
				}
			}
		}
		return n
	}
	b := with.Bounds()
	_, _, g := core.Layout(b.Dx(), b.Dy(), core.HUDWidth, true)
	strip := image.Rect(g.X, g.Y+g.H-60, g.X+g.W, g.Y+g.H)
	// Over 1.52 s of a graph spanning 4 s: over 240 columns of bars some
	// 57 px tall (20 ms on the log scale).
	if n, m := bars(with, strip), bars(without, image.Rect(0, 480-60, 640, 480)); n < 4000 || m != 0 {
		t.Errorf("graph strip: %d bar pixels with the graph, %d without", n, m)
	}
}

// TestRenderLoadScenarios: the scenarios of a slow machine, headless,
// checked frame by frame in the trace. A render load is a busy-wait, so
// every frame lasts at least that long; what the fixed loop does with
// such frames follows exactly, whatever the machine's speed:
//
//   - 100 ms: more than 2.5 ticks are owed each frame, so every frame after
//     the first runs at least 2 (the loop keeps up to one tick owed).
//   - 300 ms: more than 7.5 ticks are owed; MaxLoops 5 run, and the frame
//     is capped with more than a tick still owed: discarded (solo), kept
//     (lockstep).
func TestRenderLoadScenarios(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of wall time")
	}
	dir := t.TempDir()
	run := func(name string, args ...string) (*report.Stats, []trace.Row) {
		path := filepath.Join(dir, name+".csv")
		// One at a time: the render loads are busy-waits, and several at
		// once on a 2-core machine would starve each other's drawing.
		d := runDemo(t, "", 60*time.Second, append([]string{"-headless", "-stats", "-hud=false", "-graph=false", "-ticks", "25", "-trace", path}, args...)...)
		if d.code() != 0 {
			t.Fatalf("%s: %s", name, d.stderr.String())
		}
		s, rows := d.stats(), readTrace(t, path)
		if s.Ticks != 25 || int64(len(rows)) != s.Frames {
			t.Fatalf("%s: %d ticks, %d trace rows for %d frames; want 25 ticks and a row per frame", name, s.Ticks, len(rows), s.Frames)
		}
		// The trace and the stats agree.
		var ticks, capped int64
		var discarded time.Duration
		for _, r := range rows {
			ticks += int64(r.Ticks)
			discarded += r.Discarded
			if r.Capped {
				capped++
			}
		}
		if ticks != s.Ticks || capped != s.CappedFrames || math.Abs(discarded.Seconds()*1000-s.DiscardedMs) > 0.001 {
			t.Errorf("%s: the trace has %d ticks, %d capped frames, %v discarded; the stats %d, %d, %v ms",
				name, ticks, capped, discarded, s.Ticks, s.CappedFrames, s.DiscardedMs)
		}
		return s, rows
	}

	s, rows := run("100ms", "-render-load", "100ms")
	for i := 1; i < len(rows); i++ {
		r := rows[i]
		// The last frame stops at the 25th tick.
		if r.Ticks < 2 && i < len(rows)-1 {
			t.Errorf("100 ms: frame %d ran %d ticks, want at least 2", i, r.Ticks)
		}
		if r.Discarded > 0 && !r.Capped {
			t.Errorf("100 ms: frame %d discarded %v without hitting MaxLoops", i, r.Discarded)
		}
	}
	if s.MaxTicksPerFrame > s.MaxLoops {
		t.Errorf("100 ms: %d ticks in a frame, MaxLoops is %d", s.MaxTicksPerFrame, s.MaxLoops)
	}

	for _, lockstep := range []bool{false, true} {
		name, args := "300ms", []string{"-render-load", "300ms"}
		if lockstep {
			name, args = "300ms-lockstep", append(args, "-lockstep")
		}
		s, rows := run(name, args...)
		if s.MaxLoops != 5 || s.MaxTicksPerFrame != 5 || s.Lockstep != lockstep {
			t.Errorf("%s: MaxLoops %d, most ticks in a frame %d, lockstep %v", name, s.MaxLoops, s.MaxTicksPerFrame, s.Lockstep)
		}
		for i := 1; i < len(rows); i++ {
			r := rows[i]
			// The last frame stops at the 25th tick.
			if (r.Ticks != 5 && i < len(rows)-1) || !r.Capped {
				t.Errorf("%s: frame %d ran %d ticks, capped %v; want MaxLoops 5, capped", name, i, r.Ticks, r.Capped)
			}
			// Owed: more than the previous frame's length, and 6 ticks
			// (the 5 run and the one in progress) are not debt.
			owed := rows[i-1].Dur - 6*40*time.Millisecond
			switch {
			case lockstep && r.Discarded != 0:
				t.Errorf("%s: frame %d discarded %v; lockstep keeps the debt", name, i, r.Discarded)
			case !lockstep && r.Discarded < owed:
				t.Errorf("%s: frame %d discarded %v after a frame of %v; want at least %v", name, i, r.Discarded, rows[i-1].Dur, owed)
			}
		}
	}
}

// TestFrameCapIsMeasured: with -fps-cap the frame-cap error is reported,
// and the limiter keeps its schedule, deadlines an interval apart from
// the loop's start: frame k never starts before k intervals after it. The
// loop starts just before the first frame (the trace does not show when),
// so this checks k-1 intervals after the first frame. (How close to 60 FPS
// it comes is the bench's business.)
func TestFrameCapIsMeasured(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.csv")
	// 2 s: the cap error counts the frames after the first second's warm-up.
	d := runDemo(t, "", 30*time.Second, "-headless", "-stats", "-fps-cap", "60", "-ticks", "50", "-vsync", "off", "-trace", path)
	if d.code() != 0 {
		t.Fatal(d.stderr.String())
	}
	s := d.stats()
	if s.FPSCap != 60 || s.CapErrorMsP99 == nil || *s.CapErrorMsP99 < 0 {
		t.Errorf("fps_cap %d, cap_error_ms_p99 %v; want 60 and a figure", s.FPSCap, s.CapErrorMsP99)
	}
	rows := readTrace(t, path)
	if len(rows) < 2 {
		t.Fatalf("%d frames", len(rows))
	}
	interval := time.Second / 60
	for k := 1; k < len(rows); k++ {
		if early := rows[0].Start + time.Duration(k-1)*interval - rows[k].Start; early > 0 {
			t.Errorf("frame %d started %v before its slot, %d intervals after the first frame", k, early, k-1)
		}
	}
	// Without a cap the same run has no cap error to report.
	d = runDemo(t, "", 30*time.Second, "-headless", "-stats", "-ticks", "5", "-fast", "-vsync", "off")
	if s := d.stats(); d.code() != 0 || s.FPSCap != 0 || s.CapErrorMsP99 != nil {
		t.Errorf("no cap: exit %d, fps_cap %d, cap_error_ms_p99 %v; want 0 and none", d.code(), s.FPSCap, s.CapErrorMsP99)
	}
}
