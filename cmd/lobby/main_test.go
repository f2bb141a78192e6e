package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
)

const testTimeout = 60 * time.Second

// Bad flags: exit 2, one line on stderr that names the flag. Its ctx has
// ended: a command line taken by mistake returns at once, after serving.
func TestFlags(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-rooms", "-1"}, "lobby: -rooms -1: want 1 to 1000000 (0 for the default)"},
		{[]string{"-spectators", "1001"}, "lobby: -spectators 1001: want 1 to 1000 (0 for the default)"},
		{[]string{"-conns", "-5"}, "lobby: -conns -5: want 1 to 1000000 (0 for the default)"},
		{[]string{"-message-size", "99999"}, "lobby: -message-size 99999: want 256 to 16896 (0 for the default)"},
		{[]string{"-rate", "-1"}, "lobby: -rate -1: want 1 to 1000000 (0 for the default)"},
		{[]string{"-burst", "-1"}, "lobby: -burst -1: want 1 to 1000000 (0 for the default)"},
		{[]string{"-queue", "2"}, "lobby: -queue 2: want 4 to 10000 (0 for the default)"},
		{[]string{"-handshake", "1ms"}, "lobby: -handshake 1ms: want 10ms to 1h0m0s (0 for the default)"},
		{[]string{"-idle", "-1s"}, "lobby: -idle -1s: want 30ms to 24h0m0s (0 for the default)"},
		{[]string{"-grace", "0s"}, "lobby: -grace 0s: want more than 0"},
		{[]string{"-addr", "nonsense"}, `lobby: -addr "nonsense": address nonsense: missing port in address`},
		{[]string{"-addr", ""}, `lobby: -addr "": missing port in address`},
		{[]string{"-addr", "127.0.0.1:"}, `lobby: -addr "127.0.0.1:": missing port (port 0 picks one)`},
		{[]string{"-addr", ":abc"}, `lobby: -addr ":abc": port "abc": want 0 to 65535 or a service name`},
		{[]string{"-addr", "127.0.0.1:65536"}, `lobby: -addr "127.0.0.1:65536": port "65536": want 0 to 65535 or a service name`},
		{[]string{"-addr", "127.0.0.1:-1"}, `lobby: -addr "127.0.0.1:-1": port "-1": want 0 to 65535 or a service name`},
		{[]string{"-addr", "127.0.0.1:0", "-origins", "["}, `lobby: -origins "[": syntax error in pattern`},
		{[]string{"-addr", "127.0.0.1:0", "-origins", "example.com, *.example.com,a\\"}, `lobby: -origins "a\\": syntax error in pattern`},
		{[]string{"-rooms", "x"}, `lobby: invalid value "x" for flag -rooms: parse error (lobby -h lists the flags)`},
		{[]string{"-bogus"}, "lobby: flag provided but not defined: -bogus (lobby -h lists the flags)"},
		{[]string{"extra"}, `lobby: unexpected argument "extra" (lobby -h lists the flags)`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(ctx, tc.args, &stdout, &stderr)
		if code != 2 || stderr.String() != tc.want+"\n" || stdout.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want 2 and %q", tc.args, code, stderr.String(), stdout.String(), tc.want)
		}
	}
}

// What the check of -origins lets through: what the WebSocket library's
// origin matching takes (-addr's: internal/cmdline's tests).
func TestGoodOrigins(t *testing.T) {
	origins := splitList("example.com, *.EXAMPLE.com,localhost:*,https://game.example.com,[a-z]*.example.org,x\\*y")
	if err := checkOrigins(origins); err != nil {
		t.Errorf("-origins %q: %v", origins, err)
	}
}

// -ice, -turn-secret-file and -turn-ttl: exit 2 and one line that names
// the flag, never with a credential nor the secret.
func TestICEFlags(t *testing.T) {
	dir := t.TempDir()
	secret, empty := filepath.Join(dir, "secret"), filepath.Join(dir, "empty")
	if os.WriteFile(secret, []byte("hunter2\n"), 0o600) != nil || os.WriteFile(empty, []byte(" \nhunter2\n"), 0o600) != nil {
		t.Fatal("cannot write the test's files")
	}
	turn := "turn:127.0.0.1:3478?transport=udp"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-ice", turn}, `lobby: -ice: TURN server "` + turn + `" has no credential, and the lobby no TURN secret to make them`},
		{[]string{"-ice", "http://x"}, `lobby: -ice: ICE server "http://x": unknown scheme type`},
		{[]string{"-ice", "stun:u:hunter2@127.0.0.1"}, `lobby: -ice: ICE server "stun:127.0.0.1": only a TURN server takes a username and a credential`},
		{[]string{"-ice", turn, "-turn-secret-file", filepath.Join(dir, "none")}, "lobby: -turn-secret-file: open " + filepath.Join(dir, "none") + ": no such file or directory"},
		{[]string{"-ice", turn, "-turn-secret-file", empty}, "lobby: -turn-secret-file " + empty + ": its first line is empty"},
		{[]string{"-turn-secret-file", secret}, "lobby: -turn-secret-file: a TURN secret, but no TURN server without a credential of its own to use it for"},
		{[]string{"-ice", "turn:u:hunter2@127.0.0.1", "-turn-secret-file", secret}, "lobby: -turn-secret-file: a TURN secret, but no TURN server without a credential of its own to use it for"},
		{[]string{"-ice", turn, "-turn-secret-file", secret, "-turn-ttl", "0s"}, "lobby: -turn-ttl 0s: want at least 1s"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, &stdout, &stderr)
		if code != 2 || stderr.String() != tc.want+"\n" || stdout.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want 2 and %q", tc.args, code, stderr.String(), stdout.String(), tc.want)
		}
	}
}

// Every limit has its flag, and -h lists them with their defaults.
func TestHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"-h"}, &stdout, &stderr); code != 0 || stderr.Len() != 0 {
		t.Fatalf("-h: exit %d, stderr %q", code, stderr.String())
	}
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	var l lobby.Limits
	limitFlags(fs, &l)
	if l != lobby.DefaultLimits() {
		t.Fatalf("flag defaults %+v, want %+v", l, lobby.DefaultLimits())
	}
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		n++
		if !strings.Contains(stdout.String(), "-"+f.Name) {
			t.Errorf("-h does not list -%s", f.Name)
		}
		// Each flag names a field: an out-of-range value is reported
		// against the flag.
		bad := "-1"
		if _, ok := f.Value.(interface{ Get() any }).Get().(time.Duration); ok {
			bad = "-1s"
		}
		var stderr bytes.Buffer
		if code := run(context.Background(), []string{"-" + f.Name, bad}, io.Discard, &stderr); code != 2 || !strings.HasPrefix(stderr.String(), "lobby: -"+f.Name+" "+bad+": want ") {
			t.Errorf("-%s %s: exit %d, %q", f.Name, bad, code, stderr.String())
		}
	})
	if n != 9 {
		t.Errorf("%d limit flags, want one per field of lobby.Limits (9)", n)
	}
}

// In the process: serve, join two peers, relay, stop when ctx ends.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	out, w := io.Pipe()
	var stderr syncBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- run(runCtx, []string{"-addr", "127.0.0.1:0", "-grace", "2s"}, w, &stderr)
		w.Close()
	}()
	addr := listeningOn(t, ctx, out)
	go io.Copy(io.Discard, out)
	joinPair(t, ctx, "ws://"+addr+"/run")
	stop()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("run did not return after its ctx ended")
	}
	// A game that works is logged (who joined, as what), a refusal once.
	log := stderr.String()
	for _, want := range []string{`msg="lobby: joined" room=run peer=p1 as=host players="1 of 2"`, `msg="lobby: joined" room=run peer=p2 as=player players="2 of 2"`, "lobby: shutting down"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %s:\n%s", want, log)
		}
	}
	if n := strings.Count(log, "refused=full"); n != 1 {
		t.Errorf("the refusal logged %d times:\n%s", n, log)
	}
}

// The binary: built, started on a port the system picks, two peers
// joined, stopped by SIGTERM, exits 0.
func TestBinary(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool to build the binary: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "lobby")
	if out, err := exec.CommandContext(ctx, goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.CommandContext(ctx, bin, "-addr", "127.0.0.1:0", "-grace", "2s")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	addr := listeningOn(t, ctx, stdout)
	joinPair(t, ctx, "ws://"+addr+"/bin")
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v (ctx %v)\n%s", err, ctx.Err(), stderr.String())
	}
	if log := stderr.String(); !strings.Contains(log, "lobby: shutting down") || !strings.Contains(log, "lobby: stopped") {
		t.Errorf("log:\n%s", log)
	}
}

// listeningOn reads the first line of the lobby's output, and returns
// the address it names.
func listeningOn(t testing.TB, ctx context.Context, out io.Reader) string {
	t.Helper()
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		addr, ok := strings.CutPrefix(strings.TrimSpace(s), "lobby: listening on ")
		if !ok {
			t.Fatalf("first line %q", s)
		}
		return addr
	case <-ctx.Done():
		t.Fatal("no first line")
	}
	return ""
}

// joinPair joins a host and a joiner to room, relays one signal each
// way, and sees a third peer refused.
func joinPair(t *testing.T, ctx context.Context, room string) {
	t.Helper()
	host, err := lobby.Join(ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	joiner, err := lobby.Join(ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	defer joiner.Close()
	if err := joiner.Send(host.ID(), []byte(`{"kind":"offer","sdp":"x"}`)); err != nil {
		t.Fatal(err)
	}
	if from, _, err := host.Recv(ctx); err != nil || from != joiner.ID() {
		t.Fatalf("host: %s %v", from, err)
	}
	if err := host.Send(joiner.ID(), []byte(`{"kind":"answer","sdp":"y"}`)); err != nil {
		t.Fatal(err)
	}
	if from, _, err := joiner.Recv(ctx); err != nil || from != host.ID() {
		t.Fatalf("joiner: %s %v", from, err)
	}
	_, err = lobby.Join(ctx, room)
	if want := fmt.Sprintf("lobby: room %q is full (2 of 2 players)", strings.TrimPrefix(room[strings.LastIndex(room, "/"):], "/")); err == nil || err.Error() != want {
		t.Fatalf("third peer: %v, want %s", err, want)
	}
}

// syncBuffer is a bytes.Buffer written by a process's or a logger's
// goroutines and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestShowRoom: with -show-room and -show-page the lobby prints, after
// its first line, the commands and the page's URLs of a game in the room,
// at the address it really listens on (port 0: the one picked), and a
// player joins at the URL printed.
func TestShowRoom(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	runCtx, stop := context.WithCancel(ctx)
	exit := make(chan int, 1)
	out, w := io.Pipe()
	go func() {
		exit <- run(runCtx, []string{"-addr", "127.0.0.1:0", "-show-room", "r9", "-show-page", "http://127.0.0.1:8081/"}, w, io.Discard)
		w.Close()
	}()
	defer func() { stop(); <-exit }()
	lines := make(chan []string, 1)
	go func() {
		r := bufio.NewReader(out)
		var got []string
		for range 4 {
			s, err := r.ReadString('\n')
			if err != nil {
				break
			}
			got = append(got, strings.TrimSpace(s))
		}
		lines <- got
		io.Copy(io.Discard, r)
	}()
	var got []string
	select {
	case got = <-lines:
	case <-ctx.Done():
		t.Fatal("no lines")
	}
	if len(got) != 4 {
		t.Fatalf("printed %q; want 4 lines", got)
	}
	addr, _ := strings.CutPrefix(got[0], "lobby: listening on ")
	u := "ws://" + addr + "/r9"
	for _, want := range []string{"-lobby " + u + " ", "-spectate " + u, "http://127.0.0.1:8081/?lobby=" + u + ","} {
		if !strings.Contains(strings.Join(got[1:], "\n"), want) {
			t.Errorf("printed %q; want %q in it", got, want)
		}
	}
	c, err := lobby.Join(ctx, u)
	if err != nil {
		t.Fatalf("joining the room printed: %v", err)
	}
	c.Close()
}
