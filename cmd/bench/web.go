package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"

	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/cdp"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/internal/xvfb"
)

// webResults are the page's figures: its size, its frame rate in
// headless Chromium against the native demo's, and the pacer's error on
// animation frames.
type webResults struct {
	wasmBytes, gzipBytes int64
	browser, renderer    string
	rows                 []webRow
	pacing               *report.Stats // ?balls=1, vsync on: animation frames
	pacingQuery          string
	secs                 string
	// A room's game: a native host through a lobby, the page its joiner.
	roomHost, roomPage *report.Stats
	roomQuery          string
	peer               *peerResults // beside Ebitengine's wasm build
}

// webRow is one ball count: the page (vsync off: frames as fast as the
// browser runs them), the native demo in a window under Xvfb and
// headless, all with vsync off and default overlays.
type webRow struct {
	balls            int
	page             *report.Stats
	window, headless *report.Stats
}

// web measures the page.
func web(o *options, r *results) error {
	w, err := measureWeb(o)
	if err != nil {
		return err
	}
	r.web = w
	return nil
}

func measureWeb(o *options) (*webResults, error) {
	pr, err := startPages(o)
	if err != nil {
		return nil, err
	}
	defer pr.stop()
	res := &webResults{secs: o.dur("10s"), wasmBytes: pr.wasmBytes, gzipBytes: pr.gzipBytes, browser: pr.browser.Version()}
	ctx, page := pr.ctx, pr.page
	if o.roomOnly {
		return res, res.roomGame(ctx, o, page)
	}
	x, err := xvfb.Start(15 * time.Second)
	if err != nil {
		return nil, fmt.Errorf("%v (make test-deps installs Xvfb)", err)
	}
	defer x.Stop()
	display := x.Display
	for _, n := range []int{1, 1000, 10_000} {
		row := webRow{balls: n}
		q := fmt.Sprintf("balls=%d&vsync=off&duration=%s&stats", n, res.secs)
		if row.page, err = page(q); err != nil {
			return nil, err
		}
		args := []string{"-balls", strconv.Itoa(n), "-vsync", "off", "-duration", res.secs, "-stats"}
		if row.window, err = nativeIn(o, display, args...); err != nil {
			return nil, err
		}
		if row.headless, err = nativeIn(o, "", append(args, "-headless")...); err != nil {
			return nil, err
		}
		res.renderer = row.page.GLRenderer
		res.rows = append(res.rows, row)
	}
	if res.peer, err = measurePeer(o, pr); err != nil {
		return nil, err
	}
	res.pacingQuery = "balls=1&duration=" + res.secs + "&stats"
	if res.pacing, err = page(res.pacingQuery); err != nil {
		return nil, err
	}
	if err := res.roomGame(ctx, o, page); err != nil {
		return nil, fmt.Errorf("a room's game with the page: %v", err)
	}
	return res, nil
}

// pageRunner is the page as make web builds it, served from 127.0.0.1,
// and a headless Chromium to run it in.
type pageRunner struct {
	ctx                  context.Context
	browser              *cdp.Browser
	url                  string
	dir                  string // what is served: the page, and Ebitengine's build under ebiten/
	wasmBytes, gzipBytes int64
	stop                 func()
}

// startPages builds the page, serves it and starts the browser, within
// 15 minutes; stop ends them.
func startPages(o *options) (*pageRunner, error) {
	dir, err := os.MkdirTemp("", "interpdemo-bench-web-")
	if err != nil {
		return nil, err
	}
	var stops []func()
	pr := &pageRunner{stop: func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}}
	pr.dir = dir
	stops = append(stops, func() { os.RemoveAll(dir) })
	fail := func(err error) (*pageRunner, error) {
		pr.stop()
		return nil, err
	}
	wasm := filepath.Join(dir, "interpdemo.wasm")
	cmd := exec.Command(o.goTool, "build", "-trimpath", "-o", wasm, "./cmd/web")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("building the page: %v: %s", err, out))
	}
	goroot, err := exec.Command(o.goTool, "env", "GOROOT").Output()
	if err != nil {
		return fail(err)
	}
	for _, f := range [][2]string{{"cmd/web/index.html", "index.html"}, {filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"), "wasm_exec.js"}} {
		b, err := os.ReadFile(f[0])
		if err != nil {
			return fail(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f[1]), b, 0o644); err != nil {
			return fail(err)
		}
	}
	b, err := os.ReadFile(wasm)
	if err != nil {
		return fail(err)
	}
	pr.wasmBytes = int64(len(b))
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	pr.gzipBytes = int64(gz.Len())

	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	stops = append(stops, srv.Close)
	pr.url = srv.URL
	path, err := cdp.Find()
	if err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	stops = append(stops, cancel)
	pr.ctx = ctx
	if pr.browser, err = cdp.Launch(ctx, cdp.Options{Path: path, Width: 1100, Height: 760}); err != nil {
		return fail(err)
	}
	stops = append(stops, func() { pr.browser.Close() })
	return pr, nil
}

// Quiet: a program's run starts once the browser's processes used under
// quietCPU of a processor over a quietSpan (at most quietWait later):
// closing the page before, on the GPU process and in the renderers, took
// a processor for up to half a second, within the next program's run.
const (
	quietSpan = 250 * time.Millisecond
	quietCPU  = 0.25
	quietWait = 10 * time.Second
)

// settle waits until the browser is quiet, or quietWait has passed (the
// run then starts anyway), or where its CPU time cannot be read.
func (pr *pageRunner) settle() {
	prev, err := pr.browser.CPUTime()
	for end := time.Now().Add(quietWait); err == nil && time.Now().Before(end); {
		time.Sleep(quietSpan)
		var now time.Duration
		if now, err = pr.browser.CPUTime(); err == nil && float64(now-prev) < quietCPU*float64(quietSpan) {
			return
		}
		prev = now
	}
}

// page runs the page with query (?stats among it) to its end, from a
// quiet browser, and returns its -stats.
func (pr *pageRunner) page(query string) (*report.Stats, error) {
	ctx := pr.ctx
	pr.settle()
	p, err := pr.browser.NewPage(ctx, pr.url+"/?"+query)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	if err := p.WaitFor(ctx, `window.interpdemo && (window.interpdemo.state === "stopped" || window.interpdemo.state === "error")`); err != nil {
		return nil, fmt.Errorf("?%s: %v", query, err)
	}
	var line, state string
	if err := p.Eval(ctx, `document.getElementById("stats").textContent`, &line); err != nil {
		return nil, err
	}
	p.Eval(ctx, `window.interpdemo.state`, &state)
	if state != "stopped" {
		return nil, fmt.Errorf("?%s: %s", query, line)
	}
	return report.Parse([]byte(line))
}

// roomGame plays a game through a lobby's room: a native host, the page
// its joiner.
func (w *webResults) roomGame(ctx context.Context, o *options, page func(string) (*report.Stats, error)) error {
	lobbyBin, err := buildLobby(o)
	if err != nil {
		return err
	}
	addr, stop, err := startLobbyProc(ctx, lobbyBin)
	if err != nil {
		return err
	}
	defer stop()
	room := "ws://" + addr + "/page"
	host := exec.CommandContext(ctx, o.bin, append([]string{"-lobby", room, "-bot", "1"}, lobbyArgs...)...)
	var hostOut bytes.Buffer
	host.Stdout, host.Env = &hostOut, benchEnv(nil)
	hp, err := host.StderrPipe()
	if err != nil {
		return err
	}
	if err := host.Start(); err != nil {
		return err
	}
	defer host.Process.Kill()
	hw := watchLines(hp, hostingAnyRe)
	select {
	case <-hw.hit:
	case <-hw.done:
		return fmt.Errorf("the host ended before it hosted: %s", hw.String())
	case <-ctx.Done():
		return fmt.Errorf("the host did not host: %s", hw.String())
	}
	w.roomQuery = "lobby=" + room + "&bot=2&ticks=300&netcode=rollback&stats"
	if w.roomPage, err = page(w.roomQuery); err != nil {
		return err
	}
	<-hw.done
	if err := host.Wait(); err != nil {
		return fmt.Errorf("host: %v: %s", err, hw.String())
	}
	if w.roomHost, err = report.Parse(bytes.TrimSpace(hostOut.Bytes())); err != nil {
		return fmt.Errorf("host's -stats: %v", err)
	}
	if w.roomHost.StateHash != w.roomPage.StateHash || w.roomPage.Net == nil || w.roomPage.Net.Transport != "webrtc" {
		return fmt.Errorf("the page and the host disagree: %s against %s", w.roomPage.StateHash, w.roomHost.StateHash)
	}
	return nil
}

// nativeIn runs the native demo with args in the X display (a window), or
// headless with display "", and returns its -stats.
func nativeIn(o *options, display string, args ...string) (*report.Stats, error) {
	var extra []string
	if display != "" {
		extra = []string{"DISPLAY=" + display}
	}
	return runStats(o, extra, args)
}

// writeWeb writes the browser's section.
func (w *webResults) write(p func(string, ...any)) {
	if w == nil {
		return
	}
	p("## In a browser\n\n")
	p("The page of `make web`, served from 127.0.0.1, in headless %s with SwiftShader (WebGL on the CPU, as llvmpipe is GL on the CPU), against the native demo in the same run: `bin/interpdemo -vsync off -duration %s -stats -balls N` in a window under Xvfb, and with `-headless`. The page: `?balls=N&vsync=off&duration=%s&stats`.\n\n", w.browser, w.secs, w.secs)
	p("- `interpdemo.wasm`: %s bytes, %s gzipped (`go build -trimpath`, %s).\n", commas(w.wasmBytes), commas(w.gzipBytes), "GOOS=js GOARCH=wasm")
	p("- WebGL renderer: %s.\n\n", w.renderer)
	p("| balls | page FPS | page frame p50 ms | page TPS | native, window FPS | native, headless FPS | page / window | allocs after warm-up (page) | GC cycles (page) |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range w.rows {
		p("| %s | %.1f | %.3f | %.2f | %.1f | %.1f | %.2fx | %s | %s |\n", commas(int64(r.balls)), r.page.FPS, r.page.FrameMsP50, r.page.TPS,
			r.window.FPS, r.headless.FPS, r.page.FPS/r.window.FPS, intOr(r.page.AllocsAfterWarmup), intOr(r.page.GCAfterWarmup))
	}
	w.peer.write(p)
	w.writeRoom(p)
	if s := w.pacing; s != nil {
		p("\nFrame pacing on animation frames (`?%s`: vsync on, a frame per `requestAnimationFrame`, each frame's vblank its timestamp plus the refresh interval): refresh %s ms, display step error p99 %s ms, %.1f FPS, %.2f TPS, pacing %s.\n\n",
			w.pacingQuery, floatOr(s.RefreshMs, "%.2f"), floatOr(s.DisplayStepErrorMsP99, "%.3f"), s.FPS, s.TPS, s.Pacing)
	}
}

// writeRoom writes the line on the room's game, the page joining a native
// host through a lobby.
func (w *webResults) writeRoom(p func(string, ...any)) {
	s := w.roomPage
	if s == nil || s.Net == nil || w.roomHost == nil || w.roomHost.Net == nil {
		return
	}
	p("\nThrough a lobby's room (see NETPLAY.md): a native host (`bin/interpdemo -lobby ws://127.0.0.1:PORT/page -bot 1 %s`) and the page its joiner (`?%s`), over WebRTC (the browser's data channels against pion's): the page's first shared tick came %.0f ms after its program started, the host's %.0f ms; both ended at tick %d with the state hash %s; the page sent %s bytes a second of netplay's, the host %s.\n",
		strings.Join(lobbyArgs, " "), w.roomQuery, s.Net.StartMs, w.roomHost.Net.StartMs, s.WorldTicks, s.StateHash, commas(int64(s.SendBytesPerS+0.5)), commas(int64(w.roomHost.SendBytesPerS+0.5)))
}
