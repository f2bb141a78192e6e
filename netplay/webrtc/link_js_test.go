//go:build js

package webrtc

import (
	"syscall/js"
	"testing"

	"github.com/interpdemo/interpdemo/netplay"
)

// checkRTCConfig checks the RTCConfiguration made for cfg, which has a
// STUN server and then a TURN server, user "u", credential "c", and its
// ICE transport policy: "relay" if cfg.RelayOnly, else none (the
// browser's default, "all").
func checkRTCConfig(t *testing.T, cfg Config) {
	t.Helper()
	rtc, err := newRTCConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := rtc.conf.Get("iceServers")
	str := func(v js.Value) string {
		if v.Type() != js.TypeString {
			return "<" + v.Type().String() + ">"
		}
		return v.String()
	}
	if s.Length() != 2 ||
		s.Index(0).Get("urls").Length() != 1 || str(s.Index(0).Get("urls").Index(0)) != cfg.ICEServers[0].URLs[0] ||
		!s.Index(0).Get("username").IsUndefined() || !s.Index(0).Get("credential").IsUndefined() ||
		s.Index(1).Get("urls").Length() != len(cfg.ICEServers[1].URLs) ||
		str(s.Index(1).Get("username")) != "u" || str(s.Index(1).Get("credential")) != "c" {
		t.Errorf("RTCConfiguration %s", js.Global().Get("JSON").Call("stringify", rtc.conf).String())
	}
	policy := rtc.conf.Get("iceTransportPolicy")
	if cfg.RelayOnly && str(policy) != "relay" || !cfg.RelayOnly && !policy.IsUndefined() {
		t.Errorf("RelayOnly %v: iceTransportPolicy %s", cfg.RelayOnly, str(policy))
	}
}

// In a browser, Send allocates nothing once it has sent a datagram of
// each length: it copies into the link's one Uint8Array and sends views
// of it made once.
func TestSendAllocs(t *testing.T) {
	if jsRTCPeerConnection.Type() != js.TypeFunction {
		t.Skip("no RTCPeerConnection here: run the tests in a browser")
	}
	host, joiners := star(t, 1, testConfig())
	deliver(t, joiners[0], "h", host, "j1", packet(10, 1))
	small, big := packet(40, 2), packet(netplay.MaxPacketSize, 3)
	send := func() {
		joiners[0].Send("h", small)
		joiners[0].Send("h", big)
	}
	send()
	if allocs := testing.AllocsPerRun(100, send); allocs != 0 {
		t.Errorf("%v allocations a round of two Sends", allocs)
	}
	if st := joiners[0].Stats(); st.SendDropped != 0 || st.Sent < 200 {
		t.Errorf("stats %+v", st)
	}
}
