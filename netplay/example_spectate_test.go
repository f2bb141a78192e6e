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

// viewer is one spectator, made when it arrives.
type viewer struct {
	name          string
	arrive, leave time.Duration // leave: 0 to watch to the end
	port          *netsim.Port
	sp            *netplay.Spectator
	game          watchedGame
	from          uint64        // the tick it started watching at
	loadedAt      time.Duration // when its game was loaded: its ticks count from there
	counted       int
}

// frame is one frame of the spectator's loop: the ticks due by its clock
// since its game was loaded (those received run; one behind the host
// catches up, 5 ticks a frame at most).
func (v *viewer) frame(now, tick time.Duration) {
	switch {
	case now < v.arrive || v.sp != nil && v.sp.Done():
		return
	case v.sp == nil:
		v.sp, _ = netplay.Watch(netplay.Config{InputSize: 1}, &v.game, v.port, "host", now)
	case v.leave > 0 && now >= v.leave:
		v.sp.Leave(now) // the next Frame says goodbye
	}
	due := 0
	if st := v.sp.Stats(); st.State >= netplay.StateRunning {
		if v.loadedAt == 0 {
			v.loadedAt, v.from = now, st.Start
		}
		ticks := int((now - v.loadedAt) / tick)
		due, v.counted = ticks-v.counted, ticks
	}
	v.sp.Frame(now, due, 5)
}

// A host serves two spectators of a game of two players (in lockstep,
// over a network in memory with 40 ms of delay and 5 % loss, on a manual
// clock). The fan asks before the game starts and watches it from the
// first tick to the last. The visitor arrives 1.5 s into the game, loads
// a snapshot of it at a confirmed tick, watches from there, and leaves
// 2 s later: it says goodbye, and the host frees its place at once. The
// host is done when the game is and the fan has the end: it waits for no
// spectator.
func ExampleWatch() {
	const tick = 20 * time.Millisecond
	net, _ := netsim.NewNet(netsim.Conditions{Delay: 40 * time.Millisecond, Loss: 0.05}, 1)
	hostPort, _ := net.Port("host")
	joinPort, _ := net.Port("join")
	games := []*watchedGame{{}, {}}
	host, _ := netplay.Host(netplay.Config{InputSize: 1, Tick: tick, Netcode: netplay.Lockstep, Players: 2, Delay: 3,
		TickLimit: 250, MaxSpectators: 2}, games[0], hostPort, 0)
	join, _ := netplay.Join(netplay.Config{InputSize: 1, Netcode: netplay.Lockstep}, games[1], joinPort, "host", 0)
	sessions := []*netplay.Session{host, join}
	games[0].me, games[1].me = host, join
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
			due := 0
			if st := s.Stats(); st.State == netplay.StateRunning {
				ticks := int((now - st.StartedAt) / tick)
				due, counted[i] = ticks-counted[i], ticks
			}
			s.Frame(now, due, 5)
		}
		for _, v := range viewers {
			v.frame(now, tick)
		}
		if gameOver == 0 && join.Done() && host.State() == netplay.StateEnded {
			gameOver = now
		}
		if host.Done() && join.Done() && fan.sp.Done() && visitor.sp.Done() {
			break
		}
	}
	for i, s := range sessions {
		fmt.Printf("player %d: tick %d, sum %d, err %v\n", i, games[i].now.Tick, games[i].now.Sum, s.Err())
	}
	for _, v := range viewers {
		fmt.Printf("%s: watched from tick %d to %d, sum %d, err %v\n", v.name, v.from, v.game.now.Tick, v.game.now.Sum, v.sp.Err())
	}
	st := host.Stats()
	fmt.Printf("host: %d spectators welcomed, %d left, %d dropped; done %v after the game\n",
		st.SpectatorsJoined, st.SpectatorsLeft, st.SpectatorsDropped, now-gameOver)
	// Output:
	// player 0: tick 250, sum 507431110, err <nil>
	// player 1: tick 250, sum 507431110, err <nil>
	// fan: watched from tick 0 to 250, sum 507431110, err <nil>
	// visitor: watched from tick 57 to 152, sum 2494571352, err <nil>
	// host: 2 spectators welcomed, 1 left, 0 dropped; done 20ms after the game
}
