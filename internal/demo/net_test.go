package demo

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
	"github.com/interpdemo/interpdemo/netplay/webrtc"
)

// lossy is the in-process network of these tests: delay, jitter, loss,
// duplication and reordering.
var lossy = netsim.Conditions{Delay: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.1, Duplicate: 0.05, Reorder: 0.05}

// netGame is a network game of in-process demos on one manual clock: a
// host with hostArgs and a joiner with each of joinArgs, every one with
// -stats and a long -net-timeout (a test's frames are not a network's
// silence).
type netTestGame struct {
	t     *testing.T
	clock *loop.ManualClock
	peers []*front // the host first
}

func newNetTestGame(t *testing.T, cond netsim.Conditions, hostArgs []string, joinArgs ...[]string) *netTestGame {
	t.Helper()
	clock := loop.NewManualClock(time.Second)
	net := newSimNet(t, clock, cond)
	common := []string{"-stats", "-net-timeout", "1m"}
	g := &netTestGame{t: t, clock: clock}
	host := newFront(t, clock, net, append(append([]string{"-host", ":7777"}, common...), hostArgs...)...)
	host.stepAt(clock.Now()) // the host's socket serves its session from now on
	g.peers = append(g.peers, host)
	for _, a := range joinArgs {
		j := newFront(t, clock, net, append(append([]string{"-join", "127.0.0.1:7777"}, common...), a...)...)
		j.stepAt(clock.Now())
		g.peers = append(g.peers, j)
	}
	return g
}

// run runs frames of every peer, 2 ms apart, until all are done; keys
// says which keys a peer presses in a frame.
func (g *netTestGame) run(keys func(i int, f *front) []Key) {
	g.t.Helper()
	for n := 0; n < 100000 && !g.done(); n++ {
		for i, f := range g.peers {
			if f.d.Done() {
				continue
			}
			var k []Key
			if keys != nil {
				k = keys(i, f)
			}
			f.stepKeys(g.clock.Now(), k...)
		}
		g.clock.Advance(2 * time.Millisecond)
	}
	if !g.done() {
		for i, f := range g.peers {
			g.t.Logf("peer %d: done %v, %+v", i, f.d.Done(), f.d.Sim().Net().Stats())
		}
		g.t.Fatal("the game did not end")
	}
}

func (g *netTestGame) done() bool {
	for _, f := range g.peers {
		if !f.d.Done() {
			return false
		}
	}
	return true
}

// reports finishes every peer and returns what -stats printed.
func (g *netTestGame) reports() []*report.Stats {
	g.t.Helper()
	var rs []*report.Stats
	for i, f := range g.peers {
		out, err := f.finish()
		if err != nil {
			g.t.Fatalf("peer %d: %v\n%s", i, err, f.log.String())
		}
		r, err := report.Parse([]byte(strings.TrimSpace(out)))
		if err != nil {
			g.t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

// stepKeys is stepAt with keys pressed at the frame's start.
func (f *front) stepKeys(now time.Duration, keys ...Key) {
	d := f.d
	d.StartFrame(now)
	for _, k := range keys {
		d.Key(KeyEvent{Key: k, Down: true, Time: now})
		d.Key(KeyEvent{Key: k, Down: false, Time: now})
	}
	d.Update(now)
	d.BeginDraw(now)
	up := d.SyncWorld(f.sync)
	f.scene = f.sceneAt(now)
	d.Presented(now, 0, 0)
	d.EndFrame(now, now, up)
}

// TestNetworkQuitInProcess: one peer presses Q in the middle of a game;
// the game ends for everyone at one tick (the quitter's first tick
// without its input), and every peer reports the same world tick and
// state hash, cleanly, naming the quitter.
func TestNetworkQuitInProcess(t *testing.T) {
	for _, netcode := range []string{"lockstep", "rollback"} {
		for _, c := range []struct{ players, quitter int }{{2, 0}, {2, 1}, {3, 2}} {
			t.Run(fmt.Sprint(netcode, "/", c.players, "/", c.quitter), func(t *testing.T) {
				players := fmt.Sprint(c.players)
				var joins [][]string
				for i := 1; i < c.players; i++ {
					joins = append(joins, []string{"-bot", fmt.Sprint(i + 1), "-netcode", netcode})
				}
				g := newNetTestGame(t, lossy, []string{"-players", players, "-bot", "1", "-netcode", netcode}, joins...)
				var quitter *front
				var ran, endTick uint64
				g.run(func(i int, f *front) []Key {
					s := f.d.Sim().Net()
					if quitter == nil && s.Index() == c.quitter && s.Stats().Tick >= 60 {
						quitter, ran = f, s.Stats().Tick
						return []Key{KeyQ}
					}
					return nil
				})
				if quitter == nil {
					t.Fatal("nobody quit")
				}
				rs := g.reports()
				// The end tick is the quitter's first tick without its
				// input: past the ticks it ran, within its input delay
				// (and a frame's ticks) of them.
				endTick = rs[0].WorldTicks
				if endTick < ran || endTick > ran+8 {
					t.Errorf("the game ended at tick %d; the quitter had run %d", endTick, ran)
				}
				t.Logf("player %d quit after %d ticks; the end tick is %d", c.quitter, ran, endTick)
				for i, r := range rs {
					want := fmt.Sprintf("player %d quit", c.quitter)
					if g.peers[i] == quitter {
						want = "quit"
					}
					if r.WorldTicks != endTick || r.StateHash != rs[0].StateHash || r.Net.End != want {
						t.Errorf("peer %d (player %d): world tick %d, hash %s, end %q; want %d, the host's %s, %q",
							i, r.Net.Player, r.WorldTicks, r.StateHash, r.Net.End, endTick, rs[0].StateHash, want)
					}
					// Every peer says in one line, naming itself, why
					// its game ended.
					who := fmt.Sprintf("player %d of %d", r.Net.Player, c.players)
					if r.Net.Player == 0 {
						who = "host, " + who
					}
					if want == "quit" {
						want = "you quit"
					}
					line := fmt.Sprintf("interpdemo (%s): game over at tick %d: %s\n", who, endTick, want)
					if log := g.peers[i].log.String(); strings.Count(log, "game over") != 1 || !strings.Contains(log, line) {
						t.Errorf("peer %d's log lacks %q, once:\n%s", i, line, log)
					}
				}
			})
		}
	}
}

// TestGameThatNeverStarted: a host nobody joined that quits says that
// the game never started, not that it started; its title and log say
// which peer it is.
func TestGameThatNeverStarted(t *testing.T) {
	clock := loop.NewManualClock(time.Second)
	host := newFront(t, clock, newSimNet(t, clock, netsim.Conditions{}), "-host", ":7777")
	for range 10 {
		host.step()
	}
	if b, _ := host.d.Title(clock.Now() + time.Second); !strings.HasPrefix(string(b), "interpdemo | host, player 0 of 2 | ") {
		t.Errorf("title %q", b)
	}
	host.step(KeyQ)
	host.run(100)
	if _, err := host.finish(); err != nil {
		t.Fatal(err)
	}
	log := host.log.String()
	if strings.Contains(log, "game started") || !strings.Contains(log, "interpdemo (host, player 0 of 2): the game never started: you quit with 1 of 2 players there\n") {
		t.Errorf("log:\n%s", log)
	}
}

// TestHostGivesEveryPlayerABall: a host with the default -balls makes a
// world with a ball for every player (player i moves ball i), and every
// peer plays in it.
func TestHostGivesEveryPlayerABall(t *testing.T) {
	for players := netplay.MinPlayers; players <= netplay.MaxPlayers; players++ {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			var joins [][]string
			for i := 1; i < players; i++ {
				joins = append(joins, []string{"-bot", fmt.Sprint(i + 1)})
			}
			g := newNetTestGame(t, netsim.Conditions{}, []string{"-players", fmt.Sprint(players), "-bot", "1", "-ticks", "30"}, joins...)
			g.run(nil)
			for i, r := range g.reports() {
				if r.Balls != players || r.WorldTicks != 30 {
					t.Errorf("peer %d: %d balls after %d ticks, want %d balls after 30", i, r.Balls, r.WorldTicks, players)
				}
			}
		})
	}
	// More balls, if -balls asks.
	g := newNetTestGame(t, netsim.Conditions{}, []string{"-balls", "5", "-bot", "1", "-ticks", "30"}, []string{"-bot", "2"})
	g.run(nil)
	for i, r := range g.reports() {
		if r.Balls != 5 {
			t.Errorf("-balls 5: peer %d has %d balls", i, r.Balls)
		}
	}
}

// TestBallsBelowPlayersIsAFlagError: a -balls given below -players is a
// usage error naming -balls, before any socket is opened.
func TestBallsBelowPlayersIsAFlagError(t *testing.T) {
	for _, args := range [][]string{
		{"-host", ":7777", "-balls", "1"},
		{"-host", ":7777", "-players", "3", "-balls", "2"},
		{"-host", ":7777", "-balls", "0"},
	} {
		net := newSimNet(t, loop.NewManualClock(0), netsim.Conditions{})
		_, err := Parse(args, io.Discard, Platform{Network: net})
		var ue UsageError
		if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), "-balls: ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want a one-line usage error naming -balls", args, err)
		}
		if len(net.conns) != 0 {
			t.Errorf("%v: a socket was opened", args)
		}
	}
	if _, err := Parse([]string{"-host", ":7777", "-players", "3", "-balls", "3"}, io.Discard, Platform{}); err != nil {
		t.Errorf("-balls equal to -players: %v", err)
	}
}

// TestJoinerInputMovesTheWorld: the joiner's input plays in the game:
// two games with the same host and joiners whose bots differ end in
// different states (and every peer of a game in the same one).
func TestJoinerInputMovesTheWorld(t *testing.T) {
	for _, netcode := range []string{"lockstep", "rollback"} {
		t.Run(netcode, func(t *testing.T) {
			hashes := map[string]bool{}
			for _, bot := range []string{"2", "3"} {
				g := newNetTestGame(t, lossy, []string{"-bot", "1", "-ticks", "150", "-netcode", netcode}, []string{"-bot", bot, "-netcode", netcode})
				g.run(nil)
				rs := g.reports()
				if rs[0].StateHash != rs[1].StateHash || rs[0].WorldTicks != 150 {
					t.Fatalf("joiner bot %s: host %s, joiner %s after %d ticks", bot, rs[0].StateHash, rs[1].StateHash, rs[0].WorldTicks)
				}
				hashes[rs[0].StateHash] = true
			}
			if len(hashes) != 2 {
				t.Errorf("the joiner's bot changes nothing: both games end at %v", hashes)
			}
		})
	}
}

// TestDisconnectPolicyInProcess: the joiner of a two-player game stops
// (killed) after 40 ticks. With the host's -net-disconnect continue the
// host plays on to its -ticks limit, its -stats and its log name player 1
// out of the game from the tick the session agreed, and its recording of
// the game without the player replays to the same state hash; with the
// default the host's game ends with one error naming the silent player.
func TestDisconnectPolicyInProcess(t *testing.T) {
	for _, policy := range []string{"continue", "end"} {
		t.Run(policy, func(t *testing.T) {
			g := newNetTestGame(t, lossy, []string{"-bot", "1", "-ticks", "150", "-net-disconnect", policy, "-net-timeout", "500ms", "-record", "game.rec"},
				[]string{"-bot", "2"})
			host, joiner := g.peers[0], g.peers[1]
			for n := 0; n < 100000 && !host.d.Done(); n++ {
				host.stepKeys(g.clock.Now())
				if joiner.d.Sim().Net().Stats().Tick < 40 {
					joiner.stepKeys(g.clock.Now())
				}
				g.clock.Advance(2 * time.Millisecond)
			}
			if !host.d.Done() {
				t.Fatal("the host's game did not end")
			}
			out, err := host.finish()
			if policy == "end" {
				var se *netplay.Error
				if !errors.As(err, &se) || se.Reason != netplay.ErrSilent || se.Player != 1 {
					t.Fatalf("host: %v, want player 1 silent", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("host: %v\n%s", err, host.log.String())
			}
			r, err := report.Parse([]byte(strings.TrimSpace(out)))
			if err != nil {
				t.Fatal(err)
			}
			peer1 := host.d.Sim().Net().Stats().Peers[1]
			from, ok := peer1.KickTick, peer1.Kicked
			if r.WorldTicks != 150 || len(r.Net.Kicked) != 1 || r.Net.Kicked[0] != 1 || !ok {
				t.Errorf("host: %d ticks, kicked %v (%v); want 150, [1]", r.WorldTicks, r.Net.Kicked, ok)
			}
			line := fmt.Sprintf("player 1 disconnected at tick %d: silent", from)
			if log := host.log.String(); !strings.Contains(log, line) || !strings.Contains(log, "nothing heard for") {
				t.Errorf("host's log lacks %q or the interruption:\n%s", line, log)
			}
			rec := host.files.files["game.rec"]
			_, out, err = replayInMemory(t, rec)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			rr, err := report.Parse([]byte(strings.TrimSpace(out)))
			if err != nil {
				t.Fatal(err)
			}
			if rr.StateHash != r.StateHash || rr.ReplayOK == nil || !*rr.ReplayOK {
				t.Errorf("replay: hash %s ok %v, want %s and true", rr.StateHash, rr.ReplayOK, r.StateHash)
			}
		})
	}
}

// Through a lobby's room (simNet's, in this process): the first demo to
// enter hosts, the second joins it, both with the same flags, and a
// third watches the room's game; all end with the same state hash and
// say that they went through a room.
func TestLobbyRoomInProcess(t *testing.T) {
	for _, netcode := range []string{"lockstep", "rollback"} {
		t.Run(netcode, func(t *testing.T) {
			clock := loop.NewManualClock(time.Second)
			net := newSimNet(t, clock, netsim.Conditions{})
			args := func(bot string) []string {
				return []string{"-lobby", "ws://127.0.0.1:1/r1", "-bot", bot, "-netcode", netcode, "-ticks", "150", "-balls", "30", "-stats", "-net-timeout", "1m"}
			}
			first := newFront(t, clock, net, args("1")...)
			first.stepAt(clock.Now())
			second := newFront(t, clock, net, args("2")...)
			peers := []*front{first, second}
			var watcher *front
			for i := 0; i < 100000 && !(first.d.Done() && second.d.Done() && (watcher == nil || watcher.d.Done())); i++ {
				if i == 500 {
					watcher = newFront(t, clock, net, "-spectate", "ws://127.0.0.1:1/r1", "-stats", "-net-timeout", "1m")
					peers = append(peers, watcher)
				}
				for _, f := range peers {
					if !f.d.Done() {
						f.frame = 0
						f.stepAt(clock.Now())
					}
				}
				clock.Advance(2 * time.Millisecond)
			}
			var reports []*report.Stats
			for i, f := range peers {
				if !f.d.Done() {
					t.Fatalf("peer %d not done", i)
				}
				out, err := f.finish()
				if err != nil {
					t.Fatalf("peer %d: %v\n%s", i, err, f.log.String())
				}
				r, err := report.Parse([]byte(strings.TrimSpace(out)))
				if err != nil {
					t.Fatal(err)
				}
				reports = append(reports, r)
			}
			if len(reports) != 3 {
				t.Fatalf("%d peers", len(reports))
			}
			for i, want := range []string{"host", "join", "spectator"} {
				r := reports[i]
				if r.Net == nil || r.Net.Role != want || r.Net.Transport != "webrtc" {
					t.Fatalf("peer %d: %+v, want the %s, through a room", i, r.Net, want)
				}
				if r.StateHash != reports[0].StateHash || r.WorldTicks != 150 {
					t.Errorf("peer %d at tick %d, hash %s; the host's %s", i, r.WorldTicks, r.StateHash, reports[0].StateHash)
				}
			}
		})
	}
}

// A room's URL is checked with the flags: one line naming the flag, no
// socket opened.
func TestLobbyFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-lobby", "http://127.0.0.1:1/r1"}, "-lobby: "},
		{[]string{"-lobby", "ws://127.0.0.1:1/"}, "-lobby: "},
		{[]string{"-lobby", "ws:///r1"}, "-lobby: "},
		{[]string{"-lobby", "ws://127.0.0.1:1/r1", "-host", ":7777"}, "-lobby: "},
		{[]string{"-lobby", "ws://127.0.0.1:1/r1", "-net-delay", "10ms"}, "-net-delay: "},
		{[]string{"-spectate", "ws://127.0.0.1:1/a/b"}, "-spectate: "},
		{[]string{"-ice", "stun:127.0.0.1:3478"}, "-ice: is for a lobby's room"},
		{[]string{"-host", ":7777", "-ice", "stun:127.0.0.1:3478"}, "-ice: is for a lobby's room"},
		{[]string{"-lobby", "ws://127.0.0.1:1/r1", "-ice", "turn:127.0.0.1:3478"}, `-ice: webrtc: TURN server "turn:127.0.0.1:3478" needs a username and a credential`},
		{[]string{"-lobby", "ws://127.0.0.1:1/r1", "-ice", "http://127.0.0.1"}, `-ice: webrtc: ICE server "http://127.0.0.1": `},
		{[]string{"-host", ":7777", "-ice-relay"}, "-ice-relay: is for a lobby's room"},
	} {
		net := newSimNet(t, loop.NewManualClock(0), netsim.Conditions{})
		_, err := Parse(c.args, io.Discard, Platform{Network: net})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want a one-line error starting %q", c.args, err, c.want)
		}
		if len(net.conns) != 0 {
			t.Errorf("%v: a socket was opened", c.args)
		}
	}
}

// -ice's servers reach the lobby's room, parsed: a TURN server with its
// username and credential, and a STUN server; -ice-relay too.
func TestLobbyGetsTheICEServers(t *testing.T) {
	want := []webrtc.ICEServer{
		{URLs: []string{"stun:127.0.0.1:3478"}},
		{URLs: []string{"turn:127.0.0.1:3479?transport=udp"}, Username: "alice", Credential: "p@ss"},
	}
	for _, relay := range []bool{false, true} {
		clock := loop.NewManualClock(time.Second)
		net := newSimNet(t, clock, netsim.Conditions{})
		args := []string{"-lobby", "ws://127.0.0.1:1/r1", "-ice", "stun:127.0.0.1:3478,turn:alice:p%40ss@127.0.0.1:3479?transport=udp", "-balls", "2"}
		if relay {
			args = append(args, "-ice-relay")
		}
		f := newFront(t, clock, net, args...)
		f.stepAt(clock.Now())
		if len(net.lobbies) != 1 {
			t.Fatalf("-ice-relay %v: %d lobbies entered, want 1", relay, len(net.lobbies))
		}
		got := net.lobbies[0]
		if !reflect.DeepEqual(got.ICEServers, want) || got.RelayOnly != relay || got.Timeout <= 0 {
			t.Errorf("-ice-relay %v: the lobby was given %+v, want the servers %+v, relay only %v and a timeout", relay, got, want, relay)
		}
	}
}

// -ice-relay with no TURN server in -ice, or no -ice at all, is for the
// lobby's welcome to supply one (netplay/webrtc/room checks it there):
// the flags pass, and the room is entered relay only.
func TestICERelayWithoutTURNInICE(t *testing.T) {
	for _, ice := range []string{"", "stun:127.0.0.1:3478"} {
		clock := loop.NewManualClock(time.Second)
		net := newSimNet(t, clock, netsim.Conditions{})
		args := []string{"-lobby", "ws://127.0.0.1:1/r1", "-ice-relay", "-balls", "2"}
		if ice != "" {
			args = append(args, "-ice", ice)
		}
		f := newFront(t, clock, net, args...)
		f.stepAt(clock.Now())
		if len(net.lobbies) != 1 || !net.lobbies[0].RelayOnly || len(net.lobbies[0].ICEServers) != min(len(ice), 1) {
			t.Errorf("-ice %q -ice-relay: lobbies entered %+v, want one, relay only, with %d servers", ice, net.lobbies, min(len(ice), 1))
		}
	}
}

// TestJoinerOfAGameWithoutInputDelay: a rollback host's game has no input
// delay, which lockstep cannot play; a joiner that did not ask for a
// netcode plays rollback there too, says so, and the peers agree, and one
// that asked for lockstep is told to join with rollback. Before, the
// joiner played lockstep at 0 and stalled on nearly every frame.
func TestJoinerOfAGameWithoutInputDelay(t *testing.T) {
	g := newNetTestGame(t, lossy, []string{"-netcode", "rollback", "-bot", "1", "-ticks", "60"}, []string{"-bot", "2"})
	g.run(nil)
	rs := g.reports()
	for i, r := range rs {
		if r.Net == nil || r.Net.Netcode != "rollback" || r.Net.InputDelay != 0 || r.Net.Rollback == nil || r.StateHash != rs[0].StateHash {
			t.Errorf("peer %d: %+v, hash %s; want rollback at input delay 0, the host's hash %s", i, r.Net, r.StateHash, rs[0].StateHash)
		}
	}
	if log, want := g.peers[1].log.String(), "interpdemo (player 1 of 2): the host's game has no input delay, which lockstep cannot play: rollback here too\n"; !strings.Contains(log, want) {
		t.Errorf("joiner's log:\n%s\nwant %q", log, want)
	}

	clock := loop.NewManualClock(time.Second)
	net := newSimNet(t, clock, netsim.Conditions{})
	host := newFront(t, clock, net, "-host", ":7777", "-netcode", "rollback")
	host.stepAt(clock.Now())
	_, err := tryFront(t, clock, net, "-join", "127.0.0.1:7777", "-netcode", "lockstep")
	var usage UsageError
	if want := "-netcode: lockstep cannot play the host's game: it has no input delay (the host plays rollback); join with -netcode rollback, or without -netcode"; !errors.As(err, &usage) || err.Error() != want {
		t.Errorf("a joiner asking for lockstep: %v; want the usage error %q", err, want)
	}
}

// TestSilenceSaidOnlyWhenNoticed: a joiner silent for less than half of
// -net-timeout (a busy machine's pause) leaves no line in the host's
// log; one silent for more gets one, which says when the player is gone.
func TestSilenceSaidOnlyWhenNoticed(t *testing.T) {
	for _, tc := range []struct {
		pause time.Duration
		said  bool
	}{{700 * time.Millisecond, false}, {1300 * time.Millisecond, true}} {
		t.Run(tc.pause.String(), func(t *testing.T) {
			g := newNetTestGame(t, netsim.Conditions{}, []string{"-bot", "1", "-ticks", "100", "-net-timeout", "2s"}, []string{"-bot", "2"})
			host, joiner := g.peers[0], g.peers[1]
			var paused time.Duration
			for n := 0; n < 100000 && !host.d.Done(); n++ {
				host.stepKeys(g.clock.Now())
				if tick := joiner.d.Sim().Net().Stats().Tick; tick < 30 || paused >= tc.pause {
					joiner.stepKeys(g.clock.Now())
				} else {
					paused += 2 * time.Millisecond
				}
				g.clock.Advance(2 * time.Millisecond)
			}
			if !host.d.Done() {
				t.Fatal("the host's game did not end")
			}
			log := host.log.String()
			if said := strings.Contains(log, "player 1: nothing heard for "); said != tc.said {
				t.Errorf("a pause of %v: said %v, want %v; host's log:\n%s", tc.pause, said, tc.said, log)
			}
			if tc.said && !strings.Contains(log, "at 2s of silence (-net-timeout) the player is gone") {
				t.Errorf("the line does not say when the player is gone:\n%s", log)
			}
		})
	}
}
