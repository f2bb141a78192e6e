package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/x11test"
)

// TestHeadlessRunIsDeterministic is the acceptance run: 250 ticks
// headless at 25 TPS, the same state hash every time and with interpolation
// off (drawing never touches the simulation).
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
	}
	stats := make([]map[string]any, len(runs))
	done := make(chan int, len(runs))
	for i, r := range runs {
		go func() {
			defer func() { done <- i }()
			d := startDemo(t, "", append([]string{"-headless", "-ticks", "250", "-stats"}, r.args...)...)
			if _, ok := d.wait(60 * time.Second); !ok {
				t.Errorf("run %s did not finish", r.name)
				return
			}
			if d.code() != 0 {
				t.Errorf("run %s: exit %d: %s", r.name, d.code(), d.stderr.String())
				return
			}
			stats[i] = d.stats()
		}()
	}
	for range runs {
		<-done
	}
	if t.Failed() {
		return
	}
	for i, s := range stats {
		if s["ticks"] != 250.0 {
			t.Errorf("run %s: ticks = %v, want 250", runs[i].name, s["ticks"])
		}
		// 250 ticks of 40 ms: the first runs after 40 ms, the 250th after
		// 10 s, so 250 ticks span ~10 s of wall time: 25 TPS.
		if tps := s["tps"].(float64); math.Abs(tps-25) > 0.5 {
			t.Errorf("run %s: tps = %v, want 25 ± 0.5", runs[i].name, tps)
		}
		if s["state_hash"] != stats[0]["state_hash"] {
			t.Errorf("run %s: state_hash %v, run a had %v", runs[i].name, s["state_hash"], stats[0]["state_hash"])
		}
		if s["upload_bytes_no_tick"] != 0.0 {
			t.Errorf("run %s: %v buffer bytes uploaded on frames without a tick", runs[i].name, s["upload_bytes_no_tick"])
		}
	}
	if stats[2]["interp"] != false || stats[0]["interp"] != true {
		t.Errorf("interp flags not reported: %v / %v", stats[0]["interp"], stats[2]["interp"])
	}
}

// TestSpaceTogglesInterpolationAndQQuits is the person at the keyboard: a
// real window under Xvfb, Space, then Q.
func TestSpaceTogglesInterpolationAndQQuits(t *testing.T) {
	display := xvfb(t)
	shot := filepath.Join(t.TempDir(), "shot.png")
	d := startDemo(t, display, "-stats", "-screenshot", shot, "-hud=false", "-graph=false")
	if title := d.waitTitle("interp on", 10*time.Second); !strings.Contains(title, "balls 1") {
		t.Errorf("title %q lacks the ball count", title)
	}
	d.keys("space")
	title := d.waitTitle("interp off", 3*time.Second)
	for _, want := range []string{"FPS ", "TPS ", "vsync "} {
		if !strings.Contains(title, want) {
			t.Errorf("title %q lacks %q", title, want)
		}
	}
	d.keys("q")
	pressed := time.Now()
	code, ok := d.wait(5 * time.Second)
	if !ok {
		t.Fatal("did not exit after Q")
	}
	if took := time.Since(pressed); took > time.Second {
		t.Errorf("exit took %v after Q, want under a second", took)
	}
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, d.stderr.String())
	}
	if s := d.stats(); s["interp"] != false {
		t.Errorf("stats interp = %v after Space, want false", s["interp"])
	}
	assertBallInScreenshot(t, shot, 1)
}

func TestCloseButtonQuitsCleanly(t *testing.T) {
	display := xvfb(t)
	d := startDemo(t, display, "-stats")
	w := d.window()
	id, err := strconv.ParseUint(w, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := x11test.CloseWindow(display, id); err != nil {
		t.Fatal(err)
	}
	code, ok := d.wait(5 * time.Second)
	if !ok {
		t.Fatal("did not exit after the window was closed")
	}
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, d.stderr.String())
	}
	if s := d.stats(); s["frames"].(float64) < 1 {
		t.Errorf("stats after close: %v", s)
	}
}

func TestEscapeQuits(t *testing.T) {
	display := xvfb(t)
	d := startDemo(t, display)
	d.window()
	d.keys("Escape")
	if code, ok := d.wait(5 * time.Second); !ok || code != 0 {
		t.Fatalf("Escape: exited=%v status %d: %s", ok, code, d.stderr.String())
	}
}

// TestVsyncRefusedIsReportedOnce: Xvfb's GL refuses every swap interval.
// The demo says so once, shows it in the title, and keeps running through
// V presses.
func TestVsyncRefusedIsReportedOnce(t *testing.T) {
	display := xvfb(t)
	d := startDemo(t, display, "-stats")
	d.waitTitle("vsync unsupported", 10*time.Second)
	d.keys("v", "v", "v")
	d.waitTitle("vsync unsupported", 3*time.Second)
	d.keys("q")
	if code, ok := d.wait(5 * time.Second); !ok || code != 0 {
		t.Fatalf("exited=%v status %d: %s", ok, code, d.stderr.String())
	}
	if n := strings.Count(d.stderr.String(), "swap interval"); n != 1 {
		t.Errorf("vsync refusal logged %d times, want once:\n%s", n, d.stderr.String())
	}
	s := d.stats()
	if s["vsync_actual"] != "unsupported" || s["vsync_requested"] != "off" {
		t.Errorf("after V x3: requested %v actual %v, want off/unsupported", s["vsync_requested"], s["vsync_actual"])
	}
}

func TestNoDisplaySuggestsHeadless(t *testing.T) {
	start := time.Now()
	d := runDemo(t, "", 10*time.Second)
	if d.code() != 1 {
		t.Errorf("exit status %d, want 1", d.code())
	}
	msg := strings.TrimSpace(d.stderr.String())
	if !strings.Contains(msg, "-headless") || strings.Count(msg, "\n") > 0 {
		t.Errorf("message %q should be one line suggesting -headless", msg)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %v to give up", took)
	}
}

// TestBadFlags: each bad value exits 2 with one line naming the flag,
// before any window opens (the run has no display: had it got as far as
// opening a window it would fail differently).
func TestBadFlags(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		flag string
	}{
		{[]string{"-tick", "0"}, "-tick"},
		{[]string{"-tick", "-40ms"}, "-tick"},
		{[]string{"-tick", "banana"}, "-tick"},
		{[]string{"-max-loops", "0"}, "-max-loops"},
		{[]string{"-balls", "-1"}, "-balls"},
		{[]string{"-balls", "1000000000"}, "-balls"},
		{[]string{"-vsync", "sometimes"}, "-vsync"},
		{[]string{"-width", "0"}, "-width"},
		{[]string{"-duration", "-1s"}, "-duration"},
		{[]string{"-ticks", "-5"}, "-ticks"},
		{[]string{"-state", filepath.Join(dir, "missing", "state.json")}, "-state"},
		{[]string{"-screenshot", dir}, "-screenshot"},
		{[]string{"-nosuchflag"}, "-nosuchflag"},
		{[]string{"extra"}, "extra"},
	}
	for _, c := range cases {
		d := runDemo(t, "", 10*time.Second, c.args...)
		msg := d.stderr.String()
		if d.code() != 2 {
			t.Errorf("%v: exit status %d, want 2 (%s)", c.args, d.code(), msg)
		}
		if strings.Count(strings.TrimSpace(msg), "\n") != 0 || !strings.Contains(msg, c.flag) {
			t.Errorf("%v: message %q should be one line naming %s", c.args, msg, c.flag)
		}
		if strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine") {
			t.Errorf("%v: panicked: %s", c.args, msg)
		}
	}
}

func TestHelpListsKeys(t *testing.T) {
	d := runDemo(t, "", 10*time.Second, "-h")
	if d.code() != 0 {
		t.Fatalf("-h exit %d", d.code())
	}
	out := d.stdout.String()
	for _, want := range []string{"Space", "-tick", "-headless", "Q"} {
		if !strings.Contains(out, want) {
			t.Errorf("-h output lacks %q", want)
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
	if st.Tick != 30 || len(st.Balls) != 3 || st.Hash != d.stats()["state_hash"] {
		t.Fatalf("state: tick %d, %d balls, hash %s (stats say %v)", st.Tick, len(st.Balls), st.Hash, d.stats()["state_hash"])
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
	w := d.window()
	d.xdo("windowsize", "--sync", w, "1000", "400")
	time.Sleep(300 * time.Millisecond)
	d.keys("q")
	if code, ok := d.wait(5 * time.Second); !ok || code != 0 {
		t.Fatalf("exited=%v status %d: %s", ok, code, d.stderr.String())
	}
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
