package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

// lobbyArgs are the flags of both peers of a game through a lobby, or
// over UDP to compare: headless, bots, no simulated conditions (a room's
// game has none), a 300-tick game.
var lobbyArgs = []string{"-headless", "-hud=false", "-graph=false", "-stats", "-fps-cap", "60", "-net-timeout", "30s", "-ticks", "300", "-netcode", "rollback"}

// lobbyGames is how many games of each transport the section plays, in
// turn.
const lobbyGames = 3

// lobbyGame is one two-player game: how it went over its transport.
type lobbyGame struct {
	transport  string  // udp or webrtc
	startMs    float64 // the joiner's process start to its first shared tick ("game started")
	host, join *report.Stats
	loBytes    int64   // the loopback's bytes over the game (both peers, the lobby's too), or -1
	seconds    float64 // the game's length, the host's
}

var (
	gameStartedRe = regexp.MustCompile(`game started: player`)
	lobbyAddrRe   = regexp.MustCompile(`^lobby: listening on (127\.0\.0\.1:\d+)$`)
)

// buildLobby builds cmd/lobby beside the demo's binary.
func buildLobby(o *options) (string, error) {
	bin := filepath.Join(filepath.Dir(o.bin), "lobby")
	if out, err := exec.Command(o.goTool, "build", "-o", bin, "./cmd/lobby").CombinedOutput(); err != nil {
		return "", fmt.Errorf("building cmd/lobby: %v\n%s", err, out)
	}
	return bin, nil
}

// startLobbyProc starts a lobby on a port the system picks and returns
// its address once it says it, and what ends it.
func startLobbyProc(ctx context.Context, bin string) (addr string, stop func(), err error) {
	lb := exec.CommandContext(ctx, bin, "-addr", "127.0.0.1:0")
	out, err := lb.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := lb.Start(); err != nil {
		return "", nil, err
	}
	stop = func() { lb.Process.Kill(); lb.Wait() }
	lw := watchLines(out, lobbyAddrRe)
	select {
	case a := <-lw.hit:
		return a, stop, nil
	case <-ctx.Done():
		stop()
		return "", nil, fmt.Errorf("the lobby did not say where it listens")
	}
}

// lobbySection plays games of two native peers over UDP and through a
// lobby (WebRTC), in turn, for docs/NETPLAY.md.
func lobbySection(o *options, r *results) error {
	lobbyBin, err := buildLobby(o)
	if err != nil {
		return err
	}
	for i := range lobbyGames {
		for _, tr := range []string{"udp", "webrtc"} {
			g, err := playLobbyGame(o, lobbyBin, tr, i)
			if err != nil {
				return fmt.Errorf("%s game %d: %v", tr, i+1, err)
			}
			r.lobby = append(r.lobby, g)
		}
	}
	return nil
}

// loTx is the loopback interface's transmitted bytes so far, or -1.
func loTx() int64 {
	b, err := os.ReadFile("/proc/net/dev")
	if err != nil {
		return -1
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || name != "lo" {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 9 {
			return -1
		}
		v, err := strconv.ParseInt(f[8], 10, 64)
		if err != nil {
			return -1
		}
		return v
	}
	return -1
}

// lineWatcher copies a process's stderr and says when a line matches.
type lineWatcher struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	hit  chan string
	done chan struct{}
}

func watchLines(rd io.Reader, re *regexp.Regexp) *lineWatcher {
	w := &lineWatcher{hit: make(chan string, 1), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		sc := bufio.NewScanner(rd)
		for sc.Scan() {
			w.mu.Lock()
			w.buf.WriteString(sc.Text() + "\n")
			w.mu.Unlock()
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case w.hit <- m[len(m)-1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, rd)
	}()
	return w
}

func (w *lineWatcher) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// playLobbyGame plays one game: over UDP (the host on a port the system
// picks, the joiner told its address) or through a fresh lobby's room.
func playLobbyGame(o *options, lobbyBin, transport string, n int) (*lobbyGame, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var hostFlags, joinFlags []string
	if transport == "webrtc" {
		addr, stop, err := startLobbyProc(ctx, lobbyBin)
		if err != nil {
			return nil, err
		}
		defer stop()
		room := fmt.Sprintf("ws://%s/bench%d", addr, n)
		hostFlags, joinFlags = []string{"-lobby", room}, []string{"-lobby", room}
	} else {
		hostFlags = []string{"-host", "127.0.0.1:0"}
	}
	host := exec.CommandContext(ctx, o.bin, append(append(hostFlags, "-bot", "1"), lobbyArgs...)...)
	var hostOut, joinOut bytes.Buffer
	host.Stdout, host.Env = &hostOut, benchEnv(nil)
	hp, err := host.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := host.Start(); err != nil {
		return nil, err
	}
	defer func() { host.Process.Kill() }()
	hw := watchLines(hp, hostingAnyRe)
	select {
	case a := <-hw.hit:
		if transport == "udp" {
			joinFlags = []string{"-join", a}
		}
	case <-hw.done:
		return nil, fmt.Errorf("the host ended before it hosted: %s", hw.String())
	case <-ctx.Done():
		return nil, fmt.Errorf("the host did not host within 2 minutes: %s", hw.String())
	}
	before := loTx()
	join := exec.CommandContext(ctx, o.bin, append(append(joinFlags, "-bot", "2"), lobbyArgs...)...)
	join.Stdout, join.Env = &joinOut, benchEnv(nil)
	jp, err := join.StderrPipe()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := join.Start(); err != nil {
		return nil, err
	}
	defer func() { join.Process.Kill() }()
	jw := watchLines(jp, gameStartedRe)
	g := &lobbyGame{transport: transport, loBytes: -1}
	select {
	case <-jw.hit:
		g.startMs = float64(time.Since(start).Microseconds()) / 1000
	case <-jw.done:
		return nil, fmt.Errorf("the joiner ended before the game started: %s", jw.String())
	case <-ctx.Done():
		return nil, fmt.Errorf("the game did not start within 2 minutes: %s", jw.String())
	}
	<-jw.done
	joinErr := join.Wait()
	<-hw.done
	hostErr := host.Wait()
	if after := loTx(); before >= 0 && after >= before {
		g.loBytes = after - before
	}
	if hostErr != nil || joinErr != nil {
		return nil, fmt.Errorf("host: %v: %s; joiner: %v: %s", hostErr, hw.String(), joinErr, jw.String())
	}
	if err := g.readStats(hostOut.Bytes(), joinOut.Bytes()); err != nil {
		return nil, err
	}
	return g, nil
}

// readStats reads the host's and the joiner's -stats lines into g, and
// checks that the peers agree: both played a network game over g's
// transport, to the same state.
func (g *lobbyGame) readStats(hostOut, joinOut []byte) error {
	var err error
	if g.host, err = report.Parse(bytes.TrimSpace(hostOut)); err != nil {
		return fmt.Errorf("host's -stats: %v", err)
	}
	if g.join, err = report.Parse(bytes.TrimSpace(joinOut)); err != nil {
		return fmt.Errorf("joiner's -stats: %v", err)
	}
	if g.host.Net == nil || g.join.Net == nil || g.host.Net.Transport != g.transport || g.host.StateHash != g.join.StateHash {
		return fmt.Errorf("the peers disagree or went another way: host %+v, joiner %+v", g.host.Net, g.join.Net)
	}
	g.seconds = g.join.Seconds
	return nil
}

// hostingAnyRe is a host's word that it hosts: on an address (UDP), or
// as the room's first peer (its ID).
var hostingAnyRe = regexp.MustCompile(`hosting on (\S+), waiting`)

// writeLobby writes the section.
func (r *results) writeLobby(p func(string, ...any)) {
	if len(r.lobby) == 0 {
		return
	}
	p("## Through a lobby\n\n")
	p("Two headless native peers with bots on 127.0.0.1, a rollback game of 300 ticks, %d games of each transport in turn: over UDP (`interpdemo -host 127.0.0.1:0 -bot 1 %s`, `interpdemo -join ADDR -bot 2` with the same flags), and through a fresh `cmd/lobby` over WebRTC (`-lobby ws://ADDR/ROOM` for both).\n\n*Start* is from the joiner's process start to its first shared tick (its log's \"game started\"), the host waiting already; *sent* is netplay's own bytes a second (`net_send_bytes_per_s`); *on the wire* is the loopback interface's transmitted bytes over the joiner's run (/proc/net/dev: both peers' datagrams with every header, IP, UDP and for WebRTC DTLS and SCTP, and the lobby's WebSocket; make bench runs nothing else), a second and a peer.\n\n", lobbyGames, strings.Join(lobbyArgs, " "))
	p("| game | transport | start ms | sent, host / joiner, B/s | on the wire, B/s a peer | state hash |\n|---:|---|---:|---|---:|---|\n")
	for i, g := range r.lobby {
		wire := "-"
		if g.loBytes >= 0 && g.seconds > 0 {
			wire = commas(int64(float64(g.loBytes)/g.seconds/2 + 0.5))
		}
		p("| %d | %s | %.0f | %s / %s | %s | %s |\n", i/2+1, g.transport, g.startMs,
			commas(int64(g.host.SendBytesPerS+0.5)), commas(int64(g.join.SendBytesPerS+0.5)), wire, g.host.StateHash)
	}
	p("\n")
}
