package netplay

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// The public constructors refuse what cannot work, each with a one-line
// error wrapping ErrInvalid, before anything is sent.
func TestConstructorsRefuse(t *testing.T) {
	net, _ := netsim.NewNet(netsim.Conditions{}, 1)
	port, _ := net.Port("me")
	tick := 20 * time.Millisecond
	for _, c := range []struct {
		name string
		make func() error
		want string
	}{
		{"host without a transport", func() error { _, err := Host(Config{InputSize: 1, Tick: tick}, &counter{}, nil, 0); return err }, "transport"},
		{"host without a tick", func() error { _, err := Host(Config{InputSize: 1}, &counter{}, port, 0); return err }, "Config.Tick"},
		{"host of too many spectators", func() error {
			_, err := Host(Config{InputSize: 1, Tick: tick, MaxSpectators: MaxSpectators + 1}, &counter{}, port, 0)
			return err
		}, "Config.MaxSpectators"},
		{"host of spectators with a game no Snapshotter", func() error {
			_, err := Host(Config{InputSize: 1, Tick: tick, MaxSpectators: 1}, &counter{}, port, 0)
			return err
		}, "Snapshotter"},
		{"joiner setting the host's players", func() error {
			_, err := Join(Config{InputSize: 1, Players: 3}, nil, port, "host", 0)
			return err
		}, "Config.Players is the host's"},
		{"joiner serving spectators", func() error {
			_, err := Join(Config{InputSize: 1, MaxSpectators: 1}, nil, port, "host", 0)
			return err
		}, "Config.MaxSpectators is the host's"},
		{"spectator setting the host's delay", func() error {
			_, err := Watch(Config{InputSize: 1, Delay: 2}, nil, port, "host", 0)
			return err
		}, "Config.Delay is the host's"},
		{"an unknown netcode", func() error {
			_, err := Join(Config{InputSize: 1, Netcode: 7}, nil, port, "host", 0)
			return err
		}, "Config.Netcode"},
		{"a sync test of no check distance", func() error { _, err := SyncTest(Config{InputSize: 1}, &counter{}); return err }, "CheckDistance"},
	} {
		err := c.make()
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line wrapping ErrInvalid, naming %s", c.name, err, c.want)
		}
	}
	s, err := Join(Config{InputSize: 1}, &counter{}, port, "host", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Play(&counter{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a second game: %v", err)
	}
}

// The host's tick length goes to every joiner in the Welcome: a joiner
// that gave none plays at the host's; one that gave another fails at
// once, saying both.
func TestTickFromTheHost(t *testing.T) {
	for _, joinTick := range []time.Duration{0, 20 * time.Millisecond, 25 * time.Millisecond} {
		pp := newPinPeers(t, 2, Config{})
		pp.s[1], _ = Join(Config{InputSize: 1, Nonce: 11, Tick: joinTick}, &counter{}, pp.ports[1], addr(0), 0)
		pp.frames(500*time.Millisecond, 0, 1)
		c := pp.s[1].Config()
		if joinTick == 25*time.Millisecond {
			var e *Error
			if !errors.As(pp.s[1].Err(), &e) || e.Reason != ErrMismatch || e.Error() != "the host's game has another tick: 20ms, this one 25ms" {
				t.Errorf("a joiner of another tick: %v", pp.s[1].Err())
			}
			continue
		}
		if pp.s[1].Err() != nil || c.Tick != 20*time.Millisecond || pp.s[1].State() != StateRunning {
			t.Errorf("a joiner of tick %v: %v, tick %v, %v", joinTick, pp.s[1].Err(), c.Tick, pp.s[1].State())
		}
	}
}

// Lockstep in a game without input delay plays rollback: it would wait a
// round trip on every tick. Config says so from the Welcome on, and the
// game rolls back.
func TestLockstepWithoutDelayPlaysRollback(t *testing.T) {
	pp := newPinPeers(t, 2, Config{Netcode: Lockstep, TickLimit: 100})
	pp.frames(200*time.Millisecond, 0, 1)
	for i, s := range pp.s {
		if c := s.Config(); c.Netcode != Rollback || c.MaxPrediction != 8 {
			t.Errorf("peer %d asked for lockstep in a game of no delay: plays %v, prediction %d", i, c.Netcode, c.MaxPrediction)
		}
	}
	pp.frames(5*time.Second, 0, 1)
	if st := pp.s[0].Stats(); pp.s[0].Err() != nil || st.Tick != 100 {
		t.Errorf("the host: %v, tick %d", pp.s[0].Err(), st.Tick)
	}
	pp = newPinPeers(t, 2, Config{Netcode: Lockstep, Delay: 2})
	pp.frames(200*time.Millisecond, 0, 1)
	if c := pp.s[1].Config(); c.Netcode != Lockstep || c.MaxPrediction != 0 || c.Delay != 2 {
		t.Errorf("lockstep with a delay: %v, prediction %d, delay %d", c.Netcode, c.MaxPrediction, c.Delay)
	}
}

// A joiner that quits in the lobby before it has its game (it refuses the
// host's settings, say) leaves at once: it is done within Linger, and the
// host frees its slot for the next.
func TestJoinerQuitsBeforeItsGame(t *testing.T) {
	pp := newPinPeers(t, 2, Config{})
	pp.s[1], _ = Join(Config{InputSize: 1, Nonce: 11}, nil, pp.ports[1], addr(0), 0)
	pp.frames(100*time.Millisecond, 0, 1)
	if pp.s[1].State() != StateLobby || pp.s[0].Stats().Joined != 2 {
		t.Fatalf("before the quit: joiner %v, host joined %d", pp.s[1].State(), pp.s[0].Stats().Joined)
	}
	pp.s[1].Quit(pp.now)
	pp.frames(time.Second, 0, 1)
	if !pp.s[1].Done() || pp.s[1].Err() != nil || pp.s[0].Stats().Joined != 1 || pp.s[0].State() != StateLobby {
		t.Errorf("after the quit: joiner done %v, err %v; host joined %d, %v", pp.s[1].Done(), pp.s[1].Err(), pp.s[0].Stats().Joined, pp.s[0].State())
	}
}

// An engine's fixed update plays the game with Update alone, a tick a
// call, over the same network: both peers end in the same state.
func TestUpdatePlaysTheGame(t *testing.T) {
	pp := newPinPeers(t, 2, Config{TickLimit: 120})
	games := []*counter{{seed: 1}, {seed: 2}}
	for i := range pp.s {
		port := pp.ports[i]
		if i == 0 {
			pp.s[0], _ = Host(Config{InputSize: 1, Tick: 20 * time.Millisecond, Players: 2, TickLimit: 120}, games[0], port, 0)
		} else {
			pp.s[1], _ = Join(Config{InputSize: 1, Nonce: 11}, games[1], port, addr(0), 0)
		}
	}
	for now := time.Duration(0); now < 10*time.Second && !(pp.s[0].Done() && pp.s[1].Done()); now += 20 * time.Millisecond {
		pp.net.SetTime(now)
		pp.s[0].Update(now)
		pp.s[1].Update(now + 7*time.Millisecond) // out of phase
	}
	if games[0].ticks != 120 || games[0].Hash() != games[1].Hash() || pp.s[0].Err() != nil || pp.s[1].Err() != nil {
		t.Errorf("host at %d (%016x), joiner at %d (%016x); errs %v, %v", games[0].ticks, games[0].Hash(), games[1].ticks, games[1].Hash(), pp.s[0].Err(), pp.s[1].Err())
	}
}
