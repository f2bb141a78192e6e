package netplay

import "time"

// Stats is what a Session measured, for a game to show or log. Durations
// are integer nanoseconds in JSON.
type Stats struct {
	Role    Role  `json:"role"`
	State   State `json:"state"`
	Players int   `json:"players"`
	// Joined is the number of players present (in the lobby, for the
	// "waiting for players" line).
	Joined int `json:"joined"`
	// Index is the local player's index (0: the host).
	Index int `json:"index"`
	// Delay is the input delay, ticks.
	Delay int `json:"input_delay"`
	// End says how the game ended ("player 2 quit", "tick limit
	// reached", an error); empty while it runs.
	End string `json:"end,omitempty"`

	// Tick is the number of ticks the session has run (NextTick: a
	// rollback game may have run more on predictions, Peers[Index].Tick);
	// Confirmed the number of ticks from 0 whose inputs are all known.
	Tick      uint64 `json:"tick"`
	Confirmed uint64 `json:"confirmed"`

	// StallFrames counts the Next calls that found the tick not ready
	// (frames that had a tick due and could not run it); StallTime is
	// the time spent so.
	StallFrames int64         `json:"stall_frames"`
	StallTime   time.Duration `json:"stall_ns"`
	// WindowFull counts the AddLocalInput calls refused because the
	// input window was full.
	WindowFull int64 `json:"window_full"`

	PacketsSent     int64 `json:"packets_sent"`
	PacketsReceived int64 `json:"packets_received"`
	BytesSent       int64 `json:"bytes_sent"`
	BytesReceived   int64 `json:"bytes_received"`
	// BadPackets counts the datagrams dropped as garbage, from strangers
	// or from another session.
	BadPackets int64 `json:"bad_packets"`
	// Desyncs counts the state-hash mismatches found (each player's
	// differing hash at each checkpoint counts once).
	Desyncs int `json:"desyncs"`
	// Kicks counts the players kicked.
	Kicks int `json:"kicks"`
	// EventsDropped counts the events dropped because the buffer was
	// full (see PollEvent).
	EventsDropped int64 `json:"events_dropped"`

	// Peers[p] is about player p, for p < Players.
	Peers [MaxPlayers]PeerStats `json:"peers"`
}

// PeerStats is what a session knows about one player.
type PeerStats struct {
	// RTT is the round trip between this session and player p: measured
	// directly between the host and each joiner; between two joiners it
	// is the sum of their round trips to the host, which relays their
	// inputs. 0 for the local player and before a measurement.
	RTT time.Duration `json:"rtt_ns"`
	// Tick is the number of ticks the player's game has run, predicted
	// ones included (a Runner's Head; a Session alone: its NextTick), as
	// it last reported it (the local player's: now).
	Tick uint64 `json:"tick"`
	// Debt and CappedFrames are the player's loop time debt and frames
	// that ran MaxLoops ticks, as it last reported them (ms precision).
	Debt         time.Duration `json:"debt_ns"`
	CappedFrames int64         `json:"capped_frames"`
	// Waited is the time this session waited with only player p's input
	// missing, for whatever reason: p slow, p waiting for somebody else,
	// or its record on its way.
	Waited time.Duration `json:"waited_ns"`
	// HeldBack is the time player p held the game back: the most any
	// peer waited for p alone, counted only as far as p was slow by
	// itself (its loop's debt grew while it had every input it needed;
	// see Session.ReportLoad). It is the host's figure; a joiner has it
	// from the host. KickAfter applies the same measure to the last
	// KickWindow: the smaller of the two growths.
	HeldBack time.Duration `json:"held_back_ns"`
	// Kicked says that p was kicked; it is Disconnected from tick
	// KickTick on.
	Kicked   bool   `json:"kicked"`
	KickTick uint64 `json:"kick_tick,omitempty"`
	// KickWhy is why p was kicked, or dropped (Config.Disconnect).
	KickWhy DisconnectReason `json:"kick_why,omitempty"`
	// LastHeard is how long nothing had been heard from p at the last
	// Receive or Poll (a joiner hears another joiner through the host);
	// 0 for the local player, a player out of the game and before
	// anything was heard.
	LastHeard time.Duration `json:"last_heard_ns"`
	// Interrupted says that p has been silent for Config.Interrupt
	// (EventInterrupted) and not heard since.
	Interrupted bool `json:"interrupted"`
}

// Stats returns the session's measurements. It does not allocate.
func (s *Session) Stats() Stats {
	st := Stats{
		Role: s.role, State: s.state, Players: s.players, Joined: s.joined,
		Index: s.index, Delay: s.delay, End: s.note,
		Tick: s.next, Confirmed: s.Confirmed(),
		StallFrames: s.stallFrames, StallTime: s.stallTime, WindowFull: s.windowFull,
		PacketsSent: s.sent, PacketsReceived: s.recv,
		BytesSent: s.bytesOut, BytesReceived: s.bytesIn,
		BadPackets: s.bad, Desyncs: s.desyncs, Kicks: s.nKick,
		EventsDropped: s.events.dropped,
	}
	us := func(x uint64) time.Duration { return time.Duration(x) * time.Microsecond }
	ms := func(x uint64) time.Duration { return time.Duration(x) * time.Millisecond }
	for q := range s.players {
		ps := &st.Peers[q]
		ps.Waited = s.waited[q]
		ps.Kicked, ps.KickTick = s.kckd[q], s.kick[q].from
		if s.kckd[q] {
			ps.KickWhy = DisconnectReason(s.kick[q].reason)
		}
		if s.state == StateRunning {
			ps.LastHeard, _ = s.silentFor(q, s.now)
		}
		ps.Interrupted = s.interrupted&(1<<q) != 0
		switch {
		case q == s.index:
			ps.Tick, ps.Debt, ps.CappedFrames = s.ranTicks(), s.debt, s.capped
			if s.role == Host {
				ps.HeldBack = s.heldBack(q)
			} else {
				ps.HeldBack = ms(s.info[q].heldMs)
			}
		case s.role == Host:
			r := &s.peers[q]
			ps.RTT = us(r.rttUs)
			ps.Tick, ps.Debt, ps.CappedFrames = r.tick, ms(r.debtMs), int64(r.capped)
			ps.HeldBack = s.heldBack(q)
		default:
			in := &s.info[q]
			ps.RTT = us(s.peers[0].rttUs)
			if q != 0 {
				ps.RTT += us(in.rttUs)
			}
			ps.Tick, ps.Debt, ps.CappedFrames = in.tick, ms(in.debtMs), int64(in.capped)
			ps.HeldBack = ms(in.heldMs)
		}
	}
	return st
}
