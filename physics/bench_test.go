package physics

import (
	"fmt"
	"testing"
	"time"
)

var benchSizes = []struct {
	name string
	n    int
}{
	{"1k", 1_000},
	{"100k", 100_000},
	{"1M", 1_000_000},
}

// tickBytes is the memory a tick touches per ball: it reads Next and Dir
// (8 + 8 bytes) and writes Last and Next (8 + 8 bytes); Dir is written only
// on the few balls that bounce. BenchmarkTick and BenchmarkCopyFloor both
// report it through SetBytes, so their MB/s compare directly.
const tickBytes = 32

func benchWorld(b *testing.B, n int) *World {
	b.Helper()
	w, err := New(Config{Balls: n, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// BenchmarkTick measures one logic tick at the default settings (16 units
// per tick in a 640x480 box: a few per cent of the balls bounce per tick).
func BenchmarkTick(b *testing.B) {
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			w := benchWorld(b, s.n)
			b.SetBytes(int64(tickBytes * s.n))
			b.ReportAllocs()
			for b.Loop() {
				w.Tick(Control{})
			}
		})
	}
}

// BenchmarkCopyFloor is the memory-bandwidth floor of BenchmarkTick: one
// copy of 16 bytes per ball, which reads 16 and writes 16 bytes per ball,
// the same amount a tick reads and writes, from and to arrays of the same
// total size (24 bytes per ball for the tick's Last, Next and Dir; 32 for
// the copy's source and destination, so the floor is if anything the
// harder one to keep in cache).
func BenchmarkCopyFloor(b *testing.B) {
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			src := make([]int32, 4*s.n)
			dst := make([]int32, 4*s.n)
			for i := range src {
				src[i] = int32(i)
			}
			b.SetBytes(int64(tickBytes * s.n))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}

// BenchmarkStep measures a variable step (60 Hz frames) at 100k balls.
func BenchmarkStep(b *testing.B) {
	w := benchWorld(b, 100_000)
	dt := time.Second / 60
	b.SetBytes(int64(tickBytes * w.N()))
	b.ReportAllocs()
	for b.Loop() {
		w.Step(dt, Control{})
	}
}

// BenchmarkTickPlayer is BenchmarkTick/1k with ball 0 under control.
func BenchmarkTickPlayer(b *testing.B) {
	w := benchWorld(b, 1_000)
	b.ReportAllocs()
	for b.Loop() {
		w.Tick(Control{X: 1})
	}
}

// BenchmarkTickFold is a tick where every ball crosses the box several
// times (the slow path): a bound, not a case that occurs at sane settings.
func BenchmarkTickFold(b *testing.B) {
	w, err := New(Config{Balls: 10_000, Speed: 100_000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		w.Tick(Control{})
	}
}

// BenchmarkHash hashes the whole state (24 bytes per ball plus 25).
func BenchmarkHash(b *testing.B) {
	for _, n := range []int{1_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			w := benchWorld(b, n)
			b.SetBytes(int64(24*n + 25))
			b.ReportAllocs()
			for b.Loop() {
				_ = w.Hash()
			}
		})
	}
}

// BenchmarkNew measures building a world of a million balls (spawn).
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Config{Balls: 1_000_000}); err != nil {
			b.Fatal(err)
		}
	}
}
