package netplay

import "time"

// Stats is what a Session or a Spectator measured, for a game to show or
// log: each field says whose it is. Durations are integer nanoseconds
// in JSON.
type Stats struct {
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

	// StartedAt is when the game started here (tick 0 began), on the
	// clock of the session's calls; 0 before.
	StartedAt time.Duration `json:"started_at_ns"`

	// Tick is the number of ticks the session has run (NextTick: a
	// rollback game may have run more on predictions, Peers[Index].Tick);
	// Confirmed the number of ticks from 0 whose inputs are all known.
	Tick      uint64 `json:"tick"`
	Confirmed uint64 `json:"confirmed"`

	// Ticks counts the new ticks run (re-simulations not counted);
	// Owed the ticks due that wait for a later frame.
	Ticks int64 `json:"ticks"`
	Owed  int64 `json:"owed"`
	// StallFrames counts the frames that had a tick due and could not
	// run it (an input missing, the prediction limit, a full input
	// window); StallTime the time spent waiting for an input.
	StallFrames int64         `json:"stall_frames"`
	StallTime   time.Duration `json:"stall_ns"`
	// WindowFull counts the ticks whose local input could not be given
	// because the input window was full (64 ticks ahead of what every
	// peer acknowledged).
	WindowFull int64 `json:"window_full"`

	// Rollback: Rollbacks counts the frames that restored a saved
	// state, Resimulated the ticks run again after one, MaxRollback the
	// most ticks one went back, PredictionErrors the remote inputs that
	// differed from their prediction.
	Rollbacks        int64 `json:"rollbacks"`
	Resimulated      int64 `json:"resimulated"`
	MaxRollback      int   `json:"max_rollback"`
	PredictionErrors int64 `json:"prediction_errors"`

	// Time sync (see Session.TimeSync): FrameAdvantage is how many ticks
	// this peer's game is ahead of the game furthest behind, estimated
	// and smoothed (negative: every other game is ahead); Slowdown the
	// sum of TimeSync over the frames.
	FrameAdvantage float64       `json:"frame_advantage"`
	Slowdown       time.Duration `json:"slowdown_ns"`

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

	// A host's spectators (Config.MaxSpectators): Spectators served now;
	// SpectatorsJoined welcomed, Rejected turned away (every place
	// taken), Dropped (too far behind, or silent), Left (they said
	// goodbye: their places freed at once); Snapshots taken, the last of
	// SnapshotBytes; SpectatorBytes sent to them.
	Spectators         int   `json:"spectators,omitempty"`
	SpectatorsJoined   int64 `json:"spectators_joined,omitempty"`
	SpectatorsRejected int64 `json:"spectators_rejected,omitempty"`
	SpectatorsDropped  int64 `json:"spectators_dropped,omitempty"`
	SpectatorsLeft     int64 `json:"spectators_left,omitempty"`
	Snapshots          int64 `json:"snapshots,omitempty"`
	SpectatorBytes     int64 `json:"spectator_bytes,omitempty"`
	// SnapshotBytes is the size of a snapshot: the host's last, or the
	// one a spectator received.
	SnapshotBytes int `json:"snapshot_bytes,omitempty"`

	// A spectator's: Start is the tick its snapshot is of, Received the
	// ticks it received (from 0), JoinTime the time from its first Hello
	// to the snapshot loaded. Its Tick is the ticks its game has run,
	// Confirmed the host's confirmed ticks at its last packet.
	Start    uint64        `json:"start,omitempty"`
	Received uint64        `json:"received,omitempty"`
	JoinTime time.Duration `json:"join_ns,omitempty"`

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
	// ones included, as it last reported it (the local player's: now).
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
	KickWhy Reason `json:"kick_why,omitempty"`
	// LastHeard is how long nothing had been heard from p at the last
	// Receive or Poll (a joiner hears another joiner through the host);
	// 0 for the local player, a player out of the game and before
	// anything was heard.
	LastHeard time.Duration `json:"last_heard_ns"`
	// Inputs is the number of ticks from 0 whose input of p this session
	// has (its own: the ticks it gave; the others': those that arrived).
	Inputs uint64 `json:"inputs"`
	// Interrupted says that p has been silent for Config.Interrupt
	// (EventInterrupted) and not heard since.
	Interrupted bool `json:"interrupted"`
}

// Stats returns the session's measurements. It does not allocate.
func (s *session) Stats() Stats {
	st := Stats{
		State: s.state, Players: s.players, Joined: s.joined,
		Index: s.index, Delay: s.delay, End: s.note,
		Tick: s.next, Confirmed: s.Confirmed(), StartedAt: s.startedAt,
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
		ps.Waited, ps.Inputs = s.waited[q], s.have[q]
		ps.Kicked, ps.KickTick = s.kckd[q], s.kick[q].from
		if s.kckd[q] {
			ps.KickWhy = Reason(s.kick[q].reason)
		}
		if s.state == StateRunning {
			ps.LastHeard, _ = s.silentFor(q, s.now)
		}
		ps.Interrupted = s.interrupted&(1<<q) != 0
		switch {
		case q == s.index:
			ps.Tick, ps.Debt, ps.CappedFrames = s.ranTicks(), s.debt, s.capped
			if s.role == roleHost {
				ps.HeldBack = s.heldBack(q)
			} else {
				ps.HeldBack = ms(s.info[q].heldMs)
			}
		case s.role == roleHost:
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
