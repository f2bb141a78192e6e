//go:build !js

package lobby

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkRelay relays b.N signals through one lobby, from joiners to
// their hosts, over pairs rooms at once, each sender keeping at most
// relayWindow signals in flight. Clients and lobby share the process:
// msgs/s is what one machine does with both ends on it.
func BenchmarkRelay(b *testing.B) {
	for _, size := range []int{256, 4096} {
		for _, pairs := range []int{1, 8} {
			b.Run(fmt.Sprintf("data=%d/pairs=%d", size, pairs), func(b *testing.B) { benchRelay(b, size, pairs) })
		}
	}
}

// relayWindow is the most signals a sender has in flight: less than the
// receiving client's buffer and the lobby's queue.
const relayWindow = 16

func benchRelay(b *testing.B, size, pairs int) {
	ctx := testCtx(b)
	l := startLobby(b, Limits{Rate: 1_000_000, Burst: 1_000_000})
	data := []byte(`{"x":"` + strings.Repeat("y", size-8) + `"}`)
	type pair struct{ host, joiner *Client }
	ps := make([]pair, pairs)
	for i := range ps {
		room := fmt.Sprintf("%s/bench%d", l.url, i)
		ps[i] = pair{join(b, ctx, room), join(b, ctx, room)}
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 2*pairs)
	for i, p := range ps {
		n := b.N / pairs
		if i < b.N%pairs {
			n++
		}
		window := make(chan struct{}, relayWindow)
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range n {
				select {
				case window <- struct{}{}:
				case <-ctx.Done():
					errs <- ctx.Err()
					return
				}
				if err := p.joiner.Send(p.host.ID(), data); err != nil {
					errs <- err
					return
				}
			}
		}()
		go func() {
			defer wg.Done()
			for range n {
				if _, _, err := p.host.Recv(ctx); err != nil {
					errs <- err
					return
				}
				<-window
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "msgs/s")
	if st := l.Stats(); st.Relayed != uint64(b.N) {
		b.Fatalf("relayed %d of %d", st.Relayed, b.N)
	}
}

// BenchmarkDecodeClient decodes a typical ICE candidate signal.
func BenchmarkDecodeClient(b *testing.B) {
	msg := []byte(`{"type":"signal","to":"p1","data":{"candidate":{"candidate":"candidate:1 1 udp 2130706431 192.168.1.2 54321 typ host","sdpMid":"0","sdpMLineIndex":0}}}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		if _, err := DecodeClient(msg); err != nil {
			b.Fatal(err)
		}
	}
}
