package webrtc

import "github.com/interpdemo/interpdemo/netplay/webrtc/internal/iceurl"

// parseICEURL checks a STUN or TURN server's URL (RFC 7064, 7065) and
// reports whether it is a TURN server's, as pion's stun.ParseURI does,
// with the same errors: a browser build checks its Config with it (pion
// is not linked there), a native one with pion's, and a native test
// holds the two together.
func parseICEURL(raw string) (turn bool, err error) { return iceurl.Check(raw) }
