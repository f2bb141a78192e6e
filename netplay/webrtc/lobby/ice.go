package lobby

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/netplay/webrtc/internal/iceurl"
)

// ICEServer is a STUN or TURN server the lobby hands each peer in its
// welcome, as a browser's RTCIceServer: on the wire
// {"urls":["turn:HOST:PORT?transport=udp"],"username":"...","credential":"..."}.
type ICEServer struct {
	URLs       []string `json:"urls"`
	Username   string   `json:"username,omitempty"`
	Credential string   `json:"credential,omitempty"`
}

// The bounds of the servers a welcome carries: what a lobby may be
// configured with, and what a client accepts.
const (
	MaxICEServers = 8   // servers in one welcome
	MaxICEURLs    = 4   // URLs of one server
	MaxICEField   = 512 // bytes of one URL, username or credential
	// DefaultTURNTTL is how long a credential the lobby makes is good
	// for: a day, as the TURN REST API's draft advises. A TURN server
	// checks it again at each refresh of an allocation (every few
	// minutes), so it must outlast the longest game.
	DefaultTURNTTL = 24 * time.Hour
)

// ParseICEServers parses a lobby's servers as a command line names them
// (command lobby's -ice): as netplay/webrtc's ParseICEServers does, but
// a TURN server may come without a username and credential, and then
// gets, for each peer, a credential of its own from Config.TURNSecret.
// An error is one line starting with "lobby: " that never shows a
// credential.
func ParseICEServers(list string) ([]ICEServer, error) {
	items, err := iceurl.ParseList(list)
	if err != nil {
		return nil, fmt.Errorf("lobby: %v", err)
	}
	var servers []ICEServer
	for _, it := range items {
		servers = append(servers, ICEServer{URLs: []string{it.URL}, Username: it.Username, Credential: it.Credential})
	}
	return servers, nil
}

// checkICEServer checks a server's shape against the bounds.
func checkICEServer(s ICEServer) error {
	if len(s.URLs) == 0 || len(s.URLs) > MaxICEURLs {
		return fmt.Errorf("lobby: an ICE server with %d URLs (1 to %d)", len(s.URLs), MaxICEURLs)
	}
	for _, u := range s.URLs {
		if u == "" || len(u) > MaxICEField {
			return fmt.Errorf("lobby: an ICE server's URL of %d bytes (1 to %d)", len(u), MaxICEField)
		}
	}
	if len(s.Username) > MaxICEField || len(s.Credential) > MaxICEField {
		return fmt.Errorf("lobby: ICE server %q: a username or credential over %d bytes", clipTo(s.URLs[0], 60), MaxICEField)
	}
	return nil
}

// appendICE appends the welcome's "ice" member, if there are servers.
func appendICE(b []byte, servers []ICEServer) []byte {
	if len(servers) == 0 {
		return b
	}
	j, err := json.Marshal(servers)
	if err != nil { // cannot happen: strings only
		return b
	}
	b = append(b, `,"ice":`...)
	return append(b, j...)
}

// decodeICE decodes a welcome's "ice" member: an array of at most
// MaxICEServers servers, each with 1 to MaxICEURLs URLs and at most
// MaxICEField bytes in each string. Members it does not know are ignored,
// as the message's are. What the URLs say is checked where they are used
// (netplay/webrtc's Config).
func decodeICE(raw []byte) ([]ICEServer, error) {
	var servers []ICEServer
	if err := json.Unmarshal(raw, &servers); err != nil || raw[0] != '[' {
		return nil, fmt.Errorf("lobby: welcome message with bad ice %s", clip(raw))
	}
	if len(servers) > MaxICEServers {
		return nil, fmt.Errorf("lobby: welcome message with %d ICE servers (at most %d)", len(servers), MaxICEServers)
	}
	for _, s := range servers {
		if err := checkICEServer(s); err != nil {
			return nil, fmt.Errorf("lobby: welcome message: %s", err.Error()[len("lobby: "):])
		}
	}
	return servers, nil
}
