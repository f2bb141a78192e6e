package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/cmdline"
	core "github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/internal/x11test"
)

// TestHeadlessRunIsDeterministic is the acceptance run: 250 ticks
// headless in real time at 25 TPS, the same state hash every time, with
// interpolation off (drawing never touches the simulation) and with -fast
// (the frame times never touch it either).
func TestHeadlessRunIsDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("10 s of wall time per run")
	}
	runs := []struct {
		name string
		args []string
	}{
		{"a", nil},
		{"b", nil},
		{"no-interp", []string{"-interp=false"}},
		{"fast", []string{"-fast"}},
	}
	// All at once: each run ends by itself after its 250th tick.
	demos := make([]*demo, len(runs))
	for i, r := range runs {
		demos[i] = startDemo(t, "", append([]string{"-headless", "-ticks", "250", "-stats"}, r.args...)...)
	}
	for i, d := range demos {
		d.mustSucceed(60 * time.Second)
		s := d.stats()
		if s.Ticks != 250 || s.WorldTicks != 250 {
			t.Errorf("run %s: %d ticks, world at tick %d; want exactly 250", runs[i].name, s.Ticks, s.WorldTicks)
		}
		if s.UploadBytesNoTick != 0 {
			t.Errorf("run %s: %d buffer bytes uploaded on frames without a tick", runs[i].name, s.UploadBytesNoTick)
		}
		if first := demos[0].stats(); s.StateHash != first.StateHash {
			t.Errorf("run %s: state_hash %s, run %s had %s", runs[i].name, s.StateHash, runs[0].name, first.StateHash)
		}
		if want := runs[i].name != "no-interp"; s.Interp != want {
			t.Errorf("run %s: interp %v, want %v", runs[i].name, s.Interp, want)
		}
	}
	assertFastFrames(t, demos[3].stats(), 250)
}

// assertFastFrames checks the frames of a -fast run of n ticks. It is not
// real time: every frame owes exactly MaxLoops ticks, so every frame runs
// MaxLoops but the first (the interp_demo loop runs a tick only once more
// than a whole tick is owed) and the last (the run ends at tick n).
func assertFastFrames(t *testing.T, s *report.Stats, n int64) {
	t.Helper()
	if s.Ticks != n {
		t.Errorf("-fast run: %d ticks, want %d", s.Ticks, n)
	}
	var full int64
	if h := s.TicksHist(); s.MaxLoops < len(h) {
		full = h[s.MaxLoops]
	}
	if s.MaxTicksPerFrame != s.MaxLoops || full < s.Frames-2 {
		t.Errorf("-fast run: ticks per frame %v (max %d) over %d frames; want all but the first and last at MaxLoops %d",
			s.TicksPerFrame, s.MaxTicksPerFrame, s.Frames, s.MaxLoops)
	}
}

// TestSpaceTogglesInterpolationAndQQuits is the person at the keyboard: a
// real window under Xvfb, Space, then Q.
func TestSpaceTogglesInterpolationAndQQuits(t *testing.T) {
	display := xvfb(t)
	shot := filepath.Join(t.TempDir(), "shot.png")
	d := startDemo(t, display, "-stats", "-screenshot", shot, "-hud=false", "-graph=false")
	if w := d.waitTitle("interp on", 10*time.Second, func(w winTitle) bool { return w.draw == "interp on" }); w.balls != 1 || w.mode != "fixed" {
		t.Errorf("title %q: want 1 ball in fixed mode", w.raw)
	}
	d.keys("space")
	d.waitTitle("interp off", 3*time.Second, func(w winTitle) bool { return w.draw == "interp off" })
	d.keys("q")
	d.mustSucceed(5 * time.Second)
	if s := d.stats(); s.Interp || s.Draw != "off" {
		t.Errorf("stats after Space: interp %v, draw %q; want false, off", s.Interp, s.Draw)
	}
	assertBallInScreenshot(t, shot, 1)
}

func TestCloseButtonQuitsCleanly(t *testing.T) {
	display := xvfb(t)
	d := startDemo(t, display, "-stats")
	d.waitTitle("the live title", 10*time.Second, func(winTitle) bool { return true })
	id, err := strconv.ParseUint(d.window(), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := x11test.CloseWindow(display, id); err != nil {
		t.Fatal(err)
	}
	d.mustSucceed(5 * time.Second)
	if s := d.stats(); s.Frames < 1 {
		t.Errorf("stats after close: %d frames", s.Frames)
	}
}

func TestEscapeQuits(t *testing.T) {
	display := xvfb(t)
	d := startDemo(t, display)
	d.window()
	d.keys("Escape")
	d.mustSucceed(5 * time.Second)
}

// TestVsyncRefusedIsReportedOnce: Xvfb's GL refuses every swap interval.
// The demo says so once and keeps running through V presses; where vsync
// was asked for (the default, and V) it is emulated at the display mode's
// rate, and the title says so.
func TestVsyncRefusedIsReportedOnce(t *testing.T) {
	display := xvfb(t)
	d := startDemo(t, display, "-stats")
	emulated := func(w winTitle) bool {
		return strings.HasPrefix(w.vsync, "emulated ") && strings.HasSuffix(w.vsync, " Hz")
	}
	d.waitTitle("vsync emulated", 10*time.Second, emulated)
	// V three times, then P as a marker: once the title says paused, the
	// V presses before it were handled.
	d.keys("v", "p")
	if w := d.waitTitle("paused", 3*time.Second, func(w winTitle) bool { return w.paused }); w.vsync != "unsupported" {
		t.Errorf("title after V: %q, want vsync unsupported (off, refused: the driver's default)", w.raw)
	}
	d.keys("v", "p")
	if w := d.waitTitle("running", 3*time.Second, func(w winTitle) bool { return !w.paused }); !emulated(w) {
		t.Errorf("title after V x2: %q, want vsync emulated", w.raw)
	}
	d.keys("v", "q")
	d.mustSucceed(5 * time.Second)
	if n := strings.Count(d.stderr.String(), "swap interval"); n != 1 {
		t.Errorf("vsync refusal logged %d times, want once:\n%s", n, d.stderr.String())
	}
	if s := d.stats(); s.VsyncActual != "unsupported" || s.VsyncRequested != "off" {
		t.Errorf("after V x3: requested %s actual %s, want off/unsupported", s.VsyncRequested, s.VsyncActual)
	}
}

// TestNoDisplaySuggestsHeadless: without a display the demo gives up at
// once (the deadline is the bound) with one line suggesting -headless.
func TestNoDisplaySuggestsHeadless(t *testing.T) {
	d := runDemo(t, "", 10*time.Second)
	if d.code() != 1 {
		t.Errorf("exit status %d, want 1", d.code())
	}
	msg := d.stderr.String()
	if !strings.Contains(msg, "-headless") || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "interpdemo: ") {
		t.Errorf("message %q should be one line suggesting -headless", msg)
	}
}

// flagPackageError is the error the flag package gives for args, parsed
// against flags of the demo's types: what the demo must pass on.
func flagPackageError(args []string) string {
	fs := flag.NewFlagSet("interpdemo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Duration("tick", 0, "")
	fs.Int("balls", 0, "")
	fs.Uint64("seed", 0, "")
	fs.Int("fps-cap", 0, "")
	if err := fs.Parse(args); err != nil {
		return err.Error()
	}
	return ""
}

// TestFlagsTheFlagPackageRefuses: a value or flag the flag package cannot
// parse gets its error and a pointer to -h, two lines on stderr, status 2,
// nothing on stdout, before any window opens (the run has no display: had
// it got as far as opening a window it would fail differently).
func TestFlagsTheFlagPackageRefuses(t *testing.T) {
	for _, c := range []struct {
		args  []string
		first string // the first line; "" for the flag package's error
	}{
		{args: []string{"-tick", "abc"}},
		{args: []string{"-tick", "banana"}},
		{args: []string{"-balls", "1e12"}},
		{args: []string{"-seed", "x"}},
		{args: []string{"-fps-cap", "1e9"}},
		{args: []string{"-nope"}},
		{args: []string{"extra"}, first: `interpdemo: unexpected argument "extra" (flags start with -)`},
	} {
		want := c.first
		if want == "" {
			want = "interpdemo: " + flagPackageError(c.args)
		}
		want += "\n" + core.UsageHint + "\n"
		d := runDemo(t, "", 10*time.Second, c.args...)
		if d.code() != 2 || d.stderr.String() != want || d.stdout.String() != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want 2, %q and nothing", c.args, d.code(), d.stderr.String(), d.stdout.String(), want)
		}
	}
}

// TestBadFlagValues: a value the demo checks itself exits 2 with one line
// naming the flag, nothing on stdout, before any window opens.
func TestBadFlagValues(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		flag string
	}{
		{[]string{"-balls", "-1"}, "-balls"},
		{[]string{"-balls", "1000000000"}, "-balls"},
		{[]string{"-speed", "9"}, "-speed"},
		{[]string{"-speed", "NaN"}, "-speed"},
		{[]string{"-tick", "0"}, "-tick"},
		{[]string{"-tick", "-40ms"}, "-tick"},
		{[]string{"-max-loops", "0"}, "-max-loops"},
		{[]string{"-vsync", "sometimes"}, "-vsync"},
		{[]string{"-cull", "yes"}, "-cull"},
		{[]string{"-sprites", "circles"}, "-sprites"},
		{[]string{"-paint", "sometimes"}, "-paint"},
		{[]string{"-paint", "on"}, "-paint on"}, // the page's alone
		{[]string{"-mode", "warp"}, "-mode"},
		{[]string{"-width", "0"}, "-width"},
		{[]string{"-duration", "-1s"}, "-duration"},
		{[]string{"-ticks", "-5"}, "-ticks"},
		{[]string{"-fps-cap", "2000"}, "-fps-cap"},
		{[]string{"-render-load", "3s"}, "-render-load"},
		{[]string{"-state", filepath.Join(dir, "missing", "state.json")}, "-state"},
		{[]string{"-screenshot", dir}, "-screenshot"},
		{[]string{"-cpuprofile", filepath.Join(dir, "missing", "cpu.pprof")}, "-cpuprofile"},
	}
	for _, c := range cases {
		d := runDemo(t, "", 10*time.Second, c.args...)
		msg := d.stderr.String()
		if d.code() != 2 || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "interpdemo: "+c.flag+": ") || d.stdout.String() != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want 2 and one line \"interpdemo: %s: ...\"", c.args, d.code(), msg, d.stdout.String(), c.flag)
		}
		if strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine") {
			t.Errorf("%v: panicked: %s", c.args, msg)
		}
	}
}

// TestCullForced: -cull on and off are what -stats reports, whatever the
// machine measures, and they draw the same balls (the same state hash: the
// culling changes the picture's cost, not the game); with culling on, a
// third of 10,000 random balls is hidden. Where culling cannot run (balls
// too large for it) -cull on reports off.
func TestCullForced(t *testing.T) {
	base := []string{"-headless", "-balls", "10000", "-ticks", "30", "-fast", "-stats", "-hud=false", "-graph=false"}
	on := runDemo(t, "", 60*time.Second, append([]string{"-cull", "on"}, base...)...)
	off := runDemo(t, "", 60*time.Second, append([]string{"-cull", "off"}, base...)...)
	big := runDemo(t, "", 60*time.Second, "-headless", "-balls", "100", "-radius", "60", "-ticks", "5", "-stats", "-cull", "on")
	for _, d := range []*demo{on, off, big} {
		if d.code() != 0 {
			t.Fatalf("exit %d: %s", d.code(), d.stderr.String())
		}
	}
	son, soff, sbig := on.stats(), off.stats(), big.stats()
	if son.Cull != "on" || son.CullMode != "on" || soff.Cull != "off" || soff.CullMode != "off" {
		t.Errorf("-cull on: cull %q mode %q; -cull off: cull %q mode %q", son.Cull, son.CullMode, soff.Cull, soff.CullMode)
	}
	if son.CullHidden == nil || *son.CullHidden < 10000/5 {
		t.Errorf("-cull on at 10,000 balls: %v hidden, want at least a fifth", son.CullHidden)
	}
	if soff.CullHidden != nil || son.CullCostOnMs != nil || soff.CullCostOffMs != nil {
		t.Errorf("forced choices report what only auto measures: %+v / %+v", son, soff)
	}
	if son.StateHash != soff.StateHash {
		t.Errorf("state hash %s with culling, %s without", son.StateHash, soff.StateHash)
	}
	if sbig.Cull != "off" || sbig.CullMode != "on" {
		t.Errorf("balls of radius 60 with -cull on: cull %q mode %q, want off (too large to cull) and on", sbig.Cull, sbig.CullMode)
	}
}

// TestSpritesForced: -sprites quads and points are what -stats reports,
// and they draw the same game (the same state hash); with auto, both
// forms are measured and the frames that cost counted. Culling off: the
// culled balls are points whatever the form.
func TestSpritesForced(t *testing.T) {
	base := []string{"-headless", "-balls", "1000", "-ticks", "30", "-fast", "-stats", "-hud=false", "-graph=false", "-cull", "off"}
	quads := runDemo(t, "", 60*time.Second, append([]string{"-sprites", "quads"}, base...)...)
	points := runDemo(t, "", 60*time.Second, append([]string{"-sprites", "points"}, base...)...)
	auto := runDemo(t, "", 60*time.Second, "-headless", "-balls", "1000", "-duration", "2s", "-stats", "-hud=false", "-graph=false", "-cull", "off")
	for _, d := range []*demo{quads, points, auto} {
		if d.code() != 0 {
			t.Fatalf("exit %d: %s", d.code(), d.stderr.String())
		}
	}
	sq, sp, sa := quads.stats(), points.stats(), auto.stats()
	if sq.Sprites != "quads" || sq.SpritesMode != "quads" || sp.Sprites != "points" || sp.SpritesMode != "points" {
		t.Errorf("-sprites quads: %q mode %q; -sprites points: %q mode %q", sq.Sprites, sq.SpritesMode, sp.Sprites, sp.SpritesMode)
	}
	if sq.SpritesCostQuadsMs != nil || sp.SpritesCostPointsMs != nil || sq.SpritesComparedFrames != nil {
		t.Errorf("forced forms report what only auto measures: %+v / %+v", sq, sp)
	}
	if sq.StateHash != sp.StateHash {
		t.Errorf("state hash %s with squares, %s with points", sq.StateHash, sp.StateHash)
	}
	if sa.SpritesMode != "auto" || sa.SpritesCostQuadsMs == nil || sa.SpritesCostPointsMs == nil ||
		sa.SpritesComparedFrames == nil || sa.SpritesTriedFrames == nil || *sa.SpritesTriedFrames == 0 || *sa.SpritesTriedFrames > *sa.SpritesComparedFrames {
		t.Errorf("-sprites auto: mode %q, costs %v and %v, compared %v, tried %v; want both costs and a comparison's frames", sa.SpritesMode,
			sa.SpritesCostQuadsMs, sa.SpritesCostPointsMs, sa.SpritesComparedFrames, sa.SpritesTriedFrames)
	}
}

// TestHelp: -h prints the whole usage, the key table included, on stdout
// and exits 0.
func TestHelp(t *testing.T) {
	var want bytes.Buffer
	if _, err := core.Parse([]string{"-h"}, &want, core.Platform{}); !errors.Is(err, core.ErrHelp) {
		t.Fatalf("Parse(-h) = %v, want ErrHelp", err)
	}
	for _, flag := range []string{"-h", "-help"} {
		d := runDemo(t, "", 10*time.Second, flag)
		out := d.stdout.String()
		if d.code() != 0 || d.stderr.String() != "" {
			t.Errorf("%s: exit %d, stderr %q; want 0 and nothing", flag, d.code(), d.stderr.String())
		}
		if out != want.String() {
			t.Errorf("%s printed\n%s\nwant\n%s", flag, out, want.String())
		}
		for _, part := range []string{"Usage: interpdemo", cmdline.Fold(core.KeyHelp(), cmdline.HelpWidth), "-tick", "-headless", "-cpuprofile"} {
			if !strings.Contains(out, part) {
				t.Errorf("%s output lacks %q", flag, part)
			}
		}
	}
}

// assertBallInScreenshot checks the PNG holds n ball-sized blobs on the
// world's background.
func assertBallInScreenshot(t *testing.T, path string, n int) {
	t.Helper()
	img := readPNG(t, path)
	b := img.Bounds()
	bg := img.At(b.Min.X+b.Dx()/2, b.Min.Y+1)
	br, bgG, bb, _ := bg.RGBA()
	lit := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if absDiff(r, br)+absDiff(g, bgG)+absDiff(bl, bb) > 3*40*257 {
				lit++
			}
		}
	}
	// A ball of radius 8 units at 1 px per unit covers about 201 pixels.
	want := float64(n) * math.Pi * 8 * 8
	if math.Abs(float64(lit)-want)/want > 0.25 {
		t.Errorf("screenshot %v: %d ball pixels, want about %.0f", b, lit, want)
	}
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestStateFile checks -state: the world after exactly -ticks ticks.
func TestStateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	d := runDemo(t, "", 30*time.Second, "-headless", "-fast", "-ticks", "30", "-balls", "3", "-state", path, "-stats")
	if d.code() != 0 {
		t.Fatal(d.stderr.String())
	}
	s := d.stats()
	if s.Ticks != 30 || s.WorldTicks != 30 || s.Balls != 3 {
		t.Errorf("stats: %d ticks, world at tick %d, %d balls; want 30, 30, 3", s.Ticks, s.WorldTicks, s.Balls)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Tick  uint64 `json:"tick"`
		Hash  string `json:"state_hash"`
		Balls []struct {
			Last, Next, Velocity [2]int32
		} `json:"balls"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	if st.Tick != 30 || len(st.Balls) != 3 || st.Hash != s.StateHash {
		t.Fatalf("state: tick %d, %d balls, hash %s (stats say %s)", st.Tick, len(st.Balls), st.Hash, s.StateHash)
	}
	for i, ball := range st.Balls {
		// Inside the box (radius 8 of 640x480, in 1/256 units), moving
		// 16 units per tick: last and next one tick apart.
		for k, lim := range []int32{640, 480} {
			if p := ball.Next[k]; p < 8*256 || p > (lim-8)*256 {
				t.Errorf("ball %d outside the box: %v", i, ball.Next)
			}
		}
		v := math.Hypot(float64(ball.Velocity[0]), float64(ball.Velocity[1])) / 256
		if math.Abs(v-16) > 0.1 {
			t.Errorf("ball %d moves %.2f units per tick, want 16", i, v)
		}
		step := math.Hypot(float64(ball.Next[0]-ball.Last[0]), float64(ball.Next[1]-ball.Last[1])) / 256
		if step > 16.1 {
			t.Errorf("ball %d: last %v to next %v is %.2f units", i, ball.Last, ball.Next, step)
		}
	}
}

// TestResizeLetterboxes resizes the real window: the world keeps its
// aspect ratio, centred between bars.
func TestResizeLetterboxes(t *testing.T) {
	display := xvfb(t)
	shot := filepath.Join(t.TempDir(), "wide.png")
	d := startDemo(t, display, "-hud=false", "-graph=false", "-screenshot", shot)
	d.waitTitle("the live title", 10*time.Second, func(winTitle) bool { return true })
	d.xdo("windowsize", "--sync", d.window(), "1000", "400")
	// P as a marker: X delivers the resize before the key press, so once
	// the title says paused, a frame has been drawn at the new size.
	d.keys("p")
	d.waitTitle("paused", 3*time.Second, func(w winTitle) bool { return w.paused })
	d.keys("q")
	d.mustSucceed(5 * time.Second)
	img := readPNG(t, shot)
	if b := img.Bounds(); b.Dx() != 1000 || b.Dy() != 400 {
		t.Fatalf("screenshot %v, want 1000x400", b)
	}
	// 640x480 scaled to 400 px high is 533 px wide, centred: bars of 233
	// px. The bars and the world have different colours.
	bar, world := img.At(100, 200), img.At(500, 5)
	if bar == world {
		t.Fatalf("bar and world share the colour %v", bar)
	}
	for _, x := range []int{5, 230, 770, 995} {
		if img.At(x, 200) != bar {
			t.Errorf("pixel %d,200 = %v, want the bar's %v", x, img.At(x, 200), bar)
		}
	}
	for _, x := range []int{236, 500, 764} {
		if img.At(x, 5) != world {
			t.Errorf("pixel %d,5 = %v, want the world's %v", x, img.At(x, 5), world)
		}
	}
}

// TestStatsNotWrittenFails: -stats whose line cannot be written (stdout
// on a full device) ends the run with status 1 and one line that says so,
// not status 0 with the figures lost.
func TestStatsNotWrittenFails(t *testing.T) {
	if testing.Short() {
		t.Skip("a demo")
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	var stderr bytes.Buffer
	cmd := exec.Command(binPath, "-headless", "-hud=false", "-graph=false", "-ticks", "3", "-stats")
	cmd.Env, cmd.Stdout, cmd.Stderr = env(""), full, &stderr
	err = cmd.Run()
	msg := strings.TrimSpace(stderr.String())
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 || strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "interpdemo: -stats: ") || !strings.Contains(msg, "no space left on device") {
		t.Fatalf("stdout on /dev/full: %v, stderr %q; want status 1 and one line", err, msg)
	}
	t.Log(msg)
}
