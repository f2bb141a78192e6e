package cdp

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// The shared browser's window size; other sizes catch a size that is
// not passed through.
const winW, winH = 640, 400

// shared is the browser most tests use, started by the first of them and
// ended by TestMain.
var shared struct {
	once sync.Once
	b    *Browser
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.b != nil {
		shared.b.Close()
	}
	os.Exit(code)
}

// browserPath returns the browser to test, or skips the test where there
// is none (fails under INTERPDEMO_REQUIRE_GL=1, where there must be one).
func browserPath(t *testing.T) string {
	t.Helper()
	path, err := Find()
	if err != nil {
		if os.Getenv("INTERPDEMO_REQUIRE_GL") == "1" {
			t.Fatalf("INTERPDEMO_REQUIRE_GL=1 but: %v", err)
		}
		t.Skipf("skipping: %v", err)
	}
	return path
}

// launch starts a browser of the test's own, closed when the test ends.
func launch(t *testing.T, ctx context.Context, w, h int) *Browser {
	t.Helper()
	b, err := Launch(ctx, Options{Path: browserPath(t), Width: w, Height: h})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// sharedBrowser returns the shared browser, starting it on first use.
func sharedBrowser(t *testing.T) *Browser {
	t.Helper()
	path := browserPath(t)
	shared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		shared.b, shared.err = Launch(ctx, Options{Path: path, Width: winW, Height: winH})
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.b
}

// open serves html and opens it in a new page of the shared browser,
// with a context that ends with the test or after timeout.
func open(t *testing.T, timeout time.Duration, html string) (context.Context, *Page) {
	t.Helper()
	b := sharedBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(html))
	}))
	t.Cleanup(srv.Close)
	p, err := b.NewPage(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("console: %q", p.Console())
		}
		p.Close()
	})
	return ctx, p
}

func TestEval(t *testing.T) {
	ctx, p := open(t, 20*time.Second, `<title>hello</title><script>window.answer = 42;</script>`)
	var got struct {
		Title  string
		Answer int
		List   []float64
	}
	err := p.Eval(ctx, `({title: document.title, answer: window.answer, list: [1, 2.5]})`, &got)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "hello" || got.Answer != 42 || len(got.List) != 2 || got.List[1] != 2.5 {
		t.Errorf("got %+v, want title hello, answer 42, list [1 2.5]", got)
	}

	var n int
	if err := p.Eval(ctx, `new Promise(r => setTimeout(() => r(7), 10))`, &n); err != nil || n != 7 {
		t.Errorf("awaiting a promise: got %d, %v; want 7", n, err)
	}
	if err := p.Eval(ctx, `console.log("from", "the page", 3)`, nil); err != nil {
		t.Errorf("nil out: %v", err)
	}
	if c := p.Console(); !contains(c, "log: from the page 3") {
		t.Errorf("console is %q, want a line %q", c, "log: from the page 3")
	}

	err = p.Eval(ctx, `(() => { throw new Error("boom at the page") })()`, &n)
	if err == nil || !strings.Contains(err.Error(), "Error: boom at the page") {
		t.Errorf("a thrown error gave %v, want one with its message", err)
	}
	err = p.Eval(ctx, `Promise.reject(new TypeError("rejected"))`, nil)
	if err == nil || !strings.Contains(err.Error(), "TypeError: rejected") {
		t.Errorf("a rejected promise gave %v, want one with its message", err)
	}
	if err := p.Eval(ctx, `0/0`, &n); err == nil {
		t.Errorf("NaN into an int gave no error")
	}
}

func TestProtocolError(t *testing.T) {
	b := sharedBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := b.call(ctx, "", "Nonsense.method", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "Nonsense.method") || !strings.Contains(err.Error(), "wasn't found") {
		t.Errorf("got %v, want an error naming the method and saying it was not found", err)
	}
}

// TestNewPageFails checks that a page that cannot load is an error that
// says why.
func TestNewPageFails(t *testing.T) {
	b := sharedBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/"
	ln.Close() // nothing listens there now
	if _, err := b.NewPage(ctx, url); err == nil || !strings.Contains(err.Error(), "ERR_CONNECTION_REFUSED") {
		t.Errorf("loading %s gave %v, want a refused connection", url, err)
	}
}

func TestWaitFor(t *testing.T) {
	ctx, p := open(t, 20*time.Second, `<script>
		setTimeout(() => { window.ready = true; }, 300);
	</script>`)
	start := time.Now()
	if err := p.WaitFor(ctx, `window.ready === true`); err != nil {
		t.Fatal(err)
	}
	t.Logf("ready after %v", time.Since(start))

	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	err := p.WaitFor(short, `window.never`)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting for what never comes gave %v, want the deadline", err)
	}

	err = p.WaitFor(ctx, `window.no.such.thing`)
	if err == nil || !strings.Contains(err.Error(), "TypeError") {
		t.Errorf("a condition that throws gave %v, want its TypeError", err)
	}
}

// TestAnimationFrames checks that pages get animation frames, as a game
// loop needs. The rate is logged, not checked: it is the machine's.
func TestAnimationFrames(t *testing.T) {
	ctx, p := open(t, 20*time.Second, `<script>
		window.stamps = [];
		const tick = now => { window.stamps.push(now); requestAnimationFrame(tick); };
		requestAnimationFrame(tick);
	</script>`)
	if err := p.WaitFor(ctx, `window.stamps.length >= 90`); err != nil {
		t.Fatal(err)
	}
	var rate float64
	if err := p.Eval(ctx, `(() => {
		const f = window.stamps.slice(30, 90);
		return 59 * 1000 / (f[59] - f[0]);
	})()`, &rate); err != nil {
		t.Fatal(err)
	}
	t.Logf("%.1f frames a second", rate)
}

func TestKeys(t *testing.T) {
	ctx, p := open(t, 20*time.Second, `<script>
		window.events = [];
		const record = e => window.events.push(
			{type: e.type, code: e.code, key: e.key, shift: e.shiftKey, keyCode: e.keyCode});
		document.addEventListener("keydown", record);
		document.addEventListener("keyup", record);
	</script>`)
	type event struct {
		Type, Code, Key string
		Shift           bool
		KeyCode         int
	}
	press := func(code, key string, shift bool, keyCode int) []event {
		return []event{{"keydown", code, key, shift, keyCode}, {"keyup", code, key, shift, keyCode}}
	}
	var want []event
	for _, k := range []struct {
		name    string
		shift   bool
		code    string
		key     string
		keyCode int
	}{
		{"Space", false, "Space", " ", 32},
		{"A", false, "KeyA", "a", 65},
		{"KeyQ", false, "KeyQ", "q", 81},
		{"Z", true, "KeyZ", "Z", 90},
		{"Escape", false, "Escape", "Escape", 27},
		{"F1", false, "F1", "F1", 112},
		{"ArrowLeft", false, "ArrowLeft", "ArrowLeft", 37},
		{"ArrowDown", false, "ArrowDown", "ArrowDown", 40},
		{"PageUp", false, "PageUp", "PageUp", 33},
		{"BracketRight", false, "BracketRight", "]", 221},
		{"Equal", true, "Equal", "+", 187},
		{"Minus", false, "Minus", "-", 189},
		{"Slash", true, "Slash", "?", 191},
	} {
		if err := p.KeyWith(ctx, k.name, k.shift); err != nil {
			t.Fatal(err)
		}
		if k.shift {
			want = append(want, event{"keydown", "ShiftLeft", "Shift", true, 16})
		}
		want = append(want, press(k.code, k.key, k.shift, k.keyCode)...)
		if k.shift {
			want = append(want, event{"keyup", "ShiftLeft", "Shift", false, 16})
		}
	}
	var got []event
	if err := p.Eval(ctx, `window.events`, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d events, want %d:\ngot  %+v\nwant %+v", len(got), len(want), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d: got %+v, want %+v", i, got[i], want[i])
		}
	}

	if err := p.Key(ctx, "NoSuchKey"); err == nil || !strings.Contains(err.Error(), "NoSuchKey") {
		t.Errorf("an unknown key gave %v, want an error naming it", err)
	}
}

// TestWebGL2 checks that a page gets a WebGL2 context that draws: a clear
// to a colour reads back as that colour.
func TestWebGL2(t *testing.T) {
	ctx, p := open(t, 20*time.Second, `<canvas id="c" width="16" height="16"></canvas>`)
	var got struct {
		Renderer string
		Pixel    []int
	}
	err := p.Eval(ctx, `(() => {
		const gl = document.getElementById("c").getContext("webgl2");
		if (!gl) throw new Error("no WebGL2 context");
		gl.clearColor(0.2, 0.4, 0.6, 1.0);
		gl.clear(gl.COLOR_BUFFER_BIT);
		const px = new Uint8Array(4);
		gl.readPixels(8, 8, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
		const info = gl.getExtension("WEBGL_debug_renderer_info");
		return {
			renderer: gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER),
			pixel: Array.from(px),
		};
	})()`, &got)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("renderer: %s", got.Renderer)
	want := []int{51, 102, 153, 255}
	if len(got.Pixel) != 4 {
		t.Fatalf("read %v, want 4 bytes", got.Pixel)
	}
	for i := range want {
		if d := got.Pixel[i] - want[i]; d < -2 || d > 2 {
			t.Fatalf("read %v, want %v within 2", got.Pixel, want)
		}
	}
}

func TestScreenshot(t *testing.T) {
	ctx, p := open(t, 20*time.Second, `<style>html, body { margin: 0; background: rgb(200, 40, 10); }</style>`)
	data, err := p.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decoding the screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != winW || b.Dy() != winH {
		t.Errorf("screenshot is %dx%d, want the window's %dx%d", b.Dx(), b.Dy(), winW, winH)
	}
	r, g, b, _ := img.At(winW/2, winH/2).RGBA()
	if r>>8 != 200 || g>>8 != 40 || b>>8 != 10 {
		t.Errorf("the middle is rgb(%d, %d, %d), want the page's rgb(200, 40, 10)", r>>8, g>>8, b>>8)
	}
}

func TestConsoleException(t *testing.T) {
	ctx, p := open(t, 20*time.Second, `<script>
		console.warn("careful");
		setTimeout(() => { throw new RangeError("uncaught here"); }, 0);
		setTimeout(() => { window.done = true; }, 50);
	</script>`)
	if err := p.WaitFor(ctx, `window.done`); err != nil {
		t.Fatal(err)
	}
	c := p.Console()
	if !contains(c, "warning: careful") || !contains(c, "exception: RangeError: uncaught here\n") {
		t.Errorf("console is %q, want the warning and the exception", c)
	}
}

func TestClose(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b := launch(t, ctx, 320, 240)
	if !strings.Contains(b.Version(), "Chrome/") {
		t.Errorf("version %q, want a Chrome product", b.Version())
	}
	start := time.Now()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("closed in %v", time.Since(start))
	if b.cmd.ProcessState == nil {
		t.Errorf("the browser's process was not waited for")
	} else {
		t.Logf("the browser ended with %v", b.cmd.ProcessState)
	}
	if _, err := os.Stat(b.profile); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("profile %s after Close: %v, want it gone", b.profile, err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := b.NewPage(ctx, "about:blank"); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("NewPage after Close gave %v, want an error saying the browser was closed", err)
	}
}

// TestBrowserDies checks that a browser that dies fails the calls waiting
// for it at once, rather than at their deadline.
func TestBrowserDies(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b := launch(t, ctx, 320, 240)
	p, err := b.NewPage(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	failed := make(chan error, 1)
	go func() { failed <- p.WaitFor(ctx, `(window.waiting = true, false)`) }()
	if err := p.WaitFor(ctx, `window.waiting`); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	b.cmd.Process.Kill()
	select {
	case err := <-failed:
		t.Logf("failed after %v: %v", time.Since(killed), err)
		if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "exited") {
			t.Errorf("got %v, want an error saying the browser exited", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a call was still waiting 5 s after the browser died")
	}
	if err := p.Eval(ctx, `1`, nil); err == nil {
		t.Error("a call after the browser died succeeded")
	}
}

func TestNoBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const path = "/nonexistent/chromium"
	_, err := Launch(ctx, Options{Path: path})
	if err == nil || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Errorf("got %v, want a not-found error naming %s", err, path)
	}

	t.Setenv(envBrowser, path)
	if _, err := Find(); err == nil || !strings.Contains(err.Error(), envBrowser) {
		t.Errorf("Find with %s=%s gave %v, want an error naming the variable", envBrowser, path, err)
	}
}

// TestEarlyExit checks that a browser that exits at once is reported with
// what it printed.
func TestEarlyExit(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	script := t.TempDir() + "/fake-browser"
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'fake browser: cannot open display' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Launch(ctx, Options{Path: script})
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "cannot open display") {
		t.Errorf("got %v, want the exit status and the stderr", err)
	}
}

// contains reports whether one of lines is s or, where s ends with a
// newline, starts with s.
func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s || strings.HasSuffix(s, "\n") && strings.HasPrefix(l, s) {
			return true
		}
	}
	return false
}
