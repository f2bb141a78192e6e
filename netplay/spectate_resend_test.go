package netplay

import (
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// specTicks reads the ticks a host's data message to a spectator carries:
// the first and how many (0: none, or not a data message).
func specTicks(pkt []byte) (first uint64, k int) {
	if len(pkt) < headerSize || msgType(pkt[3]) != msgSpecData {
		return 0, 0
	}
	r := reader{b: pkt, off: headerSize}
	r.u32() // sequence number
	if flags := r.u8(); flags&1 != 0 {
		r.uv() // the end
	}
	r.uv() // the ticks logged
	for range r.u8() {
		r.u8()
		r.uv()
	}
	r.uv() // the snapshot chunk's offset
	n := r.uv()
	r.bytes(make([]byte, min(n, chunkSize)))
	first = r.uv()
	k = int(r.u8())
	if r.err != nil {
		return 0, 0
	}
	return first, k
}

// When a spectator's acknowledgements stop coming (lost on the way), the
// host sends the ticks it has not acknowledged again, a time out after
// they went out: it does not wait for an acknowledgement to say they
// were lost, which a lost tail of the game never gets.
func TestSpectatorTicksSentAgainWithoutAcks(t *testing.T) {
	rg := newSpecRig(t, netsim.Conditions{Delay: 5 * time.Millisecond}, 400, 0, 1)
	spec := rg.spectator(0, nil)
	const cut = 2 * time.Second
	var top uint64          // the highest tick sent before the cut, plus one
	var again time.Duration // when a tick went out a second time after the cut
	rg.filter = func(from, to string, pkt []byte) []byte {
		if to == addr(0) && from == spec.addr && rg.now >= cut {
			return nil // the acknowledgements are lost from the cut on
		}
		if from == addr(0) && to == spec.addr {
			first, k := specTicks(pkt)
			switch {
			case k == 0:
			case rg.now < cut:
				top = max(top, first+uint64(k))
			case again == 0 && first < top:
				again = rg.now
			default:
				top = max(top, first+uint64(k))
			}
		}
		return pkt
	}
	rg.run(cut+time.Second, func() bool { return again > 0 })
	if again-cut > 200*time.Millisecond {
		t.Errorf("ticks went out again %v after the acknowledgements stopped, want within 200 ms", again-cut)
	}
}

// A spectator that plays nothing (its loop stalled) holds at most 1,024
// ticks past its game's, and is sent no tick more than 1,024 past those
// it acknowledged: the host's window bounds what it sends ahead of the
// acknowledgements.
func TestSpectatorSentNothingPastItsWindow(t *testing.T) {
	rg := newSpecRig(t, netsim.Conditions{Delay: 5 * time.Millisecond}, 2500, 0, 1)
	rg.spectator(0, func(time.Duration) (int, int, bool) { return 0, 0, false })
	var highest uint64
	rg.filter = func(from, to string, pkt []byte) []byte {
		if from == addr(0) && to == rg.specs[0].addr {
			if first, k := specTicks(pkt); k > 0 {
				highest = max(highest, first+uint64(k))
			}
		}
		return pkt
	}
	rg.run(time.Minute, func() bool { return rg.players[0].s.Done() })
	if highest != 2*spectatorWindow {
		t.Errorf("a spectator that played nothing was sent ticks up to %d, want %d (the 1,024 it holds and a window more)", highest, 2*spectatorWindow)
	}
}

// A spectator acknowledges at once when ticks arrive past a gap (one of
// the host's messages lost): the host then sends the gap again about a
// round trip after it went out, not a time out after.
func TestSpectatorAcksAtOnceAfterAGap(t *testing.T) {
	rg := newSpecRig(t, netsim.Conditions{}, 400, 0, 1)
	spec := rg.spectator(0, nil)
	const at = 2 * time.Second
	var dropped, pastGap, acked time.Duration
	rg.filter = func(from, to string, pkt []byte) []byte {
		switch {
		case from == addr(0) && to == spec.addr:
			if _, k := specTicks(pkt); k > 0 && rg.now >= at {
				if dropped == 0 {
					dropped = rg.now
					return nil
				}
				if pastGap == 0 {
					pastGap = rg.now
				}
			}
		case from == spec.addr && pastGap > 0 && acked == 0:
			acked = rg.now
		}
		return pkt
	}
	rg.run(at+time.Second, func() bool { return acked > 0 })
	if acked-pastGap > 10*time.Millisecond {
		t.Errorf("ticks past a gap arrived at %v, the spectator acknowledged at %v: want at once", pastGap, acked)
	}
}

// A lost snapshot chunk is sent again: the second chunk of the snapshot
// is dropped the first time (the chunks after it arrive), and the
// spectator still loads the host's state and ends in the players'.
func TestSpectatorLostChunkResent(t *testing.T) {
	rg := newSpecRig(t, netsim.Conditions{Delay: 10 * time.Millisecond}, 300, 5000, 2)
	s := rg.spectator(time.Second, nil)
	dropped, after := 0, 0
	rg.filter = func(from, to string, pkt []byte) []byte {
		if off, _, n, ok := specData(pkt); ok && n > 0 {
			switch {
			case off == chunkSize && dropped == 0:
				dropped++
				return nil
			case off > chunkSize && dropped == 1:
				after++
			}
		}
		return pkt
	}
	rg.run(60*time.Second, rg.allDone)
	if dropped != 1 || after == 0 {
		t.Fatalf("the scenario: %d chunks dropped, %d after it arrived", dropped, after)
	}
	rg.endsWithPlayers(s, 300)
}
