package webrtc

import (
	"errors"
	"net"
	"net/url"
	"strconv"
)

// The errors of parseICEURL: pion's (stun.ParseURI's), word for word.
var (
	errICEScheme    = errors.New("unknown scheme type")
	errICESTUNQuery = errors.New("queries not supported in stun address")
	errICEQuery     = errors.New("invalid query")
	errICEHost      = errors.New("invalid hostname")
	errICEPort      = errors.New("invalid port")
	errICEProto     = errors.New("invalid transport protocol type")
)

// parseICEURL checks a STUN or TURN server's URL (RFC 7064, 7065) and
// reports whether it is a TURN server's. It accepts what pion's
// stun.ParseURI accepts, with the same errors: a browser build checks
// its Config with it (pion is not linked there), a native one with
// pion's, and a native test holds the two together.
func parseICEURL(raw string) (turn bool, err error) {
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
			return parseICEURL(next)
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
