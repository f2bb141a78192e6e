//go:build !js

package room_test

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/webrtc"
	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
	"github.com/interpdemo/interpdemo/netplay/webrtc/room"
	pion "github.com/pion/webrtc/v4"
)

// loopbackCandidates returns the loopback addresses among the ICE
// candidates of a signal as a peer relays it through the lobby: an offer
// or answer's SDP, or one candidate.
func loopbackCandidates(t *testing.T, data []byte) []string {
	t.Helper()
	var s struct {
		SDP       string `json:"sdp"`
		Candidate *struct {
			Candidate string `json:"candidate"`
		} `json:"candidate"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("a signal that is not JSON: %q", data)
	}
	lines := strings.Split(s.SDP, "\n")
	if s.Candidate != nil {
		lines = append(lines, s.Candidate.Candidate)
	}
	var found []string
	for _, l := range lines {
		// candidate:FOUNDATION COMPONENT PROTOCOL PRIORITY ADDRESS PORT typ ...
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "a="))
		if len(f) < 6 || !strings.HasPrefix(f[0], "candidate:") {
			continue
		}
		if ip := net.ParseIP(f[4]); ip != nil && ip.IsLoopback() {
			found = append(found, f[4]+":"+f[5])
		}
	}
	return found
}

// awaitLoopback reads the signals relayed to c until one offers a
// loopback candidate, and fails the test if none has before ctx ends.
func awaitLoopback(t *testing.T, ctx context.Context, c *lobby.Client, who string) {
	t.Helper()
	var seen []string
	for {
		_, data, err := c.Recv(ctx)
		if err != nil {
			t.Fatalf("%s offered no loopback candidate (%v) in %d signals:\n%s", who, err, len(seen), strings.Join(seen, "\n"))
		}
		if found := loopbackCandidates(t, data); len(found) > 0 {
			t.Logf("%s offers %v", who, found)
			return
		}
		if len(data) > 120 {
			data = append(data[:120:120], "..."...)
		}
		seen = append(seen, string(data))
	}
}

// Peers of a lobby on a loopback address are on this machine: both the
// room's host and a joiner offer loopback candidates, so that they
// connect on a machine with no other network interface. (Checked in the
// candidates each sends, which do not depend on the machine's other
// interfaces; a game over loopback would connect here anyway, through
// them.)
func TestLoopbackLobbyOffersLoopbackCandidates(t *testing.T) {
	base := startLobby(t)
	url := base + "/r1?players=2"
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	t.Run("joiner", func(t *testing.T) {
		host, err := lobby.Join(ctx, base+"/j?players=2") // reads the joiner's signals, answers nothing
		if err != nil {
			t.Fatal(err)
		}
		defer host.Close()
		entering, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			if r, err := room.Enter(entering, base+"/j?players=2", webrtc.Config{}); err == nil {
				r.Close()
			}
		}()
		defer func() { stop(); <-done }()
		wait, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		awaitLoopback(t, wait, host, "a joiner")
	})

	t.Run("host", func(t *testing.T) {
		host, err := room.Enter(ctx, url, webrtc.Config{})
		if err != nil {
			t.Fatal(err)
		}
		defer host.Close()
		joiner, err := lobby.Join(ctx, url) // offers, and reads the host's answer and candidates
		if err != nil {
			t.Fatal(err)
		}
		defer joiner.Close()
		if err := joiner.Send(joiner.Host(), offer(t)); err != nil {
			t.Fatal(err)
		}
		wait, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		awaitLoopback(t, wait, joiner, "the room's host")
	})
}

// offer is a joiner's offer signal, made by pion with its defaults.
func offer(t *testing.T) []byte {
	t.Helper()
	pc, err := pion.NewPeerConnection(pion.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	if _, err := pc.CreateDataChannel(webrtc.Label, nil); err != nil {
		t.Fatal(err)
	}
	o, err := pc.CreateOffer(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := pc.SetLocalDescription(o); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(map[string]string{"kind": "offer", "sdp": o.SDP})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
