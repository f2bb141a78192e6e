package netplay

import (
	"testing"
	"time"
)

// A zero Nonce is drawn at random by NewHost, NewJoiner and NewSpectator
// (never 0, another each time); a given one is kept; two sessions that
// gave none play together.
func TestNonceDrawnWhenZero(t *testing.T) {
	host, err := newHost(config{InputSize: testInputSize, Players: 2, Delay: DefaultDelay}, 0)
	if err != nil {
		t.Fatalf("NewHost without a Nonce: %v", err)
	}
	other, _ := newHost(config{InputSize: testInputSize, Players: 2, Delay: DefaultDelay}, 0)
	join, err := newJoiner(config{InputSize: testInputSize}, addr(0), 0)
	if err != nil {
		t.Fatalf("NewJoiner without a Nonce: %v", err)
	}
	sp, err := newSpectator(spectatorConfig{InputSize: testInputSize}, addr(0), 0)
	if err != nil {
		t.Fatalf("NewSpectator without a Nonce: %v", err)
	}
	ids := map[uint64]string{}
	for _, n := range []struct {
		who string
		id  uint64
	}{{"host", host.id}, {"host's config", host.cfg.Nonce}, {"other host", other.id}, {"joiner", join.cfg.Nonce}, {"spectator", sp.cfg.Nonce}} {
		if n.id == 0 {
			t.Errorf("%s: nonce 0", n.who)
		}
		if w, ok := ids[n.id]; ok && !(w == "host" && n.who == "host's config") {
			t.Errorf("%s: nonce %x, as %s", n.who, n.id, w)
		}
		ids[n.id] = n.who
	}
	if host.cfg.Nonce != host.id {
		t.Errorf("host: session ID %x, nonce %x", host.id, host.cfg.Nonce)
	}
	given, _ := newHost(config{InputSize: testInputSize, Players: 2, Nonce: 0x5eed, Delay: DefaultDelay}, 0)
	givenSp, _ := newSpectator(spectatorConfig{InputSize: testInputSize, Nonce: 0x5eed}, addr(0), 0)
	if given.id != 0x5eed || givenSp.cfg.Nonce != 0x5eed {
		t.Errorf("a given nonce: host %x, spectator %x; want 5eed", given.id, givenSp.cfg.Nonce)
	}
	for now := time.Duration(0); now < 100*ms; now += ms {
		host.Poll(now, sendFunc(func(_ string, p []byte) { join.Receive(now, addr(0), p) }))
		join.Poll(now, sendFunc(func(_ string, p []byte) { host.Receive(now, addr(1), p) }))
	}
	if host.State() != StateRunning || join.State() != StateRunning {
		t.Fatalf("drawn nonces: not running: host %v, joiner %v (%v)", host.State(), join.State(), join.Err())
	}
}
