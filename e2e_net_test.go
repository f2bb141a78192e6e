package main

// Network games end to end: real processes, real UDP sockets, only on
// 127.0.0.1, on ports the system picks. Delay, jitter and loss are
// simulated inside the processes (-net-*); nothing leaves the machine.
// Every test bounds its own duration; the flood bounds its packet count.

import (
	"fmt"
	"math/rand/v2"
	"net"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

var (
	hostingRe = regexp.MustCompile(`hosting on (127\.0\.0\.1:\d+)`)
	playerRe  = regexp.MustCompile(`game started: player (\d+) of`)
)

// playerIndex waits for the game to start on d and returns its player
// index (joiners get theirs in the order their hellos arrive).
func (d *demo) playerIndex() int {
	d.t.Helper()
	i, _ := strconv.Atoi(d.waitStderr(playerRe, 30*time.Second))
	return i
}

// waitStderr waits until the demo's stderr matches re and returns the
// first submatch (or the whole match).
func (d *demo) waitStderr(re *regexp.Regexp, timeout time.Duration) string {
	d.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(d.stderr.String()); m != nil {
			return m[len(m)-1]
		}
		select {
		case <-d.done:
			// It may have said it, and ended, since the check above.
			if m := re.FindStringSubmatch(d.stderr.String()); m != nil {
				return m[len(m)-1]
			}
			// The process state names a signal that ended it ("signal:
			// segmentation fault"), where the status alone says -1.
			d.t.Fatalf("interpdemo %v exited (%v) before saying %q\nstderr: %s", d.args, d.cmd.ProcessState, re, d.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	d.t.Fatalf("interpdemo %v never said %q within %v\nstderr: %s", d.args, re, timeout, d.stderr.String())
	return ""
}

// netCommon are the flags of every peer of these tests: headless, a few
// frames a second fewer than the machine can do, the HUD off, and a
// silence timeout long enough that a loaded test machine's pauses (other
// test processes, llvmpipe) are not mistaken for a peer gone; the tests
// of a peer that is gone set it back.
var netCommon = []string{"-headless", "-fps-cap", "30", "-hud=false", "-graph=false", "-stats", "-net-timeout", "30s"}

// hostGame starts a host for players on 127.0.0.1 with a system-picked
// port and returns it and its address.
func hostGame(t *testing.T, players int, args ...string) (*demo, string) {
	t.Helper()
	a := append([]string{"-host", "127.0.0.1:0", "-players", strconv.Itoa(players), "-bot", "1"}, netCommon...)
	d := startDemo(t, "", append(a, args...)...)
	return d, d.waitStderr(hostingRe, 30*time.Second)
}

func joinGame(t *testing.T, addr string, bot int, args ...string) *demo {
	t.Helper()
	a := append([]string{"-join", addr, "-bot", strconv.Itoa(bot)}, netCommon...)
	return startDemo(t, "", append(a, args...)...)
}

// whoIs is how a network game's log lines name player i of n.
func whoIs(i, n int) string {
	if i == 0 {
		return fmt.Sprintf("host, player 0 of %d", n)
	}
	return fmt.Sprintf("player %d of %d", i, n)
}

// TestJoinSaysWhereItConnects: a joiner says at once where it connects
// (and its window's title does), and a host that is not there ends it at
// once (the system's port unreachable, not netplay's 10 s join timeout)
// with one line that says so.
func TestJoinSaysWhereItConnects(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0") // a port nobody answers on
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close()
	start := time.Now()
	j := startDemo(t, "", "-headless", "-join", addr, "-net-timeout", "2s")
	j.waitStderr(regexp.MustCompile(`(?m)^interpdemo \(joining\): connecting to `+regexp.QuoteMeta(addr)), 5*time.Second)
	if took := time.Since(start); took > 1500*time.Millisecond {
		t.Errorf("said where it connects after %v, want at once", took)
	}
	if code := j.mustExit(30 * time.Second); code != 1 || !strings.Contains(j.stderr.String(), "interpdemo (joining): nothing listens at "+addr+": no game hosted there\n") {
		t.Errorf("exit %d: %s", code, j.stderr.String())
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("a dead address was said after %v, want at once (not the join timeout)", took)
	}
}

// TestSlowPeerIsKicked: the article's slow computer, detected and
// kicked. A peer drawing at 3 FPS holds the game back; the host, with
// -kick-after, drops it; it exits 1 saying so, and the others finish the
// game with equal hashes.
func TestSlowPeerIsKicked(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	// In both netcodes; the host's recording, the confirmed game with the
	// kicked player's release in it, replays to the game's end.
	for _, netcode := range []string{"lockstep", "rollback"} {
		t.Run(netcode, func(t *testing.T) {
			t.Parallel()
			rec := filepath.Join(t.TempDir(), "kick.rec")
			host, addr := hostGame(t, 3, "-ticks", "300", "-kick-after", "3s", "-netcode", netcode, "-record", rec)
			fast := joinGame(t, addr, 21, "-netcode", netcode)
			slow := joinGame(t, addr, 22, "-netcode", netcode, "-render-load", "300ms", "-fps-cap", "0")
			slowIndex := slow.playerIndex()
			code := slow.mustExit(60 * time.Second)
			msg := strings.TrimSpace(slow.stderr.String())
			if code != 1 || !strings.Contains(msg, "kicked: too slow (held the game back ") {
				t.Fatalf("slow peer: exit %d, stderr %q; want 1 and the kick", code, msg)
			}
			host.mustSucceed(60 * time.Second)
			fast.mustSucceed(60 * time.Second)
			hs, fs := host.stats(), fast.stats()
			if hs.StateHash != fs.StateHash || hs.WorldTicks != 300 || fs.WorldTicks != 300 {
				t.Errorf("host %s at %d ticks, joiner %s at %d", hs.StateHash, hs.WorldTicks, fs.StateHash, fs.WorldTicks)
			}
			if len(hs.Net.Kicked) != 1 || hs.Net.Kicked[0] != slowIndex || len(fs.Net.Kicked) != 1 || fs.Net.Kicked[0] != slowIndex {
				t.Errorf("kicked: host %v, joiner %v; want [%d]", hs.Net.Kicked, fs.Net.Kicked, slowIndex)
			}
			// Every peer says why: the slow one that it was kicked, the
			// others that it was dropped, then that the game ended.
			if want := fmt.Sprintf("interpdemo (%s): kicked: too slow", whoIs(slowIndex, 3)); !strings.Contains(msg, want) {
				t.Errorf("slow peer: stderr %q lacks %q", msg, want)
			}
			for _, p := range []struct {
				d *demo
				s *report.Stats
			}{{host, hs}, {fast, fs}} {
				dropped := fmt.Sprintf("interpdemo (%s): player %d was dropped from the game; its ball moves on its own\n", whoIs(p.s.Net.Player, 3), slowIndex)
				over := fmt.Sprintf("interpdemo (%s): game over at tick 300: tick limit reached\n", whoIs(p.s.Net.Player, 3))
				if got := p.d.stderr.String(); !strings.Contains(got, dropped) || !strings.Contains(got, over) {
					t.Errorf("player %d: stderr lacks %q or %q:\n%s", p.s.Net.Player, dropped, over, got)
				}
			}
			r := runDemo(t, "", 60*time.Second, "-headless", "-replay", rec, "-fast", "-stats", "-hud=false", "-graph=false")
			if r.code() != 0 {
				t.Fatalf("replay: exit %d: %s", r.code(), r.stderr.String())
			}
			if rs := r.stats(); rs.StateHash != hs.StateHash || rs.ReplayOK == nil || !*rs.ReplayOK {
				t.Errorf("the recording replays to %s (ok %v), the game ended at %s", rs.StateHash, rs.ReplayOK, hs.StateHash)
			}
		})
	}
}

// TestKilledPeer: kill -9 of a peer in the middle of a game. Without
// -kick-after the other ends within 5 s with status 1 and a message
// naming the player; with it, the game goes on without the player.
func TestKilledPeer(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	t.Parallel() // real-time games, light on the CPU: they overlap with the other network games
	started := regexp.MustCompile(`game started`)
	t.Run("ends", func(t *testing.T) {
		t.Parallel()
		host, addr := hostGame(t, 2, "-net-timeout", "2s")
		joiner := joinGame(t, addr, 31)
		joiner.waitStderr(started, 30*time.Second)
		host.waitStderr(started, 30*time.Second)
		joiner.cmd.Process.Signal(syscall.SIGKILL)
		killed := time.Now()
		code := host.mustExit(10 * time.Second)
		if took := time.Since(killed); took > 5*time.Second {
			t.Errorf("the host noticed after %v, want within 5 s", took)
		}
		msg := strings.TrimSpace(host.stderr.String())
		last := msg[strings.LastIndexByte(msg, '\n')+1:]
		// The line names the host and says how long it heard nothing.
		m := regexp.MustCompile(`^interpdemo \(host, player 0 of 2\): player 1 silent for ([0-9.]+)s$`).FindStringSubmatch(last)
		if code != 1 || m == nil {
			t.Fatalf("host: exit %d, last line %q; want 1 naming the host and player 1", code, last)
		}
		// At least the timeout, and not more than the time since the kill
		// (and the joiner's last frame before it): what it measured, not
		// the setting. A loaded machine detects late, and says so.
		took := time.Since(killed)
		if f, _ := strconv.ParseFloat(m[1], 64); f < 2 || f > took.Seconds()+1 {
			t.Errorf("host: %q, %v after the kill: want the silence it measured, at least 2 s", last, took)
		}
		t.Logf("%q, exit %v after the kill", last, took.Round(time.Millisecond))
	})
	t.Run("continue", func(t *testing.T) {
		// -net-disconnect continue, no kicks for slowness: the killed
		// player is disconnected at a tick every peer agrees on, the
		// others play to the end, and the host's recording replays.
		t.Parallel()
		rec := filepath.Join(t.TempDir(), "host.rec")
		host, addr := hostGame(t, 3, "-ticks", "200", "-net-disconnect", "continue", "-net-timeout", "2s", "-record", rec)
		a := joinGame(t, addr, 51)
		b := joinGame(t, addr, 52)
		a.waitStderr(started, 30*time.Second)
		b.waitStderr(started, 30*time.Second)
		killed := b.playerIndex()
		b.cmd.Process.Signal(syscall.SIGKILL)
		host.mustSucceed(60 * time.Second)
		a.mustSucceed(60 * time.Second)
		hs, as := host.stats(), a.stats()
		if hs.WorldTicks != 200 || as.WorldTicks != 200 || hs.StateHash != as.StateHash {
			t.Errorf("host at tick %d hash %s, joiner at tick %d hash %s; want both at 200, one hash", hs.WorldTicks, hs.StateHash, as.WorldTicks, as.StateHash)
		}
		if len(hs.Net.Kicked) != 1 || hs.Net.Kicked[0] != killed || len(as.Net.Kicked) != 1 || as.Net.Kicked[0] != killed {
			t.Errorf("out of the game: host %v, joiner %v; want [%d]", hs.Net.Kicked, as.Net.Kicked, killed)
		}
		// Both name the same tick.
		re := regexp.MustCompile(fmt.Sprintf(`player %d was out of the game from tick (\d+)`, killed))
		hm, am := re.FindStringSubmatch(host.stderr.String()), re.FindStringSubmatch(a.stderr.String())
		if hm == nil || am == nil || hm[1] != am[1] {
			t.Errorf("the tick player %d left at: host %v, joiner %v; want one tick named by both:\n%s\n%s", killed, hm, am, host.stderr.String(), a.stderr.String())
		}
		r := runDemo(t, "", 60*time.Second, "-headless", "-replay", rec, "-fast", "-stats", "-hud=false", "-graph=false")
		if r.code() != 0 {
			t.Fatalf("replaying the host's recording: exit %d: %s", r.code(), r.stderr.String())
		}
		if rs := r.stats(); rs.ReplayOK == nil || !*rs.ReplayOK || rs.StateHash != hs.StateHash {
			t.Errorf("replay: ok %v, hash %s; the game's %s", rs.ReplayOK, rs.StateHash, hs.StateHash)
		}
	})
	t.Run("goes on", func(t *testing.T) {
		t.Parallel()
		host, addr := hostGame(t, 3, "-ticks", "200", "-kick-after", "2s", "-net-timeout", "2s")
		a := joinGame(t, addr, 41)
		b := joinGame(t, addr, 42)
		killed := b.playerIndex()
		b.cmd.Process.Signal(syscall.SIGKILL)
		host.mustSucceed(60 * time.Second)
		a.mustSucceed(60 * time.Second)
		hs, as := host.stats(), a.stats()
		if hs.StateHash != as.StateHash || len(hs.Net.Kicked) != 1 || hs.Net.Kicked[0] != killed {
			t.Errorf("host %s kicked %v, joiner %s; want [%d]", hs.StateHash, hs.Net.Kicked, as.StateHash, killed)
		}
		for _, p := range []struct {
			d *demo
			s *report.Stats
		}{{host, hs}, {a, as}} {
			if want := fmt.Sprintf("interpdemo (%s): player %d was dropped from the game", whoIs(p.s.Net.Player, 3), killed); !strings.Contains(p.d.stderr.String(), want) {
				t.Errorf("player %d: stderr lacks %q:\n%s", p.s.Net.Player, want, p.d.stderr.String())
			}
		}
	})
}

// TestFloodOfGarbage: random datagrams at the host's port during a game
// (a bounded number, from 127.0.0.1): no crash, the peers still agree,
// and the host counts the garbage.
func TestFloodOfGarbage(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	t.Parallel() // real-time games, light on the CPU: they overlap with the other network games
	host, addr := hostGame(t, 2, "-ticks", "150")
	joiner := joinGame(t, addr, 51)
	joiner.waitStderr(regexp.MustCompile(`game started`), 30*time.Second)
	conn, err := net.Dial("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	const flood = 3000
	buf := make([]byte, 1500)
	for i := 0; i < flood; i++ {
		n := rng.IntN(len(buf))
		for j := range buf[:n] {
			buf[j] = byte(rng.Uint32())
		}
		if i%3 == 0 && n >= 4 {
			copy(buf, "NP\x01\x05") // looks like a game packet of ours
		}
		conn.Write(buf[:n])
		if i%100 == 99 {
			time.Sleep(5 * time.Millisecond) // spread over the game, not one burst the socket drops
		}
	}
	host.mustSucceed(60 * time.Second)
	joiner.mustSucceed(60 * time.Second)
	hs, js := host.stats(), joiner.stats()
	if hs.StateHash != js.StateHash {
		t.Errorf("host %s, joiner %s", hs.StateHash, js.StateHash)
	}
	if hs.Net.BadPackets == 0 || hs.Net.BadPackets > flood {
		t.Errorf("the host counted %d bad packets of %d sent", hs.Net.BadPackets, flood)
	}
}

// TestQuitEndsEveryoneAtOneTick: a peer quits in the middle of a game
// (-duration takes the path of Q), the other plays on to the quitter's end
// tick: both exit 0 at the same world tick, in the same state, and say
// who quit.
func TestQuitEndsEveryoneAtOneTick(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	t.Parallel() // real-time games, light on the CPU: they overlap with the other network games
	for _, quitter := range []string{"host", "joiner"} {
		t.Run(quitter, func(t *testing.T) {
			t.Parallel()
			cond := []string{"-net-delay", "30ms", "-net-jitter", "10ms", "-net-loss", "0.05"}
			quit := append([]string{"-duration", "6s"}, cond...)
			hostArgs, joinArgs := cond, cond
			if quitter == "host" {
				hostArgs = quit
			} else {
				joinArgs = quit
			}
			host, addr := hostGame(t, 2, hostArgs...)
			joiner := joinGame(t, addr, 81, joinArgs...)
			host.mustSucceed(60 * time.Second)
			joiner.mustSucceed(60 * time.Second)
			hs, js := host.stats(), joiner.stats()
			q := 0
			if quitter == "joiner" {
				q = js.Net.Player
			}
			for _, s := range []*report.Stats{hs, js} {
				want := "player " + strconv.Itoa(q) + " quit"
				if s.Net.Player == q {
					want = "quit"
				}
				if s.Net.End != want {
					t.Errorf("player %d: end %q, want %q", s.Net.Player, s.Net.End, want)
				}
			}
			if hs.WorldTicks != js.WorldTicks || hs.StateHash != js.StateHash || hs.WorldTicks < 25 {
				t.Errorf("host at tick %d (%s), joiner at tick %d (%s): want one tick and one state", hs.WorldTicks, hs.StateHash, js.WorldTicks, js.StateHash)
			}
			// Each says, in one line naming itself, why its game ended.
			for _, p := range []struct {
				d *demo
				s *report.Stats
			}{{host, hs}, {joiner, js}} {
				why := "player " + strconv.Itoa(q) + " quit"
				if p.s.Net.Player == q {
					why = "you quit"
				}
				line := fmt.Sprintf("interpdemo (%s): game over at tick %d: %s\n", whoIs(p.s.Net.Player, 2), p.s.WorldTicks, why)
				if got := p.d.stderr.String(); strings.Count(got, "game over") != 1 || !strings.Contains(got, line) {
					t.Errorf("player %d: stderr lacks %q, once:\n%s", p.s.Net.Player, line, got)
				}
			}
		})
	}
}

// TestJoinerTakesTheHostsWorld: a joiner's world flag that disagrees with
// the host's is a clear error; flags that agree are fine.
func TestJoinerTakesTheHostsWorld(t *testing.T) {
	t.Parallel() // real-time games, light on the CPU: they overlap with the other network games
	host, addr := hostGame(t, 2, "-balls", "7", "-ticks", "50")
	bad := joinGame(t, addr, 61, "-balls", "5")
	if code := bad.mustExit(30 * time.Second); code == 0 || !strings.Contains(bad.stderr.String(), "-balls: is 7 in the host's game, not 5") {
		t.Fatalf("conflicting joiner: exit %d, %q", code, bad.stderr.String())
	}
	good := joinGame(t, addr, 62, "-balls", "7")
	good.mustSucceed(60 * time.Second)
	host.mustSucceed(60 * time.Second)
	if gs := good.stats(); gs.Balls != 7 || gs.StateHash != host.stats().StateHash {
		t.Errorf("joiner: %d balls, %s; host %s", gs.Balls, gs.StateHash, host.stats().StateHash)
	}
}

func TestNetworkFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-players", "3"}, "-players: needs -host or -join"},
		{[]string{"-host", ":0", "-join", "127.0.0.1:1"}, "-join: cannot be combined with -host"},
		{[]string{"-host", ":0", "-players", "9"}, "-players: must be between 2 and 8"},
		{[]string{"-host", ":0", "-net-loss", "2"}, "-net-loss"},
		{[]string{"-host", ":0", "-mode", "variable"}, "-mode: a network game runs in fixed mode"},
		{[]string{"-join", "nowhere"}, "-join:"},
		{[]string{"-join", "127.0.0.1:1", "-kick-after", "1s"}, "-kick-after: is the host's to set"},
		{[]string{"-host", ":0", "-bot", "x"}, "-bot"},
		{[]string{"-host", ":0", "-net-timeout", "0s"}, "-net-timeout: must be at least 400ms"},
		{[]string{"-net-timeout", "5s"}, "-net-timeout: needs -host or -join"},
		{[]string{"-host", ":0", "-net-wait", "-1s"}, "-net-wait: must not be negative"},
		{[]string{"-join", "127.0.0.1:1", "-net-wait", "30s"}, "-net-wait: is the host's to set"},
		{[]string{"-net-wait", "30s"}, "-net-wait: needs -host or -lobby"},
	} {
		d := runDemo(t, "", 10*time.Second, append([]string{"-headless"}, c.args...)...)
		msg := d.stderr.String()
		if d.code() != 2 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, d.code(), msg, c.want)
		}
	}
}

// TestSyncTestAtScale: -synctest 8 rolls the world back 8 ticks after
// every tick and simulates them again, at 1, 1,000 and 100,000 balls.
func TestSyncTestAtScale(t *testing.T) {
	for _, c := range []struct{ balls, ticks string }{{"1", "200"}, {"1000", "200"}, {"100000", "40"}} {
		d := runDemo(t, "", 120*time.Second, "-headless", "-synctest", "8", "-balls", c.balls, "-ticks", c.ticks, "-fast", "-stats", "-hud=false", "-graph=false")
		if d.code() != 0 {
			t.Fatalf("%s balls: exit %d: %s", c.balls, d.code(), d.stderr.String())
		}
		s := d.stats()
		n, _ := strconv.Atoi(c.ticks)
		if s.SyncTestTicks == nil || *s.SyncTestTicks != int64(8*(n-7)) {
			t.Errorf("%s balls: %v ticks simulated twice, want %d", c.balls, s.SyncTestTicks, 8*(n-7))
		}
	}
}

// TestTwoWindowsToldApart: a host and a joiner in two real windows on one
// screen: each title says which peer it is, and the joiner's window is
// not on top of the host's.
func TestTwoWindowsToldApart(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	display := xvfb(t)
	common := []string{"-fps-cap", "30", "-stats", "-net-timeout", "30s"}
	host := startDemo(t, display, append([]string{"-host", "127.0.0.1:0", "-bot", "1", "-ticks", "150"}, common...)...)
	addr := host.waitStderr(hostingRe, 30*time.Second)
	joiner := startDemo(t, display, append([]string{"-join", addr, "-bot", "2"}, common...)...)
	for _, p := range []struct {
		d   *demo
		who string
	}{{host, "host, player 0 of 2"}, {joiner, "player 1 of 2"}} {
		p.d.waitTitle(p.who, 30*time.Second, func(w winTitle) bool { return w.who == p.who })
	}
	position := func(d *demo) string {
		out := d.xdo("getwindowgeometry", d.window())
		m := regexp.MustCompile(`Position: (-?\d+,-?\d+)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("getwindowgeometry: %q", out)
		}
		return m[1]
	}
	if hp, jp := position(host), position(joiner); hp == jp {
		t.Errorf("both windows at %s", hp)
	} else {
		t.Logf("host's window at %s, joiner's at %s", hp, jp)
	}
	host.mustSucceed(60 * time.Second)
	joiner.mustSucceed(60 * time.Second)
}
