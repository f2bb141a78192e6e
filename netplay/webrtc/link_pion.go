//go:build !js

package webrtc

import (
	"fmt"
	"net"

	"github.com/pion/ice/v4"
	"github.com/pion/stun/v4"
	"github.com/pion/webrtc/v4"
)

// rtcConfig is what a Transport's connections are made with: natively,
// a pion API and configuration.
type rtcConfig struct {
	api  *webrtc.API
	conf webrtc.Configuration
}

// newRTCConfig makes the pion API and configuration for cfg, checked and
// with its defaults set.
func newRTCConfig(cfg Config) (rtcConfig, error) {
	var s webrtc.SettingEngine
	s.SetIncludeLoopbackCandidate(cfg.IncludeLoopback || cfg.loopbackOnly)
	if cfg.loopbackOnly {
		s.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() })
		s.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	}
	var conf webrtc.Configuration
	for _, s := range cfg.ICEServers {
		is := webrtc.ICEServer{URLs: s.URLs, Username: s.Username}
		if s.Credential != "" {
			is.Credential = s.Credential
			is.CredentialType = webrtc.ICECredentialTypePassword
		}
		conf.ICEServers = append(conf.ICEServers, is)
	}
	if cfg.RelayOnly {
		conf.ICETransportPolicy = webrtc.ICETransportPolicyRelay
		// pion waits 2 s before it settles on a relayed pair, in case a
		// direct one comes; with relayed candidates alone none can.
		s.SetRelayAcceptanceMinWait(0)
	}
	return rtcConfig{api: webrtc.NewAPI(webrtc.WithSettingEngine(s)), conf: conf}, nil
}

// checkICEURL parses a STUN or TURN server's URL, and reports whether it
// is a TURN server's.
func checkICEURL(raw string) (turn bool, err error) {
	uri, err := stun.ParseURI(raw)
	if err != nil {
		return false, err
	}
	return uri.Scheme == stun.SchemeTypeTURN || uri.Scheme == stun.SchemeTypeTURNS, nil
}

// pionLink is a link through pion/webrtc.
type pionLink struct {
	pc *webrtc.PeerConnection
	dc *webrtc.DataChannel
}

var _ link = (*pionLink)(nil)

func newLink(p *peer) (link, error) {
	t := p.t
	pc, err := t.rtc.api.NewPeerConnection(t.rtc.conf)
	if err != nil {
		return nil, fmt.Errorf("webrtc: new connection to %q: %v", p.addr, err)
	}
	ordered, negotiated := false, true
	var zero uint16
	dc, err := pc.CreateDataChannel(Label, &webrtc.DataChannelInit{
		Ordered:        &ordered,
		MaxRetransmits: &zero,
		Negotiated:     &negotiated,
		ID:             &zero,
	})
	if err != nil {
		_ = pc.Close()
		return nil, fmt.Errorf("webrtc: data channel to %q: %v", p.addr, err)
	}
	pc.OnICECandidate(func(c *webrtc.ICECandidate) {
		if c != nil { // nil: gathering is complete
			p.local(candidate(c.ToJSON()))
		}
	})
	dc.OnOpen(p.opens)
	dc.OnClose(func() { t.lose(p) })
	addr := p.addr
	dc.OnMessage(func(msg webrtc.DataChannelMessage) { t.push(addr, msg.Data) })
	pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		if s == webrtc.PeerConnectionStateFailed || s == webrtc.PeerConnectionStateClosed {
			t.lose(p)
		}
	})
	return &pionLink{pc: pc, dc: dc}, nil
}

func (l *pionLink) describe(kind string) (string, error) {
	var desc webrtc.SessionDescription
	var err error
	if kind == kindOffer {
		desc, err = l.pc.CreateOffer(nil)
	} else {
		desc, err = l.pc.CreateAnswer(nil)
	}
	if err == nil {
		err = l.pc.SetLocalDescription(desc)
	}
	return desc.SDP, err
}

func (l *pionLink) setRemote(kind, sdp string) error {
	typ := webrtc.SDPTypeAnswer
	if kind == kindOffer {
		typ = webrtc.SDPTypeOffer
	}
	return l.pc.SetRemoteDescription(webrtc.SessionDescription{Type: typ, SDP: sdp})
}

func (l *pionLink) addCandidate(c candidate) error {
	return l.pc.AddICECandidate(webrtc.ICECandidateInit(c))
}

func (l *pionLink) buffered() int { return int(min(l.dc.BufferedAmount(), 1<<62)) }

func (l *pionLink) send(pkt []byte) error { return l.dc.Send(pkt) }

func (l *pionLink) iceState() string { return l.pc.ICEConnectionState().String() }

func (l *pionLink) close() {
	_ = l.dc.Close()
	_ = l.pc.Close()
}
