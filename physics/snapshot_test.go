package physics_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/physics"
)

// TestSnapshotRestoresEverything: after any mix of ticks, player input,
// steps, ball count and tick changes, restoring a snapshot and running the
// same calls again gives the same states, hash by hash.
func TestSnapshotRestoresEverything(t *testing.T) {
	w := newWorld(t, 300, 11)
	var snap physics.Snapshot
	script := func(i int) {
		switch {
		case i%97 == 13:
			w.SetBalls(300 + i%50)
		case i%61 == 7:
			w.SetTick(time.Duration(20+i%30) * time.Millisecond)
		case i%41 == 3:
			w.Step(time.Duration(i%17)*time.Millisecond, physics.Control{X: 1})
		case i%53 == 5:
			w.Release(1)
		default:
			w.TickPlayers([]physics.Control{{X: int8(i%3 - 1)}, {Y: int8(i%5%3 - 1)}, {}})
		}
	}
	for i := 0; i < 200; i++ {
		script(i)
	}
	w.Save(&snap)
	want := w.Hash()
	var hashes []uint64
	for i := 200; i < 600; i++ {
		script(i)
		hashes = append(hashes, w.Hash())
	}
	moved := w.Moved()
	if !w.Restore(&snap) {
		t.Fatal("Restore refused a saved snapshot")
	}
	if w.Hash() != want {
		t.Fatalf("restored hash %016x, saved %016x", w.Hash(), want)
	}
	if w.Moved() == moved {
		t.Error("Restore did not change Moved: a renderer would keep stale positions")
	}
	for i := 200; i < 600; i++ {
		script(i)
		if h := w.Hash(); h != hashes[i-200] {
			t.Fatalf("step %d after the restore: %016x, first time %016x", i, h, hashes[i-200])
		}
	}
	if snap.Bytes() < 24*300 {
		t.Errorf("snapshot of 300+ balls is %d bytes", snap.Bytes())
	}
	var empty physics.Snapshot
	if w.Restore(&empty) {
		t.Error("an empty snapshot restored")
	}
}

func TestSnapshotAllocatesNothingOnceSized(t *testing.T) {
	w := newWorld(t, 5000, 3)
	var snap physics.Snapshot
	w.Save(&snap)
	if n := testing.AllocsPerRun(50, func() {
		w.Tick(physics.Control{})
		w.Save(&snap)
		w.Restore(&snap)
	}); n != 0 {
		t.Errorf("%v allocations per save and restore", n)
	}
}

// BenchmarkSnapshot and BenchmarkRollback8 are the rollback netcode's
// costs: saving the world, and restoring it and running 8 ticks again;
// BenchmarkSnapshotCopyFloor is the memory-copy floor of a save (the bytes a save
// copies, with copy()).
func BenchmarkSnapshot(b *testing.B) {
	for _, n := range []int{1, 1000, 100_000, 1_000_000} {
		b.Run(ballsName(n), func(b *testing.B) {
			w := mustWorld(b, n)
			var snap physics.Snapshot
			w.Save(&snap)
			b.SetBytes(int64(snap.Bytes()))
			b.ReportAllocs()
			for b.Loop() {
				w.Save(&snap)
			}
		})
	}
}

func BenchmarkRollback8(b *testing.B) {
	for _, n := range []int{1, 1000, 100_000, 1_000_000} {
		b.Run(ballsName(n), func(b *testing.B) {
			w := mustWorld(b, n)
			var snap physics.Snapshot
			w.Save(&snap)
			b.ReportAllocs()
			for b.Loop() {
				w.Restore(&snap)
				for range 8 {
					w.Tick(physics.Control{})
				}
			}
		})
	}
}

func BenchmarkSnapshotCopyFloor(b *testing.B) {
	for _, n := range []int{1, 1000, 100_000, 1_000_000} {
		b.Run(ballsName(n), func(b *testing.B) {
			src, dst := make([]int32, 6*n), make([]int32, 6*n)
			b.SetBytes(int64(4 * len(src)))
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}

func mustWorld(b *testing.B, n int) *physics.World {
	b.Helper()
	w, err := physics.New(physics.Config{Balls: n, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return w
}

func ballsName(n int) string {
	switch {
	case n >= 1_000_000:
		return strconv.Itoa(n/1_000_000) + "M"
	case n >= 1000:
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}
