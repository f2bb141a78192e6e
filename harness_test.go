package main

// The end-to-end harness: the real binary, built once per test run, run in
// a real window on an Xvfb server (or headless through SDL's offscreen
// driver), driven with xdotool key presses.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var binPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "interpdemo-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "interpdemo")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(goTool, "build", "-o", binPath, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the demo: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	stopXvfb()
	os.RemoveAll(dir)
	os.Exit(code)
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
	cmd     *exec.Cmd
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
		r, w, err := os.Pipe()
		if err != nil {
			xv.err = err
			return
		}
		cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp")
		cmd.ExtraFiles = []*os.File{w}
		if err := cmd.Start(); err != nil {
			xv.err = err
			return
		}
		w.Close()
		line := make(chan string, 1)
		go func() {
			s, _ := bufio.NewReader(r).ReadString('\n')
			line <- strings.TrimSpace(s)
		}()
		select {
		case n := <-line:
			if _, err := strconv.Atoi(n); err != nil {
				xv.err = fmt.Errorf("Xvfb did not report a display (%q)", n)
				cmd.Process.Kill()
				return
			}
			xv.cmd, xv.display = cmd, ":"+n
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			xv.err = fmt.Errorf("Xvfb did not start within 15 s")
		}
	})
	if xv.err != nil {
		needDisplay(t, "no Xvfb: %v", xv.err)
	}
	return xv.display
}

func stopXvfb() {
	if xv.cmd != nil {
		xv.cmd.Process.Signal(syscall.SIGTERM)
		xv.cmd.Wait()
	}
}

// demo is one run of the binary.
type demo struct {
	t              *testing.T
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	done           chan struct{}
	err            error
	display        string
	win            string
}

// env returns the environment for a run: the test's, with DISPLAY and
// WAYLAND_DISPLAY replaced (display "" removes them).
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
	return e
}

func startDemo(t *testing.T, display string, args ...string) *demo {
	t.Helper()
	d := &demo{t: t, display: display, done: make(chan struct{})}
	d.cmd = exec.Command(binPath, args...)
	d.cmd.Env = env(display)
	d.cmd.Stdout, d.cmd.Stderr = &d.stdout, &d.stderr
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		d.err = d.cmd.Wait()
		close(d.done)
	}()
	t.Cleanup(func() {
		select {
		case <-d.done:
		default:
			d.cmd.Process.Kill()
			<-d.done
		}
	})
	return d
}

// runDemo runs the binary to completion and returns its exit status.
func runDemo(t *testing.T, display string, timeout time.Duration, args ...string) *demo {
	t.Helper()
	d := startDemo(t, display, args...)
	if _, ok := d.wait(timeout); !ok {
		t.Fatalf("interpdemo %v did not exit within %v\nstderr: %s", args, timeout, d.stderr.String())
	}
	return d
}

// wait waits for the process to exit and returns its status.
func (d *demo) wait(timeout time.Duration) (code int, exited bool) {
	select {
	case <-d.done:
	case <-time.After(timeout):
		return 0, false
	}
	return d.cmd.ProcessState.ExitCode(), true
}

func (d *demo) code() int { return d.cmd.ProcessState.ExitCode() }

// stats decodes the -stats line.
func (d *demo) stats() map[string]any {
	d.t.Helper()
	var m map[string]any
	line := strings.TrimSpace(d.stdout.String())
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		d.t.Fatalf("stats line %q: %v\nstderr: %s", line, err, d.stderr.String())
	}
	return m
}

// xdo runs xdotool on the demo's display.
func (d *demo) xdo(args ...string) string {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = env(d.display)
	out, err := cmd.CombinedOutput()
	if err != nil {
		d.t.Fatalf("xdotool %v: %v: %s\ndemo stderr: %s", args, err, out, d.stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// window waits until the demo's window is mapped and returns its id.
func (d *demo) window() string {
	d.t.Helper()
	if d.win == "" {
		out := d.xdo("search", "--sync", "--onlyvisible", "--pid", strconv.Itoa(d.cmd.Process.Pid))
		d.win = strings.Fields(out)[0]
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

// title reads the window title.
func (d *demo) title() string {
	d.t.Helper()
	return d.xdo("getwindowname", d.window())
}

// waitTitle polls the title until it contains want.
func (d *demo) waitTitle(want string, timeout time.Duration) string {
	d.t.Helper()
	deadline := time.Now().Add(timeout)
	var last string
	for time.Now().Before(deadline) {
		if last = d.title(); strings.Contains(last, want) {
			return last
		}
		time.Sleep(50 * time.Millisecond)
	}
	d.t.Fatalf("title never contained %q within %v; last %q\nstderr: %s", want, timeout, last, d.stderr.String())
	return ""
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
