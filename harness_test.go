package main

// The end-to-end harness: the real binary, built once per test run, run in
// a real window on an Xvfb server (or headless through SDL's offscreen
// driver), driven with xdotool key presses.
//
// The tests never sleep to let time pass. They wait, with a deadline, for
// something they can observe: the window title (rebuilt at once after a
// command key and every 500 ms), the process exiting (-ticks N ends a run
// after exactly N ticks), a file. Rates and timings belong to the bench
// command (make bench), not to tests.

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/internal/trace"
	xserver "github.com/interpdemo/interpdemo/internal/xvfb"
)

var binPath string

func TestMain(m *testing.M) {
	flag.Parse()
	gamesInParallel()
	dir, err := os.MkdirTemp("", "interpdemo-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "interpdemo")
	// go test puts its own GOROOT/bin first in the test's PATH, so this is
	// the go command running the tests.
	goTool, err := exec.LookPath("go")
	if err != nil {
		fmt.Fprintf(os.Stderr, "no go command to build the demo with: %v\n", err)
		os.Exit(1)
	}
	if out, err := exec.Command(goTool, "build", "-o", binPath, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the demo: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	stopXvfb()
	stopWeb()
	os.RemoveAll(dir)
	os.Exit(code)
}

// parallelGames is how many of the tests marked parallel run at once,
// unless -test.parallel says: they are the network games, which play in
// real time (750 ticks are 30 s) and use a fraction of a core each, so
// that go test's default (GOMAXPROCS, 2 here) left the machine mostly
// idle for some 230 s of the package's 505 (2026-11-27, this 2-core
// machine); 4 at once ran the same tests in 138 s instead of about 260,
// on 1.4 cores.
const parallelGames = 4

// gamesInParallel sets -test.parallel to parallelGames where the command
// line did not set it.
func gamesInParallel() {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(parallelGames))
	}
}

// needDisplay skips the test when the environment lacks what it needs,
// except under INTERPDEMO_REQUIRE_GL=1 (make test, CI) where it fails.
func needDisplay(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("INTERPDEMO_REQUIRE_GL") == "1" {
		t.Fatalf("required for this test (INTERPDEMO_REQUIRE_GL=1): "+format, args...)
	}
	t.Skipf(format, args...)
}

var xv struct {
	once    sync.Once
	srv     *xserver.Server
	display string
	err     error
}

// xvfb returns the DISPLAY of an Xvfb server shared by the tests, started
// on first use on a free display number (Xvfb picks it: -displayfd).
func xvfb(t *testing.T) string {
	t.Helper()
	xv.once.Do(func() {
		for _, tool := range []string{"Xvfb", "xdotool"} {
			if _, err := exec.LookPath(tool); err != nil {
				xv.err = fmt.Errorf("%s not installed (make test installs it)", tool)
				return
			}
		}
		xv.srv, xv.err = xserver.Start(15 * time.Second)
		if xv.err == nil {
			xv.display = xv.srv.Display
		}
	})
	if xv.err != nil {
		needDisplay(t, "no Xvfb: %v", xv.err)
	}
	return xv.display
}

func stopXvfb() {
	if xv.srv != nil {
		xv.srv.Stop()
	}
}

// output collects what a process writes, safe to read while it runs.
type output struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Write(p)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// demo is one run of the binary.
type demo struct {
	t              *testing.T
	args           []string
	cmd            *exec.Cmd
	stdout, stderr output
	done           chan struct{}
	killed         atomic.Bool // by the test's cleanup
	display        string
	win            string
}

// env returns the environment for a run: the test's, with DISPLAY,
// WAYLAND_DISPLAY and SDL_VIDEODRIVER replaced (display "" removes them).
func env(display string) []string {
	var e []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "DISPLAY=") || strings.HasPrefix(kv, "WAYLAND_DISPLAY=") || strings.HasPrefix(kv, "SDL_VIDEODRIVER=") {
			continue
		}
		e = append(e, kv)
	}
	if display != "" {
		e = append(e, "DISPLAY="+display)
	}
	// A GL debug context: the demo exits 1 naming the first GL error.
	return append(e, platform.DebugEnv+"=1")
}

// startDemo starts the binary; the test's cleanup kills it if it is still
// running then.
func startDemo(t *testing.T, display string, args ...string) *demo {
	t.Helper()
	return startDemoEnv(t, display, nil, args...)
}

// startDemoEnv is startDemo with the variables extra (KEY=VALUE) added to
// the environment.
func startDemoEnv(t *testing.T, display string, extra []string, args ...string) *demo {
	t.Helper()
	return startDemoVia(t, nil, display, extra, args...)
}

// startDemoVia is startDemoEnv with the binary run by the command via
// (its program and first arguments, such as chrt -f 1), or directly
// where via is empty.
func startDemoVia(t *testing.T, via []string, display string, extra []string, args ...string) *demo {
	t.Helper()
	d := &demo{t: t, args: args, display: display, done: make(chan struct{})}
	cmd := exec.Command(binPath, args...)
	if len(via) > 0 {
		cmd = exec.Command(via[0], append(append(via[1:len(via):len(via)], binPath), args...)...)
	}
	cmd.Env = append(env(display), extra...)
	d.start(cmd)
	return d
}

// start starts cmd as d's process, its output kept in d; the test's
// cleanup kills it if it is still running.
func (d *demo) start(cmd *exec.Cmd) {
	d.t.Helper()
	d.cmd = cmd
	d.cmd.Stdout, d.cmd.Stderr = &d.stdout, &d.stderr
	if err := d.cmd.Start(); err != nil {
		d.t.Fatal(err)
	}
	go func() {
		d.cmd.Wait()
		if st := d.cmd.ProcessState; !d.killed.Load() && st != nil && st.ExitCode() == -1 {
			// Ended by a signal (its exit status reads -1): say which,
			// whatever the test checks of it.
			d.t.Logf("interpdemo %v: %v", d.args, st)
		}
		close(d.done)
	}()
	d.t.Cleanup(func() {
		select {
		case <-d.done:
		default:
			d.killed.Store(true)
			d.cmd.Process.Kill()
			<-d.done
		}
	})
}

// runDemo runs the binary to completion, within timeout.
func runDemo(t *testing.T, display string, timeout time.Duration, args ...string) *demo {
	t.Helper()
	d := startDemo(t, display, args...)
	d.mustExit(timeout)
	return d
}

// wait waits up to timeout for the process to exit and returns its
// status.
func (d *demo) wait(timeout time.Duration) (code int, exited bool) {
	select {
	case <-d.done:
	case <-time.After(timeout):
		return 0, false
	}
	return d.cmd.ProcessState.ExitCode(), true
}

// mustExit waits up to timeout for the process to exit; the test fails
// at once if it does not.
func (d *demo) mustExit(timeout time.Duration) int {
	d.t.Helper()
	code, ok := d.wait(timeout)
	if !ok {
		d.t.Fatalf("interpdemo %v did not exit within %v\nstderr: %s", d.args, timeout, d.stderr.String())
	}
	return code
}

// mustSucceed waits for the process to exit with status 0.
func (d *demo) mustSucceed(timeout time.Duration) {
	d.t.Helper()
	if code := d.mustExit(timeout); code != 0 {
		d.t.Fatalf("interpdemo %v: exit status %d\nstderr: %s", d.args, code, d.stderr.String())
	}
}

// code is the exit status of a process that has exited.
func (d *demo) code() int { return d.cmd.ProcessState.ExitCode() }

// stats decodes the -stats line: the whole of stdout, one line that
// report.Parse takes (it refuses unknown keys).
func (d *demo) stats() *report.Stats {
	d.t.Helper()
	out := d.stdout.String()
	line := strings.TrimSuffix(out, "\n")
	if line == "" || strings.Contains(line, "\n") {
		d.t.Fatalf("interpdemo %v: stdout %q is not one -stats line\nstderr: %s", d.args, out, d.stderr.String())
	}
	s, err := report.Parse([]byte(line))
	if err != nil {
		d.t.Fatalf("interpdemo %v: stats line %q: %v\nstderr: %s", d.args, line, err, d.stderr.String())
	}
	return s
}

// xdo runs xdotool on the demo's display.
func (d *demo) xdo(args ...string) string {
	d.t.Helper()
	out, err := d.xdoErr(args...)
	if err != nil {
		d.t.Fatalf("xdotool %v: %v: %s\ndemo stderr: %s", args, err, out, d.stderr.String())
	}
	return out
}

// xdoErr runs xdotool, within 10 s, and returns its output and error.
func (d *demo) xdoErr(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = env(d.display)
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// window waits until the demo's window is mapped and returns its id.
// xdotool's search walks every window of the screen, and one destroyed
// during the walk (another program's on the same display, a window SDL
// makes and drops at start) fails it with BadWindow: the search is made
// again then, for up to 30 s.
func (d *demo) window() string {
	d.t.Helper()
	if d.win == "" {
		args := []string{"search", "--sync", "--onlyvisible", "--pid", strconv.Itoa(d.cmd.Process.Pid)}
		deadline := time.Now().Add(30 * time.Second)
		for {
			out, err := d.xdoErr(args...)
			if err == nil {
				d.win = strings.Fields(out)[0]
				break
			}
			if !strings.Contains(out, "BadWindow") || time.Now().After(deadline) {
				d.t.Fatalf("xdotool %v: %v: %s\ndemo stderr: %s", args, err, out, d.stderr.String())
			}
			d.t.Logf("xdotool %v: a window went away during the search; searching again", args)
		}
		d.xdo("windowfocus", "--sync", d.win)
	}
	return d.win
}

// keys presses keys (xdotool names) in the demo's window, as a person at
// the keyboard would: through the X server's input (XTEST), to the focused
// window.
func (d *demo) keys(names ...string) {
	d.t.Helper()
	w := d.window()
	d.xdo("windowfocus", "--sync", w)
	d.xdo(append([]string{"key", "--delay", "40"}, names...)...)
}

// winTitle is the window title, "interpdemo [| PEER] | FPS n | TPS n |
// interp on | vsync X | balls N | fixed [| paused]", taken apart.
type winTitle struct {
	raw      string
	who      string // a network game's peer: "host, player 0 of 2"
	fps, tps int
	draw     string // "interp on", "interp extrapolate", "interp off"
	vsync    string // after "vsync "
	balls    int
	mode     string
	paused   bool
}

// parseWinTitle takes a title apart; ok is false when it is not the
// demo's live title (SDL's window starts with a bare "interpdemo").
func parseWinTitle(s string) (w winTitle, ok bool) {
	w.raw = s
	f := strings.Split(s, " | ")
	if len(f) > 1 && !strings.HasPrefix(f[1], "FPS ") { // a network game's peer
		w.who = f[1]
		f = append(f[:1], f[2:]...)
	}
	if len(f) < 7 || len(f) > 8 || f[0] != "interpdemo" {
		return w, false
	}
	num := func(field, prefix string) (int, bool) {
		v, found := strings.CutPrefix(field, prefix)
		if !found {
			return 0, false
		}
		n, err := strconv.Atoi(v)
		return n, err == nil
	}
	var okF, okT, okB, okV bool
	w.fps, okF = num(f[1], "FPS ")
	w.tps, okT = num(f[2], "TPS ")
	w.draw = f[3]
	w.vsync, okV = strings.CutPrefix(f[4], "vsync ")
	w.balls, okB = num(f[5], "balls ")
	w.mode = f[6]
	if len(f) == 8 {
		if f[7] != "paused" {
			return w, false
		}
		w.paused = true
	}
	return w, okF && okT && okV && okB && strings.HasPrefix(w.draw, "interp ")
}

// waitTitle polls the window title (every 50 ms) until ok accepts it, and
// returns it; the test fails if that does not happen within timeout.
func (d *demo) waitTitle(what string, timeout time.Duration, ok func(winTitle) bool) winTitle {
	d.t.Helper()
	w := d.window()
	deadline := time.Now().Add(timeout)
	last := ""
	for {
		select {
		case <-d.done:
			d.t.Fatalf("the demo exited (status %d) while waiting for a title with %s; last %q\nstderr: %s", d.code(), what, last, d.stderr.String())
		default:
		}
		last = d.xdo("getwindowname", w)
		if t, live := parseWinTitle(last); live && ok(t) {
			return t
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond) // the polling interval, inside the deadline
	}
	d.t.Fatalf("no title with %s within %v; last %q\nstderr: %s", what, timeout, last, d.stderr.String())
	return winTitle{}
}

// waitTicking waits until the title shows ticks running (TPS above 0):
// the loop is past its first frame and the world has ticked.
func (d *demo) waitTicking(timeout time.Duration) winTitle {
	d.t.Helper()
	return d.waitTitle("ticks running (TPS > 0)", timeout, func(w winTitle) bool { return w.tps > 0 })
}

// readPNG decodes the PNG file at path (a -screenshot).
func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// readTrace reads a -trace file.
func readTrace(t *testing.T, path string) []trace.Row {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := trace.Read(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// dirNames lists the names in dir, to see what a run left there.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return names
}

// TestParseWinTitle checks the harness's reading of the title, on the
// title's documented form.
func TestParseWinTitle(t *testing.T) {
	w, ok := parseWinTitle("interpdemo | FPS 59 | TPS 25 | interp extrapolate | vsync unsupported | balls 100 | substep | paused")
	want := winTitle{fps: 59, tps: 25, draw: "interp extrapolate", vsync: "unsupported", balls: 100, mode: "substep", paused: true}
	want.raw = w.raw
	if !ok || w != want {
		t.Errorf("got %+v, %v; want %+v", w, ok, want)
	}
	if w, ok := parseWinTitle("interpdemo | FPS 0 | TPS 0 | interp on | vsync on | balls 1 | fixed"); !ok || w.paused || w.balls != 1 || w.mode != "fixed" {
		t.Errorf("running title: %+v, %v", w, ok)
	}
	for _, bad := range []string{
		"interpdemo",
		"interpdemo | FPS x | TPS 0 | interp on | vsync on | balls 1 | fixed",
		"interpdemo | FPS 1 | TPS 0 | interp on | vsync on | balls 1 | fixed | stopped",
		"other | FPS 1 | TPS 0 | interp on | vsync on | balls 1 | fixed",
	} {
		if _, ok := parseWinTitle(bad); ok {
			t.Errorf("%q taken for the demo's live title", bad)
		}
	}
}
