package webrtc

import (
	"fmt"

	"github.com/interpdemo/interpdemo/netplay/webrtc/internal/iceurl"
)

// ParseICEServers parses the STUN and TURN servers of a command line's
// flag or a page's query: their URLs, separated by commas, each a server
// of its own. A TURN server's username and credential come before its
// host, separated by a colon and followed by @, percent-encoded where
// they hold one of ":@,%":
//
//	stun:stun.example.com:3478,turn:alice:s3cret@turn.example.com:3478?transport=udp
//
// An empty list is no server. Each server is checked as a Config checks
// it: a URL pion (or, in a browser, the same rules) cannot parse, or a
// TURN server without both its username and credential, is an error that
// names it; a credential is never part of an error.
func ParseICEServers(list string) ([]ICEServer, error) {
	items, err := iceurl.ParseList(list)
	if err != nil {
		return nil, fmt.Errorf("webrtc: %v", err)
	}
	var servers []ICEServer
	for _, it := range items {
		s := ICEServer{URLs: []string{it.URL}, Username: it.Username, Credential: it.Credential}
		if err := (Config{ICEServers: []ICEServer{s}}).check(); err != nil {
			return nil, err
		}
		servers = append(servers, s)
	}
	return servers, nil
}
