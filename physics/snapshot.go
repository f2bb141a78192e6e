package physics

// A Snapshot is a world's whole state, saved to be restored later: the
// rollback netcode saves one before every tick that runs on a predicted
// input and restores it when the prediction proves wrong. Its memory is
// kept between saves, so saving into a Snapshot allocates only when the
// world has more balls than it ever had before.
type Snapshot struct {
	last, next, dir []int32
	cfg             Config
	k               int64
	ticks, steps    uint64
	stepRem         uint64
	players         uint8
	valid           bool
}

// Save copies the world's state into s.
func (w *World) Save(s *Snapshot) {
	s.last = append(s.last[:0], w.Last...)
	s.next = append(s.next[:0], w.Next...)
	s.dir = append(s.dir[:0], w.Dir...)
	s.cfg, s.k = w.cfg, w.k
	s.ticks, s.steps, s.stepRem, s.players = w.ticks, w.steps, w.stepRem, w.players
	s.valid = true
}

// Restore puts the world back in the state saved in s, the world it was
// saved from or one made with the same Config. Hash is then what it was
// at Save. Moved changes, so a renderer uploads the positions afresh. It
// reports false, changing nothing, when s holds no state.
func (w *World) Restore(s *Snapshot) bool {
	if !s.valid {
		return false
	}
	w.resize(len(s.next) / 2)
	copy(w.Last, s.last)
	copy(w.Next, s.next)
	copy(w.Dir, s.dir)
	w.cfg, w.k = s.cfg, s.k
	w.ticks, w.steps, w.stepRem, w.players = s.ticks, s.steps, s.stepRem, s.players
	w.moved++
	return true
}

// Bytes is the memory the snapshot's state takes: 24 bytes a ball.
func (s *Snapshot) Bytes() int { return 4 * (len(s.last) + len(s.next) + len(s.dir)) }

// Tick is the tick count of the saved state.
func (s *Snapshot) Tick() uint64 { return s.ticks }
