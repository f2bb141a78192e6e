//go:build !js

package webrtc

import (
	"net"

	"github.com/pion/ice/v4"
	"github.com/pion/webrtc/v4"
)

// newAPI makes the pion API a Transport's connections are made with.
func newAPI(cfg Config) *webrtc.API {
	var s webrtc.SettingEngine
	s.SetIncludeLoopbackCandidate(cfg.IncludeLoopback || cfg.loopbackOnly)
	if cfg.loopbackOnly {
		s.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() })
		s.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	}
	return webrtc.NewAPI(webrtc.WithSettingEngine(s))
}

// watchCandidates calls f with each ICE candidate pc finds, and returns
// what undoes it after pc is closed.
func watchCandidates(pc *webrtc.PeerConnection, f func(webrtc.ICECandidateInit)) (release func()) {
	pc.OnICECandidate(func(c *webrtc.ICECandidate) {
		if c != nil { // nil: gathering is complete
			f(c.ToJSON())
		}
	})
	return func() {}
}

// prepareChannel sets up dc before it opens.
func prepareChannel(*webrtc.DataChannel) {}
