package netplay

import (
	"fmt"
)

// MaxCheckDistance bounds SyncTestConfig.CheckDistance.
const MaxCheckDistance = 60

// SyncTestConfig sets up a sync test.
type SyncTestConfig struct {
	// InputSize is the size of the player's input for a tick, in bytes,
	// 1..MaxInputSize.
	InputSize int
	// CheckDistance is how many ticks the test rolls back after every
	// tick, 1..MaxCheckDistance.
	CheckDistance int
}

// A SyncTestError is a sync test's finding: tick Tick, run again after a
// rollback of Distance ticks with the same inputs, gave another state
// hash than the first time. The game is not deterministic, or its Save
// and Load do not hold all of its state.
type SyncTestError struct {
	Tick          uint64 // the hash is the state after this many ticks
	First, Again  uint64
	Distance      int
	Resimulations int64 // ticks run again before this one, all equal
}

func (e *SyncTestError) Error() string {
	return fmt.Sprintf("synctest: tick %d simulates to %016x the second time, %016x the first (rolled back %d ticks)", e.Tick, e.Again, e.First, e.Distance)
}

// syncTest is a sync test's part of a Runner.
type syncTest struct {
	n      int
	inputs []record // ring: the input of tick t
	first  []uint64 // the hashes of the ticks being checked, first time
	since  uint64   // the first tick the test may roll back to
	err    *SyncTestError
}

// A SyncTest is a Runner that tests a game on one machine (NewSyncTest),
// with the two calls only a sync test has: Err and Invalidate.
type SyncTest struct {
	*Runner
}

// NewSyncTest makes a Runner that tests g on one machine, as GGPO and
// GGRS do: after every tick it rolls the game back CheckDistance ticks
// (Load), runs them again (Advance) with the same inputs, and compares
// every tick's state hash with the first time's. It drives the game
// through the same tick path as a rollback game over the network: what
// passes here saves, loads and advances the way a real rollback needs.
// The single player's input comes from local; Frame works as with a
// Session, and Err reports the first difference.
func NewSyncTest(g Game, local LocalInput, c SyncTestConfig) (*SyncTest, error) {
	if g == nil || local == nil {
		return nil, fmt.Errorf("%w: NewSyncTest needs a game and a local input", ErrInvalid)
	}
	if c.InputSize < 1 || c.InputSize > MaxInputSize {
		return nil, fmt.Errorf("%w: SyncTestConfig.InputSize %d not in 1..%d", ErrInvalid, c.InputSize, MaxInputSize)
	}
	if c.CheckDistance < 1 || c.CheckDistance > MaxCheckDistance {
		return nil, fmt.Errorf("%w: SyncTestConfig.CheckDistance %d not in 1..%d", ErrInvalid, c.CheckDistance, MaxCheckDistance)
	}
	r := &Runner{game: g, local: local, size: c.InputSize, players: 1, rollback: true, maxPred: c.CheckDistance}
	r.conf, _ = g.(Confirmer)
	r.alloc(c.CheckDistance + 2)
	r.sync = &syncTest{n: c.CheckDistance, inputs: make([]record, len(r.used)), first: make([]uint64, c.CheckDistance)}
	return &SyncTest{r}, nil
}

// Err is the sync test's finding, or nil.
func (r *SyncTest) Err() error {
	if r.sync.err == nil {
		return nil
	}
	return r.sync.err
}

// Invalidate tells the sync test that the game's state changed outside
// a tick (a reset, a setting): it does not roll back across that point.
// (A network game's state changes only in ticks.)
func (r *SyncTest) Invalidate() {
	r.sync.since = r.head
}

// syncFrame is Frame for a sync test.
func (r *Runner) syncFrame(maxLoops int) (ran int) {
	st := r.sync
	for r.owed > 0 && ran < maxLoops && st.err == nil {
		t := r.head
		i := r.slot(t)
		st.inputs[i] = record{}
		r.local.LocalInput(t, ran, st.inputs[i][:r.size])
		r.tick(t, false)
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
				st.err = &SyncTestError{Tick: from + uint64(k) + 1, First: st.first[k], Again: again, Distance: st.n,
					Resimulations: r.st.Resimulated - int64(st.n) + int64(k)}
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
func (r *Runner) confirmSync(t uint64) {
	if r.conf == nil {
		return
	}
	in := &r.in
	r.fill(t)
	r.conf.Confirmed(in, r.hashes[r.slot(t+1)], true)
}
