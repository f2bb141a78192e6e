package positions

import "testing"

func TestPlan(t *testing.T) {
	var b Buffers
	steps := []struct {
		n           int
		step, moved uint64
		lost        bool
		want        Upload
		last, next  int
	}{
		{n: 10, step: 0, want: Both, last: 0, next: 1},           // the first frame
		{n: 10, step: 0, want: None, last: 0, next: 1},           // no tick
		{n: 10, step: 1, want: Next, last: 1, next: 0},           // one tick: next over the oldest
		{n: 10, step: 1, want: None, last: 1, next: 0},           // no tick
		{n: 10, step: 2, want: Next, last: 0, next: 1},           // one tick: the roles swap back
		{n: 10, step: 4, want: Both, last: 0, next: 1},           // two ticks in one frame
		{n: 10, step: 4, moved: 1, want: Both, last: 0, next: 1}, // a teleport
		{n: 10, step: 5, moved: 1, want: Next, last: 1, next: 0},
		{n: 11, step: 5, moved: 1, want: Both, last: 1, next: 0}, // a ball more
		{n: 11, step: 5, moved: 1, lost: true, want: Both, last: 1, next: 0},
		{n: 11, step: 5, moved: 1, want: None, last: 1, next: 0},
		{n: 11, step: 3, moved: 1, want: Both, last: 1, next: 0}, // back in time (a rollback)
	}
	for i, s := range steps {
		if s.lost {
			b.Lost()
		}
		got := b.Plan(s.n, s.step, s.moved)
		if got != s.want || b.Last() != s.last || b.Next() != s.next || b.N() != s.n {
			t.Fatalf("frame %d: %v, last %d next %d, %d balls; want %v, %d %d, %d", i, got, b.Last(), b.Next(), b.N(), s.want, s.last, s.next, s.n)
		}
	}
}
