package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The page links no HTTP client, TLS nor native WebRTC stack: the browser
// has its own WebSocket and RTCPeerConnection, which the lobby's client
// and the transport use there (docs/NETPLAY.md has what each cost the
// page). A dependency that brings one back fails here, by name.
func TestPageLinksNoNetworkStack(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./cmd/web")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/web: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps ./cmd/web listed %d packages: %q", len(deps), deps)
	}
	for _, p := range deps {
		for _, bad := range []string{"net/http", "crypto/tls", "github.com/coder/websocket", "github.com/pion/"} {
			if p == bad || strings.HasPrefix(p, bad+"/") || (strings.HasSuffix(bad, "/") && strings.HasPrefix(p, bad)) {
				t.Errorf("the page links %s", p)
			}
		}
	}
}
