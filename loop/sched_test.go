package loop

import (
	"math/rand/v2"
	"time"
)

// Generated frame schedules shared by the tests of every strategy. Times
// start at an arbitrary origin (not 0) so that no code can assume one.

const (
	ms     = time.Millisecond
	origin = 3*time.Hour + 7*time.Second + 123456789
)

// steady returns n frame times dt apart, the first at start+dt.
func steady(start, dt time.Duration, n int) []time.Duration {
	ts := make([]time.Duration, n)
	for i := range ts {
		ts[i] = start + time.Duration(i+1)*dt
	}
	return ts
}

// jittery returns n frame times whose gaps are mean +- jitter, uniformly,
// from a seeded generator.
func jittery(seed uint64, start, mean, jitter time.Duration, n int) []time.Duration {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	ts := make([]time.Duration, n)
	t := start
	for i := range ts {
		t += mean - jitter + time.Duration(r.Int64N(int64(2*jitter)+1))
		ts[i] = t
	}
	return ts
}

// concat joins schedules, each continuing from the last time of the one
// before plus its own offset.
func concat(parts ...[]time.Duration) []time.Duration {
	var out []time.Duration
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// forward sums the positive gaps of a schedule that starts at start: the
// time that counts when a clock going backwards counts as standing still.
func forward(start time.Duration, ts []time.Duration) time.Duration {
	var f time.Duration
	prev := start
	for _, t := range ts {
		if t > prev {
			f += t - prev
		}
		prev = t
	}
	return f
}

// scenario is one of the classic frame schedules.
type scenario struct {
	name  string
	times []time.Duration
}

// classicScenarios are the schedules every strategy is tested over: a fast
// machine, frames exactly one 40 ms tick apart, a slow machine at 5 FPS, a
// 10 s stall, jittery frames, and a clock that goes backwards.
func classicScenarios() []scenario {
	stallAt := origin + 1000*ms
	back := steady(origin, 16*ms, 1000)
	backTo := back[len(back)-1] - 5*time.Second
	return []scenario{
		{"fast 1ms", steady(origin, ms, 10000)},
		{"exactly one tick", steady(origin, 40*ms, 250)},
		{"slow 200ms", steady(origin, 200*ms, 50)},
		{"stall 10s", concat(steady(origin, ms, 1000), steady(stallAt+10*time.Second, ms, 1000))},
		{"jitter", jittery(1, origin, 16666667, 8*ms, 3600)},
		{"backwards", concat(back, []time.Duration{backTo}, steady(backTo, 16*ms, 1000))},
	}
}

// ceilDiv is ceil(a/b) for a >= 0, b > 0.
func ceilDiv(a, b time.Duration) time.Duration { return (a + b - 1) / b }

// wantTicks is the number of ticks a loop has run after a forward time e
// with no cap and no discard: ceil(e/tick) - 1, and never negative.
func wantTicks(e, tick time.Duration) int64 {
	if e <= 0 {
		return 0
	}
	return int64(ceilDiv(e, tick) - 1)
}
