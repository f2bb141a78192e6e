package lobby

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeClient(t *testing.T) {
	valid := []struct{ in, to, data string }{
		{`{"type":"signal","to":"p1","data":{}}`, "p1", `{}`},
		{` { "data" : {"sdp":"v=0\r\n","kind":"offer"} , "to":"p-2_x", "type" : "signal" } `, "p-2_x", `{"sdp":"v=0\r\n","kind":"offer"}`},
		{`{"type":"sig\u006eal","to":"p1","data":{"candidate":{"candidate":"c","sdpMid":"0","sdpMLineIndex":0}}}`, "p1", `{"candidate":{"candidate":"c","sdpMid":"0","sdpMLineIndex":0}}`},
		{`{"type":"signal","to":"` + strings.Repeat("a", MaxID) + `","data":{"é":"ü"}}`, strings.Repeat("a", MaxID), `{"é":"ü"}`},
	}
	for _, tc := range valid {
		m, err := DecodeClient([]byte(tc.in))
		if err != nil || m.To != tc.to || string(m.Data) != tc.data {
			t.Errorf("%s: %+v %v", tc.in, m, err)
		}
	}
	big := `{"x":"` + strings.Repeat("y", MaxData-8) + `"}`
	if m, err := DecodeClient(AppendClient(nil, ClientMsg{To: "p1", Data: []byte(big)})); err != nil || len(m.Data) != MaxData {
		t.Errorf("data of MaxData bytes: %v", err)
	}

	invalid := []struct{ in, err string }{
		{``, "not one JSON object"},
		{`null`, "not one JSON object"},
		{`[]`, "not one JSON object"},
		{`"signal"`, "not one JSON object"},
		{`{`, "not one JSON object"},
		{`{"type":"signal","to":"p1","data":{}`, "not one JSON object"},
		{`{"type":"signal","to":"p1","data":{}}}`, "not one JSON object"},
		{`{"type":"signal","to":"p1","data":{}}x`, "not one JSON object"},
		{`{"type":"signal","to":"p1","data":{},}`, "not one JSON object"},
		{`{"type":"signal","to":"p1","data":{"a":}}`, "not one JSON object"},
		{`{"type":"signal","to":"p1","data":{}} {"type":"signal","to":"p1","data":{}}`, "not one JSON object"},
		{"{\"type\":\"signal\",\"to\":\"p1\",\"data\":{\"\xc3\":1}}", "not UTF-8"},
		{`{}`, `without "type"`},
		{`{"type":"signal"}`, `without "to"`},
		{`{"type":"signal","to":"p1"}`, `without "data"`},
		{`{"type":"welcome","to":"p1","data":{}}`, `message type "welcome"`},
		{`{"type":1,"to":"p1","data":{}}`, `message type 1`},
		{`{"type":null,"to":"p1","data":{}}`, `message type null`},
		{`{"type":"signal","to":"","data":{}}`, `bad recipient ""`},
		{`{"type":"signal","to":"p1 ","data":{}}`, `bad recipient`},
		{`{"type":"signal","to":"` + strings.Repeat("a", MaxID+1) + `","data":{}}`, `bad recipient`},
		{`{"type":"signal","to":7,"data":{}}`, `bad recipient 7`},
		{`{"type":"signal","to":"p1","data":"x"}`, `not a JSON object`},
		{`{"type":"signal","to":"p1","data":null}`, `not a JSON object`},
		{`{"type":"signal","to":"p1","data":{},"from":"p2"}`, `unknown field "from"`},
		{`{"type":"signal","type":"signal","to":"p1","data":{}}`, `field "type" twice`},
		{`{"type":"signal","to":"p1","data":{},"data":{}}`, `field "data" twice`},
		{`{"type":"signal","to":"p1","data":{"x":"` + strings.Repeat("y", MaxMessage) + `"}}`, `message of`},
		{`{"type":"signal","to":"p1","data":{"x":"` + strings.Repeat("y", MaxData-7) + `"}}`, `signal data of`},
	}
	for _, tc := range invalid {
		_, err := DecodeClient([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%.80s: %v, want %q", tc.in, err, tc.err)
			continue
		}
		checkOneLine(t, err)
	}
}

func TestDecodeServer(t *testing.T) {
	for _, m := range []ServerMsg{
		{Type: TypeWelcome, ID: "p2", Host: "p1", Players: 8, Spectator: true},
		{Type: TypeJoined, ID: "p2", Spectator: false},
		{Type: TypeLeft, ID: "p1"},
		{Type: TypeSignal, From: "p3", Data: []byte(`{"sdp":"x"}`)},
		{Type: TypeError, Reason: `lobby: room "r" is full (2 of 2 players)`},
	} {
		b := AppendServer(nil, m)
		got, err := DecodeServer(b)
		if err != nil || got.Type != m.Type || got.ID != m.ID || got.Host != m.Host || got.Players != m.Players ||
			got.Spectator != m.Spectator || got.From != m.From || !bytes.Equal(got.Data, m.Data) || got.Reason != m.Reason {
			t.Errorf("%s: %+v %v", b, got, err)
		}
	}
	// Fields it does not know are a newer lobby's.
	if m, err := DecodeServer([]byte(`{"type":"left","id":"p1","why":"gone"}`)); err != nil || m.ID != "p1" {
		t.Errorf("unknown field: %+v %v", m, err)
	}
	// A reason is shown on one line.
	if m, err := DecodeServer([]byte(`{"type":"error","reason":"lobby: a\nb"}`)); err != nil || m.Reason != "lobby: a b" {
		t.Errorf("reason %q %v", m.Reason, err)
	}
	for _, in := range []string{
		`{"type":"welcome","id":"p2","host":"p1","players":9,"spectator":false}`,
		`{"type":"welcome","id":"p2","host":"p1","players":"2","spectator":false}`,
		`{"type":"welcome","id":"p2","host":"p1","spectator":false}`,
		`{"type":"welcome","id":"p2","players":2,"spectator":false}`,
		`{"type":"welcome","id":"p2","host":"p1","players":2}`,
		`{"type":"welcome","id":"p2","host":"p1","players":2,"spectator":0}`,
		`{"type":"joined","id":"p 2","spectator":false}`,
		`{"type":"left"}`,
		`{"type":"left","id":"p1","id":"p2"}`,
		`{"type":"signal","from":"p1"}`,
		`{"type":"signal","from":"p1","data":[]}`,
		`{"type":"error","reason":""}`,
		`{"type":"error"}`,
		`{"type":"hello"}`,
		`{"id":"p1"}`,
		`[]`,
	} {
		_, err := DecodeServer([]byte(in))
		if err == nil {
			t.Errorf("%s: no error", in)
			continue
		}
		checkOneLine(t, err)
	}
}

func checkOneLine(t *testing.T, err error) {
	t.Helper()
	if s := err.Error(); !strings.HasPrefix(s, "lobby: ") || strings.ContainsAny(s, "\n\r") {
		t.Errorf("error %q: want one line starting with \"lobby: \"", s)
	}
}

// decodeSeeds are the fuzz tests' first inputs.
var decodeSeeds = []string{
	`{"type":"signal","to":"p1","data":{}}`,
	`{"type":"signal","to":"p1","data":{"sdp":"v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n","kind":"offer"}}`,
	`{"type":"signal","to":"p2","data":{"candidate":{"candidate":"candidate:1 1 udp 2130706431 192.168.1.2 54321 typ host","sdpMid":"0","sdpMLineIndex":0,"usernameFragment":"abcd"}}}`,
	`{"type":"signal","to":"p1","to":"p2","data":{}}`,
	`{"type":"signal","to":"p1","data":{"a":[1,2,{"b":null}]},"x":1}`,
	`{"type":"welcome","id":"p2","host":"p1","players":2,"spectator":false}`,
	`{"type":"joined","id":"p2","spectator":true}`,
	`{"type":"left","id":"p1"}`,
	`{"type":"signal","from":"p1","data":{"kind":"answer","sdp":"x"}}`,
	`{"type":"error","reason":"lobby: room \"r1\" is full (2 of 2 players)"}`,
	`{"type":"signal","to":"p1","data":{}} {}`,
	"{\"type\":\"signal\",\"to\":\"p1\",\"data\":{\"\xff\":1}}",
	`{"type":"signal","to":"p1","data":{"deep":[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]}}`,
	``, `{`, `}`, `[`, `null`, `"x"`, `1e999`, `{"":""}`,
}

// FuzzDecodeClient: decoding never panics, every error is one line, and
// what decodes encodes back to a message that decodes the same.
func FuzzDecodeClient(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeClient(b)
		if err != nil {
			checkOneLine(t, err)
			return
		}
		// encoding/json reads the same message.
		var ref map[string]json.RawMessage
		var to string
		if err := json.Unmarshal(b, &ref); err != nil || len(ref) != 3 ||
			json.Unmarshal(ref["to"], &to) != nil || to != m.To || !bytes.Equal(bytes.TrimSpace(ref["data"]), m.Data) {
			t.Fatalf("%q: decoded %+v, encoding/json %v %q", b, m, err, ref)
		}
		again, err := DecodeClient(AppendClient(nil, m))
		if err != nil || again.To != m.To || !bytes.Equal(again.Data, m.Data) {
			t.Fatalf("%q: re-encoded %+v %v", b, again, err)
		}
	})
}

// FuzzDecodeServer: the same for what a client reads.
func FuzzDecodeServer(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeServer(b)
		if err != nil {
			checkOneLine(t, err)
			return
		}
		again, err := DecodeServer(AppendServer(nil, m))
		if err != nil || again.Type != m.Type || again.ID != m.ID || again.Host != m.Host || again.Players != m.Players ||
			again.Spectator != m.Spectator || again.From != m.From || !bytes.Equal(again.Data, m.Data) || again.Reason != m.Reason {
			t.Fatalf("%q: %+v re-encoded %+v %v", b, m, again, err)
		}
	})
}
