// Package webrtc carries a netplay session over WebRTC data channels: a
// netplay.Transport that works between native programs (pion/webrtc) and
// in a browser (GOOS=js GOARCH=wasm, where pion/webrtc wraps the
// browser's RTCPeerConnection), through NATs that a STUN server or a TURN
// relay helps to cross.
//
// netplay is a star through its host, so each joiner connects to the host
// alone: Host accepts every joiner's offer that arrives through its
// Signaler, and Dial offers to the host and waits until the connection is
// open. The two ends exchange their session descriptions and ICE
// candidates (trickled, as they are found) through a Signaler, which a
// lobby client implements; a peer's netplay.Addr is its ID there. Each
// connection carries one data channel, "netplay", negotiated out of band
// (ID 0), unordered and unreliable (no retransmission): what UDP is to
// netplay/udp, as netplay wants it (the session resends what matters).
//
//	t, err := webrtc.Dial(ctx, lobbyClient, lobbyClient.Host(), webrtc.Config{})
//	sess, err := netplay.NewJoiner(cfg, netplay.Addr(lobbyClient.Host()), clock.Now())
//	for !sess.Done() {
//		now := clock.Now()
//		netplay.Read(now, t, sess)
//		... run the ticks the session allows ...
//		netplay.Write(now, t, sess)
//		draw()
//	}
//	t.Close()
//
// In a browser (GOOS=js GOARCH=wasm) the same code drives the browser's
// RTCPeerConnection through pion's wrapper, which needs a window (not a
// worker); the browser gathers its candidates as it will (host
// candidates are mDNS names there, which a native peer resolves on its
// network), and Config.IncludeLoopback does nothing.
//
// Signal data, one JSON object a message, opaque to the lobby:
// {"kind":"offer"|"answer","sdp":"..."} and {"candidate":{...}} (an
// RTCIceCandidateInit). The joiner offers; the host answers.
package webrtc
