//go:build !js

package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// Two peers in a room: the first hosts, both are welcomed, signals go
// both ways, and the host hears of the joiner's arrival and departure.
func TestTwoPeersSignal(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{})
	host := join(t, ctx, l.url+"/r1?players=2")
	if !host.IsHost() || host.Players() != 2 || host.Spectator() || host.Host() != host.ID() {
		t.Fatalf("host: id %s host %s players %d spectator %v", host.ID(), host.Host(), host.Players(), host.Spectator())
	}
	joiner := join(t, ctx, l.url+"/r1") // players defaults to 2
	if joiner.IsHost() || joiner.Host() != host.ID() || joiner.ID() == host.ID() || joiner.Players() != 2 {
		t.Fatalf("joiner: id %s host %s players %d", joiner.ID(), joiner.Host(), joiner.Players())
	}
	if e := nextEvent(t, ctx, host); e != (Event{Type: TypeJoined, ID: joiner.ID()}) {
		t.Fatalf("host's event %+v, want %s joined", e, joiner.ID())
	}

	offer := `{"sdp":"v=0 offer","kind":"offer"}`
	if err := joiner.Send(host.ID(), []byte(offer)); err != nil {
		t.Fatal(err)
	}
	if from, data := recv(t, ctx, host); from != joiner.ID() || data != offer {
		t.Fatalf("host got %s %s", from, data)
	}
	answer := `{"sdp":"v=0 answer","kind":"answer"}`
	candidate := `{"candidate":{"candidate":"candidate:1 1 udp 1 127.0.0.1 5000 typ host","sdpMid":"0"}}`
	for _, m := range []string{answer, candidate} {
		if err := host.Send(joiner.ID(), []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{answer, candidate} {
		if from, data := recv(t, ctx, joiner); from != host.ID() || data != want {
			t.Fatalf("joiner got %s %s, want %s", from, data, want)
		}
	}

	joiner.Close()
	if e := nextEvent(t, ctx, host); e != (Event{Type: TypeLeft, ID: joiner.ID()}) {
		t.Fatalf("host's event %+v, want %s left", e, joiner.ID())
	}
	if _, _, err := joiner.Recv(ctx); !errors.Is(err, ErrClosed) {
		t.Fatalf("Recv after Close: %v, want ErrClosed", err)
	}
	if err := joiner.Send(host.ID(), []byte(offer)); !errors.Is(err, ErrClosed) {
		t.Fatalf("Send after Close: %v, want ErrClosed", err)
	}
	if st := l.Stats(); st.Relayed != 3 || st.Rooms != 1 || st.Players != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// Joins the lobby refuses, each with its reason, counted and logged.
func TestJoinRefusals(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{Spectators: 1})
	join(t, ctx, l.url+"/full?players=2")
	join(t, ctx, l.url+"/full?players=2")
	join(t, ctx, l.url+"/three?players=3")
	join(t, ctx, l.url+"/full?spectate")

	for _, tc := range []struct {
		path, reason, key string
	}{
		{"/full?players=2", `lobby: room "full" is full (2 of 2 players)`, "full"},
		{"/full", `lobby: room "full" is full (2 of 2 players)`, "full"},
		{"/full?spectate", `lobby: room "full" is full (1 of 1 spectators)`, "spectators"},
		{"/three?players=2", `lobby: room "three" is for 3 players, not 2`, "players_mismatch"},
		{"/three", `lobby: room "three" is for 3 players, not 2`, "players_mismatch"},
		{"/three?spectate&players=4", `lobby: room "three" is for 3 players, not 4`, "players_mismatch"},
		{"/nobody?spectate", `lobby: room "nobody" has no host to spectate`, "no_room"},
		{"/", `lobby: bad room name "" (want 1 to 64 of A-Z a-z 0-9 _ -)`, "room_name"},
		{"/a.b", `lobby: bad room name "a.b"`, "room_name"},
		{"/a/b", `lobby: bad room name "a/b"`, "room_name"},
		{"/%41", `lobby: bad room name "%41"`, "room_name"},
		{"/" + strings.Repeat("x", 65), "lobby: bad room name", "room_name"},
		{"/r?players=1", `lobby: bad players "1" (want 2 to 8)`, "query"},
		{"/r?players=9", `lobby: bad players "9" (want 2 to 8)`, "query"},
		{"/r?players=02", `lobby: bad players "02" (want 2 to 8)`, "query"},
		{"/r?players=two", `lobby: bad players "two" (want 2 to 8)`, "query"},
		{"/r?players=2&players=2", `lobby: "players" given 2 times`, "query"},
		{"/r?spectate=no", `lobby: bad spectate "no"`, "query"},
		{"/r?colour=red", `lobby: unknown parameter "colour" (want players or spectate)`, "query"},
		{"/r?%zz", `lobby: bad query "%zz"`, "query"},
	} {
		before := l.Stats().Refused[tc.key]
		_, err := Join(ctx, l.url+tc.path)
		if got := refusedReason(t, err); !strings.HasPrefix(got, tc.reason) {
			t.Errorf("%s: %q, want %q", tc.path, got, tc.reason)
		}
		if n := l.Stats().Refused[tc.key]; n != before+1 {
			t.Errorf("%s: refused[%s] %d, want %d", tc.path, tc.key, n, before+1)
		}
	}
	if log := l.log.String(); strings.Count(log, "refused=") != 20 || !strings.Contains(log, `refused=full room=full`) {
		t.Errorf("log, want one line per refusal:\n%s", log)
	}
	// The refusals took nothing: the rooms are as they were.
	if st := l.Stats(); st.Rooms != 2 || st.Players != 3 || st.Spectators != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// Rooms, connections: the server-wide limits.
func TestServerLimits(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{Rooms: 2, Conns: 3})
	join(t, ctx, l.url+"/a")
	join(t, ctx, l.url+"/b")
	_, err := Join(ctx, l.url+"/c")
	if got := refusedReason(t, err); got != "lobby: too many rooms (2)" {
		t.Fatalf("third room: %q", got)
	}
	// The refused connection counts until the lobby has closed it.
	waitFor(t, ctx, "the refused connection to close", func() bool { return l.Stats().Conns == 2 })
	join(t, ctx, l.url+"/a") // a third connection, in a room that exists
	_, err = Join(ctx, l.url+"/b")
	if got := refusedReason(t, err); got != "lobby: too many connections (3)" {
		t.Fatalf("fourth connection: %q", got)
	}
}

// Spectators do not count towards a room's players, and the host hears
// of them.
func TestSpectators(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{})
	host := join(t, ctx, l.url+"/r?players=2")
	spec := join(t, ctx, l.url+"/r?spectate")
	if !spec.Spectator() || spec.Host() != host.ID() || spec.Players() != 2 {
		t.Fatalf("spectator: %s host %s players %d", spec.ID(), spec.Host(), spec.Players())
	}
	if e := nextEvent(t, ctx, host); e != (Event{Type: TypeJoined, ID: spec.ID(), Spectator: true}) {
		t.Fatalf("host's event %+v", e)
	}
	player := join(t, ctx, l.url+"/r?players=2")
	if e := nextEvent(t, ctx, host); e != (Event{Type: TypeJoined, ID: player.ID()}) {
		t.Fatalf("host's event %+v", e)
	}
	if err := spec.Send(host.ID(), []byte(`{"kind":"offer","sdp":"x"}`)); err != nil {
		t.Fatal(err)
	}
	if from, _ := recv(t, ctx, host); from != spec.ID() {
		t.Fatalf("from %s", from)
	}
	if st := l.Stats(); st.Players != 2 || st.Spectators != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// Messages the lobby will not relay: each gets its error and the
// connection closes, and another room goes on being served.
func TestBadMessages(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{})
	// A room that must go on.
	host := join(t, ctx, l.url+"/ok")
	joiner := join(t, ctx, l.url+"/ok")
	nextEvent(t, ctx, host)

	for i, tc := range []struct {
		msg    string
		binary bool
		reason string
		key    string
	}{
		{msg: strings.Repeat(" ", MaxMessage+1), reason: fmt.Sprintf("lobby: message too large (more than %d bytes)", MaxMessage), key: "too_large"},
		{msg: `{"type":"signal","to":"p1","data":{"x":"` + strings.Repeat("y", MaxMessage) + `"}}`, reason: "lobby: message too large", key: "too_large"},
		{msg: `{"type":"signal","to":"p1","data":{}}`, binary: true, reason: "lobby: binary message", key: "malformed"},
		{msg: `hello`, reason: "lobby: message is not one JSON object", key: "malformed"},
		{msg: `{"type":"signal","to":"p1","data":{}} {}`, reason: "lobby: message is not one JSON object", key: "malformed"},
		{msg: `{"type":"signal","to":"p1","data":{},"extra":1}`, reason: `lobby: unknown field "extra"`, key: "malformed"},
		{msg: `{"type":"signal","to":"p1","to":"p1","data":{}}`, reason: `lobby: field "to" twice`, key: "malformed"},
		{msg: `{"type":"signal","data":{}}`, reason: `lobby: message without "to"`, key: "malformed"},
		{msg: `{"type":"hello","to":"p1","data":{}}`, reason: `lobby: message type "hello" (want "signal")`, key: "malformed"},
		{msg: `{"type":"signal","to":"p 1","data":{}}`, reason: `lobby: bad recipient "p 1"`, key: "malformed"},
		{msg: `{"type":"signal","to":"p1","data":[1]}`, reason: `lobby: signal data is not a JSON object`, key: "malformed"},
		{msg: "{\"type\":\"signal\",\"to\":\"p1\",\"data\":{\"a\":\"\xff\"}}", reason: `lobby: message is not UTF-8`, key: "malformed"},
		{msg: `{"type":"signal","to":"p9","data":{}}`, reason: `lobby: no peer "p9" in room`, key: "unknown_peer"},
		{msg: `{"type":"signal","to":"host","data":{}}`, reason: `lobby: no peer "host" in room`, key: "unknown_peer"},
		{msg: `{"type":"signal","to":"p2","data":{}}`, reason: `lobby: a signal to yourself (p2)`, key: "unknown_peer"},
	} {
		room := fmt.Sprintf("%s/bad%d", l.url, i)
		join(t, ctx, room) // p1, the host
		c := dialRaw(t, ctx, room)
		if m := readRaw(t, ctx, c); m.Type != TypeWelcome || m.ID != "p2" {
			t.Fatalf("%d: %+v", i, m)
		}
		typ := websocket.MessageText
		if tc.binary {
			typ = websocket.MessageBinary
		}
		before := l.Stats().Refused[tc.key]
		if err := c.Write(ctx, typ, []byte(tc.msg)); err != nil {
			t.Fatal(err)
		}
		expectRefusal(t, ctx, c, tc.reason)
		if n := l.Stats().Refused[tc.key]; n != before+1 {
			t.Errorf("%d: refused[%s] %d, want %d", i, tc.key, n, before+1)
		}
	}

	if err := joiner.Send(host.ID(), []byte(`{"still":"here"}`)); err != nil {
		t.Fatal(err)
	}
	if from, data := recv(t, ctx, host); from != joiner.ID() || data != `{"still":"here"}` {
		t.Fatalf("got %s %s", from, data)
	}
}

// A signal to a peer that has left is dropped without an error: the
// sender may not have heard yet.
func TestSignalToDepartedPeer(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{})
	host := join(t, ctx, l.url+"/r?players=3")
	gone := join(t, ctx, l.url+"/r?players=3")
	stays := join(t, ctx, l.url+"/r?players=3")
	nextEvent(t, ctx, host)
	nextEvent(t, ctx, host)
	gone.Close()
	if e := nextEvent(t, ctx, host); e.Type != TypeLeft || e.ID != gone.ID() {
		t.Fatalf("event %+v", e)
	}
	if err := host.Send(gone.ID(), []byte(`{"late":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := host.Send(stays.ID(), []byte(`{"on":1}`)); err != nil {
		t.Fatal(err)
	}
	if from, data := recv(t, ctx, stays); from != host.ID() || data != `{"on":1}` {
		t.Fatalf("got %s %s", from, data)
	}
	if st := l.Stats(); st.Dropped != 1 || st.Relayed != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// A peer past its rate is refused with the reason; its room's host hears
// that it left.
func TestRateLimit(t *testing.T) {
	ctx := testCtx(t)
	// One message a second and three at once: ten messages sent at once
	// are refused unless seven seconds pass while they are sent.
	l := startLobby(t, Limits{Rate: 1, Burst: 3})
	host := join(t, ctx, l.url+"/r")
	joiner := join(t, ctx, l.url+"/r")
	nextEvent(t, ctx, host)
	for range 10 {
		if err := joiner.Send(host.ID(), []byte(`{}`)); err != nil {
			break // the lobby may close before the ten are out
		}
	}
	var err error
	for err == nil {
		_, _, err = joiner.Recv(ctx)
	}
	if got := refusedReason(t, err); got != "lobby: more than 1 messages a second (3 at once)" {
		t.Fatalf("refusal %q", got)
	}
	relayed := 0
	for {
		select {
		case <-host.signals:
			relayed++
			continue
		default:
		}
		break
	}
	if e := nextEvent(t, ctx, host); e.Type != TypeLeft || e.ID != joiner.ID() {
		t.Fatalf("event %+v", e)
	}
	if st := l.Stats(); st.Refused["rate"] != 1 || st.Relayed != 3 {
		t.Fatalf("stats %+v (host got %d)", st, relayed)
	}
}

// The bucket, on generated times: a burst, then the rate, and no more
// than a burst after a long gap.
func TestBucket(t *testing.T) {
	var b bucket
	const rate, burst = 10, 3 // 100 ms a token
	at := func(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }
	for i := range burst {
		if !b.take(at(1000), rate, burst) {
			t.Fatalf("burst message %d refused", i)
		}
	}
	if b.take(at(1000), rate, burst) || b.take(at(1099), rate, burst) {
		t.Fatal("a message past the burst was let through")
	}
	if !b.take(at(1100), rate, burst) || b.take(at(1150), rate, burst) || !b.take(at(1200), rate, burst) {
		t.Fatal("not one message each 100 ms")
	}
	// Over 60 s at 12 messages a second, 10 a second get through.
	n := 0
	for i := range 60 * 12 {
		if b.take(at(2000+i*1000/12), rate, burst) {
			n++
		}
	}
	if n < 600 || n > 600+burst {
		t.Fatalf("%d messages in 60 s at a rate of 10", n)
	}
	// After an hour's silence, a burst and no more.
	n = 0
	for range 10 {
		if b.take(at(3_600_000), rate, burst) {
			n++
		}
	}
	if n != burst {
		t.Fatalf("%d after a gap, want %d", n, burst)
	}
}

// When the host leaves, every other peer hears it, the room closes and
// its name is free again.
func TestHostLeaves(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{})
	host := join(t, ctx, l.url+"/r?players=3")
	a := join(t, ctx, l.url+"/r?players=3")
	b := join(t, ctx, l.url+"/r?players=3")
	spec := join(t, ctx, l.url+"/r?spectate")
	for range 3 {
		nextEvent(t, ctx, host)
	}
	host.Close()
	for _, c := range []*Client{a, b, spec} {
		if e := nextEvent(t, ctx, c); e != (Event{Type: TypeLeft, ID: host.ID()}) {
			t.Fatalf("%s: event %+v", c.ID(), e)
		}
		if _, _, err := c.Recv(ctx); !errors.Is(err, ErrHostLeft) {
			t.Fatalf("%s: Recv %v, want ErrHostLeft", c.ID(), err)
		}
		if _, ok := <-c.Events(); ok {
			t.Fatalf("%s: events still open", c.ID())
		}
	}
	if st := l.Stats(); st.Rooms != 0 || st.Players != 0 || st.Spectators != 0 {
		t.Fatalf("stats %+v", st)
	}
	again := join(t, ctx, l.url+"/r?players=4")
	if !again.IsHost() || again.Players() != 4 {
		t.Fatal("the room's name is not free again")
	}
}

// A peer that answers no ping is dropped within Idle, and its host
// hears it left.
func TestDeadPeerDropped(t *testing.T) {
	ctx := testCtx(t)
	// Pings every 333 ms, each answered within 667 ms: loose enough for a
	// loaded machine's scheduler, tight enough for a short test.
	l := startLobby(t, Limits{Idle: time.Second})
	host := join(t, ctx, l.url+"/r")
	dead := dialRaw(t, ctx, l.url+"/r")
	m := readRaw(t, ctx, dead) // and read nothing more: pings go unanswered
	start := time.Now()
	if e := nextEvent(t, ctx, host); e.Type != TypeJoined {
		t.Fatalf("event %+v", e)
	}
	if e := nextEvent(t, ctx, host); e != (Event{Type: TypeLeft, ID: m.ID}) {
		t.Fatalf("event %+v", e)
	}
	t.Logf("dropped %v after its welcome (Idle 1s)", time.Since(start).Round(time.Millisecond))
	if n := l.Stats().Refused["idle"]; n != 1 {
		t.Fatalf("refused[idle] %d", n)
	}
	// The host, whose client answers pings, is still there two Idles on:
	// it hears of a newcomer.
	waitFor(t, ctx, "six pings", func() bool { return time.Since(start) > 2*time.Second })
	c := join(t, ctx, l.url+"/r")
	if e := nextEvent(t, ctx, host); e != (Event{Type: TypeJoined, ID: c.ID()}) {
		t.Fatalf("event %+v", e)
	}
}

// A peer that does not read its messages is dropped when its queue
// fills, and the sender carries on.
func TestSlowPeerDropped(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{Queue: 4, Rate: 10_000, Burst: 10_000})
	host := join(t, ctx, l.url+"/r")
	slow := dialRaw(t, ctx, l.url+"/r")
	m := readRaw(t, ctx, slow) // then nothing: the socket's buffers fill, then the queue
	nextEvent(t, ctx, host)
	data := []byte(`{"x":"` + strings.Repeat("y", MaxData-8) + `"}`)
	for i := 0; ; i++ {
		if err := host.Send(m.ID, data); err != nil {
			t.Fatal(err)
		}
		select {
		case e := <-host.Events():
			if e != (Event{Type: TypeLeft, ID: m.ID}) {
				t.Fatalf("event %+v", e)
			}
			t.Logf("dropped after %d signals of %d bytes", i+1, len(data))
			if n := l.Stats().Refused["slow"]; n != 1 {
				t.Fatalf("refused[slow] %d", n)
			}
			return
		default:
		}
		if i > 10_000 {
			t.Fatal("160 MB sent and the slow peer still there")
		}
	}
}

// /health answers the counters as JSON.
func TestHealth(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{})
	host := join(t, ctx, l.url+"/r")
	joiner := join(t, ctx, l.url+"/r")
	if _, err := Join(ctx, l.url+"/r"); err == nil {
		t.Fatal("a third peer in a room of two")
	}
	if err := joiner.Send(host.ID(), []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	recv(t, ctx, host)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, l.http.URL+"/health", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st Stats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("%s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	if st.Rooms != 1 || st.Players != 2 || st.Relayed != 1 || st.Refused["full"] != 1 || len(st.Refused) != int(numRefusals) {
		t.Fatalf("health %+v", st)
	}
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, l.http.URL+"/health", nil)
	resp2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST /health: %s", resp2.Status)
	}
}

// Close ends every connection and every goroutine of the lobby; the
// clients hear that their connection ended.
func TestCloseEndsGoroutines(t *testing.T) {
	ctx := testCtx(t)
	before := runtime.NumGoroutine()
	l := startLobby(t, Limits{})
	var clients []*Client
	for i := range 10 {
		for range 2 {
			clients = append(clients, join(t, ctx, fmt.Sprintf("%s/r%d", l.url, i)))
		}
		clients = append(clients, join(t, ctx, fmt.Sprintf("%s/r%d?spectate", l.url, i)))
	}
	// Two goroutines a peer in the lobby, one a client (its reader): the
	// lobby's may still be starting for the last peers.
	if n := runtime.NumGoroutine(); n < before+len(clients)*2 {
		t.Fatalf("%d goroutines for %d peers, before %d", n, len(clients), before)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range clients {
		var err error
		for err == nil {
			_, _, err = c.Recv(ctx)
		}
		if errors.Is(err, ErrClosed) || errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s: %v", c.ID(), err)
		}
	}
	if _, err := Join(ctx, l.url+"/new"); err == nil {
		t.Fatal("joined a closed lobby")
	}
	l.http.Close()
	waitGoroutines(t, ctx, before)
}

// Shutdown tells every peer the lobby is going away, and waits.
func TestShutdown(t *testing.T) {
	ctx := testCtx(t)
	before := runtime.NumGoroutine()
	l := startLobby(t, Limits{})
	a := join(t, ctx, l.url+"/r")
	b := join(t, ctx, l.url+"/r")
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := l.Shutdown(sctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*Client{a, b} {
		if _, _, err := c.Recv(ctx); err == nil || err.Error() != "lobby: shutting down" {
			t.Fatalf("%s: %v", c.ID(), err)
		}
	}
	l.http.Close()
	waitGoroutines(t, ctx, before)
}

// Shutdown with a peer that will not say goodbye: at its deadline it
// closes what is left.
func TestShutdownDeadline(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{})
	join(t, ctx, l.url+"/r")
	mute := dialRaw(t, ctx, l.url+"/r")
	readRaw(t, ctx, mute) // and no more: it never answers the close
	sctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := l.Shutdown(sctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Shutdown took %v", d)
	}
	if st := l.Stats(); st.Conns != 0 || st.Rooms != 0 {
		t.Fatalf("stats %+v", st)
	}
}

// 200 malformed messages and 1,000 joins to full rooms: the lobby still
// serves a new room afterwards, and holds no more than before.
func TestHostileLoad(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{})
	const rooms = 10
	for i := range rooms {
		join(t, ctx, fmt.Sprintf("%s/full%d", l.url, i))
		join(t, ctx, fmt.Sprintf("%s/full%d", l.url, i))
	}
	waitFor(t, ctx, "the rooms' connections", func() bool { return l.Stats().Conns == 2*rooms })
	before := runtime.NumGoroutine()
	start := time.Now()

	const workers = 8
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	work := func(n int, do func(i int) error) {
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < n; i += workers {
					if err := do(i); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
	}
	work(200, func(i int) error {
		c, _, err := websocket.Dial(ctx, fmt.Sprintf("%s/bad%d", l.url, i), nil)
		if err != nil {
			return err
		}
		defer c.CloseNow()
		if _, _, err := c.Read(ctx); err != nil {
			return err
		}
		if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"signal","to":`)); err != nil {
			return err
		}
		_, b, err := c.Read(ctx)
		if err != nil || !strings.Contains(string(b), "not one JSON object") {
			return fmt.Errorf("malformed %d: %s %v", i, b, err)
		}
		return nil
	})
	work(1000, func(i int) error {
		_, err := Join(ctx, fmt.Sprintf("%s/full%d", l.url, i%rooms))
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "is full") {
			return fmt.Errorf("join %d: %v", i, err)
		}
		return nil
	})
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	t.Logf("200 malformed and 1,000 refused joins in %v", time.Since(start).Round(time.Millisecond))

	waitFor(t, ctx, "the refused connections to end", func() bool { return l.Stats().Conns == 2*rooms })
	st := l.Stats()
	if st.Rooms != rooms || st.Players != 2*rooms || st.Refused["malformed"] != 200 || st.Refused["full"] != 1000 {
		t.Fatalf("stats %+v", st)
	}
	host := join(t, ctx, l.url+"/after")
	joiner := join(t, ctx, l.url+"/after")
	if err := joiner.Send(host.ID(), []byte(`{"after":true}`)); err != nil {
		t.Fatal(err)
	}
	if from, _ := recv(t, ctx, host); from != joiner.ID() {
		t.Fatalf("from %s", from)
	}
	host.Close()
	joiner.Close()
	// Each peer is two goroutines of the lobby and one of its client.
	waitGoroutines(t, ctx, before)
}

// Signals stay in their room: IDs are the room's, and an ID of another
// room is no one here.
func TestRoomsApart(t *testing.T) {
	ctx := testCtx(t)
	l := startLobby(t, Limits{})
	aHost := join(t, ctx, l.url+"/a")
	aJoiner := join(t, ctx, l.url+"/a")
	bHost := join(t, ctx, l.url+"/b?players=3")
	join(t, ctx, l.url+"/b?players=3")
	bThird := join(t, ctx, l.url+"/b?players=3")
	if aHost.ID() != bHost.ID() || bThird.ID() != "p3" {
		t.Fatalf("IDs %s %s %s: want each room's own p1, p2...", aHost.ID(), bHost.ID(), bThird.ID())
	}
	if err := aJoiner.Send(aHost.ID(), []byte(`{"room":"a"}`)); err != nil {
		t.Fatal(err)
	}
	if _, data := recv(t, ctx, aHost); data != `{"room":"a"}` {
		t.Fatalf("a's host got %s", data)
	}
	if err := aJoiner.Send("p3", []byte(`{"room":"b?"}`)); err != nil {
		t.Fatal(err)
	}
	_, _, err := aJoiner.Recv(ctx)
	if got := refusedReason(t, err); got != `lobby: no peer "p3" in room "a"` {
		t.Fatalf("refusal %q", got)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if from, data, err := bThird.Recv(short); err == nil {
		t.Fatalf("b's p3 got %s from %s", data, from)
	}
	if st := l.Stats(); st.Relayed != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestLimitsValidate(t *testing.T) {
	if err := (Limits{}).Validate(); err != nil {
		t.Fatal(err)
	}
	if err := DefaultLimits().Validate(); err != nil {
		t.Fatal(err)
	}
	if (Limits{}).withDefaults() != DefaultLimits() {
		t.Fatal("a zero Limits is not the defaults")
	}
	for _, tc := range []struct {
		l    Limits
		want string
	}{
		{Limits{Rooms: -1}, "lobby: Limits.Rooms is -1: want 1 to 1000000 (0 for the default)"},
		{Limits{MessageSize: MaxMessage + 1}, "lobby: Limits.MessageSize is 16897: want 256 to 16896 (0 for the default)"},
		{Limits{Idle: time.Millisecond}, "lobby: Limits.Idle is 1ms: want 30ms to 24h0m0s (0 for the default)"},
		{Limits{Rate: 1, Burst: -3}, "lobby: Limits.Burst is -3"},
	} {
		err := tc.l.Validate()
		var le *LimitError
		if !errors.As(err, &le) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %s", tc.l, err, tc.want)
		}
		if _, err := NewServer(Config{Limits: tc.l}); err == nil {
			t.Errorf("%+v: NewServer took it", tc.l)
		}
	}
}
