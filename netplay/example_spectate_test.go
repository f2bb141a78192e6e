package netplay_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// watchedGame is counterGame that a spectator can load in the middle of
// the game: a Snapshotter, its whole state 8 bytes.
type watchedGame struct{ counterGame }

func (g *watchedGame) AppendState(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, g.now.Tick)
	return binary.LittleEndian.AppendUint32(dst, g.now.Sum)
}

func (g *watchedGame) SetState(b []byte) error {
	if len(b) != 8 {
		return errors.New("not a counter's state")
	}
	g.now = counterState{Tick: binary.LittleEndian.Uint32(b), Sum: binary.LittleEndian.Uint32(b[4:])}
	return nil
}

// viewer is one spectator: its Spectator (the transport's endpoint) and
// its Watcher (which plays the game it receives), made once the host
// answered.
type viewer struct {
	name          string
	arrive, leave time.Duration // leave: 0 to watch to the end
	port          *netsim.Port
	sp            *netplay.Spectator
	w             *netplay.Watcher
	game          *watchedGame
	from          uint64        // the tick it started watching at
	loadedAt      time.Duration // when its game was loaded: its ticks count from there
	counted       int
	gone          bool // its Watcher is Done: it closed its socket
}

// frame is one frame of the spectator's loop: the datagrams that arrived,
// the ticks due by its clock (those received run; one behind the host
// catches up, 5 ticks a frame at most), the datagrams to send.
func (v *viewer) frame(now, tick time.Duration) {
	if v.gone || now < v.arrive {
		return
	}
	if v.sp == nil {
		v.sp, _ = netplay.NewSpectator(netplay.SpectatorConfig{InputSize: 1}, "host", now)
	}
	netplay.Read(now, v.port, v.sp)
	if v.w == nil && v.sp.State() >= netplay.StateLobby && v.sp.Err() == nil {
		v.game = &watchedGame{}
		v.w, _ = netplay.NewWatcher(v.sp, v.game)
	}
	if v.leave > 0 && now >= v.leave {
		v.sp.Leave(now) // the next Poll says goodbye
	}
	if v.w != nil {
		if v.w.Loaded() && v.loadedAt == 0 {
			v.loadedAt, v.from = now, v.w.Head()
		}
		due := 0
		if v.loadedAt > 0 {
			ticks := int((now - v.loadedAt) / tick)
			due, v.counted = ticks-v.counted, ticks
		}
		v.w.Frame(now, due, 5)
	}
	netplay.Write(now, v.port, v.sp)
	v.gone = v.sp.Err() != nil || (v.w != nil && v.w.Done())
}

// A host's Broadcast serves two spectators of a game of two players (in
// lockstep, over a network in memory with 40 ms of delay and 5 % loss,
// on a manual clock). The fan asks before the game starts and watches it
// from the first tick to the last. The visitor arrives 1.5 s into the
// game, loads a snapshot of it at a confirmed tick, watches from there,
// and leaves 2 s later: it says goodbye, and the host frees its place at
// once. The host is done when the game is and the fan has the end: it
// waits for no spectator.
func ExampleBroadcast() {
	const tick = 20 * time.Millisecond
	net, _ := netsim.NewNet(netsim.Conditions{Delay: 40 * time.Millisecond, Loss: 0.05}, 1)
	hostPort, _ := net.Port("host")
	joinPort, _ := net.Port("join")
	host, _ := netplay.NewHost(netplay.Config{InputSize: 1, Players: 2, Delay: 3, TickLimit: 250}, 0)
	join, _ := netplay.NewJoiner(netplay.Config{InputSize: 1}, "host", 0)
	sessions := []*netplay.Session{host, join}
	ports := []*netsim.Port{hostPort, joinPort}
	games := []*watchedGame{{}, {}}
	runners := make([]*netplay.Runner, 2)
	for i, s := range sessions {
		runners[i], _ = netplay.NewRunner(s, games[i], keyboard{s}, netplay.RunnerConfig{Netcode: netplay.Lockstep})
		games[i].slots = make([]counterState, runners[i].Slots())
	}
	// The host's datagrams go through its Broadcast, which passes the
	// players' on to the Session and serves the spectators itself.
	bcast, _ := netplay.NewBroadcast(runners[0], netplay.BroadcastConfig{MaxSpectators: 2})
	endpoints := []netplay.Endpoint{bcast, join}
	fan := &viewer{name: "fan"}
	visitor := &viewer{name: "visitor", arrive: 1500 * time.Millisecond, leave: 3500 * time.Millisecond}
	viewers := []*viewer{fan, visitor}
	for _, v := range viewers {
		v.port, _ = net.Port(v.name)
	}

	var now, gameOver time.Duration
	counted := []int{0, 0}
	for ; now < time.Minute; now += 10 * time.Millisecond {
		net.SetTime(now)
		for i, s := range sessions {
			netplay.Read(now, ports[i], endpoints[i])
			due := 0
			if s.State() == netplay.StateRunning {
				ticks := int((now - s.StartedAt()) / tick)
				due, counted[i] = ticks-counted[i], ticks
			}
			runners[i].Frame(now, due, 5)
			netplay.Write(now, ports[i], endpoints[i])
		}
		for _, v := range viewers {
			v.frame(now, tick)
		}
		if gameOver == 0 && host.Done() && join.Done() {
			gameOver = now
		}
		if gameOver > 0 && bcast.Done() && fan.gone && visitor.gone {
			break
		}
	}
	for i, s := range sessions {
		fmt.Printf("%v: tick %d, sum %d, err %v\n", s.Role(), games[i].now.Tick, games[i].now.Sum, s.Err())
	}
	for _, v := range viewers {
		fmt.Printf("%s: watched from tick %d to %d, sum %d, err %v\n", v.name, v.from, v.game.now.Tick, v.game.now.Sum, v.sp.Err())
	}
	st := bcast.Stats()
	fmt.Printf("host: %d spectators welcomed, %d left, %d dropped; done %v after the game\n", st.Joined, st.Left, st.Dropped, now-gameOver)
	// Output:
	// host: tick 250, sum 507431110, err <nil>
	// join: tick 250, sum 507431110, err <nil>
	// fan: watched from tick 0 to 250, sum 507431110, err <nil>
	// visitor: watched from tick 57 to 152, sum 2494571352, err <nil>
	// host: 2 spectators welcomed, 1 left, 0 dropped; done 20ms after the game
}
