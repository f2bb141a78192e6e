package netplay

import (
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// cutPort is a port whose sending can be cut.
type cutPort struct {
	*netsim.Port
	cut bool
}

func (c *cutPort) Send(to string, pkt []byte) {
	if !c.cut {
		c.Port.Send(to, pkt)
	}
}

// pinPeers is a host and joiners over a network in memory, on a manual
// clock, each with a counter game and a cuttable port.
type pinPeers struct {
	net   *netsim.Net
	now   time.Duration
	ports []*cutPort
	s     []*Session
	evs   [][]Event
}

func newPinPeers(t *testing.T, players int, host Config) *pinPeers { // the joiners play host.Netcode
	t.Helper()
	net, _ := netsim.NewNet(netsim.Conditions{Delay: 5 * time.Millisecond}, 3)
	pp := &pinPeers{net: net}
	host.InputSize, host.Tick, host.Players = 1, 20*time.Millisecond, players
	for i := range players {
		p, _ := net.Port(addr(i))
		pp.ports = append(pp.ports, &cutPort{Port: p})
		var s *Session
		var err error
		if i == 0 {
			s, err = Host(host, &counter{seed: 1}, pp.ports[i], 0)
		} else {
			s, err = Join(Config{InputSize: 1, Nonce: uint64(10 + i), Netcode: host.Netcode}, &counter{seed: byte(1 + i)}, pp.ports[i], addr(0), 0)
		}
		if err != nil {
			t.Fatal(err)
		}
		pp.s = append(pp.s, s)
		pp.evs = append(pp.evs, nil)
	}
	return pp
}

// frames plays frames of the peers in on, 10 ms apart, for d, a tick a
// frame once the game runs; it keeps their events.
func (pp *pinPeers) frames(d time.Duration, on ...int) {
	due := map[int]int{}
	for _, i := range on {
		due[i] = 1
	}
	pp.framesDue(d, due)
}

// framesDue is frames with due[i] ticks a frame for peer i (0: a loop
// that stalls), for the peers in due.
func (pp *pinPeers) framesDue(d time.Duration, due map[int]int) {
	for end := pp.now + d; pp.now < end; pp.now += 10 * time.Millisecond {
		pp.net.SetTime(pp.now)
		for i := range pp.s {
			n, on := due[i]
			if !on {
				continue
			}
			if pp.s[i].State() != StateRunning {
				n = 0
			}
			pp.s[i].Frame(pp.now, n, 5)
			for e, ok := pp.s[i].PollEvent(); ok; e, ok = pp.s[i].PollEvent() {
				pp.evs[i] = append(pp.evs[i], e)
			}
		}
	}
}

func count(evs []Event, k EventKind) int {
	n := 0
	for _, e := range evs {
		if e.Kind == k {
			n++
		}
	}
	return n
}

// A joiner waiting in a lobby for the last player hears the host's
// keep-alives for as long as it takes; it raises EventSynchronizing when
// the players present change, not at every keep-alive (whose copies would
// push its EventSynchronized out of the 64 events kept).
func TestLobbyKeepAlivesRaiseNoEvents(t *testing.T) {
	pp := newPinPeers(t, 3, Config{})
	pp.frames(10*time.Second, 0, 1) // player 2 never comes
	j := pp.evs[1]
	if count(j, EventSynchronized) != 1 || count(j, EventSynchronizing) > 2 || pp.s[1].Stats().EventsDropped != 0 {
		t.Errorf("a joiner 10 s in a lobby: %d Synchronized, %d Synchronizing, %d dropped; want 1, at most 2, 0",
			count(j, EventSynchronized), count(j, EventSynchronizing), pp.s[1].Stats().EventsDropped)
	}
}

// A player interrupted near the end, whose next word settles everything
// the game needs of it (its last inputs, its acknowledgements) while this
// peer's game still runs, is done with, not resumed: its interruption
// ends without an EventResumed, as a player out of the game's does.
func TestNoResumedForAPlayerSettledAtTheEnd(t *testing.T) {
	// Lockstep with an input delay of 12: a peer at tick h has given its
	// inputs up to h+12.
	pp := newPinPeers(t, 2, Config{TickLimit: 100, Delay: 12, Netcode: Lockstep})
	for pp.s[0].Stats().Tick < 80 {
		pp.frames(10*time.Millisecond, 0, 1)
	}
	// The joiner's loop stalls while the host's runs on: the host gives
	// its inputs to the end, the joiner not yet.
	for pp.s[0].Stats().Tick < 88 {
		pp.framesDue(10*time.Millisecond, map[int]int{0: 1, 1: 0})
	}
	pp.ports[1].cut = true
	// The joiner, unheard (interrupted at the host, which waits for its
	// inputs), plays to the end.
	pp.frames(700*time.Millisecond, 0, 1)
	pp.ports[1].cut = false // its last word settles all the game needs of it
	pp.frames(3*time.Second, 0, 1)
	h := pp.evs[0]
	if count(h, EventInterrupted) != 1 || count(h, EventResumed) != 0 || pp.s[0].Err() != nil || pp.s[0].Stats().Tick != 100 {
		t.Errorf("the host: %d Interrupted, %d Resumed, err %v, tick %d; want 1, 0, none, 100",
			count(h, EventInterrupted), count(h, EventResumed), pp.s[0].Err(), pp.s[0].Stats().Tick)
	}
}
