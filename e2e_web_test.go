package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/atomicfile"
	"github.com/interpdemo/interpdemo/internal/cdp"
	"github.com/interpdemo/interpdemo/internal/report"
)

// The web page's tests: the page that make web builds, served from
// 127.0.0.1 and run in a real headless Chromium (WebGL2 through
// SwiftShader), driven over the DevTools protocol (internal/cdp). Under
// INTERPDEMO_REQUIRE_GL=1 a browser that cannot start, or a page that
// gets no WebGL2 context, fails the test.

// webSite is the built page and the server that serves it, shared by the
// tests; its folder also takes the recordings a test writes.
var webSite struct {
	once sync.Once
	dir  string
	srv  *httptest.Server
	err  error
}

// webBrowser is the browser the tests share, each in a page of its own.
var webBrowser struct {
	once sync.Once
	b    *cdp.Browser
	err  error
}

// buildWeb builds the page as make web does into a temporary folder and
// serves it.
func buildWeb(t *testing.T) (dir, url string) {
	t.Helper()
	webSite.once.Do(func() {
		dir, err := os.MkdirTemp("", "interpdemo-web-")
		if err != nil {
			webSite.err = err
			return
		}
		webSite.dir = dir
		cmd := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, "interpdemo.wasm"), "./cmd/web")
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			webSite.err = fmt.Errorf("building the page: %v\n%s", err, out)
			return
		}
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			webSite.err = fmt.Errorf("go env GOROOT: %v", err)
			return
		}
		for _, f := range [][2]string{
			{"cmd/web/index.html", "index.html"},
			{filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"), "wasm_exec.js"},
		} {
			b, err := os.ReadFile(f[0])
			if err == nil {
				err = os.WriteFile(filepath.Join(dir, f[1]), b, 0o644)
			}
			if err != nil {
				webSite.err = err
				return
			}
		}
		webSite.srv = httptest.NewServer(http.FileServer(http.Dir(dir))) // 127.0.0.1
	})
	if webSite.err != nil {
		t.Fatal(webSite.err)
	}
	return webSite.dir, webSite.srv.URL
}

// stopWeb ends the shared browser and server (TestMain).
func stopWeb() {
	if webBrowser.b != nil {
		webBrowser.b.Close()
	}
	if webSite.srv != nil {
		webSite.srv.Close()
	}
	if webSite.dir != "" {
		os.RemoveAll(webSite.dir)
	}
}

// browser starts the shared headless Chromium, or skips (fails under
// INTERPDEMO_REQUIRE_GL=1) where there is none.
func browser(t *testing.T) *cdp.Browser {
	t.Helper()
	webBrowser.once.Do(func() {
		path, err := cdp.Find()
		if err != nil {
			webBrowser.err = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		webBrowser.b, webBrowser.err = cdp.Launch(ctx, cdp.Options{Path: path, Width: 1100, Height: 760})
	})
	if webBrowser.err != nil {
		needDisplay(t, "no browser for the web page's tests (make test installs chromium): %v", webBrowser.err)
	}
	return webBrowser.b
}

// webRun is a page of the demo with a query, and its context.
type webRun struct {
	t     *testing.T
	ctx   context.Context
	page  *cdp.Page
	query string
}

// openPage opens the demo's page with query ("balls=10&stats") and waits
// until it runs or has stopped (an error, the end of its ticks).
func openPage(t *testing.T, timeout time.Duration, query string) *webRun {
	t.Helper()
	return openPageFile(t, timeout, "", query)
}

// openPageFile is openPage for another page of the site than
// index.html: file, a name in its folder.
func openPageFile(t *testing.T, timeout time.Duration, file, query string) *webRun {
	t.Helper()
	_, url := buildWeb(t)
	b := browser(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	p, err := b.NewPage(ctx, url+"/"+file+"?"+query)
	if err != nil {
		t.Fatalf("opening ?%s: %v", query, err)
	}
	t.Cleanup(func() { p.Close() })
	w := &webRun{t: t, ctx: ctx, page: p, query: query}
	w.waitState("running", "stopped", "error", "help")
	return w
}

// eval evaluates expr in the page into out.
func (w *webRun) eval(expr string, out any) {
	w.t.Helper()
	if err := w.page.Eval(w.ctx, expr, out); err != nil {
		w.t.Fatalf("?%s: %s: %v\nconsole: %q", w.query, expr, err, w.page.Console())
	}
}

// state is the page's state: loading, running, stopped, error or help.
func (w *webRun) state() string {
	var s string
	w.eval(`(window.interpdemo && window.interpdemo.state) || "loading"`, &s)
	return s
}

// waitState waits until the page's state is one of states.
func (w *webRun) waitState(states ...string) string {
	w.t.Helper()
	cond := make([]string, len(states))
	for i, s := range states {
		cond[i] = fmt.Sprintf("window.interpdemo.state === %q", s)
	}
	expr := "window.interpdemo && (" + strings.Join(cond, " || ") + ")"
	if err := w.page.WaitFor(w.ctx, expr); err != nil {
		var status string
		w.page.Eval(context.Background(), `document.getElementById("status").textContent`, &status)
		w.t.Fatalf("?%s: waiting for %v: %v\nstatus: %s\nconsole: %q", w.query, states, err, status, w.page.Console())
	}
	return w.state()
}

// text is an element's text.
func (w *webRun) text(id string) string {
	var s string
	w.eval(fmt.Sprintf(`document.getElementById(%q).textContent`, id), &s)
	return s
}

// stats waits for the run to stop and decodes <pre id="stats">.
func (w *webRun) stats() *report.Stats {
	w.t.Helper()
	if s := w.waitState("stopped", "error"); s != "stopped" {
		w.t.Fatalf("?%s: %s: %s\nconsole: %q", w.query, s, w.text("status"), w.page.Console())
	}
	line := w.text("stats")
	s, err := report.Parse([]byte(line))
	if err != nil {
		w.t.Fatalf("?%s: <pre id=stats> %q: %v", w.query, line, err)
	}
	return s
}

// choiceFrames is how many frames the tests of the balls' choice let the
// page draw: about twice what its comparisons after the warm-up took here
// to measure all three ways at 3,000 balls (about 100 frames, 2026-12-03),
// and more for the fourth, the painted image, tried first.
const choiceFrames = 260

// statsAfter runs the page (its query without a duration: it runs until
// Q) until it has drawn frames frames, presses Q and returns its stats.
// The tests of what the page's choice measured run for frames, not for
// a time: a loaded machine's frames are slow, and in a fixed time too
// few of them left a comparison unfinished (CI, 2026-12-03: 86 frames
// in 6 s at 3,000 balls, squares never measured). Its polls call info(),
// which allocates (syscall/js): a test that counts the allocations
// after the warm-up runs for a time instead.
func (w *webRun) statsAfter(frames int) *report.Stats {
	w.t.Helper()
	w.runUntil(fmt.Sprintf(`window.interpdemo.info().frames >= %d`, frames), fmt.Sprintf("%d frames", frames))
	w.quit()
	return w.stats()
}

// runUntil waits until the page has stopped loading and the JavaScript
// expression until holds while it runs (what says what it waits for); a
// page that stopped before fails the test.
func (w *webRun) runUntil(until, what string) {
	w.t.Helper()
	cond := `window.interpdemo && window.interpdemo.state !== "loading" && (window.interpdemo.state !== "running" || ` + until + `)`
	if err := w.page.WaitFor(w.ctx, cond); err != nil {
		w.t.Fatalf("?%s: waiting for %s: %v\nconsole: %q", w.query, what, err, w.page.Console())
	}
	if s := w.state(); s != "running" {
		w.t.Fatalf("?%s: %s before %s: %s", w.query, s, what, w.text("status"))
	}
}

// quit presses Q.
func (w *webRun) quit() {
	w.t.Helper()
	if err := w.page.Key(w.ctx, "KeyQ"); err != nil {
		w.t.Fatal(err)
	}
}

// afterWarmup runs the page (its query without a duration: it runs
// until Q) until it has drawn frames frames and run ticks ticks after its
// warm-up, and returns its heap allocations and GC cycles since the
// warm-up, then presses Q and returns its stats too. It polls and reads
// the page's export interpdemo_after_warmup, whose calls allocate
// nothing: the counts are the loop's alone (the Q key's event allocates
// in syscall/js). A run of a fixed time drew too few frames on a loaded
// machine (57 in 2.5 s beside two spinning loops, 2026-12-06).
func (w *webRun) afterWarmup(frames, ticks int) (allocs, gcs int64, s *report.Stats) {
	w.t.Helper()
	f := `window.interpdemoWasm.interpdemo_after_warmup`
	w.runUntil(fmt.Sprintf(`%s(0) >= %d && %s(1) >= %d`, f, frames, f, ticks), fmt.Sprintf("%d frames and %d ticks after the warm-up", frames, ticks))
	var counts [2]int64
	w.eval(fmt.Sprintf(`[%s(2), %s(3)]`, f, f), &counts)
	w.quit()
	return counts[0], counts[1], w.stats()
}

// The page's world is the native demo's, tick for tick: after N ticks
// the state hash of the page's WebAssembly equals the native headless
// run's with the same world flags, at 1 and 1,000 balls.
func TestWebStateHashMatchesNative(t *testing.T) {
	for _, c := range []struct {
		world string
		ticks int
	}{
		{"balls=1&seed=3", 250},
		{"balls=1000&seed=7&radius=5", 250},
		{"balls=40&tick=25ms&max-loops=3&lockstep", 120},
	} {
		t.Run(c.world, func(t *testing.T) {
			w := openPage(t, 120*time.Second, fmt.Sprintf("%s&ticks=%d&fast&stats", c.world, c.ticks))
			got := w.stats()
			args := []string{"-headless", "-fast", "-ticks", fmt.Sprint(c.ticks), "-stats"}
			for _, kv := range strings.Split(c.world, "&") {
				args = append(args, "-"+kv)
			}
			native := runDemo(t, "", 120*time.Second, args...)
			if native.code() != 0 {
				t.Fatalf("native %v: exit %d: %s", args, native.code(), native.stderr.String())
			}
			want := native.stats()
			if got.StateHash != want.StateHash || got.WorldTicks != want.WorldTicks || got.Balls != want.Balls {
				t.Errorf("page: hash %s after %d ticks, %d balls; native: %s after %d, %d balls",
					got.StateHash, got.WorldTicks, got.Balls, want.StateHash, want.WorldTicks, want.Balls)
			}
			if got.WorldTicks != uint64(c.ticks) || got.Frames == 0 {
				t.Errorf("page ran %d ticks in %d frames, want %d ticks", got.WorldTicks, got.Frames, c.ticks)
			}
			if got.VideoDriver != "browser (WebGL2)" || got.GLRenderer == "" {
				t.Errorf("page drew with %q / %q", got.VideoDriver, got.GLRenderer)
			}
			if got.UploadBytesNoTick != 0 {
				t.Errorf("frames with no tick uploaded %d position bytes", got.UploadBytesNoTick)
			}
		})
	}
}

// canvasHash is a hash of the canvas's pixels as the page last drew them.
const canvasHash = `(() => {
	const c = document.getElementById("world");
	const g = c.getContext("webgl2");
	const px = new Uint8Array(c.width * c.height * 4);
	g.readPixels(0, 0, c.width, c.height, g.RGBA, g.UNSIGNED_BYTE, px);
	let h = 2166136261;
	for (let i = 0; i < px.length; i++) { h = Math.imul(h ^ px[i], 16777619); }
	return h >>> 0;
})()`

// pictures counts the different pictures the canvas shows over n
// animation frames, the interpolation factors the page drew them at, and
// the ticks that ran meanwhile.
func (w *webRun) pictures(n int) (distinct int, alphas []float64, ticks int) {
	w.t.Helper()
	var r struct {
		Hashes []uint32
		Alphas []float64
		Ticks  []int
	}
	w.eval(fmt.Sprintf(`new Promise((done) => {
		const r = {Hashes: [], Alphas: [], Ticks: []};
		const step = () => {
			const info = window.interpdemo.info();
			r.Hashes.push(%s);
			r.Alphas.push(info.alpha);
			r.Ticks.push(info.ticks);
			if (r.Hashes.length < %d) { requestAnimationFrame(step); } else { done(r); }
		};
		requestAnimationFrame(step);
	})`, canvasHash, n), &r)
	seen := map[uint32]bool{}
	for _, h := range r.Hashes {
		seen[h] = true
	}
	return len(seen), r.Alphas, r.Ticks[len(r.Ticks)-1] - r.Ticks[0]
}

// Space toggles interpolation: with it on, at 5 ticks a second, nearly
// every animation frame shows a new picture (the ball between its
// positions); off, the picture changes only at the ticks. A real key
// press, through the browser's input. The balls are points alone: the
// balls' choice, comparing ways to draw them, would draw blocks of
// frames painted, whose edge pixels differ from the points' by a few
// levels (TestWebPaintKeepsThePicture), a picture more between ticks
// (in one run in six, the comparison that follows the warm-up).
func TestWebSpaceTogglesInterpolation(t *testing.T) {
	w := openPage(t, 90*time.Second, "tick=200ms&hud=false&graph=false&radius=20&sprites=points&cull=off&paint=off")
	if s := w.state(); s != "running" {
		t.Fatalf("state %s: %s", s, w.text("status"))
	}
	const frames = 30 // half a second at 60 Hz: 2 or 3 ticks
	on, alphas, ticks := w.pictures(frames)
	if on < frames/2 || on <= ticks+1 {
		t.Errorf("interpolating: %d different pictures in %d frames, %d ticks", on, frames, ticks)
	}
	between := 0
	for _, a := range alphas {
		if a > 0 && a < 1 {
			between++
		}
	}
	if between < frames/2 {
		t.Errorf("interpolating: alpha strictly between 0 and 1 on %d of %d frames: %v", between, frames, alphas)
	}
	if err := w.page.Key(w.ctx, "Space"); err != nil {
		t.Fatal(err)
	}
	if err := w.page.WaitFor(w.ctx, `document.title.includes("interp off")`); err != nil {
		t.Fatalf("after Space: %v (title %q)", err, w.text("status"))
	}
	off, alphas, ticks := w.pictures(frames)
	if off > ticks+1 || ticks > frames/3 {
		t.Errorf("interpolation off: %d different pictures in %d frames, %d ticks: want one per tick", off, frames, ticks)
	}
	for _, a := range alphas {
		if a != 1 {
			t.Fatalf("interpolation off: drawn at alpha %v", alphas)
		}
	}
	if err := w.page.Key(w.ctx, "Space"); err != nil {
		t.Fatal(err)
	}
	if err := w.page.WaitFor(w.ctx, `document.title.includes("interp on")`); err != nil {
		t.Fatalf("after Space again: %v", err)
	}
	// V: vsync off runs frames as fast as the browser will (a
	// MessageChannel loop), on draws one per animation frame.
	for _, want := range []string{"vsync off", "vsync on"} {
		if err := w.page.Key(w.ctx, "KeyV"); err != nil {
			t.Fatal(err)
		}
		if err := w.page.WaitFor(w.ctx, fmt.Sprintf(`document.title.includes(%q) && window.interpdemo.info().vsync === %v`, want, want == "vsync on")); err != nil {
			t.Fatalf("after V: %v (title %q)", err, w.text("status"))
		}
	}
	if shot := os.Getenv("INTERPDEMO_WEB_SCREENSHOT"); shot != "" {
		w.screenshot(shot, "balls=100&ghosts")
	}
	if err := w.page.Key(w.ctx, "KeyQ"); err != nil {
		t.Fatal(err)
	}
	w.waitState("stopped")
	if s := w.text("status"); !strings.Contains(s, "Q pressed") {
		t.Errorf("after Q the page says %q", s)
	}
}

// screenshot writes a picture of the page with query to path (make plot:
// the README's).
func (w *webRun) screenshot(path, query string) {
	w.t.Helper()
	p := openPage(w.t, 60*time.Second, query)
	var frames int
	if err := p.page.WaitFor(p.ctx, `window.interpdemo.info().frames > 120`); err != nil {
		w.t.Fatal(err)
	}
	p.eval(`window.interpdemo.info().frames`, &frames)
	b, err := p.page.Screenshot(p.ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		w.t.Fatalf("screenshot: %v", err)
	}
	if err := atomicfile.WriteFile(path, func(f io.Writer) error {
		_, err := f.Write(b)
		return err
	}); err != nil {
		w.t.Fatal(err)
	}
}

// A bad query value gets the native demo's one-line message, in the
// status line and in <pre id="stats">, and nothing is drawn.
func TestWebBadQueryGivesTheNativeError(t *testing.T) {
	for _, c := range []struct{ query, flags string }{
		{"balls=-1", "-balls=-1"},
		{"tick=soon", "-tick=soon"},
		{"fast&mode=variable", "-fast -mode=variable"},
		{"nosuchflag", "-nosuchflag"},
	} {
		w := openPage(t, 60*time.Second, c.query+"&stats")
		if s := w.state(); s != "error" {
			t.Fatalf("?%s: state %s", c.query, s)
		}
		native := runDemo(t, "", 30*time.Second, append(strings.Fields(c.flags), "-headless")...)
		want, _, _ := strings.Cut(native.stderr.String(), "\n")
		if native.code() != 2 || !strings.HasPrefix(want, "interpdemo: ") {
			t.Fatalf("native %s: exit %d, %q", c.flags, native.code(), native.stderr.String())
		}
		if got := w.text("stats"); got != want {
			t.Errorf("?%s: <pre id=stats> %q, native %q", c.query, got, want)
		}
		if got := w.text("status"); got != want {
			t.Errorf("?%s: status %q, native %q", c.query, got, want)
		}
		// The page never made its programs: the canvas's context, made
		// here if the page made none, uses no program.
		var drawn bool
		w.eval(`(() => { const g = document.getElementById("world").getContext("webgl2");
			return g !== null && g.getParameter(g.CURRENT_PROGRAM) !== null; })()`, &drawn)
		if drawn {
			t.Errorf("?%s: the page set up its renderer after the error", c.query)
		}
	}
}

// A recording made by the native demo replays in the page, its hashes
// checked as -replay checks them; a tampered one is refused with the
// native demo's message.
func TestWebReplaysNativeRecording(t *testing.T) {
	dir, _ := buildWeb(t)
	name := fmt.Sprintf("rec-%d.rec", time.Now().UnixNano())
	rec := filepath.Join(dir, name)
	native := runDemo(t, "", 60*time.Second, "-headless", "-fast", "-ticks", "200", "-balls", "30", "-seed", "5", "-record", rec, "-stats")
	if native.code() != 0 {
		t.Fatalf("recording: exit %d: %s", native.code(), native.stderr.String())
	}
	want := native.stats()

	w := openPage(t, 90*time.Second, "replay="+name+"&fast&stats")
	got := w.stats()
	if got.ReplayOK == nil || !*got.ReplayOK || got.StateHash != want.StateHash || got.WorldTicks != want.WorldTicks {
		t.Errorf("page replay: ok %v, hash %s after %d ticks; native recording: %s after %d",
			got.ReplayOK, got.StateHash, got.WorldTicks, want.StateHash, want.WorldTicks)
	}

	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x10
	bad := "tampered-" + name
	if err := os.WriteFile(filepath.Join(dir, bad), b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binPath, "-headless", "-replay", bad)
	cmd.Dir, cmd.Env = dir, env("")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("native replay of a tampered recording: %v: %s", err, out)
	}
	wantLine, _, _ := strings.Cut(string(out), "\n")
	w = openPage(t, 60*time.Second, "replay="+bad+"&stats")
	if s := w.state(); s != "error" {
		t.Fatalf("tampered recording: state %s", s)
	}
	if got := w.text("stats"); got != wantLine {
		t.Errorf("tampered recording: page %q, native %q", got, wantLine)
	}
	missing := openPage(t, 60*time.Second, "replay=no-such.rec&stats")
	if got := missing.text("stats"); !strings.HasPrefix(got, "interpdemo: replay file no-such.rec: HTTP 404") {
		t.Errorf("missing recording: %q", got)
	}
}

// Every timing mode runs in the page: the same simulation, the same
// strategies, on animation frames (the adaptive mode presents at its own
// time, by a timer).
func TestWebTimingModes(t *testing.T) {
	for _, mode := range []string{"fixed", "substep", "timefactor", "adaptive", "variable"} {
		w := openPage(t, 60*time.Second, "mode="+mode+"&duration=1500ms&balls=20&stats")
		s := w.stats()
		if s.Mode != mode || s.Frames < 5 || s.Ticks == 0 {
			t.Errorf("?mode=%s: mode %s, %d frames, %d ticks", mode, s.Mode, s.Frames, s.Ticks)
		}
	}
}

// The page's loop allocates nothing after its warm-up, as the window's
// does: on animation frames (vsync on) and in the uncapped loop of
// messages, timers and fences (vsync off), with the HUD and the graph on
// and balls moving. (syscall/js allocates on every call of a Go
// callback; the loop calls a WebAssembly export instead.)
//
// With the occlusion culling forced on (the culler's walk and a texture
// upload a frame) and with auto, whose comparison after the warm-up
// runs GPU timer queries and reads them back, in the counted frames; with
// the balls drawn as squares, and with the forms' comparison.
func TestWebAllocatesNothing(t *testing.T) {
	for _, c := range []struct {
		q      string
		frames int // after the warm-up; the balls' comparisons measure in about 100 (choiceFrames)
	}{
		{"balls=300&stats", 60}, {"balls=300&vsync=off&stats", 60},
		{"balls=10000&cull=on&stats", 20}, {"balls=2000&vsync=off&stats", 120},
		{"balls=300&sprites=quads&stats", 60}, {"balls=300&vsync=off&cull=off&stats", 120},
	} {
		q := c.q
		w := openPage(t, 60*time.Second, q)
		allocs, gcs, s := w.afterWarmup(c.frames, 40)
		var timer bool
		w.eval(`window.interpdemo.timer_query === true`, &timer)
		if allocs != 0 || gcs != 0 || s.AllocsAfterWarmup == nil || s.GCAfterWarmup == nil {
			t.Errorf("?%s: allocations and GC cycles after warm-up: %d, %d (-stats: %v, %v); want 0, 0", q, allocs, gcs, intOr(s.AllocsAfterWarmup), intOr(s.GCAfterWarmup))
		}
		switch {
		case strings.Contains(q, "cull=on") && (s.Cull != "on" || s.CullHidden == nil || *s.CullHidden < 1000):
			// four balls in ten lie under later ones at 10,000 (at 2,000,
			// a frame may hide none)
			t.Errorf("?%s: cull %q, hidden %v: want on, thousands hidden", q, s.Cull, intOr(s.CullHidden))
		case strings.Contains(q, "balls=2000&vsync=off") && timer && (s.CullCostOnMs == nil || s.CullCostOffMs == nil):
			t.Errorf("?%s: the culling's comparison measured no costs (on %v, off %v)", q, s.CullCostOnMs, s.CullCostOffMs)
		case strings.Contains(q, "sprites=quads") && s.Sprites != "quads" && s.Cull != "on":
			// squares, or culled points (culled balls are points), which
			// the page's one choice may find cheaper
			t.Errorf("?%s: sprites %q, cull %q: want quads, or culled", q, s.Sprites, s.Cull)
		case strings.Contains(q, "cull=off") && timer && (s.SpritesCostQuadsMs == nil || s.SpritesCostPointsMs == nil):
			t.Errorf("?%s: the form's comparison measured no costs (squares %v, points %v)", q, s.SpritesCostQuadsMs, s.SpritesCostPointsMs)
		}
	}
}

// The occlusion culling changes no pixel: at 10,000 balls (four in ten
// of them hidden under later ones) the canvas with ?cull=on is the one
// with ?cull=off (both of points: culled balls are), after the same ticks (fast: the last frame drawn at
// the tick itself, alpha 0; with interpolation off at alpha 1), and the
// stats report the choice forced.
func TestWebCullingKeepsThePicture(t *testing.T) {
	for _, world := range []string{"balls=10000&seed=4&ticks=60&fast", "balls=10000&seed=9&ticks=45&fast&interp=false"} {
		hashes := map[string]uint32{}
		for _, cull := range []string{"on", "off"} {
			q := world + "&hud=false&graph=false&stats&sprites=points&cull=" + cull
			w := openPage(t, 120*time.Second, q)
			s := w.stats()
			var h uint32
			w.eval(canvasHash, &h)
			hashes[cull] = h
			if s.WorldTicks == 0 || s.CullMode != cull || s.Cull != cull {
				t.Errorf("?%s: %d ticks, cull %q (mode %q): want %s", q, s.WorldTicks, s.Cull, s.CullMode, cull)
			}
			switch cull {
			case "on":
				if s.CullHidden == nil || *s.CullHidden < 1000 {
					t.Errorf("?%s: %v balls hidden, want thousands", q, s.CullHidden)
				} else {
					t.Logf("?%s: %d of 10,000 balls culled in the last frame", q, *s.CullHidden)
				}
			case "off":
				if s.CullHidden != nil || s.CullCostOnMs != nil {
					t.Errorf("?%s: hidden %v, cost on %v: want none", q, s.CullHidden, s.CullCostOnMs)
				}
			}
		}
		if hashes["on"] != hashes["off"] {
			t.Errorf("%s: the picture culled (hash %08x) is not the picture drawn whole (%08x)", world, hashes["on"], hashes["off"])
		}
	}
}

// With ?cull=auto (the default) the page compares culling on and off on
// the frames after its warm-up, as the window does (off: the cheaper of
// the two forms unculled, with ?sprites=auto, in the page's one choice
// among three), and reports its choice and the costs behind it: the
// browser's GPU timer
// (EXT_disjoint_timer_query_webgl2) times the ball draw. Headless
// Chromium on SwiftShader offers it; the test says whether it did.
func TestWebCullingAutoChooses(t *testing.T) {
	q := "balls=10000&vsync=off&stats"
	w := openPage(t, 120*time.Second, q)
	var timer bool
	w.eval(`window.interpdemo.timer_query === true`, &timer)
	t.Logf("EXT_disjoint_timer_query_webgl2 offered: %v", timer)
	s := w.statsAfter(choiceFrames)
	if s.CullMode != "auto" || (s.Cull != "on" && s.Cull != "off") {
		t.Fatalf("?%s: cull %q, mode %q", q, s.Cull, s.CullMode)
	}
	if !timer {
		if s.Cull != "off" || s.CullCostOnMs != nil {
			t.Errorf("?%s: no GPU timer, yet cull %q with costs %v", q, s.Cull, s.CullCostOnMs)
		}
		return
	}
	ms := func(p *float64) float64 {
		if p == nil {
			t.Fatalf("?%s: a cost is missing: walk %v, gpu %v/%v, frame %v/%v", q,
				s.CullWalkMs, s.CullGPUOnMs, s.CullGPUOffMs, s.CullCostOnMs, s.CullCostOffMs)
		}
		return *p
	}
	walk, gpuOn, gpuOff, on, off := ms(s.CullWalkMs), ms(s.CullGPUOnMs), ms(s.CullGPUOffMs), ms(s.CullCostOnMs), ms(s.CullCostOffMs)
	t.Logf("?%s: cull %s; walk %.2f ms, ball draw's GPU time %.2f ms on, %.2f ms off; frame %.2f ms on, %.2f ms off; %.1f FPS",
		q, s.Cull, walk, gpuOn, gpuOff, on, off, s.FPS)
	if walk <= 0 || gpuOn <= 0 || gpuOff <= 0 || on < walk {
		t.Errorf("?%s: implausible costs: walk %v, gpu %v/%v, frame on %v", q, walk, gpuOn, gpuOff, on)
	}
	// The choice follows what it measured, within adaptive.Margin's
	// hysteresis: checked against its last comparison, whose two costs
	// were measured in turn (the last costs of culling and of the forms
	// may come from different comparisons).
	lastComparisonAgrees(t, w, q, optionInForce(s))
}

// A browser without EXT_disjoint_timer_query_webgl2 (hidden here from
// the page) has nothing to measure what culling saves with: auto stays
// off, with no costs to report; ?cull=on still culls.
func TestWebCullingWithoutTimer(t *testing.T) {
	file := noTimerPage(t)
	for _, c := range []struct{ query, want string }{
		{"balls=10000&vsync=off&duration=4s&stats", "off"},
		{"balls=10000&vsync=off&duration=3s&stats&cull=on", "on"},
	} {
		w := openPageFile(t, 60*time.Second, file, c.query)
		var timer bool
		w.eval(`window.interpdemo.timer_query === true`, &timer)
		s := w.stats()
		if timer {
			t.Fatalf("?%s: the page found the hidden timer", c.query)
		}
		if s.Cull != c.want || s.CullCostOnMs != nil || s.CullCostOffMs != nil || s.CullWalkMs != nil {
			t.Errorf("?%s without a GPU timer: cull %q (want %s), costs %v/%v, walk %v",
				c.query, s.Cull, c.want, s.CullCostOnMs, s.CullCostOffMs, s.CullWalkMs)
		}
	}
}

// A page whose loader does not hand the WebAssembly exports over (the
// loop calls one a frame) gets one line saying what to do, and draws
// nothing.
func TestWebLoaderWithoutExportsGetsAClearError(t *testing.T) {
	dir, url := buildWeb(t)
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	const handOver = "window.interpdemoWasm = r.instance.exports;"
	if !bytes.Contains(index, []byte(handOver)) {
		t.Fatalf("index.html does not hand the exports over with %q", handOver)
	}
	bare := bytes.Replace(index, []byte(handOver), nil, 1)
	if err := os.WriteFile(filepath.Join(dir, "bare.html"), bare, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := browser(t).NewPage(ctx, url+"/bare.html?stats")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	w := &webRun{t: t, ctx: ctx, page: p, query: "stats (bare.html)"}
	if s := w.waitState("running", "stopped", "error", "help"); s != "error" {
		t.Fatalf("state %s, want error", s)
	}
	want := "interpdemo: the page's loader must set window.interpdemoWasm to the WebAssembly instance's exports before go.run (see cmd/web/index.html)"
	if got := w.text("status"); got != want {
		t.Errorf("status %q, want %q", got, want)
	}
	var drawn bool
	w.eval(`(() => { const g = document.getElementById("world").getContext("webgl2");
		return g !== null && g.getParameter(g.CURRENT_PROGRAM) !== null; })()`, &drawn)
	if drawn {
		t.Error("the page set up its renderer without a loop to run it")
	}
}

// The page's frame rate at 10,000 balls with the culling forced on, off
// and chosen (auto), in turn, twice: a measurement for docs/WEB.md, not
// a check, run only when asked:
//
//	INTERPDEMO_WEB_MEASURE=1 go test -count=1 -v -run WebCullingFrameRate .
func TestWebCullingFrameRate(t *testing.T) {
	if os.Getenv("INTERPDEMO_WEB_MEASURE") != "1" {
		t.Skip("a measurement: INTERPDEMO_WEB_MEASURE=1 runs it")
	}
	for round := range 2 {
		for _, cull := range []string{"on", "off", "auto"} {
			q := "balls=10000&vsync=off&duration=10s&stats&cull=" + cull
			s := openPage(t, 120*time.Second, q).stats()
			t.Logf("round %d ?%s: %.1f FPS, %.2f TPS, cull %s", round+1, q, s.FPS, s.TPS, s.Cull)
		}
	}
}
