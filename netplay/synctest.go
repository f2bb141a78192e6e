package netplay

import (
	"fmt"
)

// maxCheckDistance bounds SyncTestConfig.CheckDistance.
const maxCheckDistance = 60

// syncTestConfig sets up a sync test.
type syncTestConfig struct {
	// InputSize is the size of the player's input for a tick, in bytes,
	// 1..MaxInputSize.
	InputSize int
	// CheckDistance is how many ticks the test rolls back after every
	// tick, 1..MaxCheckDistance.
	CheckDistance int
	// Report keeps each tick's state (the game must be a Snapshotter),
	// for a report of what a roll back and replay changed.
	Report bool
}

// syncState is a sync test's part of a Runner.
type syncState struct {
	n      int
	inputs []record // ring: the input of tick t
	first  []uint64 // the hashes of the ticks being checked, first time
	since  uint64   // the first tick the test may roll back to
	err    *Error
	// states (Report) are the states after each tick of the window, the
	// first time: states[slot(t+1)] after tick t.
	states [][]byte
	snap   Snapshotter
}

// A syncTest is a Runner that tests a game on one machine (NewSyncTest),
// with the two calls only a sync test has: Err and Invalidate.
type syncTest struct {
	*runner
}

// newSyncTest makes a Runner that tests g on one machine, as GGPO and
// GGRS do: after every tick it rolls the game back CheckDistance ticks
// (Load), runs them again (Advance) with the same inputs, and compares
// every tick's state hash with the first time's. It drives the game
// through the same tick path as a rollback game over the network: what
// passes here saves, loads and advances the way a real rollback needs.
// The single player's input comes from local; Frame works as with a
// Session, and Err reports the first difference.
func newSyncTest(g Game, local localInput, c syncTestConfig) (*syncTest, error) {
	if g == nil || local == nil {
		return nil, fmt.Errorf("netplay: %w: NewSyncTest needs a game and a local input", ErrInvalid)
	}
	if c.InputSize < 1 || c.InputSize > MaxInputSize {
		return nil, fmt.Errorf("netplay: %w: SyncTestConfig.InputSize %d not in 1..%d", ErrInvalid, c.InputSize, MaxInputSize)
	}
	if c.CheckDistance < 1 || c.CheckDistance > maxCheckDistance {
		return nil, fmt.Errorf("netplay: %w: SyncTestConfig.CheckDistance %d not in 1..%d", ErrInvalid, c.CheckDistance, maxCheckDistance)
	}
	r := &runner{game: g, local: local, size: c.InputSize, players: 1, rollback: true, maxPred: c.CheckDistance}
	r.conf, _ = g.(Confirmer)
	r.alloc(c.CheckDistance + 2)
	r.sync = &syncState{n: c.CheckDistance, inputs: make([]record, len(r.used)), first: make([]uint64, c.CheckDistance)}
	if c.Report {
		snap, ok := g.(Snapshotter)
		if !ok {
			return nil, fmt.Errorf("netplay: %w: Config.Report needs a game that is a Snapshotter", ErrInvalid)
		}
		r.sync.snap, r.sync.states = snap, make([][]byte, len(r.used))
	}
	return &syncTest{r}, nil
}

// Err is the sync test's finding, or nil.
func (r *syncTest) Err() error {
	if r.sync.err == nil {
		return nil
	}
	return r.sync.err
}

// Invalidate tells the sync test that the game's state changed outside
// a tick (a reset, a setting): it does not roll back across that point.
// (A network game's state changes only in ticks.)
func (r *syncTest) Invalidate() {
	r.sync.since = r.head
}

// syncFrame is Frame for a sync test.
func (r *runner) syncFrame(maxLoops int) (ran int) {
	st := r.sync
	for r.owed > 0 && ran < maxLoops && st.err == nil {
		t := r.head
		i := r.slot(t)
		st.inputs[i] = record{}
		r.local.LocalInput(t, ran, st.inputs[i][:r.size])
		r.tick(t, false)
		if st.snap != nil {
			j := r.slot(t + 1)
			st.states[j] = st.snap.AppendState(st.states[j][:0])
		}
		r.st.Ticks++
		r.owed--
		ran++
		r.confirmSync(t)
		if t+1 < st.since+uint64(st.n) {
			continue
		}
		from := t + 1 - uint64(st.n)
		for k := range st.n {
			st.first[k] = r.hashes[r.slot(from+uint64(k)+1)]
		}
		r.rerun(from, t+1)
		for k := range st.n {
			if again := r.hashes[r.slot(from+uint64(k)+1)]; again != st.first[k] {
				st.err = &Error{Reason: ErrDesync, Tick: from + uint64(k) + 1, Local: st.first[k], Remote: again, Rollback: st.n}
				st.report(r, from, k)
				return ran
			}
		}
	}
	if st.err != nil {
		r.owed = 0
	}
	return ran
}

// confirmSync hands tick t to the Confirmer: in a sync test every tick is
// final when it first runs.
func (r *runner) confirmSync(t uint64) {
	if r.conf == nil {
		return
	}
	in := &r.in
	r.fill(t)
	r.conf.Confirmed(in, r.hashes[r.slot(t+1)], true)
}

// report (Report) runs ticks from..from+k again, from the state before
// from, and compares the state after them with the first time's: what a
// roll back and replay changed, by field or by byte.
func (st *syncState) report(r *runner, from uint64, k int) {
	if st.snap == nil {
		return
	}
	r.game.Load(r.slot(from))
	for t := from; t <= from+uint64(k); t++ {
		r.tick(t, true)
	}
	again := st.snap.AppendState(nil)
	first := st.states[r.slot(from+uint64(k)+1)]
	st.err.Report = fmt.Sprintf("the state after tick %d, the first time against after a roll back of %d ticks and a replay:\n%s",
		st.err.Tick, st.n, diffStates(r.game, first, again).text())
}
