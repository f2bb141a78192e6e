package main

// Network games through a lobby's room, end to end: the lobby (cmd/lobby,
// a real process on 127.0.0.1, on a port the system picks), native demos
// and the page in headless Chromium, joined by real WebRTC data channels
// (pion natively, the browser's own in the page). Every test bounds its
// own duration.

import (
	"bufio"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
)

// serverProc is a server the tests run as a process (cmd/lobby,
// cmd/turn): built once, started on 127.0.0.1, its address read from its
// first line of output and the lines after it kept.
type serverProc struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when it has exited
	addr string        // 127.0.0.1:PORT
	mu   sync.Mutex
	log  []string // its lines of standard output after the first
}

// serverBins are the commands built for the tests, by package.
var serverBins sync.Map // "./cmd/NAME" -> *serverBin

type serverBin struct {
	once sync.Once
	path string
	err  error
}

// startServer builds pkg once, starts it with args and returns it once
// its first line, matching listening, says where it listens (the
// address is listening's first group). It is stopped when the test ends.
func startServer(t *testing.T, pkg string, listening *regexp.Regexp, args ...string) *serverProc {
	t.Helper()
	v, _ := serverBins.LoadOrStore(pkg, &serverBin{})
	bin := v.(*serverBin)
	bin.once.Do(func() {
		bin.path = filepath.Join(filepath.Dir(binPath), filepath.Base(pkg))
		if out, err := exec.Command("go", "build", "-o", bin.path, pkg).CombinedOutput(); err != nil {
			bin.err = fmt.Errorf("building %s: %v\n%s", pkg, err, out)
		}
	})
	if bin.err != nil {
		t.Fatal(bin.err)
	}
	p := &serverProc{cmd: exec.Command(bin.path, args...), done: make(chan struct{})}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first := make(chan string, 1)
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			first <- sc.Text()
		}
		close(first)
		for sc.Scan() {
			p.mu.Lock()
			p.log = append(p.log, sc.Text())
			p.mu.Unlock()
		}
	}()
	go func() {
		<-read // Wait closes the pipe: read it to its end first
		p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() { p.stop(t) })
	select {
	case line := <-first:
		m := listening.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("%s's first line %q, want %q", pkg, line, listening)
		}
		p.addr = m[1]
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not say where it listens within 30 s", pkg)
	}
	return p
}

// stop ends it (SIGTERM, then SIGKILL after 10 s) and waits for its
// last line.
func (p *serverProc) stop(t *testing.T) {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
		t.Errorf("%s did not end within 10 s of SIGTERM", filepath.Base(p.cmd.Path))
	}
}

// lines returns the lines it printed after its first that match re.
func (p *serverProc) lines(re *regexp.Regexp) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var got []string
	for _, l := range p.log {
		if re.MatchString(l) {
			got = append(got, l)
		}
	}
	return got
}

// lobbyProc is a running lobby.
type lobbyProc struct{ *serverProc }

var lobbyListening = regexp.MustCompile(`^lobby: listening on (127\.0\.0\.1:\d+)$`)

// startLobby starts a lobby on 127.0.0.1 and returns it once it listens.
func startLobby(t *testing.T, args ...string) *lobbyProc {
	t.Helper()
	return &lobbyProc{startServer(t, "./cmd/lobby", lobbyListening, append([]string{"-addr", "127.0.0.1:0"}, args...)...)}
}

// room is the URL of a room of l.
func (l *lobbyProc) room(name string) string { return "ws://" + l.addr + "/" + name }

// pageNetTimeout is roomCommon's -net-timeout for a page: a page in
// headless Chromium, drawing with SwiftShader on a machine busy with the
// other tests, stalls for seconds at times (its first frame took 410 ms
// in one run), and the default of 2 s took the host for gone.
const pageNetTimeout = "net-timeout=30s"

// roomCommon are the flags of every native peer of a room game here.
var roomCommon = []string{"-headless", "-fps-cap", "60", "-hud=false", "-graph=false", "-stats", "-net-timeout", "30s", "-ticks", "300"}

// checkRoomGame checks peers' statistics: each ended at tick 300 with
// the first's state hash, through a room, each in its role.
func checkRoomGame(t *testing.T, stats []*report.Stats, roles ...string) {
	t.Helper()
	checkRoomEnd(t, 300, stats, roles...)
}

// checkRoomEnd is checkRoomGame for a game that ended at tick, or, with
// tick 0, for one that player 1 quit: at the first's tick, before
// watchedTicks.
func checkRoomEnd(t *testing.T, tick uint64, stats []*report.Stats, roles ...string) {
	t.Helper()
	if tick == 0 {
		tick = stats[0].WorldTicks
		if end := stats[0].Net; tick == 0 || tick >= watchedTicks || end == nil || end.End != "player 1 quit" {
			t.Errorf("peer 0 (%s) ended at tick %d (%+v), want player 1's quit, at a tick in 1..%d", roles[0], tick, end, watchedTicks-1)
		}
	}
	for i, s := range stats {
		if s.Net == nil || s.Net.Transport != "webrtc" || s.Net.Role != roles[i] {
			t.Fatalf("peer %d: net stats %+v, want the %s, over webrtc", i, s.Net, roles[i])
		}
		if s.WorldTicks != tick || s.StateHash != stats[0].StateHash {
			t.Errorf("peer %d (%s): tick %d, hash %s; want tick %d and peer 0's (%s) hash %s", i, roles[i], s.WorldTicks, s.StateHash, tick, roles[0], stats[0].StateHash)
		}
	}
}

// Two native demos in one room, in both netcodes: the first to arrive
// hosts, the other joins, over WebRTC; both end with the same state hash.
// Then the lobby is stopped while a game runs: the game plays on to its
// end.
func TestLobbyNativeGame(t *testing.T) {
	if testing.Short() {
		t.Skip("a lobby and two demos, 15 s")
	}
	t.Parallel() // real-time games, light on the CPU: they overlap with the other network games
	l := startLobby(t)
	for _, netcode := range []string{"lockstep", "rollback"} {
		t.Run(netcode, func(t *testing.T) {
			t.Parallel()
			room := l.room("native-" + netcode)
			args := append([]string{"-lobby", room, "-netcode", netcode}, roomCommon...)
			first := startDemo(t, "", append(args, "-bot", "1")...)
			first.waitStderr(regexp.MustCompile(`hosting on`), 30*time.Second)
			second := startDemo(t, "", append(args, "-bot", "2")...)
			first.mustSucceed(90 * time.Second)
			second.mustSucceed(90 * time.Second)
			checkRoomGame(t, []*report.Stats{first.stats(), second.stats()}, "host", "join")
		})
	}
	t.Run("lobby stopped mid-game", func(t *testing.T) {
		t.Parallel()
		l := startLobby(t)
		args := append([]string{"-lobby", l.room("orphans"), "-netcode", "rollback"}, roomCommon...)
		first := startDemo(t, "", append(args, "-bot", "1")...)
		first.waitStderr(regexp.MustCompile(`hosting on`), 30*time.Second)
		second := startDemo(t, "", append(args, "-bot", "2")...)
		second.waitStderr(playerRe, 30*time.Second)
		l.stop(t)
		first.mustSucceed(90 * time.Second)
		second.mustSucceed(90 * time.Second)
		checkRoomGame(t, []*report.Stats{first.stats(), second.stats()}, "host", "join")
	})
}

// The page in headless Chromium plays a room's game against a native
// host, in both netcodes, and both end with the same state hash; then a
// page watches a running native game it joined late.
func TestLobbyPageAgainstNative(t *testing.T) {
	if testing.Short() {
		t.Skip("a lobby, a demo and a browser, 20 s")
	}
	t.Parallel() // real-time games, light on the CPU: they overlap with the other network games
	l := startLobby(t)
	for _, netcode := range []string{"lockstep", "rollback"} {
		t.Run(netcode, func(t *testing.T) {
			t.Parallel()
			room := l.room("page-" + netcode)
			host := startDemo(t, "", append([]string{"-lobby", room, "-netcode", netcode, "-bot", "1"}, roomCommon...)...)
			host.waitStderr(regexp.MustCompile(`hosting on`), 30*time.Second)
			page := openPage(t, 120*time.Second, fmt.Sprintf("lobby=%s&netcode=%s&bot=2&ticks=300&stats&%s", room, netcode, pageNetTimeout))
			got := page.stats()
			host.mustSucceed(90 * time.Second)
			checkRoomGame(t, []*report.Stats{host.stats(), got}, "host", "join")
		})
	}
	// The host's world made to go wrong at tick 37 (-fault-desync): the
	// page, which saw the desync, shows its report under the status's
	// line: the first tick whose states differ and ball 0's X, both
	// values; the host writes its own (-desync-report).
	t.Run("desync", func(t *testing.T) {
		t.Parallel()
		room := l.room("page-desync")
		host := startDemo(t, "", append([]string{"-lobby", room, "-bot", "1", "-fault-desync", "37", "-desync-report", t.TempDir()}, roomCommon...)...)
		host.waitStderr(regexp.MustCompile(`hosting on`), 30*time.Second)
		page := openPage(t, 120*time.Second, fmt.Sprintf("lobby=%s&bot=2&ticks=300&stats&%s", room, pageNetTimeout))
		if s := page.waitState("stopped", "error"); s != "error" {
			t.Fatalf("the page %s: %s", s, page.text("status"))
		}
		status := page.text("status")
		line, rep, _ := strings.Cut(status, "\n\n")
		if !strings.Contains(line, "desync") || !strings.Contains(rep, "the states first differ after tick 37") || !strings.Contains(rep, "World.Balls[0].X: ") {
			t.Errorf("the page's status, want the desync's line and its report:\n%s", status)
		}
		if code := host.mustExit(30 * time.Second); code != 1 || !strings.Contains(host.stderr.String(), "desync report: ") {
			t.Errorf("the host: exit %d, stderr:\n%s\nwant status 1 and its report written", code, host.stderr.String())
		}
	})
	// A player who closes the page's tab quits as with Q: the host hears
	// it at once and ends at the page's end tick, cleanly, not after a
	// silence of -net-timeout (30 s here) with an error.
	t.Run("tab closed", func(t *testing.T) {
		t.Parallel()
		room := l.room("page-closed")
		host := startDemo(t, "", append(append([]string{"-lobby", room, "-netcode", "rollback", "-bot", "1"}, roomCommon...), "-ticks", "3000")...)
		host.waitStderr(regexp.MustCompile(`hosting on`), 30*time.Second)
		page := openPage(t, 120*time.Second, fmt.Sprintf("lobby=%s&netcode=rollback&bot=2&ticks=3000&stats&%s", room, pageNetTimeout))
		if err := page.page.WaitFor(page.ctx, `window.interpdemo.state !== "running" || window.interpdemo.info().ticks >= 50`); err != nil {
			t.Fatalf("waiting for the page's game: %v", err)
		}
		if s := page.state(); s != "running" {
			t.Fatalf("the page %s before tick 50: %s", s, page.text("status"))
		}
		closed := time.Now()
		if err := page.page.Close(); err != nil {
			t.Fatalf("closing the page: %v", err)
		}
		host.mustSucceed(20 * time.Second)
		took := time.Since(closed)
		hs := host.stats()
		if hs.Net == nil || hs.Net.End != "player 1 quit" || hs.WorldTicks < 50 || hs.WorldTicks >= 3000 {
			t.Fatalf("the host ended %v after the tab closed: %+v at tick %d; want player 1 quit, past tick 50", took, hs.Net, hs.WorldTicks)
		}
		if took > 10*time.Second {
			t.Errorf("the host ended %v after the tab closed: want it to hear at once", took)
		}
		t.Logf("the host ended %v after the tab closed, at tick %d: %s", took, hs.WorldTicks, hs.Net.End)
	})
	// A spectator whose tab closes says goodbye: the host does not wait
	// for it at the game's end (its silence, -net-timeout: 30 s here).
	t.Run("spectator's tab closed", func(t *testing.T) {
		t.Parallel()
		host, joiner, page := watchedRoomGame(t, l.room("page-watch-closed"))
		if err := page.page.Close(); err != nil {
			t.Fatalf("closing the page: %v", err)
		}
		quit := time.Now()
		interrupt(t, joiner)
		host.mustSucceed(20 * time.Second) // the game's end, and no wait for the spectator
		joiner.mustSucceed(20 * time.Second)
		t.Logf("the host ended %v after the player quit, the spectator's tab closed before", time.Since(quit))
		hs := host.stats()
		checkRoomEnd(t, 0, []*report.Stats{hs, joiner.stats()}, "host", "join")
		if hs.Net.Spectators == nil || *hs.Net.Spectators != 1 {
			t.Errorf("the host welcomed %v spectators, want the page", hs.Net.Spectators)
		}
	})
	t.Run("spectator joins late", func(t *testing.T) {
		t.Parallel()
		host, joiner, page := watchedRoomGame(t, l.room("page-watch"))
		interrupt(t, joiner)
		got := page.stats()
		host.mustSucceed(90 * time.Second)
		joiner.mustSucceed(90 * time.Second)
		checkRoomEnd(t, 0, []*report.Stats{host.stats(), joiner.stats(), got}, "host", "join", "spectator")
		if got.Net.Spectator == nil || got.Net.Spectator.StartTick == 0 {
			t.Errorf("the page's spectator started from tick 0: it did not join late (%+v)", got.Net.Spectator)
		}
	})
}

// watchedTicks bounds the game a page watches (watchedRoomGame): 2
// minutes of ticks, which the test cuts short.
const watchedTicks = 3000

// watchedRoomGame starts a two-player game of native demos in the room
// at room, opens a page that watches it, and returns them once the page
// has watched a tick of it. The game's end is the test's: a spectator
// must come while the game runs, and a page takes seconds to open (a
// tab, the WebAssembly compiled, WebGL through SwiftShader): up to 19 s
// measured beside two busy loops on this machine's 2 cores, where a game
// of 300 ticks (12 s) that started first had ended before the page came
// ("no host to spectate"), or while it connected ("context deadline
// exceeded (ICE state checking)": its host gone). So the game is long,
// watchedTicks at most, and the test ends it once the page watches, as
// a person would: a player's Ctrl-C (interrupt).
func watchedRoomGame(t *testing.T, room string) (host, joiner *demo, page *webRun) {
	t.Helper()
	player := func(bot string) []string {
		return append(append([]string{"-lobby", room, "-netcode", "rollback", "-bot", bot}, roomCommon...), "-ticks", strconv.Itoa(watchedTicks))
	}
	host = startDemo(t, "", player("1")...)
	host.waitStderr(regexp.MustCompile(`hosting on`), 30*time.Second)
	joiner = startDemo(t, "", player("2")...)
	joiner.waitStderr(playerRe, 30*time.Second)
	page = openPage(t, 120*time.Second, "lobby="+room+"&spectate&stats&"+pageNetTimeout)
	if err := page.page.WaitFor(page.ctx, `window.interpdemo.state !== "running" || window.interpdemo.info().ticks > 0`); err != nil {
		t.Fatalf("waiting for the page to watch: %v", err)
	}
	if s := page.state(); s != "running" {
		t.Fatalf("the page %s before it watched: %s", s, page.text("status"))
	}
	return host, joiner, page
}

// interrupt sends d SIGINT, which in its game ends it as Q does: the
// game ends for every peer at one tick.
func interrupt(t *testing.T, d *demo) {
	t.Helper()
	if err := d.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatalf("interrupting %v: %v", d.args, err)
	}
}

// A room's lobby that is not there: one line, at once, no hang.
func TestLobbyDown(t *testing.T) {
	if testing.Short() {
		t.Skip("a demo")
	}
	l := startLobby(t)
	addr := l.addr
	l.stop(t)
	d := runDemo(t, "", 30*time.Second, "-headless", "-lobby", "ws://"+addr+"/r", "-ticks", "10")
	last := lastLine(d.stderr.String())
	want := "interpdemo (entering a room): no lobby at ws://" + addr + " (connection refused): start one with make lobby"
	if d.code() != 1 || !strings.HasPrefix(last, want) {
		t.Errorf("a lobby that is down: exit %d, %q; want 1 and %q...", d.code(), last, want)
	}
}

// A third player into a room of two: one line that says the room is
// full and how to watch it.
func TestLobbyRoomFullSaysWatchIt(t *testing.T) {
	if testing.Short() {
		t.Skip("a demo")
	}
	l := startLobby(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for range 2 { // two players fill the room
		c, err := lobby.Join(ctx, l.room("full")+"?players=2")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	d := runDemo(t, "", 30*time.Second, "-headless", "-lobby", l.room("full"), "-ticks", "10")
	last := lastLine(d.stderr.String())
	want := `interpdemo (entering a room): room "full" is full (2 of 2 players): watch it with -spectate ` + l.room("full")
	if d.code() != 1 || last != want {
		t.Errorf("a full room: exit %d, %q; want 1 and %q", d.code(), last, want)
	}
}

// lastLine is the last line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// A room's host waiting for its players when the lobby goes away: nobody
// can join it any more, so it ends with one line and status 1, rather
// than wait on.
func TestLobbyGoesAwayFromAWaitingHost(t *testing.T) {
	if testing.Short() {
		t.Skip("a demo")
	}
	l := startLobby(t)
	host := startDemo(t, "", "-headless", "-hud=false", "-graph=false", "-fps-cap", "30", "-lobby", l.room("r"), "-ticks", "10")
	host.waitStderr(regexp.MustCompile(`(hosting on .*)`), 30*time.Second)
	l.stop(t)
	start := time.Now()
	code := host.mustExit(30 * time.Second)
	lines := strings.Split(strings.TrimSpace(host.stderr.String()), "\n")
	last := lines[len(lines)-1]
	if code != 1 || !strings.HasPrefix(last, "interpdemo (host, player 0 of 2): the lobby went away (") || !strings.HasSuffix(last, "): nobody can join this game") {
		t.Errorf("exit %d, stderr:\n%s\nwant status 1 and the lobby's going in the last line", code, host.stderr.String())
	}
	t.Logf("%q, %v after the lobby stopped", last, time.Since(start).Round(time.Millisecond))
}

// The page in a room it cannot enter: a lobby that is down, and a room
// that is full. Each ends the page with one line in its status, as the
// native demo's, through the browser's own WebSocket: the cause and the
// next step, in the page's words (?lobby=URL&spectate, not -spectate).
func TestLobbyPageCannotEnter(t *testing.T) {
	if testing.Short() {
		t.Skip("a lobby and a browser")
	}
	t.Parallel()
	l := startLobby(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for range 2 { // two players fill the room
		c, err := lobby.Join(ctx, l.room("full")+"?players=2")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	check := func(query, want string) {
		t.Helper()
		w := openPage(t, 60*time.Second, query+"&stats")
		if s := w.waitState("stopped", "error"); s != "error" {
			t.Fatalf("?%s: state %s, want error", query, s)
		}
		got := w.text("status")
		t.Logf("?%s: %s", query, got)
		if !strings.HasPrefix(got, "interpdemo: ") || strings.Contains(got, "\n") || !strings.Contains(got, want) || strings.Contains(got, "-lobby") {
			t.Errorf("?%s: status %q, want one line with %q, in the page's words (lobby=, not -lobby)", query, got, want)
		}
	}
	check("lobby="+l.room("full"), `room "full" is full (2 of 2 players): watch it with ?lobby=`+l.room("full")+`&spectate`)
	addr := l.addr
	l.stop(t)
	check("lobby=ws://"+addr+"/r", "no lobby answered at ws://"+addr+" (the browser's WebSocket closed with status 1006): start one with make lobby")
}

var turnListening = regexp.MustCompile(`^turn: listening on (127\.0\.0\.1:\d+)$`)

// startTURN starts cmd/turn on 127.0.0.1 with its credential's flags
// (-user and -pass, or -secret-file) and returns it once it listens.
func startTURN(t *testing.T, credential ...string) *serverProc {
	t.Helper()
	return startServer(t, "./cmd/turn", turnListening, append([]string{"-addr", "127.0.0.1:0"}, credential...)...)
}

var turnRelayed = regexp.MustCompile(`^turn: relayed (\d+) bytes to peers, (\d+) from them$`)

// A native host and a joiner, native or the page in Chromium, in a room
// through a TURN server alone, -ice-relay (the page's &ice-relay): the
// game plays to its end with one state hash, the server made an
// allocation for each peer, and its relay sockets carried at least every
// byte of netplay's the two sent (with DTLS's and SCTP's own on top): the
// game went through the relay. (With direct paths allowed, they carry
// ICE's checks alone, some hundred bytes.)
//
// The two natives name no server: the lobby's welcome hands each a
// credential of its own, made from the secret it shares with the TURN
// server (cmd/lobby -ice ... -turn-secret-file, cmd/turn -secret-file).
// The page names the server with its one credential (&ice=).
func TestLobbyThroughTURN(t *testing.T) {
	if testing.Short() {
		t.Skip("TURN servers, lobbies, demos and a browser, 20 s")
	}
	t.Parallel() // real-time games, light on the CPU: they overlap with the other network games
	for _, joiner := range []string{"native", "page"} {
		t.Run(joiner, func(t *testing.T) {
			t.Parallel()
			var turn *serverProc
			var l *lobbyProc
			args := []string{"-netcode", "rollback", "-ice-relay"}
			user := `alice`
			ice := ""
			if joiner == "native" {
				secret := filepath.Join(t.TempDir(), "turn-secret")
				if err := os.WriteFile(secret, []byte("a shared s3cret\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				turn = startTURN(t, "-secret-file", secret)
				l = startLobby(t, "-ice", "turn:"+turn.addr+"?transport=udp", "-turn-secret-file", secret, "-turn-ttl", "10m")
				user = `relayed-native\.p\d+` // ROOM.ID of the lobby's EXPIRY:ROOM.ID
			} else {
				turn = startTURN(t, "-user", "alice", "-pass", "s3:cr@t")
				l = startLobby(t)
				ice = "turn:alice:s3%3Acr%40t@" + turn.addr + "?transport=udp"
				args = append(args, "-ice", ice)
			}
			room := l.room("relayed-" + joiner)
			args = append(append([]string{"-lobby", room}, args...), roomCommon...)
			first := startDemo(t, "", append(args, "-bot", "1")...)
			first.waitStderr(regexp.MustCompile(`hosting on`), 30*time.Second)
			var got *report.Stats
			if joiner == "page" {
				page := openPage(t, 120*time.Second, fmt.Sprintf("lobby=%s&netcode=rollback&bot=2&ticks=300&stats&ice=%s&ice-relay&%s", room, url.QueryEscape(ice), pageNetTimeout))
				got = page.stats()
			} else {
				second := startDemo(t, "", append(args, "-bot", "2")...)
				second.mustSucceed(90 * time.Second)
				got = second.stats()
			}
			first.mustSucceed(90 * time.Second)
			stats := []*report.Stats{first.stats(), got}
			checkRoomGame(t, stats, "host", "join")
			checkRelayed(t, turn, user, stats)
		})
	}
}

// checkRelayed stops turn and checks that it made an allocation for each
// of the peers at least, for users matching user, and carried every byte
// of netplay's they sent.
func checkRelayed(t *testing.T, turn *serverProc, user string, stats []*report.Stats) {
	t.Helper()
	turn.stop(t)
	all := strings.Join(turn.lines(regexp.MustCompile(``)), "\n")
	if got := turn.lines(regexp.MustCompile(`^turn: allocation for ` + user + ` from 127\.0\.0\.1:\d+, relayed on 127\.0\.0\.1:\d+$`)); len(got) < len(stats) {
		t.Errorf("the TURN server made %d allocations for %s, want one for each of the %d peers at least:\n%s", len(got), user, len(stats), all)
	}
	var sent int64
	for _, st := range stats {
		sent += st.Net.BytesSent
	}
	last := turn.lines(turnRelayed)
	if len(last) != 1 {
		t.Fatalf("the TURN server did not say what it relayed:\n%s", all)
	}
	m := turnRelayed.FindStringSubmatch(last[0])
	if to, _ := strconv.ParseInt(m[1], 10, 64); to < sent || sent == 0 {
		t.Errorf("the TURN server relayed %d bytes to peers; the two demos sent %d of netplay's: the game did not go through it", to, sent)
	}
	t.Logf("%s; the demos sent %d bytes of netplay's", last[0], sent)
}
