package webrtc

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
)

// offerSDP makes a well-formed offer, as a joiner's Dial sends it.
func offerSDP(t *testing.T) string {
	t.Helper()
	tr, err := newTransport(newHub().join("maker"), testConfig(), "h")
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	p, err := tr.newPeer("h")
	if err != nil {
		t.Fatal(err)
	}
	tr.peers[p.addr] = p // Close closes it
	sdp, err := p.link.describe(kindOffer)
	if err != nil {
		t.Fatal(err)
	}
	return sdp
}

// A host holds MaxPeers connections at most: with MaxPeers-1 offers
// answered and still connecting, one more peer connects, and the next
// one gets no answer.
func TestHostAcceptsNoPeerPastMaxPeers(t *testing.T) {
	h := newHub()
	cfg := testConfig()
	cfg.Timeout = 60 * time.Second // the offers below wait this long for a path, holding their places
	host, err := Host(context.Background(), h.join("h"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()

	// MaxPeers-1 peers offer a connection and send no candidate: the host
	// answers each one, and waits for a path that never comes.
	offer, err := encodeSignal(signal{Kind: kindOffer, SDP: offerSDP(t)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var waiting []*endpoint
	for i := range MaxPeers - 1 {
		e := h.join(fmt.Sprintf("w%d", i))
		if err := e.Send("h", offer); err != nil {
			t.Fatal(err)
		}
		waiting = append(waiting, e)
	}
	answered := func(e *endpoint) {
		t.Helper()
		for {
			_, data, err := e.Recv(ctx)
			if err != nil {
				t.Fatalf("%s: no answer to its offer: %v", e.id, err)
			}
			if s, _ := decodeSignal(data); s.Kind == kindAnswer {
				return
			}
		}
	}
	for _, e := range waiting {
		answered(e)
	}

	// The MaxPeers-th connects.
	last, err := Dial(ctx, h.join("last"), "h", testConfig())
	if err != nil {
		t.Fatalf("peer %d of %d: %v", MaxPeers, MaxPeers, err)
	}
	defer last.Close()
	deliver(t, last, "h", host, "last", packet(20, 1))

	// One more gets no answer. The host takes the signals in order: once
	// it has answered a peer it holds offering again (a new connection in
	// place of its own), it has dealt with the offer before.
	extra := h.join("extra")
	if err := extra.Send("h", offer); err != nil {
		t.Fatal(err)
	}
	if err := waiting[0].Send("h", offer); err != nil {
		t.Fatal(err)
	}
	answered(waiting[0])
	for len(extra.box) > 0 {
		if s, _ := decodeSignal((<-extra.box).data); s.Kind == kindAnswer {
			t.Fatalf("a peer past MaxPeers (%d) was answered: the host holds %d connections", MaxPeers, MaxPeers+1)
		}
	}
	if st := host.Stats(); st.BadSignals == 0 {
		t.Errorf("host stats %+v, want the one offer past MaxPeers counted as a bad signal", st)
	}
}

// Send holds no more than Config.SendBuffer unsent on a congested data
// channel: datagrams sent faster than the channel carries them fill its
// buffer up to SendBuffer (and the one datagram that crosses it), and
// the rest are dropped, each one counted; once the channel has drained,
// Sends go through again.
func TestSendBoundedBySendBuffer(t *testing.T) {
	cfg := testConfig()
	cfg.SendBuffer = 16 << 10
	host, js := star(t, 1, cfg)
	j := js[0]
	deliver(t, j, "h", host, "j1", packet(10, 1))
	j.mu.RLock()
	p := j.peers["h"]
	j.mu.RUnlock()

	pkt := packet(netplay.MaxPacketSize, 2)
	before := j.Stats()
	sends, most := 0, 0
	// As fast as the loop goes: far faster than the channel's congestion
	// window lets it out at first (a few datagrams a round trip).
	for ; sends < 100_000 && j.Stats().SendDropped == before.SendDropped; sends++ {
		j.Send("h", pkt)
		most = max(most, p.link.buffered())
		if most > cfg.SendBuffer+len(pkt) {
			t.Fatalf("after %d Sends the channel holds %d bytes unsent, SendBuffer %d", sends+1, most, cfg.SendBuffer)
		}
	}
	for range 1000 { // and more while it is congested
		j.Send("h", pkt)
		sends++
		most = max(most, p.link.buffered())
		if most > cfg.SendBuffer+len(pkt) {
			t.Fatalf("after %d Sends the channel holds %d bytes unsent, SendBuffer %d", sends, most, cfg.SendBuffer)
		}
	}
	st := j.Stats()
	sent, dropped := st.Sent-before.Sent, st.SendDropped-before.SendDropped
	t.Logf("%d Sends of %d bytes: %d sent, %d dropped; at most %d bytes unsent", sends, len(pkt), sent, dropped, most)
	if dropped == 0 {
		t.Fatalf("%d Sends of %d bytes, none dropped: the channel never held SendBuffer (%d) unsent", sends, len(pkt), cfg.SendBuffer)
	}
	if sent+dropped != int64(sends) || st.SentBytes-before.SentBytes != sent*int64(len(pkt)) {
		t.Errorf("%d Sends counted as %d sent (%d bytes) and %d dropped", sends, sent, st.SentBytes-before.SentBytes, dropped)
	}
	deliver(t, j, "h", host, "j1", packet(30, 3)) // drained: it carries again
}
