package netplay

// localCheckpoint keeps the local state hash after tick (ticks run) and
// compares it with those the others already sent.
func (s *session) localCheckpoint(tick, hash uint64) {
	c := ckpt{player: uint8(s.index), tick: tick, hash: hash}
	s.local[(tick/s.every)%ckRing] = c
	s.latest[s.index] = c
	for q := range s.players {
		if q == s.index {
			continue
		}
		for i := range s.pending[q] {
			pc := &s.pending[q][i]
			if pc.tick == 0 || pc.tick > tick {
				continue
			}
			if pc.tick == tick && tick > s.compared[q] {
				s.compare(q, tick, hash, pc.hash)
			}
			*pc = ckpt{}
		}
	}
}

// remoteCheckpoint takes player q's state hash after tick.
func (s *session) remoteCheckpoint(q int, tick, hash uint64) {
	if !s.checkAt(tick) || tick <= s.compared[q] {
		return
	}
	if tick > s.latest[q].tick {
		s.latest[q] = ckpt{player: uint8(q), tick: tick, hash: hash}
	}
	if l := s.local[(tick/s.every)%ckRing]; l.tick == tick {
		s.compare(q, tick, l.hash, hash)
		return
	}
	if tick <= s.latest[s.index].tick {
		return // older than anything kept here
	}
	slot := &s.pending[q][(tick/s.every)%ckRing]
	*slot = ckpt{player: uint8(q), tick: tick, hash: hash}
}

// compare compares the local hash after tick with player q's: a
// difference is an EventDesync, the first desync kept for Err, a report
// started, and the game's end with Config.EndOnDesync.
func (s *session) compare(q int, tick, local, remote uint64) {
	s.compared[q] = tick
	if local == remote {
		return
	}
	s.desyncs++
	s.event(Event{Kind: EventDesync, Player: q, Tick: tick, Local: local, Remote: remote})
	// The first desync is the earliest checkpoint that differs, whatever
	// order the hashes of several players come in.
	if s.desync == nil || tick < s.desync.Tick {
		s.desync = &Error{Reason: ErrDesync, Tick: tick, Local: local, Player: q, Remote: remote}
	}
	s.startReport(s.now, q, tick)
	if s.cfg.EndOnDesync && s.state == StateRunning {
		// As a quit: nobody can have run the first tick of our input
		// we have not given, and everyone ends there.
		s.takeQuit(s.index, s.have[s.index])
	}
}
