package webrtc

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestJoinerCloseUnreachable(t *testing.T) {
	host, js := star(t, 2, testConfig())
	deliver(t, js[0], "h", host, "j1", packet(10, 1))
	deliver(t, js[1], "h", host, "j2", packet(10, 2))
	start := time.Now()
	if err := js[0].Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("joiner closed in %v", time.Since(start))
	var got string
	within(t, 10*time.Second, "host reports j1 unreachable", func() bool {
		a, ok := host.Unreachable()
		if ok {
			got = a
		}
		return ok
	})
	t.Logf("host reported %q after %v", got, time.Since(start))
	if got != "j1" {
		t.Fatalf("unreachable %q, want j1", got)
	}
	if a, ok := host.Unreachable(); ok {
		t.Errorf("a second unreachable: %q", a)
	}
	// j1 is gone: Sends to it are dropped; j2 still talks.
	before := host.Stats().SendDropped
	host.Send("j1", packet(10, 3))
	if host.Stats().SendDropped != before+1 {
		t.Error("send to a lost peer not counted as dropped")
	}
	deliver(t, host, "j2", js[1], "h", packet(20, 4))
	if p := host.Peers(); len(p) != 1 || p[0] != "j2" {
		t.Errorf("host peers: %v", p)
	}
}

func TestHostCloseUnreachable(t *testing.T) {
	host, js := star(t, 1, testConfig())
	deliver(t, js[0], "h", host, "j1", packet(10, 1))
	start := time.Now()
	if err := host.Close(); err != nil {
		t.Fatal(err)
	}
	within(t, 10*time.Second, "joiner reports the host unreachable", func() bool {
		a, ok := js[0].Unreachable()
		return ok && a == "h"
	})
	t.Logf("joiner reported the host after %v", time.Since(start))
}

// deaf is a host that never answers: it reads nothing.
func TestDialTimeout(t *testing.T) {
	h := newHub()
	h.join("h")
	cfg := testConfig()
	cfg.Timeout = 300 * time.Millisecond
	start := time.Now()
	j, err := Dial(context.Background(), h.join("j1"), "h", cfg)
	took := time.Since(start)
	if err == nil {
		_ = j.Close()
		t.Fatal("Dial to a host that never answers succeeded")
	}
	t.Logf("%v after %v", err, took)
	if took > 2*time.Second {
		t.Errorf("Dial took %v with a timeout of %v", took, cfg.Timeout)
	}
	msg := err.Error()
	if msg != `webrtc: no connection to host "h" within 300ms (no answer)` {
		t.Errorf("error %q", msg)
	}
}

func TestDialContext(t *testing.T) {
	h := newHub()
	h.join("h")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := Dial(ctx, h.join("j1"), "h", testConfig())
	if err == nil || !errors.Is(ctx.Err(), context.DeadlineExceeded) || !strings.Contains(err.Error(), "context deadline exceeded") {
		t.Fatalf("err %v", err)
	}
	t.Log(err)
}

func TestDialUnknownHost(t *testing.T) {
	h := newHub()
	_, err := Dial(context.Background(), h.join("j1"), "nobody", testConfig())
	if err == nil || !strings.HasPrefix(err.Error(), "webrtc: send offer to \"nobody\": ") {
		t.Fatalf("err %v", err)
	}
	t.Log(err)
}

func TestCloseEndsGoroutines(t *testing.T) {
	runtime.GC()
	before := runtime.NumGoroutine()
	h := newHub()
	ctx := context.Background()
	host, err := Host(ctx, h.join("h"), testConfig())
	if err != nil {
		t.Fatal(err)
	}
	var js []*Transport
	for _, id := range []string{"j1", "j2"} {
		j, err := Dial(ctx, h.join(id), "h", testConfig())
		if err != nil {
			t.Fatal(err)
		}
		js = append(js, j)
		deliver(t, j, "h", host, string(id), packet(50, 1))
	}
	during := runtime.NumGoroutine()
	for _, tr := range append(js, host) {
		start := time.Now()
		if err := tr.Close(); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Close took %v", d)
		}
	}
	var after int
	within(t, 5*time.Second, "goroutines end", func() bool {
		after = runtime.NumGoroutine()
		return after <= before
	})
	t.Logf("goroutines: %d before, %d connected, %d after", before, during, after)
}

// A second offer from a peer (it came back with the same ID) replaces
// its connection: the new one works, the old one ends.
func TestReoffer(t *testing.T) {
	h := newHub()
	ctx := context.Background()
	host, err := Host(ctx, h.join("h"), testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	old, err := Dial(ctx, h.join("j1"), "h", testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	deliver(t, old, "h", host, "j1", packet(10, 1))
	again, err := Dial(ctx, h.join("j1"), "h", testConfig()) // the hub now relays "j1"'s messages here
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	deliver(t, again, "h", host, "j1", packet(10, 2))
	deliver(t, host, "j1", again, "h", packet(10, 3))
	within(t, 10*time.Second, "the old connection ends", func() bool {
		a, ok := old.Unreachable()
		return ok && a == "h"
	})
	if a, ok := host.Unreachable(); ok {
		t.Errorf("host reports %q unreachable: a replaced connection is not news", a)
	}
	if p := host.Peers(); len(p) != 1 || p[0] != "j1" {
		t.Errorf("host peers %v", p)
	}
}
