package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
)

// BenchmarkHold measures what a lobby process holds: the command, built
// and run apart from the clients, gets 500 rooms of two peers, and the
// growth of its resident memory (Linux's VmRSS) is reported per room,
// from the first round (later rounds find memory the runtime has not
// yet given back, and grow more).
func BenchmarkHold(b *testing.B) {
	const rooms = 500
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("no /proc to read a process's memory from")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skipf("no go tool to build the binary: %v", err)
	}
	bin := filepath.Join(b.TempDir(), "lobby")
	if out, err := exec.CommandContext(ctx, goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.CommandContext(ctx, bin, "-addr", "127.0.0.1:0", "-rooms", "100000", "-conns", "100000")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	addr := listeningOn(b, ctx, stdout)

	// One room, joined and left, so that what is paid once is paid.
	peers := joinRooms(b, ctx, addr, 1)
	closeAll(peers)
	waitRooms(b, ctx, addr, 0)
	before := rss(b, cmd.Process.Pid)
	b.ResetTimer()
	var perRoom float64
	for range b.N {
		start := time.Now()
		peers := joinRooms(b, ctx, addr, rooms)
		joined := time.Since(start)
		st := waitRooms(b, ctx, addr, rooms)
		grown := rss(b, cmd.Process.Pid) - before
		if perRoom == 0 {
			perRoom = float64(grown) / rooms
		}
		b.Logf("%d rooms, %d players: RSS +%d KiB, %d B a room; joined in %v", st.Rooms, st.Players, grown>>10, grown/rooms, joined.Round(time.Millisecond))
		closeAll(peers)
		waitRooms(b, ctx, addr, 0)
	}
	b.ReportMetric(perRoom, "RSS-B/room")
}

// joinRooms joins n rooms of two peers, eight joins at a time.
func joinRooms(b *testing.B, ctx context.Context, addr string, n int) []*lobby.Client {
	b.Helper()
	peers := make([]*lobby.Client, 2*n)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(peers); i += 8 {
				c, err := lobby.Join(ctx, fmt.Sprintf("ws://%s/hold%d", addr, i/2))
				if err != nil {
					errs <- err
					return
				}
				peers[i] = c
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		closeAll(peers)
		b.Fatal(err)
	}
	return peers
}

func closeAll(peers []*lobby.Client) {
	for _, c := range peers {
		if c != nil {
			c.Close()
		}
	}
}

// waitRooms waits until the lobby at addr holds n rooms, and returns its
// counters.
func waitRooms(b *testing.B, ctx context.Context, addr string, n int) lobby.Stats {
	b.Helper()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/health", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var st lobby.Stats
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		if st.Rooms == n {
			return st
		}
		select {
		case <-ctx.Done():
			b.Fatalf("%d rooms, want %d: %v", st.Rooms, n, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// rss returns the resident memory of process pid, in bytes.
func rss(b *testing.B, pid int) int64 {
	b.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmRSS in /proc/PID/status")
	return 0
}
