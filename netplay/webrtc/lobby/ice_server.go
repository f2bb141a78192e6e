//go:build !js

package lobby

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/interpdemo/interpdemo/netplay/webrtc/internal/iceurl"
)

// ErrUnusedTURNSecret is NewServer's error for a Config with a TURNSecret
// and no TURN server in ICE without a credential of its own.
var ErrUnusedTURNSecret = errors.New("lobby: a TURN secret, but no TURN server without a credential of its own to use it for")

// iceConfig is what a Server hands out: the servers, and which of them
// get a credential made for each peer.
type iceConfig struct {
	servers []ICEServer
	mint    []bool // servers[i] gets a credential from secret
	secret  []byte
	ttl     time.Duration
	now     func() time.Time
}

// newICEConfig checks cfg's servers and secret.
func newICEConfig(cfg Config) (iceConfig, error) {
	ic := iceConfig{secret: []byte(cfg.TURNSecret), ttl: cfg.TURNTTL, now: time.Now}
	if ic.ttl == 0 {
		ic.ttl = DefaultTURNTTL
	}
	if ic.ttl < time.Second {
		return iceConfig{}, fmt.Errorf("lobby: TURN credentials good for %v: want at least 1s", cfg.TURNTTL)
	}
	if len(cfg.ICE) > MaxICEServers {
		return iceConfig{}, fmt.Errorf("lobby: %d ICE servers (at most %d)", len(cfg.ICE), MaxICEServers)
	}
	minted := false
	for _, s := range cfg.ICE {
		if err := checkICEServer(s); err != nil {
			return iceConfig{}, err
		}
		turn := false
		for _, u := range s.URLs {
			t, err := iceurl.Check(u)
			if err != nil {
				return iceConfig{}, fmt.Errorf("lobby: ICE server %q: %v", u, err)
			}
			turn = turn || t
		}
		switch {
		case !turn && (s.Username != "" || s.Credential != ""):
			return iceConfig{}, fmt.Errorf("lobby: ICE server %q: only a TURN server takes a username and a credential", s.URLs[0])
		case turn && (s.Username == "") != (s.Credential == ""):
			return iceConfig{}, fmt.Errorf("lobby: TURN server %q: a username without a credential, or a credential without a username", s.URLs[0])
		case turn && s.Username == "" && cfg.TURNSecret == "":
			return iceConfig{}, fmt.Errorf("lobby: TURN server %q has no credential, and the lobby no TURN secret to make them", s.URLs[0])
		}
		mint := turn && s.Username == ""
		minted = minted || mint
		ic.servers = append(ic.servers, ICEServer{URLs: append([]string(nil), s.URLs...), Username: s.Username, Credential: s.Credential})
		ic.mint = append(ic.mint, mint)
	}
	if cfg.TURNSecret != "" && !minted {
		return iceConfig{}, ErrUnusedTURNSecret
	}
	return ic, nil
}

// forPeer returns the servers for the peer id of room, with the
// credentials made for it appended to dst; nil where there are none.
//
// A credential is the TURN REST API's (draft-uberti-behave-turn-rest-00,
// coturn's use-auth-secret): the username EXPIRY:ROOM.ID, EXPIRY the Unix
// time at which it stops being good, and the credential the base64 of
// HMAC-SHA1(secret, username). A TURN server that shares the secret
// checks it without asking anyone, and refuses it once expired.
func (ic *iceConfig) forPeer(room, id string) []ICEServer {
	if len(ic.servers) == 0 {
		return nil
	}
	out := make([]ICEServer, len(ic.servers))
	copy(out, ic.servers)
	for i := range out {
		if !ic.mint[i] {
			continue
		}
		user := strconv.FormatInt(ic.now().Add(ic.ttl).Unix(), 10) + ":" + room + "." + id
		mac := hmac.New(sha1.New, ic.secret)
		mac.Write([]byte(user))
		out[i].Username, out[i].Credential = user, base64.StdEncoding.EncodeToString(mac.Sum(nil))
	}
	return out
}
