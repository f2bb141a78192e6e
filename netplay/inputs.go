package netplay

import "fmt"

// AddLocalInput adds the local player's input for tick t, which must be
// InputTick(), and sends it in the next Poll; in holds InputSize bytes,
// which the session copies. It returns ErrWindowFull
// when the record would be more than Window ticks ahead of what every peer
// has acknowledged (the local player stalls: try again next frame), ErrOver
// after the end and for a tick at or after EndTick (after a quit, the
// inputs of the ticks before the end tick are still taken), and an error
// wrapping ErrInvalid before the start, for another tick or for an input
// of another size, and on a session a Runner plays (as Advance does).
func (s *session) AddLocalInput(t uint64, in []byte) error {
	if s.driven {
		return errDriven("AddLocalInput")
	}
	return s.addLocal(t, in)
}

// addLocal is AddLocalInput, for the Runner too.
func (s *session) addLocal(t uint64, in []byte) error {
	switch {
	case len(in) != s.inputSize:
		return fmt.Errorf("netplay: %w: AddLocalInput with %d bytes, want InputSize %d", ErrInvalid, len(in), s.inputSize)
	case s.state >= StateEnding:
		return errOver
	case s.state != StateRunning:
		return fmt.Errorf("netplay: %w: AddLocalInput before the game started", ErrInvalid)
	case t != s.have[s.index]:
		return fmt.Errorf("netplay: %w: AddLocalInput for tick %d, want tick %d", ErrInvalid, t, s.have[s.index])
	case s.pastEnd(t):
		return errOver
	}
	if t >= s.lowSelf()+inputWindow || t >= s.floor(s.index)+ringSize || t >= maxTick {
		s.windowFull++
		s.blocked = true
		return errWindowFull
	}
	r := &s.ring[s.index][t%ringSize]
	*r = record{}
	copy(r[:], in)
	s.have[s.index]++
	return nil
}

// lowSelf is the lowest tick of local input some peer still lacks.
func (s *session) lowSelf() uint64 {
	if s.role == roleJoiner {
		return max(s.low, s.peers[0].have[s.index])
	}
	return s.lowOf(0)
}

// lowOf (host) is the lowest tick of player q's input some active peer
// still lacks (the host's own have included).
func (s *session) lowOf(q int) uint64 {
	low := s.have[q]
	for j := 1; j < s.players; j++ {
		if j != q && s.active(j) {
			low = min(low, s.peers[j].have[q])
		}
	}
	return low
}

// active (host) reports whether joiner j is in the game: joined and not
// kicked.
func (s *session) active(j int) bool { return s.peers[j].used && !s.kckd[j] }

// floor is the lowest tick of player q's input the session must keep:
// the local game has not run it, or a peer still needs it from us.
func (s *session) floor(q int) uint64 {
	f := s.next
	if s.role == roleJoiner {
		if q == s.index {
			f = min(f, s.peers[0].have[q])
		}
		return f
	}
	return min(f, s.lowOf(q))
}

// known reports whether player p's record for tick t is known.
func (s *session) known(p int, t uint64) bool {
	return t < s.have[p] || (s.kckd[p] && t >= s.kick[p].from)
}

// record returns player p's input for tick t, which must be known and
// still buffered, as InputSize bytes of the session's own memory.
func (s *session) record(p int, t uint64) []byte {
	if s.kckd[p] && t >= s.kick[p].from {
		return zeroRecord[:s.inputSize]
	}
	return s.ring[p][t%ringSize][:s.inputSize]
}

// fullRecord is record's array, for the wire.
func (s *session) fullRecord(p int, t uint64) record {
	if s.kckd[p] && t >= s.kick[p].from {
		return record{}
	}
	return s.ring[p][t%ringSize]
}

// zeroRecord is the input of a kicked player, and of every player before
// the input delay's first tick.
var zeroRecord record

// Ready reports whether every player's record for tick t is known.
func (s *session) Ready(t uint64) bool {
	for p := range s.players {
		if !s.known(p, t) {
			return false
		}
	}
	return s.players > 0
}

// Input returns player p's input for tick t if it is known and still
// buffered (the last 2×Window ticks of each player are): InputSize bytes
// of the session's memory, valid until the next Receive or AddLocalInput;
// do not change them. A kicked player's inputs from its kick tick on are
// zero.
func (s *session) Input(p int, t uint64) ([]byte, bool) {
	if p < 0 || p >= s.players || !s.known(p, t) {
		return nil, false
	}
	if t < s.have[p] && s.have[p]-t > ringSize {
		return nil, false
	}
	return s.record(p, t), true
}

// LastInput returns the newest tick for which player p's input is known
// from the player itself (the last confirmed input, for prediction), and
// that input, as Input returns it. ok is false before any is known.
func (s *session) LastInput(p int) (t uint64, in []byte, ok bool) {
	if p < 0 || p >= s.players || s.have[p] == 0 {
		return 0, nil, false
	}
	t = s.have[p] - 1
	return t, s.record(p, t), true
}

// Confirmed returns the number of ticks from 0 whose records are known for
// every player: the ticks before it are confirmed (the highest confirmed
// tick is Confirmed()-1).
func (s *session) Confirmed() uint64 {
	c := uint64(maxTick)
	for p := range s.players {
		h := s.have[p]
		if s.kckd[p] && h >= s.kick[p].from {
			continue
		}
		c = min(c, h)
	}
	if s.players == 0 {
		return 0
	}
	return c
}

// Disconnected reports whether player p is out of the game at tick t
// because it was kicked (or dropped by DisconnectContinue) before it: its
// records are zero from then on, and the game should play on without it
// (what that means is the game's: a character nobody controls, say).
func (s *session) Disconnected(p int, t uint64) bool {
	return p >= 0 && p < s.players && s.kckd[p] && t >= s.kick[p].from
}

// Kicked reports whether player p was kicked, and the first tick at which
// it is Disconnected.
func (s *session) Kicked(p int) (from uint64, ok bool) {
	if p < 0 || p >= s.players || !s.kckd[p] {
		return 0, false
	}
	return s.kick[p].from, true
}
