//go:build js && wasm

package webrtc

import (
	"syscall/js"

	"github.com/pion/webrtc/v4"
)

// newAPI makes the pion API a Transport's connections are made with: in
// a browser there is nothing to set (its RTCPeerConnection gathers its
// candidates as it will).
func newAPI(Config) *webrtc.API { return webrtc.NewAPI() }

// watchCandidates calls f with each ICE candidate pc finds, and returns
// what undoes it after pc is closed. It reads the browser's candidates
// itself: pion's wrapper turns each into its own ICECandidate, which loses
// the sdpMid and the extensions (the ufrag) a browser at the other end
// may want.
func watchCandidates(pc *webrtc.PeerConnection, f func(webrtc.ICECandidateInit)) (release func()) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		c := args[0].Get("candidate")
		if c.IsNull() || c.IsUndefined() { // gathering is complete
			return nil
		}
		j := c.Call("toJSON")
		init := webrtc.ICECandidateInit{Candidate: j.Get("candidate").String()}
		if v := j.Get("sdpMid"); v.Type() == js.TypeString {
			s := v.String()
			init.SDPMid = &s
		}
		if v := j.Get("sdpMLineIndex"); v.Type() == js.TypeNumber {
			i := uint16(v.Int())
			init.SDPMLineIndex = &i
		}
		if v := j.Get("usernameFragment"); v.Type() == js.TypeString {
			s := v.String()
			init.UsernameFragment = &s
		}
		go f(init) // f sends through the Signaler: it may block, a JS callback must not
		return nil
	})
	pc.JSValue().Set("onicecandidate", fn)
	return func() {
		pc.JSValue().Set("onicecandidate", js.Null())
		fn.Release()
	}
}

// prepareChannel sets up dc before it opens: binary messages arrive as
// ArrayBuffers (which pion's wrapper copies at once), not Blobs (which it
// reads through a FileReader).
func prepareChannel(dc *webrtc.DataChannel) {
	dc.JSValue().Set("binaryType", "arraybuffer")
}
