//go:build !js

package lobby

import (
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pion/logging"
	"github.com/pion/turn/v5"
)

// quiet is a pion logger that says nothing.
var quiet = logging.NewDefaultLeveledLoggerForScope("turn", logging.LogLevelDisabled, io.Discard)

func TestParseICEServersLobby(t *testing.T) {
	got, err := ParseICEServers("stun:a.example:3478, turn:b.example:3478?transport=udp,turns:bob:p%40ss@c.example:5349?transport=tcp")
	want := []ICEServer{
		{URLs: []string{"stun:a.example:3478"}},
		{URLs: []string{"turn:b.example:3478?transport=udp"}},
		{URLs: []string{"turns:c.example:5349?transport=tcp"}, Username: "bob", Credential: "p@ss"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ParseICEServers = %+v, %v; want %+v", got, err, want)
	}
	for _, c := range []struct{ list, err string }{
		{"http://x", `lobby: ICE server "http://x": `},
		{"turn:alice@b.example", `lobby: TURN server "turn:b.example": want USER:CREDENTIAL@`},
		{"stun:u:hunter2@a.example", `lobby: ICE server "stun:a.example": only a TURN server`},
		{"turn:u:hunter2@a.example,,", `lobby: an empty ICE server in "turn:…@a.example,,"`},
	} {
		got, err := ParseICEServers(c.list)
		if err == nil || !strings.HasPrefix(err.Error(), c.err) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("ParseICEServers(%q) = %+v, %v; want an error %q... without the credential", c.list, got, err, c.err)
		}
	}
}

func TestNewServerChecksICE(t *testing.T) {
	turnURL := []string{"turn:127.0.0.1:3478?transport=udp"}
	many := make([]ICEServer, MaxICEServers+1)
	for i := range many {
		many[i] = ICEServer{URLs: []string{"stun:127.0.0.1:" + strconv.Itoa(3478+i)}}
	}
	for _, c := range []struct {
		cfg Config
		err string
	}{
		{Config{ICE: []ICEServer{{URLs: turnURL}}}, `lobby: TURN server "turn:127.0.0.1:3478?transport=udp" has no credential, and the lobby no TURN secret`},
		{Config{ICE: []ICEServer{{URLs: turnURL, Username: "u"}}, TURNSecret: "s"}, "a username without a credential"},
		{Config{ICE: []ICEServer{{URLs: []string{"stun:127.0.0.1"}, Username: "u", Credential: "hunter2"}}}, "only a TURN server takes"},
		{Config{ICE: []ICEServer{{URLs: []string{"stun:127.0.0.1"}}}, TURNSecret: "s"}, "a TURN secret, but no TURN server without a credential"},
		{Config{ICE: []ICEServer{{URLs: turnURL, Username: "u", Credential: "hunter2"}}, TURNSecret: "s"}, "a TURN secret, but no TURN server without a credential"},
		{Config{ICE: []ICEServer{{URLs: []string{"stun:127.0.0.1:x"}}}}, `lobby: ICE server "stun:127.0.0.1:x": invalid port`},
		{Config{ICE: []ICEServer{{}}}, "an ICE server with 0 URLs"},
		{Config{ICE: []ICEServer{{URLs: []string{"stun:" + strings.Repeat("a", MaxICEField)}}}}, "URL of 517 bytes"},
		{Config{ICE: many}, "9 ICE servers (at most 8)"},
		{Config{ICE: []ICEServer{{URLs: turnURL}}, TURNSecret: "s", TURNTTL: time.Millisecond}, "TURN credentials good for 1ms"},
	} {
		s, err := NewServer(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "lobby: ") || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%+v: %v, want an error with %q, without the credential", c.cfg, err, c.err)
		}
		if s != nil {
			s.Close()
		}
	}
}

// TestWelcomeHandsOutICE: the lobby's servers reach each peer in its
// welcome; a TURN server with a credential hands that one to all, one
// without gets a credential made for each peer that a TURN server
// sharing the secret accepts (pion/turn's own check of the TURN REST
// API's credentials) until it expires, and one made with another secret
// it refuses.
func TestWelcomeHandsOutICE(t *testing.T) {
	const secret, ttl = "s3cret", time.Hour
	cfg := Config{
		ICE: []ICEServer{
			{URLs: []string{"stun:127.0.0.1:3478"}},
			{URLs: []string{"turn:127.0.0.1:3479?transport=udp"}, Username: "alice", Credential: "pw"},
			{URLs: []string{"turn:127.0.0.1:3480?transport=udp", "turn:127.0.0.1:3480?transport=tcp"}},
		},
		TURNSecret: secret,
		TURNTTL:    ttl,
	}
	l := startLobbyConfig(t, cfg)
	ctx := testCtx(t)
	before := time.Now()
	host := join(t, ctx, l.url+"/r1")
	joiner := join(t, ctx, l.url+"/r1")
	after := time.Now()
	users := map[string]bool{}
	for _, c := range []*Client{host, joiner} {
		got := c.ICEServers()
		if len(got) != 3 || !reflect.DeepEqual(got[:2], cfg.ICE[:2]) || !reflect.DeepEqual(got[2].URLs, cfg.ICE[2].URLs) {
			t.Fatalf("%s: servers %+v, want %+v with a credential for the last", c.ID(), got, cfg.ICE)
		}
		user, cred := got[2].Username, got[2].Credential
		expiry, who, ok := strings.Cut(user, ":")
		at, err := strconv.ParseInt(expiry, 10, 64)
		if !ok || err != nil || who != "r1."+c.ID() {
			t.Fatalf("%s: username %q, want EXPIRY:r1.%s", c.ID(), user, c.ID())
		}
		if lo, hi := before.Add(ttl).Unix(), after.Add(ttl).Unix(); at < lo || at > hi {
			t.Errorf("%s: the credential expires at %d, want %d to %d (an hour on)", c.ID(), at, lo, hi)
		}
		users[user] = true
		check := func(secret, user, cred string) bool {
			id, key, ok := turn.LongTermTURNRESTAuthHandler(secret, quiet)(&turn.RequestAttributes{Username: user, Realm: "r"})
			return ok && id == "r1."+c.ID() && string(key) == string(turn.GenerateAuthKey(user, "r", cred))
		}
		if !check(secret, user, cred) {
			t.Errorf("%s: a TURN server with the secret refuses %q", c.ID(), user)
		}
		if check("another", user, cred) {
			t.Errorf("%s: a TURN server with another secret accepts %q", c.ID(), user)
		}
		// The same credential, said to expire later, is not the lobby's.
		if later := strconv.FormatInt(at+3600, 10) + ":r1." + c.ID(); check(secret, later, cred) {
			t.Errorf("%s: a TURN server accepts %q with the credential of %q", c.ID(), later, user)
		}
	}
	if len(users) != 2 {
		t.Errorf("the two peers got the same username: %v", users)
	}
	// A credential that has expired is refused.
	ic, err := newICEConfig(Config{ICE: cfg.ICE[2:], TURNSecret: secret, TURNTTL: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ic.now = func() time.Time { return time.Now().Add(-time.Minute) }
	old := ic.forPeer("r1", "p1")[0]
	if _, _, ok := turn.LongTermTURNRESTAuthHandler(secret, quiet)(&turn.RequestAttributes{Username: old.Username, Realm: "r"}); ok {
		t.Errorf("a credential that expired a minute ago (%q) is accepted", old.Username)
	}
	// A lobby without servers sends none, and its welcome has no "ice".
	plain := startLobby(t, Limits{})
	if c := join(t, ctx, plain.url+"/r2"); c.ICEServers() != nil {
		t.Errorf("a lobby without servers handed %+v", c.ICEServers())
	}
}

func TestDecodeWelcomeICE(t *testing.T) {
	m := ServerMsg{Type: TypeWelcome, ID: "p2", Host: "p1", Players: 2, ICE: []ICEServer{
		{URLs: []string{"stun:a.example"}},
		{URLs: []string{"turn:b.example?transport=udp"}, Username: "1:r.p2", Credential: "x\"y"},
	}}
	b := AppendServer(nil, m)
	got, err := DecodeServer(b)
	if err != nil || !reflect.DeepEqual(got.ICE, m.ICE) {
		t.Fatalf("%s: %+v, %v", b, got.ICE, err)
	}
	if strings.Contains(string(AppendServer(nil, ServerMsg{Type: TypeWelcome, ID: "p2", Host: "p1", Players: 2})), "ice") {
		t.Error("a welcome without servers has an ice member")
	}
	// Members a server does not know are a newer lobby's.
	if got, err := DecodeServer([]byte(`{"type":"welcome","id":"p2","host":"p1","players":2,"spectator":false,"ice":[{"urls":["stun:a"],"new":1}]}`)); err != nil || len(got.ICE) != 1 {
		t.Errorf("an unknown member of a server: %+v, %v", got.ICE, err)
	}
	long := strings.Repeat("a", MaxICEField+1)
	nine := strings.Repeat(`{"urls":["stun:a"]},`, MaxICEServers) + `{"urls":["stun:a"]}`
	for _, ice := range []string{
		`{}`, `"stun:a"`, `null`, `[null]`, `[{}]`, `[{"urls":"stun:a"}]`, `[{"urls":[]}]`, `[{"urls":[""]}]`,
		`[{"urls":[1]}]`, `[{"urls":["stun:a"],"username":1}]`, `[{"urls":["` + long + `"]}]`,
		`[{"urls":["stun:a"],"credential":"` + long + `"}]`, `[{"urls":["a","b","c","d","e"]}]`, `[` + nine + `]`,
	} {
		in := `{"type":"welcome","id":"p2","host":"p1","players":2,"spectator":false,"ice":` + ice + `}`
		got, err := DecodeServer([]byte(in))
		if err == nil {
			t.Errorf("ice %.60s: %+v, want an error", ice, got.ICE)
			continue
		}
		checkOneLine(t, err)
	}
}
