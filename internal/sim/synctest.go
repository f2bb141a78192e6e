package sim

import (
	"fmt"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/physics"
)

// MaxSyncTest bounds Config.SyncTest.
const MaxSyncTest = 60

// syncTest is the rollback netcode's self-test, as GGPO and GGRS have it:
// after every tick the world is rolled back n ticks and simulated again
// with the same inputs, and each tick's state hash the second time must be
// the first time's. A difference means the world is not deterministic, or
// a snapshot does not hold all of its state.
type syncTest struct {
	n      int
	snaps  []physics.Snapshot // ring: the state before tick t
	recs   []input.Record     // ring: the record tick t ran with
	prevs  []input.Record     // ring: the record before it
	hashes []uint64           // ring: the hash after tick t, first time
	// corrupt, in tests, changes a restored world, to show the test can fail.
	corrupt func(w *physics.World)
	checked int64
	// since is the first tick after the last world command: the test does
	// not roll back across a command (a network game has none).
	since uint64
}

func newSyncTest(n int) *syncTest {
	return &syncTest{n: n, snaps: make([]physics.Snapshot, n), recs: make([]input.Record, n), prevs: make([]input.Record, n), hashes: make([]uint64, n)}
}

// SyncTestTicks is the number of ticks the sync test simulated twice.
func (s *Sim) SyncTestTicks() int64 {
	if s.sync == nil {
		return 0
	}
	return s.sync.checked
}

// syncTick runs tick t (single player) under the sync test.
func (s *Sim) syncTick(rec input.Record) {
	st := s.sync
	t := s.world.Ticks()
	i := int(t % uint64(st.n))
	s.world.Save(&st.snaps[i])
	st.recs[i], st.prevs[i] = rec, s.prevs[0]
	s.runTick(s.recs[:1])
	st.hashes[i] = s.world.Hash()
	if t+1 < st.since+uint64(st.n) {
		return
	}
	// Roll back n ticks and simulate them again.
	from := t + 1 - uint64(st.n)
	j := int(from % uint64(st.n))
	s.world.Restore(&st.snaps[j])
	if st.corrupt != nil {
		st.corrupt(s.world)
	}
	for u := from; u <= t; u++ {
		k := int(u % uint64(st.n))
		s.world.Tick(control(st.recs[k], st.prevs[k]))
		st.checked++
		if h := s.world.Hash(); h != st.hashes[k] {
			s.fail(fmt.Errorf("synctest: tick %d simulates to %016x the second time, %016x the first (rolled back %d ticks)", u+1, h, st.hashes[k], st.n))
			return
		}
	}
}
