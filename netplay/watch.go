package netplay

import (
	"fmt"
	"time"
)

// A Spectator watches a game hosted at an address (Watch): it receives a
// snapshot of the game, then every confirmed tick's inputs, and plays
// them on its Game, which must be a Snapshotter. The players never wait
// for it. Call Frame once a frame until Done.
type Spectator struct {
	t   Transport
	sp  *spectator
	w   *watcher // nil until the game is given
	cfg Config
}

// Watch starts watching the game hosted at host (an address of t's) at
// now. The host must serve spectators (Config.MaxSpectators). g may be
// nil when the game is made from the host's settings: give it with Play
// once Config() has them (State is then StateLobby or later).
func Watch(c Config, g Game, t Transport, host string, now time.Duration) (*Spectator, error) {
	if t == nil {
		return nil, fmt.Errorf("netplay: %w: Watch needs a transport", ErrInvalid)
	}
	sc, err := c.spectator()
	if err != nil {
		return nil, err
	}
	sp, err := newSpectator(sc, host, now)
	if err != nil {
		return nil, err
	}
	s := &Spectator{t: t, sp: sp, cfg: c}
	if g != nil {
		if err := s.Play(g); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Play gives the spectator its game, once.
func (s *Spectator) Play(g Game) error {
	if s.w != nil {
		return fmt.Errorf("netplay: %w: the spectator has its game already", ErrInvalid)
	}
	w, err := newWatcher(s.sp, g)
	if err != nil {
		return err
	}
	s.w = w
	return nil
}

// Frame plays one frame at now: it takes the datagrams that arrived,
// loads the snapshot once it is all here, runs at most maxLoops of the
// ticks due and owed that have arrived, and sends its acknowledgements.
// It returns the ticks it ran. A spectator behind the host catches up,
// maxLoops ticks a frame.
func (s *Spectator) Frame(now time.Duration, due, maxLoops int) (ran int) {
	receiveAll(now, s.t, s.sp)
	if s.w != nil {
		ran = s.w.Frame(now, due, maxLoops)
	}
	sendDue(now, s.t, s.sp)
	return ran
}

// Leave ends the watching before the game's end: the next Frame tells
// the host, which frees the spectator's place at once instead of serving
// it until its silence. State is then StateEnded, Err stays nil, and no
// more ticks run; once Done, close the transport.
func (s *Spectator) Leave(now time.Duration) { s.sp.Leave(now) }

// Done reports whether the watching is over: the game played to its end
// and the host was told so, or the spectator left, or failed (Err).
func (s *Spectator) Done() bool {
	if s.w == nil {
		return s.sp.Err() != nil || s.sp.State() == StateEnded
	}
	return s.w.Done()
}

// Err is why the watching ended, nil if the game ended cleanly: an
// *Error (ErrFull, ErrBehind, ErrSilent, ErrTooLarge, ErrMismatch, ...).
func (s *Spectator) Err() error { return s.sp.Err() }

// State is where the spectator is: joining (waiting for the Welcome, then
// receiving the snapshot), lobby (the snapshot is here: the next Frame
// loads it), running, ending (the game is over; the last ticks play),
// ended.
func (s *Spectator) State() State { return s.sp.State() }

// Config is the game's configuration, from the host's Welcome on
// (Players, InputSize, Settings, TickLimit), and the spectator's own
// fields as given.
func (s *Spectator) Config() Config {
	c := s.cfg
	c.Players, c.InputSize, c.Settings, c.TickLimit = s.sp.Players(), s.sp.InputSize(), s.sp.Settings(), s.sp.TickLimit()
	return c
}

// Stats returns the spectator's measurements: State, Players, Tick (its
// game's), Confirmed (the host's), the snapshot's (Start, SnapshotBytes,
// JoinTime), Received, and the packets. It does not allocate.
func (s *Spectator) Stats() Stats {
	ss := s.sp.Stats()
	st := Stats{
		State: ss.State, Players: s.sp.Players(), Index: -1, Confirmed: ss.HostConfirmed,
		Start: ss.Start, Received: ss.Received, SnapshotBytes: ss.SnapshotBytes, JoinTime: ss.JoinTime,
		PacketsSent: ss.PacketsSent, PacketsReceived: ss.PacketsReceived, BytesSent: ss.BytesSent,
		BytesReceived: ss.BytesReceived, BadPackets: ss.BadPackets,
	}
	if s.w != nil {
		st.Tick = s.w.Head()
	}
	return st
}
