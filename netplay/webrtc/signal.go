package webrtc

import (
	"context"
	"encoding/json"
)

// Signaler relays signaling messages between this peer and others (a
// lobby client does).
type Signaler interface {
	// Send relays data (a JSON object, at most 16 KiB) to the peer named to.
	Send(to string, data []byte) error
	// Recv waits for the next message relayed to this peer, until ctx ends.
	Recv(ctx context.Context) (from string, data []byte, err error)
}

// signal is a signaling message between the two ends of a connection: a
// session description (Kind and SDP) or an ICE candidate.
type signal struct {
	Kind      string     `json:"kind,omitempty"` // "offer" or "answer"
	SDP       string     `json:"sdp,omitempty"`
	Candidate *candidate `json:"candidate,omitempty"`
}

// candidate is an ICE candidate as the signaling carries it: an
// RTCIceCandidateInit, what a browser's RTCIceCandidate.toJSON() gives
// and addIceCandidate takes. Its fields, their JSON names and their
// types are those of pion's ICECandidateInit, which a native build
// converts it to and from.
type candidate struct {
	Candidate        string  `json:"candidate"`
	SDPMid           *string `json:"sdpMid"`
	SDPMLineIndex    *uint16 `json:"sdpMLineIndex"`
	UsernameFragment *string `json:"usernameFragment"`
}

const (
	kindOffer  = "offer"
	kindAnswer = "answer"
)

// maxSignal is the most a signaling message may hold (the Signaler's bound).
const maxSignal = 16 << 10

func encodeSignal(s signal) ([]byte, error) {
	return json.Marshal(s)
}

// decodeSignal parses data, and reports false for anything that is not
// one well-formed signal.
func decodeSignal(data []byte) (signal, bool) {
	var s signal
	if len(data) > maxSignal || json.Unmarshal(data, &s) != nil {
		return signal{}, false
	}
	switch {
	case s.Candidate != nil:
		return s, s.Kind == "" && s.SDP == ""
	case s.Kind == kindOffer || s.Kind == kindAnswer:
		return s, s.SDP != ""
	}
	return signal{}, false
}

// normalize makes a candidate from any end acceptable to this one: an
// empty sdpMid (which pion's browser wrapper, in older builds of this
// package, produced, and which a browser would look for among its media
// sections) is dropped, and the line index defaults to the one media
// section a connection here has.
func normalize(c candidate) candidate {
	if c.SDPMid != nil && *c.SDPMid == "" {
		c.SDPMid = nil
	}
	if c.SDPMid == nil && c.SDPMLineIndex == nil {
		var zero uint16
		c.SDPMLineIndex = &zero
	}
	return c
}
