package webrtc

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseICEServers(t *testing.T) {
	for _, c := range []struct {
		list string
		want []ICEServer
	}{
		{"", nil},
		{" ", nil},
		{"stun:stun.example.com:3478", []ICEServer{{URLs: []string{"stun:stun.example.com:3478"}}}},
		{"stun:a.example:3478, turn:alice:s3cret@b.example:3478?transport=udp,turns:bob:p%40ss%3Aw%2Cd@c.example:5349?transport=tcp", []ICEServer{
			{URLs: []string{"stun:a.example:3478"}},
			{URLs: []string{"turn:b.example:3478?transport=udp"}, Username: "alice", Credential: "s3cret"},
			{URLs: []string{"turns:c.example:5349?transport=tcp"}, Username: "bob", Credential: "p@ss:w,d"},
		}},
		{"turn:u:a:b@127.0.0.1", []ICEServer{{URLs: []string{"turn:127.0.0.1"}, Username: "u", Credential: "a:b"}}},
	} {
		got, err := ParseICEServers(c.list)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseICEServers(%q) = %+v, %v; want %+v", c.list, got, err, c.want)
		}
	}
}

func TestParseICEServersErrors(t *testing.T) {
	for _, c := range []struct{ list, err string }{
		{"turn:turn.example.com:3478", `webrtc: TURN server "turn:turn.example.com:3478" needs a username and a credential`},
		{"turn:alice@turn.example.com", `webrtc: TURN server "turn:turn.example.com": want USER:CREDENTIAL@ before its host`},
		{"turn:alice:%zz@turn.example.com", `webrtc: TURN server "turn:turn.example.com": a bad %-escape in its username or credential`},
		{"stun:alice:pw@stun.example.com", `webrtc: ICE server "stun:stun.example.com": only a TURN server takes a username and a credential`},
		{"http://x", `webrtc: ICE server "http://x": `},
		{"stun:a.example,,stun:b.example", `webrtc: an empty ICE server in "stun:a.example,,stun:b.example"`},
		{"turn:alice:hunter2@a.example,", `webrtc: an empty ICE server in "turn:…@a.example,"`},
		{"turn:alice:hunter2@a.example:port", `webrtc: ICE server "turn:a.example:port": `},
	} {
		got, err := ParseICEServers(c.list)
		if err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("ParseICEServers(%q) = %+v, %v; want an error %q...", c.list, got, err, c.err)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseICEServers(%q): error %q shows the credential or is not one line", c.list, err)
		}
	}
}
