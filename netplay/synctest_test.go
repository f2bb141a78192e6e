package netplay

import (
	"errors"
	"testing"
)

// syncInput is the sync test's LocalInput: a bot that also checks the
// Runner asks for each tick once, in order.
type syncInput struct {
	tb   testing.TB
	next *uint64
}

func (l syncInput) LocalInput(tick uint64, n int, dst []byte) {
	if tick != *l.next || len(dst) != testInputSize {
		l.tb.Errorf("sync test LocalInput(%d) with %d bytes, want tick %d", tick, len(dst), *l.next)
	}
	*l.next = tick + 1
	rec := rigBot(0, 0, tick)
	copy(dst, rec[:])
}

func syncRef(n uint64) []toyState {
	return reference(1, n, func(_ int, t uint64) (trec, bool) { return rigBot(0, 0, t), false })
}

// newSync makes a sync test of a toy game (a Confirmer) with checkDistance.
func newSync(t *testing.T, checkDistance int) (*syncTest, *toyGame) {
	t.Helper()
	g := newToyGame(t, "synctest")
	var next uint64
	r, err := newSyncTest(confGame{g}, syncInput{t, &next}, syncTestConfig{InputSize: testInputSize, CheckDistance: checkDistance})
	if err != nil {
		t.Fatal(err)
	}
	g.bind(r.runner)
	return r, g
}

// runSync runs frames of 0 to 3 due ticks, 5 at most a frame, until n
// ticks ran or the test fails.
func runSync(r *syncTest, n uint64) {
	for f := uint64(0); r.Head() < n && r.Err() == nil; f++ {
		due := int(mix64(f) % 4)
		due = min(due, int(n-r.Head()-uint64(r.Owed())))
		r.Frame(0, max(due, 0), 5)
	}
}

// A correct game passes: every tick is rolled back over and run again
// CheckDistance times (once the game has run that many), the Confirmer
// hears every tick once with the reference's hash, and the game ends in
// the reference's state.
func TestSyncTestPasses(t *testing.T) {
	const n = 300
	for _, d := range []int{1, 2, 7, maxCheckDistance} {
		r, g := newSync(t, d)
		runSync(r, n)
		if err := r.Err(); err != nil {
			t.Fatalf("d=%d: %v", d, err)
		}
		ref := syncRef(n)
		st := r.Stats()
		rollbacks := int64(n - d + 1) // after each tick t >= d-1: back to t+1-d
		if st.Ticks != n || st.Rollbacks != rollbacks || st.Resimulated != int64(d)*rollbacks || st.MaxRollback != d {
			t.Errorf("d=%d: %+v, want %d ticks, %d rollbacks, %d resimulated", d, st, n, rollbacks, int64(d)*rollbacks)
		}
		if g.advances != n+int64(d)*rollbacks || g.resimulated != st.Resimulated {
			t.Errorf("d=%d: %d Advances, %d resimulated", d, g.advances, g.resimulated)
		}
		if g.st != ref[n] {
			t.Errorf("d=%d: state %+v, reference %+v", d, g.st, ref[n])
		}
		if len(g.conf) != n {
			t.Fatalf("d=%d: the Confirmer heard %d ticks", d, len(g.conf))
		}
		for i, c := range g.conf {
			if !c.ok || c.hash != ref[i+1].hash() || c.in[0] != rigBot(0, 0, uint64(i)) || c.resimulated || c.predicted {
				t.Fatalf("d=%d: tick %d confirmed as %+v, reference hash %016x", d, i, c, ref[i+1].hash())
			}
		}
	}
}

// A game whose Load loses state gets a SyncTestError naming the first
// tick whose hash differs; a game whose Advance is not deterministic is
// caught; after an error the test runs no more ticks.
func TestSyncTestFinds(t *testing.T) {
	const d = 5
	for _, loseAt := range []uint64{0, 1, 37, 38} {
		r, g := newSync(t, d)
		g.lose, g.loseAt = true, loseAt
		runSync(r, 200)
		var e *Error
		if !errors.Is(r.Err(), ErrDesync) || !errors.As(r.Err(), &e) {
			t.Fatalf("Load losing the state before tick %d: err %v", loseAt, r.Err())
		}
		// The first rollback to tick loseAt reruns it from a state
		// without its acc: the state after loseAt+1 ticks differs first.
		ref := syncRef(loseAt + 1)
		want := Error{Reason: ErrDesync, Tick: loseAt + 1, Local: ref[loseAt+1].hash(), Rollback: d}
		if e.Reason != want.Reason || e.Tick != want.Tick || e.Local != want.Local || e.Remote == e.Local || e.Rollback != want.Rollback {
			t.Errorf("Load losing the state before tick %d: %+v, want %+v", loseAt, *e, want)
		}
		// Every tick run again before the one that differed was equal.
		if resim := r.Stats().Resimulated - d; resim != int64(loseAt)*d {
			t.Errorf("Load losing the state before tick %d: %d ticks run again before it, want %d", loseAt, resim, loseAt*d)
		}
		head := r.Head()
		if ran := r.Frame(0, 3, 5); ran != 0 || r.Head() != head || r.Err() != e {
			t.Errorf("after the error: ran %d ticks, err %v", ran, r.Err())
		}
	}
	for _, at := range []uint64{0, 20} {
		r, g := newSync(t, d)
		g.noisy, g.noisyAt = true, at
		runSync(r, 200)
		var e *Error
		if !errors.Is(r.Err(), ErrDesync) || !errors.As(r.Err(), &e) || e.Tick != at+1 {
			t.Errorf("Advance not deterministic at tick %d: err %v, want a sync test ErrDesync at tick %d", at, r.Err(), at+1)
		}
	}
}

// Invalidate keeps the sync test from rolling back across a change of
// the game's state made outside a tick; without it the change is
// reported.
func TestSyncTestInvalidate(t *testing.T) {
	const d, at, n = 4, 50, 120
	for _, invalidate := range []bool{true, false} {
		r, g := newSync(t, d)
		g.recordLoads = true
		runSync(r, at)
		if r.Head() != at || r.Err() != nil {
			t.Fatalf("head %d, err %v", r.Head(), r.Err())
		}
		g.st.pos[0][1] += 1000 // a reset, a setting: outside any tick
		loads := len(g.loaded)
		if invalidate {
			r.Invalidate()
		}
		runSync(r, n)
		if !invalidate {
			var e *Error
			if !errors.Is(r.Err(), ErrDesync) || !errors.As(r.Err(), &e) || e.Tick != at+1 {
				t.Errorf("without Invalidate: err %v, want a sync test ErrDesync at tick %d", r.Err(), at+1)
			}
			continue
		}
		if r.Err() != nil {
			t.Fatalf("with Invalidate: %v", r.Err())
		}
		for _, l := range g.loaded[loads:] {
			if l < at {
				t.Fatalf("rolled back to tick %d across the change at tick %d", l, at)
			}
		}
		// Rollbacks resume once d ticks ran after the change.
		rollbacks := int64(at-d+1) + int64(n-at-d+1)
		if st := r.Stats(); st.Rollbacks != rollbacks || st.Resimulated != d*rollbacks {
			t.Errorf("with Invalidate: %+v, want %d rollbacks", st, rollbacks)
		}
	}
}
