//go:build !js

package webrtc

import (
	"fmt"
	"testing"

	"github.com/pion/stun/v4"
	"github.com/pion/webrtc/v4"
)

// checkRTCConfig checks the pion configuration made for cfg, which has
// a STUN server and then a TURN server, user "u", credential "c", and
// its ICE transport policy: "relay" if cfg.RelayOnly, else "all".
func checkRTCConfig(t *testing.T, cfg Config) {
	t.Helper()
	rtc, err := newRTCConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	conf := rtc.conf
	if len(conf.ICEServers) != 2 || conf.ICEServers[0].Credential != nil || conf.ICEServers[1].Credential != "c" || conf.ICEServers[1].Username != "u" {
		t.Errorf("pion configuration %+v", conf)
	}
	policy := webrtc.ICETransportPolicyAll
	if cfg.RelayOnly {
		policy = webrtc.ICETransportPolicyRelay
	}
	if conf.ICETransportPolicy != policy {
		t.Errorf("RelayOnly %v: ICE transport policy %v, want %v", cfg.RelayOnly, conf.ICETransportPolicy, policy)
	}
}

// parseICEURL, which a browser build checks its ICE servers' URLs with,
// agrees with pion's parser, which a native build uses.
func TestParseICEURL(t *testing.T) {
	for _, u := range []string{
		"stun:stun.example.com", "stun:stun.example.com:3478", "stuns:stun.example.com",
		"stun:[::1]", "stun:[::1]:19302", "stun:1.2.3.4:5", "STUN:stun.example.com",
		"turn:turn.example.com", "turn:turn.example.com:3478?transport=udp",
		"turns:turn.example.com:5349?transport=tcp", "turn:turn.example.com?transport=tcp",
		"turn:turn.example.com?transport=sctp", "turn:turn.example.com?foo=bar",
		"turn:turn.example.com?transport=udp&foo=bar", "turn:turn.example.com?transport=",
		"turn:x?%zz", "stun:x?transport=udp", "stun:x?", "stun:x?%zz",
		"stun:", "stun::3478", "stun://stun.example.com:3478", "stun:x:port", "stun:x:-1",
		"stun:x:99999", "stun:x:1:2", "stun:[::1", "stun:a]b", "stun:%zz",
		"http://x", "x", "", ":", "stun", "turn:@x:1", "turn:u:p@x:1",
	} {
		turn, err := parseICEURL(u)
		uri, perr := stun.ParseURI(u)
		wantTurn := perr == nil && (uri.Scheme == stun.SchemeTypeTURN || uri.Scheme == stun.SchemeTypeTURNS)
		if fmt.Sprint(err) != fmt.Sprint(perr) || (err == nil && turn != wantTurn) {
			t.Errorf("%q: turn %v, err %v; pion: turn %v, err %v", u, turn, err, wantTurn, perr)
		}
	}
}
