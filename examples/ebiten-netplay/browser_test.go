//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/examples/ebiten-netplay/puck"
	"github.com/interpdemo/interpdemo/netplay"
)

// The game through a lobby's room, for real: the repository's lobby
// (cmd/lobby, a process on 127.0.0.1, on a port the system picks), a
// native copy of the example in a window (this test binary, as in
// main_test.go) and the example built for the browser (GOOS=js
// GOARCH=wasm) in a headless Chromium, Debian's chromium, which draws
// with WebGL on SwiftShader. The test serves the page itself, from
// 127.0.0.1, and the page posts to that same server, with ?report, every
// line the program prints and its end (index.html): the test needs no
// DevTools. A missing chromium skips the test, or fails it under
// INTERPDEMO_REQUIRE_GL=1 (as the repository's page tests do).

// buildSite builds the page (index.html, wasm_exec.js and puck.wasm)
// and cmd/lobby into a temporary folder, and returns it.
func buildSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	goCmd := func(in string, env []string, args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = in, append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s (in %s): %v\n%s", strings.Join(args, " "), in, err, out)
		}
	}
	start := time.Now()
	goCmd(".", []string{"GOOS=js", "GOARCH=wasm"}, "build", "-trimpath", "-o", filepath.Join(dir, "puck.wasm"), ".")
	goCmd(filepath.Join("..", ".."), nil, "build", "-o", filepath.Join(dir, "lobby"), "./cmd/lobby")
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	for _, f := range [][2]string{
		{"index.html", "index.html"},
		{filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"), "wasm_exec.js"},
	} {
		b, err := os.ReadFile(f[0])
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, f[1]), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(filepath.Join(dir, "puck.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built puck.wasm (%d bytes) and cmd/lobby in %v", fi.Size(), time.Since(start).Round(time.Millisecond))
	return dir
}

// findChromium returns the browser, or skips the test (fails it under
// INTERPDEMO_REQUIRE_GL=1).
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("INTERPDEMO_REQUIRE_GL") == "1" {
		t.Fatal("no chromium to run the page in (INTERPDEMO_REQUIRE_GL=1)")
	}
	t.Skip("no chromium to run the page in (Debian: apt-get install chromium)")
	return ""
}

// startLobby starts cmd/lobby on 127.0.0.1 and returns its address once
// it listens; the test's end stops it.
func startLobby(t *testing.T, dir string, deadline <-chan time.Time) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(dir, "lobby"), "-addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	first := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			first <- sc.Text()
		}
		close(first)
		for sc.Scan() { // the rest of its log, unread
		}
	}()
	listening := regexp.MustCompile(`^lobby: listening on (127\.0\.0\.1:\d+)$`)
	select {
	case line := <-first:
		m := listening.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("the lobby's first line %q, want %q", line, listening)
		}
		return m[1]
	case <-deadline:
		t.Fatal("the lobby did not say where it listens in time")
	}
	return ""
}

// pageMsg is what the page posts: a line the program printed, or its end.
type pageMsg struct {
	Line *string  `json:"line"`
	End  *pageEnd `json:"end"`
}

// page is the example in a headless Chromium's page.
type page struct {
	t      *testing.T
	msgs   chan pageMsg
	log    []string // the lines so far
	cmd    *exec.Cmd
	stderr string // the browser's stderr, a file
	done   chan struct{}
	// When the browser started, and when the page said it was in the
	// room and that the game started.
	opened, entered, started time.Time
}

// serve serves the site from 127.0.0.1, with /report taking a page's
// posts, and returns its URL and the posts.
func serve(t *testing.T, dir string) (string, chan pageMsg) {
	t.Helper()
	msgs := make(chan pageMsg, 256)
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServer(http.Dir(dir)))
	mux.HandleFunc("POST /report", func(w http.ResponseWriter, r *http.Request) {
		var m pageMsg
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		select {
		case msgs <- m:
		default: // a page gone wild: the test fails on what it has
		}
	})
	srv := httptest.NewServer(mux) // 127.0.0.1
	t.Cleanup(srv.Close)
	return srv.URL, msgs
}

// openPage opens index.html?query&report=/report in a headless
// Chromium of its own; the test's end kills it.
func openPage(t *testing.T, browser, dir, query string) *page {
	t.Helper()
	base, msgs := serve(t, dir)
	profile, err := os.MkdirTemp("", "ebiten-netplay-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	stderr := filepath.Join(profile, "stderr")
	errFile, err := os.Create(stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	p := &page{t: t, msgs: msgs, stderr: stderr, done: make(chan struct{}), opened: time.Now()}
	p.cmd = exec.Command(browser,
		"--headless=new",
		"--no-sandbox", "--disable-gpu-sandbox", // we may run as root
		"--use-angle=swiftshader", "--enable-unsafe-swiftshader", // WebGL in software
		"--autoplay-policy=no-user-gesture-required",
		"--user-data-dir="+filepath.Join(profile, "profile"),
		"--no-first-run", "--no-default-browser-check", "--disable-extensions",
		"--disable-component-update", "--disable-background-networking", "--disable-sync",
		"--mute-audio", "--password-store=basic",
		"--disable-background-timer-throttling", "--disable-renderer-backgrounding",
		"--disable-backgrounding-occluded-windows",
		"--enable-logging=stderr", "--v=0", // the console's messages too
		"--window-size=640,480",
		base+"/index.html?"+query+"&report=/report")
	p.cmd.Stdout, p.cmd.Stderr = errFile, errFile
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its helpers go with it
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
		os.RemoveAll(profile)
	})
	return p
}

// failf fails the test with the page's lines and the browser's stderr.
func (p *page) failf(format string, args ...any) {
	p.t.Helper()
	b, _ := os.ReadFile(p.stderr)
	var console []string
	for l := range strings.Lines(string(b)) {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "WebGL") || strings.Contains(l, "GPU") {
			console = append(console, l)
		}
	}
	p.t.Fatalf("the page: "+format+"\nthe page's lines:\n\t%s\nthe browser's console and graphics lines:\n%s",
		append(args, strings.Join(p.log, "\n\t"), strings.Join(console, ""))...)
}

// next waits for the page's next post.
func (p *page) next(deadline <-chan time.Time, what string) pageMsg {
	p.t.Helper()
	select {
	case m := <-p.msgs:
		if m.Line != nil {
			p.log = append(p.log, *m.Line)
			switch l := *m.Line; {
			case strings.HasPrefix(l, "hosting the room ") || strings.HasPrefix(l, "joined the room "):
				p.entered = time.Now()
			case strings.HasPrefix(l, "game started"):
				p.started = time.Now()
			}
		}
		return m
	case <-p.done:
		p.failf("the browser exited (%v) before %s", p.cmd.ProcessState, what)
	case <-deadline:
		p.failf("no %s in time", what)
	}
	return pageMsg{}
}

// line waits for a line the program prints that starts with prefix.
func (p *page) line(prefix string, deadline <-chan time.Time) {
	p.t.Helper()
	for {
		m := p.next(deadline, fmt.Sprintf("line %q...", prefix))
		switch {
		case m.Line != nil && strings.HasPrefix(*m.Line, prefix):
			return
		case m.End != nil:
			p.failf("it ended (%+v) before a line %q...", *m.End, prefix)
		}
	}
}

// end waits for the program's end, which must be a clean one.
func (p *page) end(deadline <-chan time.Time) pageEnd {
	p.t.Helper()
	for {
		if m := p.next(deadline, "end"); m.End != nil {
			if m.End.State != "over" || m.End.Code != 0 {
				p.failf("it ended %+v; want a clean end", *m.End)
			}
			p.t.Logf("page: %s", m.End.Result)
			since := func(t time.Time) time.Duration { return t.Sub(p.opened).Round(time.Millisecond) }
			p.t.Logf("page: in the room %v after the browser's start, game started at %v, ended at %v", since(p.entered), since(p.started), since(time.Now()))
			return *m.End
		}
	}
}

// TestBrowser plays Puck between the page in Chromium and a native copy
// in a window, through the lobby's room, over WebRTC (pion natively, the
// browser's own data channels in the page), with bots, 300 ticks at 60
// per second: once with the native copy hosting (rollback) and the page
// joining, once with the page hosting (lockstep). Both must end cleanly
// at the tick limit in the state the same bots reach on one machine
// (puck.Simulate), so with the same hash.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a lobby, a window and a browser: about 30 s")
	}
	browser := findChromium(t)
	dir := buildSite(t)
	deadline := time.After(2 * time.Minute) // for a hung run, not a measurement
	lobbyAddr := startLobby(t, dir, deadline)
	const ticks, tps = 300, 60
	seeds := [puck.Players]uint64{1, 2}
	check := func(t *testing.T, netcode netplay.Netcode, native puck.Result, page pageEnd) {
		set := puck.DefaultSettings()
		set.TPS, set.Netcode = tps, netcode
		end := puck.Simulate(set, seeds, ticks)
		want := fmt.Sprintf("%016x", end.Hash())
		if native.Ticks != ticks || fmt.Sprintf("%016x", native.Hash) != want || native.Netcode != netcode {
			t.Errorf("the native copy ended at tick %d with hash %016x, %v; want tick %d, hash %s, %v", native.Ticks, native.Hash, native.Netcode, ticks, want, netcode)
		}
		if page.Ticks != ticks || page.Hash != want || page.Netcode != netcode.String() {
			t.Errorf("the page ended at tick %d with hash %s, %s; want tick %d, hash %s, %v", page.Ticks, page.Hash, page.Netcode, ticks, want, netcode)
		}
	}
	game := fmt.Sprintf("-ticks=%d -tps=%d", ticks, tps)
	// A page's frames stall now and then on a loaded machine (Chromium
	// draws with SwiftShader, on the CPU): over 2 s, netplay's default,
	// the other player counts it gone.
	const timeout = "-net-timeout=30s"

	t.Run("native hosts, page joins", func(t *testing.T) {
		begin := time.Now()
		room := "ws://" + lobbyAddr + "/native-hosts"
		native := start(t, "native", append([]string{"-lobby", room, "-bot", "1", "-netcode", "rollback", timeout}, strings.Fields(game)...)...)
		native.line("hosting the room ", deadline)
		p := openPage(t, browser, dir, "lobby="+url.QueryEscape(room)+"&bot=2&net-timeout=30s")
		pe := p.end(deadline)
		check(t, netplay.Rollback, native.result(deadline), pe)
		t.Logf("%v from the native copy's start to both ends", time.Since(begin).Round(time.Millisecond))
	})
	t.Run("page hosts, native joins", func(t *testing.T) {
		begin := time.Now()
		room := "ws://" + lobbyAddr + "/page-hosts"
		p := openPage(t, browser, dir, fmt.Sprintf("lobby=%s&bot=1&netcode=lockstep&ticks=%d&tps=%d&net-timeout=30s", url.QueryEscape(room), ticks, tps))
		p.line("hosting the room ", deadline)
		native := start(t, "native", "-lobby", room, "-bot", "2", timeout)
		native.line("joined the room ", deadline)
		pe := p.end(deadline)
		check(t, netplay.Lockstep, native.result(deadline), pe)
		t.Logf("%v from the page's opening to both ends", time.Since(begin).Round(time.Millisecond))
	})
}
