package webrtc

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
)

// testConfig connects over loopback alone, without mDNS.
func testConfig() Config {
	return Config{Timeout: 10 * time.Second, loopbackOnly: true}
}

// within fails the test unless cond becomes true within d; it checks
// every few milliseconds.
func within(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, d)
		}
		<-tick.C
	}
}

// star connects n joiners, "j1".."jn", to a host "h".
func star(t *testing.T, n int, cfg Config) (host *Transport, joiners []*Transport) {
	t.Helper()
	h := newHub()
	hs := h.join("h")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	host, err := Host(ctx, hs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = host.Close() })
	for i := range n {
		js := h.join("j" + string(rune('1'+i)))
		j, err := Dial(ctx, js, "h", cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = j.Close() })
		joiners = append(joiners, j)
	}
	return host, joiners
}

// deliver sends pkt from a to b (at bAddr, where b knows a as aAddr)
// until it arrives, and checks it.
func deliver(t *testing.T, a *Transport, bAddr string, b *Transport, aAddr string, pkt []byte) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		a.Send(bAddr, pkt)
		if !b.Wait(100 * time.Millisecond) {
			continue
		}
		for {
			from, got, ok := b.Recv()
			if !ok {
				break
			}
			if from == aAddr && bytes.Equal(got, pkt) {
				return
			}
		}
	}
	t.Fatalf("%d bytes from %q to %q: never arrived", len(pkt), aAddr, bAddr)
}

func packet(n int, seed byte) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = seed + byte(i*7)
	}
	return p
}

func TestConnect(t *testing.T) {
	host, js := star(t, 2, testConfig())
	within(t, 5*time.Second, "host sees 2 peers", func() bool { return host.Stats().Peers == 2 })
	for i, j := range js {
		addr := string("j" + string(rune('1'+i)))
		for _, n := range []int{1, 100, netplay.MaxPacketSize} {
			deliver(t, j, "h", host, addr, packet(n, byte(i)))
			deliver(t, host, addr, j, "h", packet(n, byte(i+10)))
		}
		if got := j.Peers(); len(got) != 1 || got[0] != "h" {
			t.Errorf("joiner %d peers: %v", i, got)
		}
	}
	if got := host.Peers(); len(got) != 2 || got[0] != "j1" || got[1] != "j2" {
		t.Errorf("host peers: %v", got)
	}
	st := host.Stats()
	if st.Sent < 6 || st.Received < 6 || st.SentBytes < 2*(1+100+netplay.MaxPacketSize) {
		t.Errorf("host stats: %+v", st)
	}
	t.Logf("host stats: %+v", st)
}
