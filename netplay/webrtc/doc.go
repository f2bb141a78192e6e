// Package webrtc carries a netplay session over WebRTC data channels: a
// netplay.Transport that works between native programs (pion/webrtc) and
// in a browser (GOOS=js GOARCH=wasm, on the browser's own
// RTCPeerConnection), through NATs that a STUN server or a TURN relay
// helps to cross.
//
// netplay is a star through its host, so each joiner connects to the host
// alone: Host accepts every joiner's offer that arrives through its
// Signaler, and Dial offers to the host and waits until the connection is
// open. The two ends exchange their session descriptions and ICE
// candidates (trickled, as they are found) through a Signaler, which a
// lobby client implements; a peer's string is its ID there. Each
// connection carries one data channel, "netplay", negotiated out of band
// (ID 0), unordered and unreliable (no retransmission): what UDP is to
// netplay/udp, as netplay wants it (the session resends what matters).
//
//	t, err := webrtc.Dial(ctx, lobbyClient, lobbyClient.Host(), webrtc.Config{})
//	sess, err := netplay.Join(cfg, game, t, string(lobbyClient.Host()), clock.Now())
//	for !sess.Done() {
//		sess.Frame(clock.Now(), due, maxLoops) // reads t, runs the ticks, writes t
//		draw()
//	}
//	t.Close()
//
// The API is the same in both builds, and so is everything but the
// connection itself (the receive queue, the peers, the signaling, the
// deadlines and the counts): natively a connection is pion's
// (link_pion.go); in a browser (GOOS=js GOARCH=wasm) it is the page's
// own RTCPeerConnection and RTCDataChannel, driven through syscall/js
// (link_js.go), and pion is not linked at all. That layer adds some
// 35 KB of WebAssembly; pion's js/wasm wrapper, with what it still
// linked of its SDP, ICE, DTLS and SCTP packages, encoding/gob and
// crypto/x509, made the demo's page about 600 KB bigger (150 KB
// gzipped) instead.
//
// The browser build needs a window (a worker has no RTCPeerConnection).
// The browser gathers its candidates as it will (host candidates are
// mDNS names there, which a native peer resolves on its network), and
// Config.IncludeLoopback does nothing. The event handlers never block:
// they copy a datagram into the receive queue, or hand a candidate or a
// lost connection to a goroutine. The promises (the offer, the answer,
// the descriptions, the remote candidates) are awaited on the goroutines
// that make them, Dial's and the signaling's, each within
// Config.Timeout. Send copies a datagram into one reused Uint8Array and
// allocates nothing once it has sent a datagram of that length; each
// datagram received costs a few small syscall/js values.
//
// Signal data, one JSON object a message, opaque to the lobby:
// {"kind":"offer"|"answer","sdp":"..."} and {"candidate":{...}} (an
// RTCIceCandidateInit). The joiner offers; the host answers.
package webrtc
