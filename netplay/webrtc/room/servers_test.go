//go:build !js

package room

import (
	"reflect"
	"strings"
	"testing"

	"github.com/interpdemo/interpdemo/netplay/webrtc"
	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
)

// The lobby's servers come after the caller's, whose array is left as it
// was; what the whole lacks, or a lobby's server that does not parse, is
// a one-line error that says whose it is.
func TestWithLobbyServers(t *testing.T) {
	mine := make([]webrtc.ICEServer, 1, 4) // room to grow: append must not write into it
	mine[0] = webrtc.ICEServer{URLs: []string{"stun:127.0.0.1:3478"}}
	lobbys := []lobby.ICEServer{{URLs: []string{"turn:127.0.0.1:3479?transport=udp"}, Username: "9:r.p1", Credential: "c"}}
	cfg := webrtc.Config{ICEServers: mine, RelayOnly: true}
	if err := withLobbyServers(&cfg, lobbys); err != nil {
		t.Fatal(err)
	}
	want := []webrtc.ICEServer{mine[0], {URLs: lobbys[0].URLs, Username: "9:r.p1", Credential: "c"}}
	if !reflect.DeepEqual(cfg.ICEServers, want) {
		t.Errorf("servers %+v, want %+v", cfg.ICEServers, want)
	}
	if extra := mine[:2]; extra[1].URLs != nil {
		t.Errorf("the caller's array was written: %+v", extra)
	}
	for _, c := range []struct {
		cfg    webrtc.Config
		lobbys []lobby.ICEServer
		err    string
	}{
		{webrtc.Config{RelayOnly: true}, nil, "room: relay only, but neither the ICE servers given (0) nor the lobby's (0) has a TURN server"},
		{webrtc.Config{}, []lobby.ICEServer{{URLs: []string{"turn:127.0.0.1?transport=sctp"}, Username: "u", Credential: "c"}}, `room: the lobby's ICE servers: webrtc: ICE server "turn:127.0.0.1?transport=sctp": `},
		{webrtc.Config{}, []lobby.ICEServer{{URLs: []string{"turn:127.0.0.1"}}}, `room: the lobby's ICE servers: webrtc: TURN server "turn:127.0.0.1" needs a username and a credential`},
		{webrtc.Config{Timeout: -1}, nil, "room: webrtc: timeout -1ns is negative"},
	} {
		err := withLobbyServers(&c.cfg, c.lobbys)
		if err == nil || !strings.HasPrefix(err.Error(), c.err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v with the lobby's %+v: %v, want %q...", c.cfg, c.lobbys, err, c.err)
		}
	}
}
