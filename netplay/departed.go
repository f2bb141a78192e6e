package netplay

import "time"

// departed holds the last peers that said they go (a spectator's Bye, a
// joiner's quit in the lobby), by address and token, with when: a Hello
// of theirs still on the way when they go, a late copy or one their
// goodbye overtook, must not take a slot for a peer that is gone. It is
// a fixed ring: the oldest is forgotten first.
type departed struct {
	peers [2 * MaxSpectators]departure
	n     int // peers[n%len] is the next overwritten
}

type departure struct {
	addr  string
	token uint64
	at    time.Duration
}

// add notes that (addr, token) went at now; once: a copy of its goodbye
// only moves the time.
func (d *departed) add(now time.Duration, addr string, token uint64) {
	for i := range d.peers {
		if p := &d.peers[i]; p.token == token && p.addr == addr {
			p.at = now
			return
		}
	}
	d.peers[d.n%len(d.peers)] = departure{addr: addr, token: token, at: now}
	d.n++
}

// has reports whether (addr, token) went less than within before now: its
// Hellos arriving are late copies. (A Hello with the same token after
// that, from a peer given a fixed nonce that comes again from the same
// address, is a new peer's.) A token of 0, which no Hello has, is never
// held.
func (d *departed) has(now time.Duration, addr string, token uint64, within time.Duration) bool {
	for _, p := range d.peers {
		if p.token == token && token != 0 && p.addr == addr && now-p.at < within {
			return true
		}
	}
	return false
}
