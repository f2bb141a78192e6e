package netplay

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

func TestConfigInvalid(t *testing.T) {
	for _, c := range []config{
		{Nonce: 1},
		{Nonce: 1, InputSize: MaxInputSize + 1},
		{Nonce: 1, InputSize: 1, Players: 1},
		{Nonce: 1, InputSize: 1, Players: MaxPlayers + 1},
		{Nonce: 1, InputSize: 1, Delay: MaxDelay + 1},
		{Nonce: 1, InputSize: 1, Delay: -1},
		{Nonce: 1, InputSize: 1, TickLimit: maxTick + 1},
		{Nonce: 1, InputSize: 1, KickAfter: -1},
		{Nonce: 1, InputSize: 1, Silence: -1},
		{Nonce: 1, InputSize: 1, Resend: -time.Second},
		{Nonce: 1, InputSize: 1, Settings: make([]byte, MaxSettingsSize+1)},
		{Nonce: 1, InputSize: 1, MaxSettings: -1},
	} {
		if _, err := newHost(c, 0); !errors.Is(err, ErrInvalid) {
			t.Errorf("NewHost(%+v): %v, want ErrInvalid", c, err)
		}
	}
	for _, a := range []string{""} {
		if _, err := newJoiner(config{InputSize: testInputSize, Nonce: 1}, a, 0); !errors.Is(err, ErrInvalid) {
			t.Errorf("NewJoiner(%v): %v, want ErrInvalid", a, err)
		}
	}
	if _, err := newJoiner(config{Nonce: 1}, addr(0), 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewJoiner without an input size: %v", err)
	}
	s, err := newHost(config{InputSize: testInputSize, Nonce: 1}, 0)
	if err != nil || s.Players() != 2 || s.Delay() != 0 {
		t.Errorf("defaults: %v, %d players, delay %d; want 2 players, no input delay", err, s.Players(), s.Delay())
	}
	s, err = newHost(config{InputSize: testInputSize, Nonce: 1, Delay: DefaultDelay}, 0)
	if err != nil || s.Delay() != DefaultDelay {
		t.Errorf("Delay: DefaultDelay: %v, delay %d", err, s.Delay())
	}
}

// running returns a started two-player game whose packets the test
// carries by hand (or drops).
func running(t *testing.T) (host, join *session, carry func(now time.Duration, drop bool)) {
	t.Helper()
	host, _ = newHost(config{InputSize: testInputSize, Nonce: 1, Players: 2, Delay: DefaultDelay}, 0)
	join, _ = newJoiner(config{InputSize: testInputSize, Nonce: 2}, addr(0), 0)
	carry = func(now time.Duration, drop bool) {
		host.Poll(now, sendFunc(func(_ string, p []byte) {
			if !drop {
				join.Receive(now, addr(0), p)
			}
		}))

		join.Poll(now, sendFunc(func(_ string, p []byte) {
			if !drop {
				host.Receive(now, addr(1), p)
			}
		}))

	}
	for now := time.Duration(0); now < 100*ms; now += ms {
		carry(now, false)
	}
	if host.State() != StateRunning || join.State() != StateRunning {
		t.Fatalf("not running: %v %v", host.State(), join.State())
	}
	return host, join, carry
}

func TestAddLocalInputErrors(t *testing.T) {
	host, _ := newHost(config{InputSize: testInputSize, Nonce: 1, Delay: DefaultDelay}, 0)
	zero := make([]byte, testInputSize)
	if err := host.AddLocalInput(2, zero); !errors.Is(err, ErrInvalid) {
		t.Errorf("before the start: %v", err)
	}
	host, join, carry := running(t)
	if err := join.AddLocalInput(5, zero); !errors.Is(err, ErrInvalid) {
		t.Errorf("wrong tick: %v", err)
	}
	if err := join.AddLocalInput(join.InputTick(), make([]byte, testInputSize+1)); !errors.Is(err, ErrInvalid) {
		t.Errorf("wrong size: %v", err)
	}
	// With nothing acknowledged, Window records go, the next stalls.
	for i := range inputWindow {
		if err := join.AddLocalInput(join.InputTick(), []byte{byte(i), 0, 0}); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	if err := join.AddLocalInput(join.InputTick(), zero); err != errWindowFull {
		t.Fatalf("past the window: %v", err)
	}
	if join.Stats().WindowFull != 1 {
		t.Errorf("WindowFull %d", join.Stats().WindowFull)
	}
	// Once the host has them and says so, the window moves on.
	carry(200*ms, false)
	carry(201*ms, false)
	if got := host.Confirmed(); got != 2 {
		t.Errorf("host: confirmed %d, want 2 (its own input is missing)", got)
	}
	if tk, rec, ok := host.LastInput(1); !ok || tk != 2+inputWindow-1 || rec[0] != inputWindow-1 {
		t.Errorf("host: last input of player 1: %d %v %v", tk, rec, ok)
	}
	if rec, ok := host.Input(1, 10); !ok || rec[0] != 8 {
		t.Errorf("host: input of player 1 at tick 10: %v %v", rec, ok)
	}
	if _, ok := host.Input(0, 10); ok {
		t.Error("host: its own input at tick 10 is not known yet")
	}
	if err := join.AddLocalInput(join.InputTick(), zero); err != nil {
		t.Errorf("after the acknowledgement: %v", err)
	}
	// A quit ends the game at the first tick without the local input:
	// no input is taken for it.
	quitAt := join.InputTick()
	join.Quit(300 * ms)
	if end, ok := join.EndTick(); !ok || end != quitAt {
		t.Errorf("after the quit: end tick %d %v, want %d", end, ok, quitAt)
	}
	if err := join.AddLocalInput(join.InputTick(), zero); err != errOver {
		t.Errorf("after the quit: %v", err)
	}
	if join.NeedInput() {
		t.Error("after the quit: input needed")
	}
}

func TestNextAndAdvance(t *testing.T) {
	host, join, carry := running(t)
	recs := make([][]byte, 0, MaxPlayers)
	zero := make([]byte, testInputSize)
	// Ticks 0 and 1 are before the delay: zero for everyone, known.
	for tk := range uint64(2) {
		for _, s := range []*session{host, join} {
			r, ok := s.Next(ms, recs)
			if !ok || len(r) != 2 || !bytes.Equal(r[0], zero) || !bytes.Equal(r[1], zero) {
				t.Fatalf("tick %d: %v %v", tk, r, ok)
			}
			if err := s.Advance(nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Tick 2 needs both players' records.
	if _, ok := host.Next(100*ms, recs); ok {
		t.Fatal("tick 2 ready without records")
	}
	if err := host.Advance(nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("Advance of a tick not ready: %v", err)
	}
	a, b := []byte{1, 1, 0}, []byte{2, 2, 0}
	if err := host.AddLocalInput(2, a); err != nil {
		t.Fatal(err)
	}
	if _, ok := host.Next(130*ms, recs); ok {
		t.Fatal("tick 2 ready without the joiner's record")
	}
	if err := join.AddLocalInput(2, b); err != nil {
		t.Fatal(err)
	}
	carry(150*ms, false)
	r, ok := host.Next(160*ms, recs)
	if !ok || !bytes.Equal(r[0], a) || !bytes.Equal(r[1], b) {
		t.Fatalf("tick 2: %v %v", r, ok)
	}
	st := host.Stats()
	// Waited from 100 to 160 ms: 30 ms with both missing, 30 with only
	// the joiner's.
	if st.StallFrames != 2 || st.StallTime != 60*ms || st.Peers[1].Waited != 30*ms || st.Peers[0].Waited != 0 {
		t.Errorf("stall accounting: %d frames, %v, waited for 1: %v, for 0: %v", st.StallFrames, st.StallTime, st.Peers[1].Waited, st.Peers[0].Waited)
	}
}

func TestLobbyQuitFreesSlot(t *testing.T) {
	host, _ := newHost(config{InputSize: testInputSize, Nonce: 1, Players: 3, Delay: DefaultDelay}, 0)
	a, _ := newJoiner(config{InputSize: testInputSize, Nonce: 2}, addr(0), 0)
	b, _ := newJoiner(config{InputSize: testInputSize, Nonce: 3}, addr(0), 0)
	carry := func(now time.Duration, j *session, from string) {
		host.Poll(now, sendFunc(func(to string, p []byte) {
			if to == from {
				j.Receive(now, addr(0), p)
			}
		}))

		j.Poll(now, sendFunc(func(_ string, p []byte) { host.Receive(now, from, p) }))
	}
	for now := time.Duration(0); now < 5*ms; now += ms {
		carry(now, a, addr(1))
	}
	if a.State() != StateLobby || a.Index() != 1 || host.Stats().Joined != 2 {
		t.Fatalf("a: %v, index %d, joined %d", a.State(), a.Index(), host.Stats().Joined)
	}
	a.Quit(5 * ms)
	carry(6*ms, a, addr(1))
	if !a.Done() || a.Err() != nil || host.Stats().Joined != 1 || host.State() != StateLobby {
		t.Fatalf("after a quit in the lobby: a %v %v, host joined %d, %v", a.State(), a.Err(), host.Stats().Joined, host.State())
	}
	for now := 7 * ms; now < 20*ms; now += ms {
		carry(now, b, addr(2))
	}
	if b.State() != StateLobby || b.Index() != 1 || host.Stats().Joined != 2 {
		t.Errorf("b: %v, index %d; joined %d", b.State(), b.Index(), host.Stats().Joined)
	}
}

// A late copy of the Hello of a joiner that quit in the lobby takes no
// slot: the next joiners get the slots at once, and the game starts
// without waiting for one gone (before, the copy took the slot, the host
// sent Welcomes to a joiner gone and held the slot for it until
// JoinTimeout). After Silence the same address and nonce are a new
// joiner's.
func TestLobbyLateHelloTakesNoSlot(t *testing.T) {
	host, _ := newHost(config{InputSize: testInputSize, Nonce: 1, Players: 3, Delay: DefaultDelay}, 0)
	hello := quitInLobby(t, host, addr(1), 2)
	host.Receive(4*ms, addr(1), hello) // late
	if j := host.Stats().Joined; j != 1 {
		t.Errorf("a late Hello of a joiner that quit: joined %d, want 1", j)
	}
	b, _ := newJoiner(config{InputSize: testInputSize, Nonce: 3}, addr(0), 5*ms)
	c, _ := newJoiner(config{InputSize: testInputSize, Nonce: 4}, addr(0), 5*ms)
	joiners := map[string]*session{addr(2): b, addr(3): c}
	for now := 5 * ms; now < 30*ms; now += ms {
		host.Poll(now, sendFunc(func(to string, p []byte) {
			if j := joiners[to]; j != nil {
				j.Receive(now, addr(0), p)
			}
		}))
		for from, j := range joiners {
			j.Poll(now, sendFunc(func(_ string, p []byte) { host.Receive(now, from, p) }))
		}
	}
	if b.Err() != nil || c.Err() != nil || b.Index()+c.Index() != 3 || host.State() != StateRunning {
		t.Errorf("b: %v, index %d; c: %v, index %d; host %v", b.Err(), b.Index(), c.Err(), c.Index(), host.State())
	}

	host, _ = newHost(config{InputSize: testInputSize, Nonce: 1, Players: 2, Delay: DefaultDelay}, 0)
	hello = quitInLobby(t, host, addr(1), 2)
	host.Receive(defaultSilence+3*ms, addr(1), hello)
	if j := host.Stats().Joined; j != 2 {
		t.Errorf("the Hello again, Silence after the quit: joined %d, want 2", j)
	}
}

// quitInLobby has a joiner of the nonce join host's lobby from the
// address, from 0 to 2 ms, and quit at 3 ms. It returns its first Hello.
func quitInLobby(t *testing.T, host *session, from string, nonce uint64) []byte {
	t.Helper()
	a, _ := newJoiner(config{InputSize: testInputSize, Nonce: nonce}, addr(0), 0)
	var hello []byte
	a.Poll(0, sendFunc(func(_ string, p []byte) { hello = append([]byte(nil), p...) }))
	host.Receive(0, from, hello)
	host.Poll(ms, sendFunc(func(to string, p []byte) { a.Receive(ms, addr(0), p) }))
	a.Poll(2*ms, sendFunc(func(_ string, p []byte) { host.Receive(2*ms, from, p) }))
	if a.State() != StateLobby || a.Index() != 1 || host.Stats().Joined != 2 {
		t.Fatalf("a: %v, index %d, joined %d", a.State(), a.Index(), host.Stats().Joined)
	}
	a.Quit(3 * ms)
	a.Poll(3*ms, sendFunc(func(_ string, p []byte) { host.Receive(3*ms, from, p) }))
	if !a.Done() || host.Stats().Joined != 1 {
		t.Fatalf("after the quit: a %v, host joined %d", a.State(), host.Stats().Joined)
	}
	return hello
}

func TestHostQuitInLobby(t *testing.T) {
	host, _ := newHost(config{InputSize: testInputSize, Nonce: 1, Players: 3, Delay: DefaultDelay}, 0)
	a, _ := newJoiner(config{InputSize: testInputSize, Nonce: 2}, addr(0), 0)
	step := func(now time.Duration) {
		host.Poll(now, sendFunc(func(_ string, p []byte) { a.Receive(now, addr(0), p) }))
		a.Poll(now, sendFunc(func(_ string, p []byte) { host.Receive(now, addr(1), p) }))
	}
	for now := time.Duration(0); now < 10*ms; now += ms {
		step(now)
	}
	if a.State() != StateLobby || a.Stats().Joined != 2 {
		t.Fatalf("a: %v, joined %d", a.State(), a.Stats().Joined)
	}
	host.Quit(10 * ms)
	for now := 11 * ms; now < 20*ms; now += ms {
		step(now)
	}
	if !host.Done() || !a.Done() || a.Err() != nil || a.Stats().End != "player 0 quit" {
		t.Errorf("host %v, a %v %v %q", host.State(), a.State(), a.Err(), a.Stats().End)
	}
}

func TestJoinTimeout(t *testing.T) {
	j, _ := newJoiner(config{InputSize: testInputSize, Nonce: 2, JoinTimeout: time.Second}, addr(0), 0)
	hellos := 0
	for now := time.Duration(0); !j.Done(); now += 10 * ms {
		j.Poll(now, sendFunc(func(to string, p []byte) {
			if to != addr(0) || len(p) != helloSize {
				t.Fatalf("sent %d bytes to %v", len(p), to)
			}
			hellos++
		}))

		if now > 2*time.Second {
			t.Fatal("no timeout")
		}
	}
	want := "no answer from host 10.0.0.1:7000 in 1s (not running, or unreachable)"
	if j.Err() == nil || j.Err().Error() != want || hellos != 4 {
		t.Errorf("%v after %d Hellos; want %q after 4", j.Err(), hellos, want)
	}
}

func TestNoDelay(t *testing.T) {
	h := newHarness(t, netsim.Conditions{Delay: 10 * ms}, 4)
	h.game(config{TickLimit: 100}, 3)
	h.run(30 * time.Second)
	for _, p := range h.peers {
		if p.s.Err() != nil || p.s.NextTick() != 100 || p.s.Delay() != 0 {
			t.Errorf("%s: %v after %d ticks, delay %d", p.name, p.s.Err(), p.s.NextTick(), p.s.Delay())
		}
	}
	h.checkHistories(100)
}

func TestLastJoinerKickedHostGoesOn(t *testing.T) {
	h := newHarness(t, netsim.Conditions{Delay: 10 * ms}, 4)
	h.game(config{TickLimit: 200, KickAfter: 5 * time.Second, Delay: DefaultDelay}, 2)
	h.runUntil(10*time.Second, func() bool { return h.peers[1].s.NextTick() >= 50 })
	h.peers[1].dead = true
	h.run(30 * time.Second)
	host := h.peers[0].s
	if host.Err() != nil || host.NextTick() != 200 || host.Stats().Kicks != 1 {
		t.Errorf("host: %v after %d ticks, %d kicks", host.Err(), host.NextTick(), host.Stats().Kicks)
	}
	h.checkHistories(200)
}

func TestStatsJSON(t *testing.T) {
	host, _, _ := running(t)
	b, err := json.Marshal(host.Stats())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"index":0`, `"state":"running"`, `"players":2`, `"input_delay":2`, `"rtt_ns":`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %s", b, want)
		}
	}
}

// A joiner learns the host's settings from its Welcome; a joiner whose
// game has another input size, or that accepts fewer bytes of settings
// than the host sends, fails to join with an error that says so, holding
// nothing of them.
func TestJoinTakesTheHostsSettings(t *testing.T) {
	settings := make([]byte, MaxSettingsSize)
	for i := range settings {
		settings[i] = byte(i * 7)
	}
	join := func(cfg config) *session {
		t.Helper()
		host, err := newHost(config{InputSize: testInputSize, Nonce: 1, Players: 2, Settings: settings, Delay: DefaultDelay}, 0)
		if err != nil {
			t.Fatal(err)
		}
		settings[0]++ // the host keeps its own copy
		defer func() { settings[0]-- }()
		cfg.Nonce = 2
		j, err := newJoiner(cfg, addr(0), 0)
		if err != nil {
			t.Fatal(err)
		}
		for now := time.Duration(0); now < 100*ms && j.State() < StateLobby && j.Err() == nil; now += ms {
			j.Poll(now, sendFunc(func(_ string, p []byte) { host.Receive(now, addr(1), p) }))
			host.Poll(now, sendFunc(func(_ string, p []byte) { j.Receive(now, addr(0), p) }))
		}
		return j
	}
	j := join(config{InputSize: testInputSize})
	if j.Err() != nil || j.State() < StateLobby || !bytes.Equal(j.Settings(), settings) || j.InputSize() != testInputSize {
		t.Fatalf("joiner: %v, %v, %d bytes of settings", j.Err(), j.State(), len(j.Settings()))
	}
	j = join(config{InputSize: testInputSize + 1})
	var mismatch *Error
	if !errors.As(j.Err(), &mismatch) || mismatch.Reason != ErrMismatch || mismatch.Remote != testInputSize || mismatch.Local != testInputSize+1 || j.State() != StateEnded {
		t.Errorf("another input size: %v, %v", j.Err(), j.State())
	}
	j = join(config{InputSize: testInputSize, MaxSettings: MaxSettingsSize - 1})
	var tooLarge *Error
	if !errors.As(j.Err(), &tooLarge) || tooLarge.Reason != ErrTooLarge || tooLarge.Size != MaxSettingsSize || j.Settings() != nil || j.State() != StateEnded {
		t.Errorf("settings over the bound: %v, %v, %d bytes held", j.Err(), j.State(), len(j.Settings()))
	}
}

// TestJoinerAnswersWelcomeWhenReady: a joiner sets up its game after the
// Welcome (a window, a renderer: seconds on a slow machine) before it
// answers, longer than Silence. The host keeps the slot and does not start
// the game meanwhile; the joiner does not take the host's silence, which
// only its answer ends, for a departure; the game starts on both sides
// when the joiner answers, not when the Welcome arrived. A joiner that
// never answers loses its slot after JoinTimeout.
func TestJoinerAnswersWelcomeWhenReady(t *testing.T) {
	host, _ := newHost(config{InputSize: testInputSize, Nonce: 1, Players: 2, Delay: DefaultDelay}, 0)
	j, _ := newJoiner(config{InputSize: testInputSize, Nonce: 2}, addr(0), 0)
	var queued [][]byte // what reaches the joiner's socket while it sets up
	toJoiner := func(_ string, p []byte) { queued = append(queued, bytes.Clone(p)) }
	deliver := func(now time.Duration) {
		for _, p := range queued {
			j.Receive(now, addr(0), p)
		}
		queued = nil
	}
	j.Poll(0, sendFunc(func(_ string, p []byte) { host.Receive(0, addr(1), p) })) // Hello
	host.Poll(ms, sendFunc(toJoiner))                                             // Welcome
	deliver(ms)
	if j.State() != StateLobby {
		t.Fatalf("joiner %v after the Welcome", j.State())
	}
	setup := 3 * time.Second // > DefaultSilence, < DefaultJoinTimeout
	for now := 2 * ms; now < setup; now += 10 * ms {
		host.Poll(now, sendFunc(toJoiner))
	}
	if host.State() != StateLobby || host.Stats().Joined != 2 {
		t.Fatalf("while the joiner set up: host %v, %d joined", host.State(), host.Stats().Joined)
	}
	deliver(setup) // the joiner's loop runs: it reads, then answers
	j.Poll(setup, sendFunc(func(_ string, p []byte) { host.Receive(setup, addr(1), p) }))
	if j.Err() != nil || j.State() != StateLobby {
		t.Fatalf("joiner %v, %v at its first Poll after %v of set-up", j.State(), j.Err(), setup)
	}
	host.Poll(setup+ms, sendFunc(toJoiner))
	deliver(setup + 2*ms)
	if host.State() != StateRunning || j.State() != StateRunning {
		t.Fatalf("host %v, joiner %v after the answer", host.State(), j.State())
	}
	if host.StartedAt() != setup+ms || j.StartedAt() != setup+2*ms {
		t.Errorf("started at %v (host), %v (joiner); want %v, %v", host.StartedAt(), j.StartedAt(), setup+ms, setup+2*ms)
	}

	// A joiner that never answers is dropped after JoinTimeout.
	host, _ = newHost(config{InputSize: testInputSize, Nonce: 1, Players: 2, JoinTimeout: 5 * time.Second, Delay: DefaultDelay}, 0)
	j, _ = newJoiner(config{InputSize: testInputSize, Nonce: 2}, addr(0), 0)
	j.Poll(0, sendFunc(func(_ string, p []byte) { host.Receive(0, addr(1), p) }))
	for now := ms; now < 5*time.Second+20*ms; now += 10 * ms {
		host.Poll(now, sendFunc(func(string, []byte) {}))
		if joined := host.Stats().Joined; (now < 5*time.Second && joined != 2) || (now >= 5*time.Second+ms && joined != 1) {
			t.Fatalf("at %v: %d joined", now, joined)
		}
	}
}

// A joiner given a setting that is the host's, or a host given the
// joiner's, is refused with one line naming the field: nothing is
// silently ignored.
func TestConfigOfTheOtherRole(t *testing.T) {
	for name, c := range map[string]config{
		"Players": {Players: 3}, "Settings": {Settings: []byte{}}, "Delay": {Delay: 2},
		"TickLimit": {TickLimit: 9}, "KickAfter": {KickAfter: time.Second},
		"PlayOn": {Disconnect: disconnectContinue}, "DesyncEvery": {DesyncEvery: noDesyncCheck},
	} {
		c.InputSize = 1
		_, err := newJoiner(c, "host", 0)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "Config."+name+" is the host's") || strings.Contains(err.Error(), "\n") {
			t.Errorf("NewJoiner with %s set: %v", name, err)
		}
		if _, err := newHost(c, 0); err != nil {
			t.Errorf("NewHost with %s set: %v", name, err)
		}
	}
	_, err := newHost(config{InputSize: 1, MaxSettings: 10}, 0)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "Config.MaxSettings is a joiner's") {
		t.Errorf("NewHost with MaxSettings: %v", err)
	}
	if _, err := newJoiner(config{InputSize: 1, MaxSettings: 10}, "host", 0); err != nil {
		t.Errorf("NewJoiner with MaxSettings: %v", err)
	}
}
