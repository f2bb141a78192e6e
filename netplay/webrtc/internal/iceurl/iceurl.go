// Package iceurl reads the URLs of STUN and TURN servers as pion and the
// browsers take them, and the comma-separated lists of servers that a
// command line or a page's query names: the demo's -ice (package
// netplay/webrtc) and the lobby's (package netplay/webrtc/lobby). Plain
// Go, for a browser build too.
package iceurl

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// The errors of Check: pion's (stun.ParseURI's), word for word.
var (
	errICEScheme    = errors.New("unknown scheme type")
	errICESTUNQuery = errors.New("queries not supported in stun address")
	errICEQuery     = errors.New("invalid query")
	errICEHost      = errors.New("invalid hostname")
	errICEPort      = errors.New("invalid port")
	errICEProto     = errors.New("invalid transport protocol type")
)

// Check checks a STUN or TURN server's URL (RFC 7064, 7065) and reports
// whether it is a TURN server's. It accepts what pion's stun.ParseURI
// accepts, with the same errors: a browser build checks its servers with
// it (pion is not linked there), a native one with pion's, and a native
// test of netplay/webrtc holds the two together.
func Check(raw string) (turn bool, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return false, err
	}
	var port string // the scheme's default
	switch u.Scheme {
	case "stun", "turn":
		port = "3478"
	case "stuns", "turns":
		port = "5349"
	default:
		return false, errICEScheme
	}
	host, rawPort, err := net.SplitHostPort(u.Opaque)
	if err != nil {
		var e *net.AddrError
		if errors.As(err, &e) && e.Err == "missing port in address" {
			next := u.Scheme + ":" + u.Opaque + ":" + port
			if u.RawQuery != "" {
				next += "?" + u.RawQuery
			}
			return Check(next)
		}
		return false, err
	}
	if host == "" {
		return false, errICEHost
	}
	if _, err := strconv.Atoi(rawPort); err != nil {
		return false, errICEPort
	}
	q, qerr := url.ParseQuery(u.RawQuery)
	if u.Scheme == "stun" || u.Scheme == "stuns" {
		if qerr != nil || len(q) > 0 {
			return false, errICESTUNQuery
		}
		return false, nil
	}
	if qerr != nil || len(q) > 1 {
		return false, errICEQuery
	}
	if proto := q.Get("transport"); proto != "" {
		if proto != "udp" && proto != "tcp" {
			return false, errICEProto
		}
		return true, nil
	}
	if len(q) > 0 {
		return false, errICEQuery
	}
	return true, nil
}

// Server is one server of a list: its URL and, for a TURN server, the
// username and credential given before its host (empty if none).
type Server struct {
	URL, Username, Credential string
}

// ParseList parses a list of servers: their URLs, separated by commas,
// each a server of its own. A TURN server's username and credential may
// come before its host, separated by a colon and followed by @,
// percent-encoded where they hold one of ":@,%":
//
//	stun:stun.example.com:3478,turn:alice:s3cret@turn.example.com:3478?transport=udp
//
// An empty list is no server. Each URL is checked (Check); a username
// and credential on a STUN server, or one without the other, is an
// error. Whether a TURN server needs them is the caller's to say. An
// error is one line that names the server, without a prefix, and never
// shows a credential.
func ParseList(list string) ([]Server, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	var servers []Server
	for _, raw := range strings.Split(list, ",") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			return nil, fmt.Errorf("an empty ICE server in %q", Redact(list))
		}
		s, err := parseServer(raw)
		if err != nil {
			return nil, err
		}
		if _, err := Check(s.URL); err != nil {
			return nil, fmt.Errorf("ICE server %q: %v", s.URL, err)
		}
		servers = append(servers, s)
	}
	return servers, nil
}

// parseServer splits one URL's username and credential off, if it has
// them.
func parseServer(raw string) (Server, error) {
	scheme, rest, ok := strings.Cut(raw, ":")
	at := strings.LastIndex(rest, "@")
	if !ok || at < 0 {
		return Server{URL: raw}, nil
	}
	bare := scheme + ":" + rest[at+1:]
	switch scheme {
	case "turn", "turns":
	default:
		return Server{}, fmt.Errorf("ICE server %q: only a TURN server takes a username and a credential", bare)
	}
	user, cred, ok := strings.Cut(rest[:at], ":")
	if !ok {
		return Server{}, fmt.Errorf("TURN server %q: want USER:CREDENTIAL@ before its host", bare)
	}
	u, err1 := url.PathUnescape(user)
	c, err2 := url.PathUnescape(cred)
	if err1 != nil || err2 != nil {
		return Server{}, fmt.Errorf("TURN server %q: a bad %%-escape in its username or credential", bare)
	}
	return Server{URL: bare, Username: u, Credential: c}, nil
}

// Redact hides the credentials of list's TURN servers, for an error.
func Redact(list string) string {
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
