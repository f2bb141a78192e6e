package netplay

import (
	"testing"
	"time"
)

// FuzzSpectatorReceive: random datagrams to a spectator (joining, and
// loading a snapshot) and to a host's Broadcast never panic, and each is
// counted as bad or taken.
func FuzzSpectatorReceive(f *testing.F) {
	// current is a datagram written out by hand, of this ProtocolVersion.
	current := func(s string) []byte {
		b := []byte(s)
		b[2] = protocolVersion
		return b
	}
	g := &gen{rng: 5}
	buf := make([]byte, MaxPacketSize)
	for i := range 10 {
		p := g.packet(msgType(1 + i%5))
		f.Add(append([]byte(nil), buf[:p.encode(buf)]...))
	}
	f.Add(current("NP\x02\x09\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x05\x02"))
	f.Add(current("NP\x02\x07\x01\x00\x00\x00\x00\x00\x00\x00\x09\x00\x00\x00\x00\x00\x00\x00\x02\x01\x00\x05\x40"))
	// Goodbyes (SpecBye): before the Welcome (session 0), after it, and
	// one byte too long.
	f.Add(current("NP\x02\x0b\x00\x00\x00\x00\x00\x00\x00\x00\x09\x00\x00\x00\x00\x00\x00\x00"))
	f.Add(current("NP\x02\x0b\x01\x00\x00\x00\x00\x00\x00\x00\x09\x00\x00\x00\x00\x00\x00\x00"))
	f.Add(current("NP\x02\x0b\x01\x00\x00\x00\x00\x00\x00\x00\x09\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		host := addr(0)
		sp, _ := newSpectator(spectatorConfig{Nonce: 9, InputSize: 1, MaxSnapshot: 1 << 16}, host, 0)
		sp.Receive(ms, host, b)
		sp.Poll(2*ms, sendFunc(func(string, []byte) {}))
		// A spectator welcomed, loading a snapshot of 3000 bytes.
		sp2, _ := newSpectator(spectatorConfig{Nonce: 9, InputSize: 1}, host, 0)
		w := writer{b: make([]byte, 0, MaxPacketSize), ok: true}
		w.u8(magic0)
		w.u8(magic1)
		w.u8(protocolVersion)
		w.u8(uint8(msgSpecWelcome))
		w.u64(1)
		w.u64(9)
		w.u8(2)
		w.u8(1)
		w.uv(0)
		w.uv(10)
		w.uv(3000)
		w.u64(0)
		w.u64(0)
		w.uv(0)
		sp2.Receive(ms, host, w.b)
		if !sp2.welcomed || sp2.State() != StateJoining {
			t.Fatalf("the test's Welcome was not taken: %v", sp2.Err())
		}
		sp2.Receive(2*ms, host, b)
		sp2.Poll(3*ms, sendFunc(func(string, []byte) {}))

		hs, _ := newHost(config{Nonce: 1, InputSize: 1, Players: 2, Delay: DefaultDelay}, 0)
		r, _ := newRunner(hs, newSpecGame(0, 10), newSpecGame(0, 10), runnerConfig{Netcode: Lockstep})
		bc, _ := newBroadcast(r, broadcastConfig{MaxSpectators: 2})
		bc.Receive(ms, "192.0.2.1:9", b)
		bc.Poll(time.Second, sendFunc(func(string, []byte) {}))
	})
}

// FuzzBroadcastHellosAndByes: any sequence of spectators' Hellos and Byes
// (three addresses, three tokens, copies and reorderings included), with
// time passing and Polls between, keeps a Broadcast's counts whole (those
// served are those welcomed less those that left and those dropped, and
// no more than its slots), and a Hello that comes within Silence of its
// spectator's Bye never takes a slot. Each two bytes of the input are one
// step: a Hello, a Bye, time passing (up to a Silence and a half), or a
// Poll.
func FuzzBroadcastHellosAndByes(f *testing.F) {
	const hello, bye, wait, poll = 0, 1, 2, 3
	f.Add([]byte{hello, 0, bye, 0, hello, 0})                    // a late copy of a Hello
	f.Add([]byte{bye, 4, hello, 4, hello, 1})                    // a Bye ahead of its Hello, then another spectator
	f.Add([]byte{hello, 0, bye, 0, wait, 255, hello, 0})         // the same token after Silence
	f.Add([]byte{hello, 0, hello, 1, hello, 2, poll, 0, bye, 1}) // full, then a slot freed
	f.Fuzz(func(t *testing.T, steps []byte) {
		_, bcast := lobbyHost(t, 2)
		var buf [MaxPacketSize]byte
		byeAt := map[[2]uint64]time.Duration{} // (address, token): the last Bye
		now := time.Duration(0)
		for i := 0; i+1 < len(steps); i += 2 {
			arg := steps[i+1]
			a, token := uint64(arg%3), uint64(arg/3%3+1)
			from := addr(int(10 + a))
			before := bcast.Stats()
			switch steps[i] % 4 {
			case hello:
				w := specHeader(buf[:], msgSpecHello, 0)
				w.u64(token)
				pkt := buf[:helloSize]
				clear(pkt[len(w.b):])
				bcast.Receive(now, from, pkt)
				if at, ok := byeAt[[2]uint64{a, token}]; ok && now-at < defaultSilence && bcast.Stats().Joined != before.Joined {
					t.Fatalf("step %d: a Hello %v after its Bye took a slot", i/2, now-at)
				}
			case bye:
				w := specHeader(buf[:], msgSpecBye, 0)
				w.u64(token)
				bcast.Receive(now, from, w.b)
				byeAt[[2]uint64{a, token}] = now
			case wait:
				now += time.Duration(arg) * defaultSilence * 3 / 2 / 255
			case poll:
				bcast.Poll(now, sendFunc(func(string, []byte) {}))
			}
			st := bcast.Stats()
			if int64(st.Spectators) != st.Joined-st.Left-st.Dropped || st.Spectators > 2 {
				t.Fatalf("step %d: %+v", i/2, st)
			}
		}
	})
}
