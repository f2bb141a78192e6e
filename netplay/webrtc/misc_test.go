package webrtc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
)

// noCandidates is a Signaler that loses every ICE candidate it sends:
// the descriptions go through, no path is ever found.
type noCandidates struct{ *endpoint }

func (n noCandidates) Send(to string, data []byte) error {
	if strings.Contains(string(data), `"candidate":`) {
		return nil
	}
	return n.endpoint.Send(to, data)
}

func TestNoPath(t *testing.T) {
	h := newHub()
	cfg := testConfig()
	cfg.Timeout = 500 * time.Millisecond
	host, err := Host(context.Background(), noCandidates{h.join("h")}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	_, err = Dial(context.Background(), noCandidates{h.join("j1")}, "h", cfg)
	if err == nil || !strings.HasPrefix(err.Error(), `webrtc: no connection to host "h" within 500ms (ICE state `) {
		t.Fatalf("err %v", err)
	}
	t.Log(err)
	// The host gives up on the joiner too, after its own timeout.
	within(t, 5*time.Second, "host gives up on j1", func() bool {
		a, ok := host.Unreachable()
		return ok && a == "j1"
	})
}

// leftAfterAnswer is a joiner's Signaler that loses its candidates and
// whose signaling ends, with errLeft, once the host's answer is in: a
// host that answered and left (its game over) as the joiner connected.
type leftAfterAnswer struct {
	noCandidates
	answered bool // Recv's alone: the Transport calls it from one goroutine
}

var errLeft = errors.New("the host left")

func (l *leftAfterAnswer) Recv(ctx context.Context) (string, []byte, error) {
	if l.answered {
		return "", nil, errLeft
	}
	from, data, err := l.noCandidates.Recv(ctx)
	l.answered = strings.Contains(string(data), `"kind":"answer"`)
	return from, data, err
}

// A joiner whose signaling ends after the answer waits on (the
// connection may still open on the candidates it has), and its error
// then says that the signaling ended, and why, not just that the time
// ran out with ICE checking.
func TestDialSignalingEndedAfterAnswer(t *testing.T) {
	h := newHub()
	cfg := testConfig()
	cfg.Timeout = 500 * time.Millisecond
	host, err := Host(context.Background(), noCandidates{h.join("h")}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	_, err = Dial(context.Background(), &leftAfterAnswer{noCandidates: noCandidates{h.join("j1")}}, "h", cfg)
	if err == nil || !errors.Is(err, errLeft) || !strings.HasPrefix(err.Error(), `webrtc: no connection to host "h" within 500ms (ICE state `) ||
		!strings.HasSuffix(err.Error(), "; the signaling ended: the host left)") {
		t.Fatalf("err %v, want the deadline, the ICE state and the signaling's end", err)
	}
	t.Log(err)
}

func TestSendDropped(t *testing.T) {
	h := newHub()
	tr, err := newTransport(h.join("j1"), testConfig(), "h")
	if err != nil {
		t.Fatal(err)
	}
	p, err := tr.newPeer("h")
	if err != nil {
		t.Fatal(err)
	}
	tr.peers[p.addr] = p
	tr.Send("h", packet(10, 0))      // not open yet
	tr.Send("nobody", packet(10, 0)) // unknown
	tr.Send("", nil)                 // no peer at all
	if st := tr.Stats(); st.SendDropped != 3 || st.Sent != 0 {
		t.Errorf("stats %+v", st)
	}
	if _, _, ok := tr.Recv(); ok {
		t.Error("Recv on an idle transport")
	}
	if tr.Wait(0) || tr.Wait(time.Millisecond) {
		t.Error("Wait on an idle transport")
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	tr.Send("h", packet(10, 0))
	tr.push("h", packet(10, 0))
	if _, _, ok := tr.Recv(); ok {
		t.Error("Recv after Close")
	}
	if tr.Wait(time.Millisecond) {
		t.Error("Wait after Close")
	}
	if err := tr.Close(); err != nil {
		t.Error("second Close:", err)
	}
}

func TestFlood(t *testing.T) {
	cfg := testConfig()
	cfg.Queue = 8
	host, js := star(t, 1, cfg)
	within(t, 5*time.Second, "host sees j1", func() bool { return host.Stats().Peers == 1 })
	pkt := packet(netplay.MaxPacketSize, 3)
	within(t, 5*time.Second, "queue full and dropping", func() bool {
		for range 16 {
			js[0].Send("h", pkt)
		}
		st := host.Stats()
		return st.Received == int64(cfg.Queue) && st.RecvDropped > 0
	})
	n := 0
	for {
		from, got, ok := host.Recv()
		if !ok {
			break
		}
		if from != "j1" || len(got) != len(pkt) {
			t.Errorf("datagram %d: from %q, %d bytes", n, from, len(got))
		}
		n++
	}
	if n != cfg.Queue {
		t.Errorf("Recv gave %d datagrams, queue holds %d", n, cfg.Queue)
	}
	t.Logf("host %+v, joiner %+v", host.Stats(), js[0].Stats())
	// The queue works again once read.
	deliver(t, js[0], "h", host, "j1", packet(5, 9))
}

func TestRecvAllocs(t *testing.T) {
	tr, err := newTransport(newHub().join("h"), testConfig(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	pkt := packet(netplay.MaxPacketSize+500, 1)
	allocs := testing.AllocsPerRun(100, func() {
		tr.push("j1", pkt)
		tr.push("j2", pkt[:10])
		from, got, ok := tr.Recv()
		if !ok || from != "j1" || len(got) != netplay.MaxPacketSize+1 {
			t.Fatalf("Recv: %q %d %v", from, len(got), ok)
		}
		if from, got, ok = tr.Recv(); !ok || from != "j2" || len(got) != 10 {
			t.Fatalf("Recv: %q %d %v", from, len(got), ok)
		}
		if tr.Wait(0) {
			t.Fatal("Wait with nothing queued")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations a round", allocs)
	}
}

func TestBadSignals(t *testing.T) {
	h := newHub()
	host, err := Host(context.Background(), h.join("h"), testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	x := h.join("x")
	for _, m := range []string{
		`not json`,
		`{}`,
		`{"kind":"offer"}`,
		`{"kind":"answer","sdp":"v=0"}`,
		`{"kind":"bogus","sdp":"v=0"}`,
		`{"candidate":{"candidate":"candidate:1 1 udp 1 127.0.0.1 9 typ host"}}`, // from a peer with no connection
		`{"kind":"offer","sdp":"garbage"}`,
	} {
		if err := x.Send("h", []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	within(t, 5*time.Second, "all ignored", func() bool { return host.Stats().BadSignals == 7 })
	// The host still works.
	j, err := Dial(context.Background(), h.join("j1"), "h", testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	deliver(t, j, "h", host, "j1", packet(30, 2))
}

func TestConfig(t *testing.T) {
	for _, c := range []struct {
		cfg Config
		err string
	}{
		{Config{Timeout: -1}, "webrtc: timeout -1ns is negative"},
		{Config{Queue: -1}, "webrtc: queue -1 not in 1..65536"},
		{Config{Queue: MaxQueue + 1}, "webrtc: queue 65537 not in 1..65536"},
		{Config{SendBuffer: -1}, "webrtc: send buffer -1 is negative"},
		{Config{ICEServers: []ICEServer{{}}}, "webrtc: an ICE server has no URL"},
		{Config{ICEServers: []ICEServer{{URLs: []string{"http://x"}}}}, `webrtc: ICE server "http://x": `},
		{Config{ICEServers: []ICEServer{{URLs: []string{"turn:turn.example.com:3478"}}}}, `webrtc: TURN server "turn:turn.example.com:3478" needs a username and a credential`},
		{Config{RelayOnly: true}, "webrtc: relay only needs a TURN server among the ICE servers"},
		{Config{RelayOnly: true, ICEServers: []ICEServer{{URLs: []string{"stun:stun.example.com:3478"}}}}, "webrtc: relay only needs a TURN server among the ICE servers"},
	} {
		_, err := Host(context.Background(), newHub().join("h"), c.cfg)
		if err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("%+v: err %v, want %s", c.cfg, err, c.err)
		}
	}
	ok := Config{ICEServers: []ICEServer{
		{URLs: []string{"stun:stun.example.com:3478"}},
		{URLs: []string{"turn:turn.example.com:3478?transport=udp", "turns:turn.example.com:5349?transport=tcp"}, Username: "u", Credential: "c"},
	}}
	if err := ok.check(); err != nil {
		t.Fatal(err)
	}
	checkRTCConfig(t, ok)
	ok.RelayOnly = true
	if err := ok.check(); err != nil {
		t.Fatal(err)
	}
	checkRTCConfig(t, ok)
	if _, err := Host(context.Background(), nil, Config{}); err == nil || err.Error() != "webrtc: no signaler" {
		t.Errorf("nil signaler: %v", err)
	}
	if _, err := Dial(context.Background(), newHub().join("j"), "", Config{}); err == nil || err.Error() != "webrtc: dial: no host to connect to" {
		t.Errorf("no host: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Host(ctx, newHub().join("h"), Config{}); err == nil || err.Error() != "webrtc: host: context canceled" {
		t.Errorf("canceled: %v", err)
	}
}
