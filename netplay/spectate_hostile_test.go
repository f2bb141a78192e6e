package netplay

import (
	"errors"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// An acknowledgement claiming more snapshot bytes than the snapshot has
// (a broken or hostile spectator, from its own address and token) is
// ignored: the host neither panics on its resend nor stops sending, and
// the spectator loads the snapshot and ends in the players' state.
func TestSpectatorAckBeyondSnapshotIgnored(t *testing.T) {
	rg := newSpecRig(t, netsim.Conditions{Delay: 10 * time.Millisecond}, 300, 3000, 2)
	s := rg.spectator(time.Second, nil)
	forged := 0
	rg.check = func() {
		if forged < 20 && s.sp != nil && s.sp.welcomed && s.sp.State() == StateJoining && rg.bcast.snapTaken {
			for _, extra := range []uint64{1, 1 << 20} {
				rg.bcast.Receive(rg.now, s.addr, specAck(s.sp.id, s.nonce, uint64(len(rg.bcast.snap))+extra, 0))
			}
			forged++
		}
	}
	rg.run(60*time.Second, rg.allDone)
	if forged == 0 {
		t.Fatal("no acknowledgement was forged: the spectator never waited for its snapshot")
	}
	rg.endsWithPlayers(s, 300)
}

// A corrupted snapshot chunk (one byte flipped, the datagram otherwise
// well formed) is refused by the snapshot's own checksum before the
// game's state is set: a SnapshotError naming the checksum the host
// announced, and SetState never called.
func TestSpectatorCorruptChunkRefused(t *testing.T) {
	rg := newSpecRig(t, netsim.Conditions{Delay: 10 * time.Millisecond}, 300, 5000, 2)
	s := rg.spectator(time.Second, nil)
	corrupted := 0
	rg.filter = func(from, to string, pkt []byte) []byte {
		if _, at, n, ok := specData(pkt); ok && n > 0 && corrupted == 0 {
			corrupted++
			pkt = append([]byte(nil), pkt...)
			pkt[at+n/2] ^= 0x40
		}
		return pkt
	}
	rg.run(60*time.Second, rg.allDone)
	var bad *Error
	if corrupted != 1 || !errors.As(s.sp.Err(), &bad) || bad.Reason != ErrMismatch || bad.Remote != rg.bcast.snapSum || bad.Local == bad.Remote {
		t.Fatalf("%d chunks corrupted: %v (announced %016x)", corrupted, s.sp.Err(), rg.bcast.snapSum)
	}
	if s.g == nil || s.g.sets != 0 {
		t.Errorf("SetState called on a corrupted snapshot")
	}
	for i, p := range rg.players {
		if p.s.Err() != nil || p.r.Head() != 300 {
			t.Errorf("player %d: %v at tick %d", i, p.s.Err(), p.r.Head())
		}
	}
}
