package netplay

import "fmt"

// reportLog is what a runner keeps for desync reports (Config.Report):
// the state hash after each of the last reportLogTicks confirmed ticks,
// and the state at the last reportStates checkpoints. It is made once;
// a game without a desync allocates nothing more once every state buffer
// has grown to the state's size.
type reportLog struct {
	r      *runner
	snap   Snapshotter
	hashes [reportLogTicks]uint64
	htick  [reportLogTicks]uint64 // the ticks run each of hashes is after
	states [reportStates][]byte
	stick  [reportStates]uint64
}

// reportLogTicks is how many confirmed ticks' hashes a runner keeps: the
// report compares the last reportSpan before a checkpoint, which the
// other peer's hashes may name a while after it passed here.
const reportLogTicks = 256

// newReportLog sets a runner up for reports: it hashes, and saves the
// game before, every tick.
func newReportLog(r *runner) (*reportLog, error) {
	snap, ok := r.game.(Snapshotter)
	if !ok {
		return nil, fmt.Errorf("netplay: %w: Config.Report needs a game that is a Snapshotter", ErrInvalid)
	}
	return &reportLog{r: r, snap: snap}, nil
}

// confirmed notes the state after c ticks, now confirmed: its hash, and
// at a checkpoint the state itself.
func (l *reportLog) confirmed(c uint64) {
	r := l.r
	l.hashes[c%reportLogTicks], l.htick[c%reportLogTicks] = r.hashes[r.slot(c)], c
	if !r.s.checkAt(c) {
		return
	}
	i := (c / uint64(max(r.s.every, 1))) % reportStates
	l.states[i], l.stick[i] = l.stateAt(c, l.states[i][:0]), c
}

// stateAt appends the game's state after c ticks, the last confirmed: at
// the head, or, in a rollback game running ahead on predictions, loaded
// from tick c's slot (saved before every tick when reports are on) and
// run again to the head.
func (l *reportLog) stateAt(c uint64, dst []byte) []byte {
	r := l.r
	if r.head == c {
		return l.snap.AppendState(dst)
	}
	head := r.head
	r.game.Load(r.slot(c))
	dst = l.snap.AppendState(dst)
	for t := c; t < head; t++ {
		r.tick(t, true)
	}
	return dst
}

func (l *reportLog) reportState(tick uint64) ([]byte, bool) {
	i := (tick / uint64(max(l.r.s.every, 1))) % reportStates
	if l.stick[i] != tick || l.states[i] == nil {
		return nil, false
	}
	return l.states[i], true
}

func (l *reportLog) reportHashes(tick uint64, dst []uint64) (first uint64, hs []uint64) {
	first = tick
	for first > 0 && tick-first < reportSpan && l.htick[first%reportLogTicks] == first {
		first--
	}
	// first is now the tick before the oldest kept, or 0.
	for t := first + 1; t <= tick; t++ {
		dst = append(dst, l.hashes[t%reportLogTicks])
	}
	return first, dst
}

func (l *reportLog) reportDiff(mine, theirs []byte) *differ {
	return diffStates(l.r.game, mine, theirs)
}
