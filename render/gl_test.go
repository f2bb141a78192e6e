package render

import (
	"errors"
	"image"
	"image/color"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/internal/platform"
)

// These tests draw for real: an OpenGL 3.3 core context from SDL's
// offscreen driver (EGL, Mesa's llvmpipe here), pixels read back from the
// GPU and compared with a tolerance.

const fracBits = 8

func q8(units float64) int32 { return int32(math.Round(units * (1 << fracBits))) }

// withGL opens a headless GL debug context of w x h pixels for the test.
// GL state belongs to an OS thread, so the test's goroutine is locked to
// its thread. Without any way to get a context the test is skipped,
// unless INTERPDEMO_REQUIRE_GL=1 (make test, CI), where that is a failure.
func withGL(t *testing.T, w, h int) *platform.Window { return withGLB(t, w, h) }

func withGLB(t testing.TB, w, h int) *platform.Window {
	t.Helper()
	runtime.LockOSThread()
	// Unlocked when the test ends, after the window closes (cleanups run
	// last first): a goroutine that ends locked ends its OS thread, and
	// the runtime makes another when it next needs one, allocating its
	// structures (5.6 KB). In a benchmark that was a stray allocation in
	// the next one's timed frames, counted as the renderer's (796 B and 1
	// allocation an iteration over 7 iterations).
	t.Cleanup(runtime.UnlockOSThread)
	win, err := platform.Open(platform.Options{Title: t.Name(), Width: w, Height: h, Headless: true, Debug: true})
	if err != nil {
		if os.Getenv("INTERPDEMO_REQUIRE_GL") == "1" {
			t.Fatalf("no GL context (INTERPDEMO_REQUIRE_GL=1): %v", err)
		}
		t.Skipf("no GL context: %v", err)
	}
	t.Cleanup(win.Close)
	return win
}

func newRenderer(t *testing.T, win *platform.Window, radius int32) *Renderer {
	t.Helper()
	return newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: radius, FracBits: fracBits})
}

// newRendererConfig makes a renderer for the test; when the test ends it
// fails on any error the debug context logged.
func newRendererConfig(t testing.TB, win *platform.Window, cfg Config) *Renderer {
	t.Helper()
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Debugging() {
		t.Errorf("no debug context: %s", Info())
	}
	t.Cleanup(func() {
		if err := r.DebugErr(); err != nil {
			t.Errorf("the driver reported: %v", err)
		}
		r.Delete()
	})
	r.Resize(win.DrawableSize())
	return r
}

// centroid finds the centre of everything that differs from the world's
// background inside rect, weighting each pixel by how much it differs, and
// returns the number of pixels that differ noticeably.
func centroid(img *image.RGBA, rect Rect) (x, y float64, n int) {
	bg := img.RGBAAt(rect.X+rect.W/2, rect.Y+2) // a corner of the world far from the ball
	var sw float64
	for py := rect.Y; py < rect.Y+rect.H; py++ {
		for px := rect.X; px < rect.X+rect.W; px++ {
			c := img.RGBAAt(px, py)
			d := math.Abs(float64(c.R)-float64(bg.R)) + math.Abs(float64(c.G)-float64(bg.G)) + math.Abs(float64(c.B)-float64(bg.B))
			if d < 6 {
				continue
			}
			if d > 30 {
				n++
			}
			sw += d
			x += d * (float64(px) + 0.5)
			y += d * (float64(py) + 0.5)
		}
	}
	if sw == 0 {
		return math.NaN(), math.NaN(), 0
	}
	return x / sw, y / sw, n
}

func drawFrame(r *Renderer, alpha float32) *image.RGBA {
	r.Clear()
	r.DrawBalls(alpha)
	return r.ReadPixels()
}

func TestBallDrawnAtPercentWithinTick(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRenderer(t, win, 8)
	// One ball moving 16 units right and 12 down in one tick.
	last := []int32{q8(200), q8(150)}
	next := []int32{q8(216), q8(162)}
	r.Sync(last, next, 1, 1)
	view, _ := r.View()
	for _, p := range []float64{0, 0.25, 0.5, 1} {
		img := drawFrame(r, float32(p))
		gx, gy, _ := centroid(img, view)
		wx, wy := r.WorldToPixel(200+16*p, 150+12*p)
		if math.Hypot(gx-wx, gy-wy) > 1 {
			t.Errorf("percent %.2f: ball centre at (%.2f, %.2f), want (%.2f, %.2f) within 1 px", p, gx, gy, wx, wy)
		}
	}
}

func TestBallIsRoundAndAntiAliased(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRenderer(t, win, 20)
	pos := []int32{q8(320), q8(240)}
	r.Sync(pos, pos, 1, 1)
	img := drawFrame(r, 1)
	view, scale := r.View()
	_, _, n := centroid(img, view)
	radius := 20 * scale
	area := math.Pi * radius * radius
	if math.Abs(float64(n)-area)/area > 0.08 {
		t.Errorf("ball covers %d pixels, a disc of radius %.1f px covers %.0f", n, radius, area)
	}
	// The edge must pass through intermediate shades rather than jump from
	// ball to background: a disc's rim of partly covered pixels.
	cx, cy := r.WorldToPixel(320, 240)
	bg := img.RGBAAt(view.X+5, view.Y+5)
	inside := img.RGBAAt(int(cx), int(cy))
	lo, hi := min(bg.R, inside.R), max(bg.R, inside.R)
	partial := 0
	for py := int(cy - radius - 3); py < int(cy+radius+3); py++ {
		for px := int(cx - radius - 3); px < int(cx+radius+3); px++ {
			if c := img.RGBAAt(px, py); c.R > lo+20 && c.R < hi-20 {
				partial++
			}
		}
	}
	if rim := 2 * math.Pi * radius; float64(partial) < rim/3 {
		t.Errorf("%d anti-aliased pixels on the ball's edge, want at least a third of its %.0f px rim (bg %v, ball %v)", partial, rim, bg, inside)
	}
	// Corners of the sprite's square are background: the ball is round.
	for _, d := range [][2]float64{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}} {
		c := img.RGBAAt(int(cx+d[0]*radius*0.85), int(cy+d[1]*radius*0.85))
		if c != bg {
			t.Errorf("sprite corner %v painted %v, want background %v", d, c, bg)
		}
	}
}

// TestUploadsOnlyWhatChanged checks the upload rule byte for byte and, by
// drawing at percent 0 and 1 after each step, that the swapped buffers hold
// the right positions.
func TestUploadsOnlyWhatChanged(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRenderer(t, win, 8)
	const n = 3
	last := make([]int32, 2*n)
	next := make([]int32, 2*n)
	// Ball 0 moves; balls 1 and 2 sit in the corners, out of the way.
	set := func(dst []int32, x0, y0 float64) {
		dst[0], dst[1] = q8(x0), q8(y0)
		dst[2], dst[3] = q8(20), q8(20)
		dst[4], dst[5] = q8(620), q8(20)
	}
	view, _ := r.View()
	check := func(step int, wantBytes, got int, lx, ly, nx, ny float64) {
		t.Helper()
		if got != wantBytes {
			t.Errorf("step %d: uploaded %d bytes, want %d", step, got, wantBytes)
		}
		sub := Rect{X: view.X + view.W/8, Y: view.Y + view.H/6, W: view.W * 3 / 4, H: view.H * 2 / 3}
		for _, c := range []struct {
			alpha  float32
			wx, wy float64
		}{{0, lx, ly}, {1, nx, ny}} {
			img := drawFrame(r, c.alpha)
			gx, gy, _ := centroid(img, sub)
			px, py := r.WorldToPixel(c.wx, c.wy)
			if math.Hypot(gx-px, gy-py) > 1 {
				t.Errorf("step %d alpha %v: ball at (%.1f, %.1f), want (%.1f, %.1f)", step, c.alpha, gx, gy, px, py)
			}
		}
	}
	x := 200.0
	set(last, x, 200)
	set(next, x+16, 200)
	check(1, 16*n, r.Sync(last, next, 1, 7), x, 200, x+16, 200)
	check(1, 0, r.Sync(last, next, 1, 7), x, 200, x+16, 200) // a frame with no tick
	for step := uint64(2); step <= 5; step++ {
		x += 16
		set(last, x, 200)
		set(next, x+16, 200)
		check(int(step), 8*n, r.Sync(last, next, step, 7), x, 200, x+16, 200)
		check(int(step), 0, r.Sync(last, next, step, 7), x, 200, x+16, 200)
	}
	// Two ticks in one frame: both arrays.
	x += 32
	set(last, x, 200)
	set(next, x+16, 200)
	check(7, 16*n, r.Sync(last, next, 7, 7), x, 200, x+16, 200)
	// A teleport (moved changes) with no step: both arrays.
	set(last, 300, 300)
	set(next, 300, 300)
	check(7, 16*n, r.Sync(last, next, 7, 8), 300, 300, 300, 300)
	if got, want := r.UploadedBytes(), int64(16*n+4*8*n+16*n+16*n); got != want {
		t.Errorf("UploadedBytes = %d, want %d", got, want)
	}
}

func TestLetterboxedWindowKeepsAspect(t *testing.T) {
	win := withGL(t, 1000, 400)
	r := newRenderer(t, win, 8)
	view, scale := r.View()
	if view.H != 400 || view.W != 533 || math.Abs(scale-400.0/480) > 1e-9 {
		t.Fatalf("view %+v scale %v, want 533x400 at %v", view, scale, 400.0/480)
	}
	// A ball near the right edge of the world is drawn where the
	// letterboxed mapping says.
	pos := []int32{q8(600), q8(100)}
	r.Sync(pos, pos, 1, 1)
	img := drawFrame(r, 1)
	gx, gy, _ := centroid(img, view)
	wx, wy := r.WorldToPixel(600, 100)
	if math.Hypot(gx-wx, gy-wy) > 1 {
		t.Errorf("ball at (%.1f, %.1f), want (%.1f, %.1f)", gx, gy, wx, wy)
	}
	// The bars left and right of the world are not world background.
	bar := img.RGBAAt(view.X/2, 200)
	world := img.RGBAAt(view.X+5, 200)
	if bar == world {
		t.Errorf("letterbox bar %v has the world's colour", bar)
	}
}

func TestShaderErrorsCarryTheInfoLog(t *testing.T) {
	withGL(t, 64, 64)
	if _, err := New(Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits}); err != nil {
		t.Fatal(err) // loads GL function pointers
	}
	_, err := NewProgram("broken", "#version 330 core\nvoid main() { gl_Position = vec4(undefined_thing); }\n", "#version 330 core\nout vec4 c; void main() { c = vec4(1); }\n")
	if err == nil {
		t.Fatal("a shader with an undefined identifier compiled")
	}
	msg := err.Error()
	if !strings.Contains(msg, "broken vertex shader") || !strings.Contains(msg, "undefined_thing") {
		t.Errorf("error lacks the shader name or the info log: %v", msg)
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("error spans several lines: %q", msg)
	}
	_, err = NewProgram("unlinked", "#version 330 core\nout vec3 w; void main() { w = vec3(1); gl_Position = vec4(0); }\n", "#version 330 core\nin vec4 w; out vec4 c; void main() { c = w; }\n")
	if err == nil || !strings.Contains(err.Error(), "link failed") {
		t.Errorf("varyings of different types: err = %v, want a link failure", err)
	}
}

// TestDebugLogReportsErrors makes the driver log an error (an invalid
// enum) in a debug context and checks that DebugErr reports it, once and
// on one line, and keeps it.
func TestDebugLogReportsErrors(t *testing.T) {
	win := withGL(t, 64, 64)
	r, err := New(Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	r.Resize(win.DrawableSize())
	if !r.Debugging() {
		t.Fatalf("no debug context: %s", Info())
	}
	if err := r.DebugErr(); err != nil {
		t.Fatalf("before any error: %v", err)
	}
	r.Clear()
	r.DrawBalls(0.5)
	if err := r.DebugErr(); err != nil {
		t.Fatalf("after a clean frame: %v", err)
	}
	gl.Enable(0xdead) // GL_INVALID_ENUM
	gl.GetError()     // the error flag is not what DebugErr reads
	err = r.DebugErr()
	if err == nil {
		t.Fatal("an invalid enum was not reported")
	}
	msg := err.Error()
	if !strings.Contains(msg, "error") || strings.Contains(msg, "\n") {
		t.Errorf("report %q: want one line naming the error", msg)
	}
	t.Logf("reported: %v", msg)
	gl.Enable(0xbeef)
	if err2 := r.DebugErr(); err2 == nil || err2.Error() != msg {
		t.Errorf("after a second error: %v; want the first kept", err2)
	}
}

// TestBadInputIsRefused: a bad Config is an error wrapping ErrInvalid, and
// positions of different lengths upload nothing and keep the previous
// ones, without a panic.
func TestBadInputIsRefused(t *testing.T) {
	win := withGL(t, 640, 480)
	for _, c := range []Config{{WorldW: 0, WorldH: 480, Radius: 8}, {WorldW: 640, WorldH: 480, Radius: -1}, {WorldW: 640, WorldH: 480, Radius: 8, FracBits: 40}} {
		if _, err := New(c); !errors.Is(err, ErrInvalid) {
			t.Errorf("New(%+v) = %v, want ErrInvalid", c, err)
		}
	}
	r := newRenderer(t, win, 8)
	pos := []int32{q8(100), q8(100)}
	r.Sync(pos, pos, 1, 1)
	if got := r.Sync([]int32{1, 2, 3, 4}, pos, 2, 1); got != 0 {
		t.Errorf("mismatched lengths uploaded %d bytes", got)
	}
	if got := r.Sync([]int32{1, 2, 3}, []int32{1, 2, 3}, 2, 1); got != 0 {
		t.Errorf("odd lengths uploaded %d bytes", got)
	}
	view, _ := r.View()
	img := drawFrame(r, 1)
	gx, gy, _ := centroid(img, view)
	if wx, wy := r.WorldToPixel(100, 100); math.Hypot(gx-wx, gy-wy) > 1 {
		t.Errorf("after refused input the ball is at (%.1f, %.1f), want (%.1f, %.1f)", gx, gy, wx, wy)
	}
}

// TestWorldDrawnInItsArea: with ResizeArea the world is letterboxed into
// its part of the window (where the demo's overlays are not): a ball at
// the world's top-left corner is drawn whole inside the area, and the rest
// of the window is the bars' colour.
func TestWorldDrawnInItsArea(t *testing.T) {
	win := withGL(t, 1060, 588)
	r := newRenderer(t, win, 8)
	area := Rect{420, 0, 640, 480} // the demo's default layout
	r.ResizeArea(1060, 588, area)
	view, scale := r.View()
	if view != area || scale != 1 {
		t.Fatalf("view %+v scale %v, want %+v at 1", view, scale, area)
	}
	pos := []int32{q8(10), q8(10)}
	r.Sync(pos, pos, 1, 1)
	img := drawFrame(r, 1)
	gx, gy, n := centroid(img, view)
	if math.Hypot(gx-430, gy-10) > 1 || n < 150 {
		t.Errorf("ball at (%.1f, %.1f), %d pixels; want at (430, 10), whole", gx, gy, n)
	}
	bar := img.RGBAAt(200, 300)
	for _, p := range []image.Point{{419, 10}, {700, 481}, {1000, 587}} {
		if c := img.RGBAAt(p.X, p.Y); c != bar {
			t.Errorf("outside the world's area at %v: %v, want the bars' %v", p, c, bar)
		}
	}
	if c := img.RGBAAt(420, 300); c == bar {
		t.Errorf("inside the world's area: the bars' colour %v", c)
	}
}

// TestHighlightAnyBall: SetHighlight gives ball i, and only it, the
// player's colour (a network game's own ball); -1 none.
func TestHighlightAnyBall(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRenderer(t, win, 8)
	pos := []int32{q8(100), q8(100), q8(300), q8(100), q8(500), q8(100)}
	r.Sync(pos, pos, 1, 1)
	yellow := func(c color.RGBA) bool { return c.R > 240 && c.G > 200 && c.B < 70 }
	for _, h := range []int{-1, 0, 1, 2} {
		r.SetHighlight(h)
		img := drawFrame(r, 1)
		for i, x := range []int{100, 300, 500} {
			if got := yellow(img.RGBAAt(x, 100)); got != (i == h) {
				t.Errorf("highlight %d: ball %d at its centre %v", h, i, img.RGBAAt(x, 100))
			}
		}
	}
}
