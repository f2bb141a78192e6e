package webrtc

import (
	"fmt"
	"net/url"
	"strings"
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
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	var servers []ICEServer
	for _, raw := range strings.Split(list, ",") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			return nil, fmt.Errorf("webrtc: an empty ICE server in %q", redact(list))
		}
		s, err := parseICEServer(raw)
		if err != nil {
			return nil, err
		}
		if err := (Config{ICEServers: []ICEServer{s}}).check(); err != nil {
			return nil, err
		}
		servers = append(servers, s)
	}
	return servers, nil
}

// parseICEServer splits one URL's username and credential off, if it
// has them.
func parseICEServer(raw string) (ICEServer, error) {
	scheme, rest, ok := strings.Cut(raw, ":")
	at := strings.LastIndex(rest, "@")
	if !ok || at < 0 {
		return ICEServer{URLs: []string{raw}}, nil
	}
	bare := scheme + ":" + rest[at+1:]
	switch scheme {
	case "turn", "turns":
	default:
		return ICEServer{}, fmt.Errorf("webrtc: ICE server %q: only a TURN server takes a username and a credential", bare)
	}
	user, cred, ok := strings.Cut(rest[:at], ":")
	if !ok {
		return ICEServer{}, fmt.Errorf("webrtc: TURN server %q: want USER:CREDENTIAL@ before its host", bare)
	}
	u, err1 := url.PathUnescape(user)
	c, err2 := url.PathUnescape(cred)
	if err1 != nil || err2 != nil {
		return ICEServer{}, fmt.Errorf("webrtc: TURN server %q: a bad %%-escape in its username or credential", bare)
	}
	return ICEServer{URLs: []string{bare}, Username: u, Credential: c}, nil
}

// redact hides the credentials of list's TURN servers, for an error.
func redact(list string) string {
	parts := strings.Split(list, ",")
	for i, p := range parts {
		if scheme, rest, ok := strings.Cut(strings.TrimSpace(p), ":"); ok {
			if at := strings.LastIndex(rest, "@"); at >= 0 {
				parts[i] = scheme + ":…@" + rest[at+1:]
			}
		}
	}
	return strings.Join(parts, ",")
}
