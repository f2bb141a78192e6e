//go:build unix

package main

// Signals and the demo's waits, end to end: the real binary, started as
// a script's `cmd &` starts it (SIGINT ignored), sent SIGINT or SIGTERM
// while it waits for a host, a game, a lobby, its players or a FIFO's
// reader. Networks only on 127.0.0.1, on ports the system picks; every
// wait has a deadline.

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// startIgnoringSIGINT starts the binary with SIGINT ignored, as a
// non-interactive shell starts a background job (`interpdemo ... &`): a
// shell that ignores it execs the binary, which inherits that.
func startIgnoringSIGINT(t *testing.T, args ...string) *demo {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to start the demo with SIGINT ignored")
	}
	d := &demo{t: t, args: args, done: make(chan struct{})}
	cmd := exec.Command(sh, append([]string{"-c", `trap "" INT; exec "$0" "$@"`, binPath}, args...)...)
	cmd.Env = env("")
	d.start(cmd)
	return d
}

// lastLine is the last line the demo wrote to stderr.
func (d *demo) lastLine() string {
	lines := strings.Split(strings.TrimSpace(d.stderr.String()), "\n")
	return lines[len(lines)-1]
}

// interruptedAtOnce sends sig to d, which must then exit within 5 s (the
// waits it is in last 10 s or more) with status 1 and the last line
// want.
func (d *demo) interruptedAtOnce(sig syscall.Signal, want string) {
	d.t.Helper()
	start := time.Now()
	d.cmd.Process.Signal(sig)
	code, exited := d.wait(30 * time.Second)
	took := time.Since(start)
	if !exited {
		d.t.Fatalf("%v: still running 30 s after %v\nstderr: %s", d.args, sig, d.stderr.String())
	}
	if code != 1 || d.lastLine() != want {
		d.t.Errorf("%v: exit %d after %v, stderr:\n%s\nwant status 1 and the last line %q", d.args, code, sig, d.stderr.String(), want)
	}
	if took > 5*time.Second {
		d.t.Errorf("%v: exited %v after %v, want at once", d.args, took.Round(time.Millisecond), sig)
	}
	d.t.Logf("%v: %q, %v after %v", d.args, d.lastLine(), took.Round(time.Millisecond), sig)
}

// roomHostingRe is a room's host's word that it waits for its players
// (its address is its ID in the room).
var roomHostingRe = regexp.MustCompile(`\(host, player 0 of \d\): hosting on `)

// silentUDP is an address on 127.0.0.1 where a socket takes datagrams and
// never answers: a host that does not answer (not one that is not there,
// which the system says at once).
func silentUDP(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	return pc.LocalAddr().String()
}

// silentTCP is an address on 127.0.0.1 that accepts connections and never
// answers on them: a lobby that hangs in its handshake.
func silentTCP(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	holdConns(t, l)
	return l.Addr().String()
}

// holdConns accepts l's connections and holds them, never answering, until
// the test ends; connected is closed once the first is taken.
func holdConns(t *testing.T, l net.Listener) (connected <-chan struct{}) {
	first := make(chan struct{})
	var conns []net.Conn
	accepted := make(chan struct{})
	go func() {
		defer close(accepted)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			if conns = append(conns, c); len(conns) == 1 {
				close(first)
			}
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-accepted
		for _, c := range conns {
			c.Close()
		}
	})
	return first
}

// A SIGINT or SIGTERM while the demo waits, before its game runs or while
// a host waits for its players, ends it at once with one line naming the
// signal and the wait, and status 1, though it was started with SIGINT
// ignored. Before, the signals were caught only once the loop was about
// to run: one during a joiner's, a spectator's or a lobby's wait was lost
// (SIGINT, ignored: the wait ran its 10 s to a minute out) or killed the
// process with nothing said (SIGTERM), and one during a host's wait ended
// it as Q does, with status 0.
func TestSignalEndsTheWaits(t *testing.T) {
	if testing.Short() {
		t.Skip("demos that wait")
	}
	common := []string{"-headless", "-hud=false", "-graph=false", "-fps-cap", "30", "-net-timeout", "30s"}
	t.Run("join", func(t *testing.T) {
		t.Parallel()
		addr := silentUDP(t)
		d := startIgnoringSIGINT(t, append([]string{"-join", addr}, common...)...)
		d.waitStderr(regexp.MustCompile(`connecting to `+regexp.QuoteMeta(addr)), 30*time.Second)
		d.interruptedAtOnce(syscall.SIGINT, "interpdemo (joining): interrupted by SIGINT while waiting for the host at "+addr)
	})
	t.Run("spectate", func(t *testing.T) {
		t.Parallel()
		addr := silentUDP(t)
		d := startIgnoringSIGINT(t, append([]string{"-spectate", addr}, common...)...)
		d.waitStderr(regexp.MustCompile(`connecting to `+regexp.QuoteMeta(addr)+` to watch`), 30*time.Second)
		d.interruptedAtOnce(syscall.SIGTERM, "interpdemo (spectator): interrupted by SIGTERM while waiting to watch the game at "+addr)
	})
	t.Run("lobby", func(t *testing.T) {
		t.Parallel()
		room := "ws://" + silentTCP(t) + "/r"
		d := startIgnoringSIGINT(t, append([]string{"-lobby", room}, common...)...)
		d.waitStderr(regexp.MustCompile(`entering the room `), 30*time.Second)
		d.interruptedAtOnce(syscall.SIGINT, "interpdemo (entering a room): interrupted by SIGINT while entering the room "+room)
	})
	t.Run("host", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		state := filepath.Join(dir, "world.json")
		d := startIgnoringSIGINT(t, append([]string{"-host", "127.0.0.1:0", "-stats", "-state", state}, common...)...)
		d.waitStderr(hostingRe, 30*time.Second)
		d.interruptedAtOnce(syscall.SIGINT, "interpdemo (host, player 0 of 2): interrupted by SIGINT while waiting for players (1 of 2 there): the game never started")
		if _, err := os.Stat(state); err != nil || strings.Count(d.stdout.String(), "\n") != 1 {
			t.Errorf("the files were not written: -state %v, -stats %q", err, d.stdout.String())
		}
	})
	t.Run("room host", func(t *testing.T) {
		t.Parallel()
		l := startLobby(t)
		d := startIgnoringSIGINT(t, append([]string{"-lobby", l.room("r")}, common...)...)
		d.waitStderr(roomHostingRe, 30*time.Second)
		d.interruptedAtOnce(syscall.SIGTERM, "interpdemo (host, player 0 of 2): interrupted by SIGTERM while waiting for players (1 of 2 there): the game never started")
	})
}

// -net-wait: a host that nobody joins within it, over UDP or in a lobby's
// room, gives up with one line naming the flag and status 1. Before, it
// waited for ever.
func TestNetWaitGivesUp(t *testing.T) {
	if testing.Short() {
		t.Skip("demos that wait")
	}
	common := []string{"-headless", "-hud=false", "-graph=false", "-fps-cap", "30", "-net-wait", "2s"}
	t.Run("udp", func(t *testing.T) {
		t.Parallel()
		d := startDemo(t, "", append([]string{"-host", "127.0.0.1:0"}, common...)...)
		d.waitStderr(hostingRe, 30*time.Second)
		start := time.Now()
		code := d.mustExit(30 * time.Second)
		if want := "interpdemo (host, player 0 of 2): nobody joined within 2s (-net-wait)"; code != 1 || d.lastLine() != want {
			t.Errorf("exit %d, stderr:\n%s\nwant status 1 and the last line %q", code, d.stderr.String(), want)
		}
		t.Logf("%q, %v after hosting", d.lastLine(), time.Since(start).Round(time.Millisecond))
	})
	t.Run("room", func(t *testing.T) {
		t.Parallel()
		l := startLobby(t)
		d := startDemo(t, "", append([]string{"-lobby", l.room("r")}, common...)...)
		d.waitStderr(roomHostingRe, 30*time.Second)
		code := d.mustExit(30 * time.Second)
		if want := "interpdemo (host, player 0 of 2): nobody joined within 2s (-net-wait)"; code != 1 || d.lastLine() != want {
			t.Errorf("exit %d, stderr:\n%s\nwant status 1 and the last line %q", code, d.stderr.String(), want)
		}
	})
}

// A SIGINT while the demo waits for a reader of a FIFO it writes at the
// end (-state) ends that wait at once: one line naming the file and the
// signal, status 1, and nothing else lost (the trace and the recording
// are whole, the -stats line printed). Before, the signal was taken and
// nothing came of it: the wait ran its 10 s out.
func TestSignalEndsTheWaitForAFIFOReader(t *testing.T) {
	if testing.Short() {
		t.Skip("a demo")
	}
	dir := t.TempDir()
	fifo, rec, tr := filepath.Join(dir, "state.fifo"), filepath.Join(dir, "run.rec"), filepath.Join(dir, "run.csv")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	d := startDemo(t, "", "-headless", "-ticks", "25", "-fast", "-stats", "-trace", tr, "-record", rec, "-state", fifo)
	// The trace and then the recording are written before -state: once
	// the recording is there, the demo waits for the FIFO's reader.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(rec); err == nil {
			break
		}
		select {
		case <-d.done:
			t.Fatalf("exited (status %d) before writing the recording\nstderr: %s", d.code(), d.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no recording within 30 s\nstderr: %s", d.stderr.String())
		}
	}
	d.interruptedAtOnce(syscall.SIGINT, "interpdemo: -state: cannot write "+fifo+": gave up waiting for a reader to open the FIFO: interrupted by SIGINT")
	s := d.stats() // the -stats line, printed after -state
	if s.Ticks != 25 {
		t.Errorf("-stats says %d ticks, want 25", s.Ticks)
	}
	if rows := readTrace(t, tr); int64(len(rows)) != s.Frames {
		t.Errorf("trace has %d rows for %d frames", len(rows), s.Frames)
	}
	r := runDemo(t, "", 60*time.Second, "-headless", "-replay", rec, "-fast", "-stats")
	if r.code() != 0 || r.stats().StateHash != s.StateHash {
		t.Errorf("replay of the recording: exit %d, %s", r.code(), r.stderr.String())
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a FIFO: %v", fifo, err)
	}
}

// silentX is an X display on 127.0.0.1 (its number N: TCP port 6000+N,
// the first free from 6100) whose server takes connections and never
// answers them: a DISPLAY over TCP to a server that hangs. connected is
// closed once the first connection is taken.
func silentX(t *testing.T) (display string, connected <-chan struct{}) {
	t.Helper()
	var l net.Listener
	n := 100
	for ; n < 900; n++ {
		var err error
		if l, err = net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(6000+n)); err == nil {
			break
		}
	}
	if l == nil {
		t.Skip("no free port for an X display from 6100 to 6899 on 127.0.0.1")
	}
	return "127.0.0.1:" + strconv.Itoa(n), holdConns(t, l)
}

// An X server that takes the connection and never answers would hold the
// demo in SDL's XOpenDisplay for good, a Ctrl-C unheard (the signals are
// caught from the start of the run): opening the window has a deadline
// (20 s), and a signal during it ends the run at once, each with one line
// and status 1. Before, the first hung until the test's kill, and the
// second until a second signal.
func TestWindowThatDoesNotOpen(t *testing.T) {
	if testing.Short() {
		t.Skip("demos that wait")
	}
	t.Parallel() // 20 s of waiting for the deadline, beside the network games
	t.Run("deadline", func(t *testing.T) {
		t.Parallel()
		display, _ := silentX(t)
		d := startDemo(t, display, "-duration", "1s")
		code, exited := d.wait(40 * time.Second)
		if !exited {
			t.Fatalf("still running 40 s after it started, stderr:\n%s", d.stderr.String())
		}
		want := `interpdemo: opening the window took over 20s: no answer from the X display "` + display + `" (DISPLAY)`
		if code != 1 || d.lastLine() != want {
			t.Errorf("exit %d, stderr:\n%s\nwant status 1 and the last line %q", code, d.stderr.String(), want)
		}
	})
	t.Run("signal", func(t *testing.T) {
		t.Parallel()
		display, connected := silentX(t)
		d := startDemo(t, display, "-duration", "1s")
		select {
		case <-connected:
		case <-d.done:
			t.Fatalf("exited before it connected to the display, stderr:\n%s", d.stderr.String())
		case <-time.After(30 * time.Second):
			t.Fatal("no connection to the display in 30 s")
		}
		d.interruptedAtOnce(syscall.SIGINT, "interpdemo: interrupted by SIGINT while opening the window")
	})
}
