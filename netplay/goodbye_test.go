package netplay

import (
	"fmt"
	"testing"
	"time"
)

// The host remembers every recent goodbye, not only the latest: after
// many spectators came and said goodbye in turn (the ring's size, 16),
// late copies of every one's Hello take no place, and the place is there
// for the next spectator.
func TestLateHellosOfManySpectatorsTakeNoPlace(t *testing.T) {
	_, bcast := lobbyHost(t, 1)
	now := time.Duration(0)
	var hellos [][]byte
	const n = 2 * MaxSpectators
	for i := range n {
		from := fmt.Sprintf("10.1.0.%d:7000", i)
		sp := newSpec(t, uint64(100+i), now)
		hellos = append(hellos, polled(sp, now, bcast, from, true)[0])
		now += ms
		sp.Leave(now)
		polled(sp, now, bcast, from, true)
		now += ms
	}
	if st := bcast.Stats(); st.Joined != n || st.Left != n || st.Spectators != 0 {
		t.Fatalf("after %d spectators came and went: %+v", n, st)
	}
	for i, h := range hellos {
		bcast.Receive(now, fmt.Sprintf("10.1.0.%d:7000", i), h) // late
		if st := bcast.Stats(); st.Spectators != 0 || st.Joined != n {
			t.Fatalf("the late Hello of spectator %d of %d took a place: %+v", i, n, st)
		}
	}
	next := newSpec(t, 999, now)
	polled(next, now, bcast, "10.2.0.1:7000", true)
	if st := bcast.Stats(); st.Spectators != 1 || st.Rejected != 0 {
		t.Errorf("the next spectator: %+v", st)
	}
}

// The same for joiners that quit in the lobby: after two quit, a late
// copy of the first's Hello takes no slot, nor the second's, and the next
// two joiners fill the game.
func TestLateHellosOfTwoLobbyQuitsTakeNoSlot(t *testing.T) {
	host, _ := newHost(config{InputSize: testInputSize, Nonce: 1, Players: 3, Delay: DefaultDelay}, 0)
	first := quitInLobby(t, host, addr(1), 2)
	second := quitInLobbyAt(t, host, addr(2), 3, 10*ms)
	host.Receive(20*ms, addr(1), first)
	host.Receive(20*ms, addr(2), second)
	if j := host.Stats().Joined; j != 1 {
		t.Fatalf("late Hellos of the two joiners that quit: joined %d, want 1", j)
	}
	b, _ := newJoiner(config{InputSize: testInputSize, Nonce: 4}, addr(0), 21*ms)
	c, _ := newJoiner(config{InputSize: testInputSize, Nonce: 5}, addr(0), 21*ms)
	joiners := map[string]*session{addr(3): b, addr(4): c}
	for now := 21 * ms; now < 50*ms; now += ms {
		host.Poll(now, sendFunc(func(to string, p []byte) {
			if j := joiners[to]; j != nil {
				j.Receive(now, addr(0), p)
			}
		}))
		for from, j := range joiners {
			j.Poll(now, sendFunc(func(_ string, p []byte) { host.Receive(now, from, p) }))
		}
	}
	if b.Err() != nil || c.Err() != nil || b.Index()+c.Index() != 3 || host.State() != StateRunning {
		t.Errorf("b: %v, index %d; c: %v, index %d; host %v", b.Err(), b.Index(), c.Err(), c.Index(), host.State())
	}
}

// quitInLobbyAt is quitInLobby from at on: a joiner of the nonce joins
// host's lobby from the address and quits. It returns its first Hello.
func quitInLobbyAt(t *testing.T, host *session, from string, nonce uint64, at time.Duration) []byte {
	t.Helper()
	a, _ := newJoiner(config{InputSize: testInputSize, Nonce: nonce}, addr(0), at)
	var hello []byte
	a.Poll(at, sendFunc(func(_ string, p []byte) { hello = append([]byte(nil), p...) }))
	host.Receive(at, from, hello)
	host.Poll(at+ms, sendFunc(func(to string, p []byte) {
		if to == from {
			a.Receive(at+ms, addr(0), p)
		}
	}))
	a.Poll(at+2*ms, sendFunc(func(_ string, p []byte) { host.Receive(at+2*ms, from, p) }))
	a.Quit(at + 3*ms)
	a.Poll(at+3*ms, sendFunc(func(_ string, p []byte) { host.Receive(at+3*ms, from, p) }))
	if !a.Done() || host.Stats().Joined != 1 {
		t.Fatalf("after the quit at %v: a %v, host joined %d", at, a.State(), host.Stats().Joined)
	}
	return hello
}
