package input

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

const ms = time.Millisecond

// press and release build events.
func press(t time.Duration, b Button) Event   { return Event{Time: t, Button: b, Down: true} }
func release(t time.Duration, b Button) Event { return Event{Time: t, Button: b, Down: false} }

// tap returns the press and release of a tap of b from start for d.
func tap(b Button, start, d time.Duration) []Event {
	return []Event{press(start, b), release(start+d, b)}
}

var (
	L = Of(Left)
	R = Of(Right)
	U = Of(Up)
	D = Of(Down)
)

// The expected records below are written by hand from the span arithmetic
// (tick = 40 ms; tick k covers [40k, 40k+40) ms; a press at p belongs to the
// tick whose span holds p, a release at r to the tick with S < r <= E), not
// from the Sampler. acts lists the ticks whose Down(prev) holds Left.
var tapCases = []struct {
	name   string
	events []Event
	want   map[int]Record // tick index -> record; every other tick is zero
	acts   []int          // ticks acting on Left
}{
	{
		name:   "5ms tap inside a span",
		events: tap(Left, 10*ms, 5*ms), // [10, 15)
		want:   map[int]Record{0: {Pressed: L, Released: L}},
		acts:   []int{0},
	},
	{
		name:   "5ms tap across a boundary",
		events: tap(Left, 37*ms, 5*ms), // [37, 42)
		want:   map[int]Record{0: {Held: L, Pressed: L}, 1: {Released: L}},
		acts:   []int{0, 1},
	},
	{
		name:   "39ms tap from a span start",
		events: tap(Left, 0, 39*ms), // [0, 39)
		want:   map[int]Record{0: {Pressed: L, Released: L}},
		acts:   []int{0},
	},
	{
		name:   "39ms tap 10ms into a span",
		events: tap(Left, 10*ms, 39*ms), // [10, 49)
		want:   map[int]Record{0: {Held: L, Pressed: L}, 1: {Released: L}},
		acts:   []int{0, 1},
	},
	{
		name:   "40ms tap exactly one span",
		events: tap(Left, 40*ms, 40*ms), // [40, 80): released exactly at the end of tick 1
		want:   map[int]Record{1: {Pressed: L, Released: L}},
		acts:   []int{1},
	},
	{
		name:   "41ms tap 10ms into a span",
		events: tap(Left, 10*ms, 41*ms), // [10, 51)
		want:   map[int]Record{0: {Held: L, Pressed: L}, 1: {Released: L}},
		acts:   []int{0, 1},
	},
	{
		name:   "41ms tap from a span start",
		events: tap(Left, 80*ms, 41*ms), // [80, 121)
		want:   map[int]Record{2: {Held: L, Pressed: L}, 3: {Released: L}},
		acts:   []int{2, 3},
	},
	{
		name:   "400ms hold from a span start",
		events: tap(Left, 0, 400*ms), // [0, 400): 10 spans
		want: map[int]Record{
			0: {Held: L, Pressed: L},
			1: {Held: L}, 2: {Held: L}, 3: {Held: L}, 4: {Held: L},
			5: {Held: L}, 6: {Held: L}, 7: {Held: L}, 8: {Held: L},
			9: {Released: L},
		},
		acts: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
	},
	{
		name:   "400ms hold 10ms into a span",
		events: tap(Left, 10*ms, 400*ms), // [10, 410): 11 spans
		want: map[int]Record{
			0: {Held: L, Pressed: L},
			1: {Held: L}, 2: {Held: L}, 3: {Held: L}, 4: {Held: L},
			5: {Held: L}, 6: {Held: L}, 7: {Held: L}, 8: {Held: L}, 9: {Held: L},
			10: {Released: L},
		},
		acts: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
	},
	{
		name: "zero-length tap at a boundary",
		// A press at exactly 40 belongs to [40, 80), and so does the
		// release that follows it.
		events: tap(Left, 40*ms, 0),
		want:   map[int]Record{1: {Pressed: L, Released: L}},
		acts:   []int{1},
	},
	{
		name:   "two taps in one span: the second waits a tick",
		events: slices.Concat(tap(Left, 5*ms, 5*ms), tap(Left, 20*ms, 5*ms)),
		want: map[int]Record{
			0: {Pressed: L, Released: L},
			1: {Pressed: L, Released: L},
		},
		acts: []int{0, 1},
	},
	{
		name: "release and press again in one span",
		// [10, 50) then [60, 100): tick 1 sees the release at 50 and
		// the press at 60, and Left stays held.
		events: slices.Concat(tap(Left, 10*ms, 40*ms), tap(Left, 60*ms, 40*ms)),
		want: map[int]Record{
			0: {Held: L, Pressed: L},
			1: {Held: L, Pressed: L, Released: L},
			2: {Released: L},
		},
		acts: []int{0, 1, 2},
	},
	{
		name: "two buttons overlapping",
		// Left [10, 50), Right [30, 35), Up [45, 130)
		events: []Event{
			press(10*ms, Left), press(30*ms, Right), release(35*ms, Right),
			press(45*ms, Up), release(50*ms, Left), release(130*ms, Up),
		},
		want: map[int]Record{
			0: {Held: L, Pressed: L | R, Released: R},
			1: {Held: U, Pressed: U, Released: L},
			2: {Held: U},
			3: {Released: U},
		},
		acts: []int{0, 1},
	},
}

// TestTapsAtFrameRates runs every scripted tap through the model loop at
// 1000, 25 and 5 frames per second: each tick gets exactly the record
// derived by hand, whatever the frame rate.
func TestTapsAtFrameRates(t *testing.T) {
	const ticks = 15
	for _, frame := range []time.Duration{1 * ms, 40 * ms, 200 * ms} {
		for _, tc := range tapCases {
			t.Run(fmt.Sprintf("frame=%v/%s", frame, tc.name), func(t *testing.T) {
				m := loopModel{tick: 40 * ms, maxLoops: 10}
				run := m.run(NewSampler(), tc.events, framesEvery(frame, 1000*ms))
				if len(run.recs) < ticks {
					t.Fatalf("only %d ticks ran", len(run.recs))
				}
				for i := 0; i < ticks; i++ {
					if want := time.Duration(i+1) * 40 * ms; run.ends[i] != want {
						t.Fatalf("tick %d: span end %v, want %v (model loop broken)", i, run.ends[i], want)
					}
					if got, want := run.recs[i], tc.want[i]; got != want {
						t.Errorf("tick %d: got %v, want %v", i, got, want)
					}
				}
				if got := actsOn(run.recs[:ticks], Left); !slices.Equal(got, tc.acts) {
					t.Errorf("Left acts on ticks %v, want %v", got, tc.acts)
				}
			})
		}
	}
}

// actsOn lists the ticks whose Down(prev) holds b.
func actsOn(recs []Record, b Button) []int {
	var ticks []int
	var prev Record
	for i, r := range recs {
		if r.Down(prev).Has(b) {
			ticks = append(ticks, i)
		}
		prev = r
	}
	return ticks
}

// TestStallDiscardsTimeNotInput stalls the loop for 900 ms in solo mode with
// at most 5 catch-up ticks: the loop runs 5 ticks and discards the rest of
// the debt. Taps made during the stall land in their own ticks, and taps in
// the discarded time go to the first tick after it.
func TestStallDiscardsTimeNotInput(t *testing.T) {
	// Frames every 10 ms up to 100, a stall until 1000, then every 10 ms.
	frames := framesEvery(10*ms, 100*ms)
	for f := 1000 * ms; f <= 1300*ms; f += 10 * ms {
		frames = append(frames, f)
	}
	events := slices.Concat(
		tap(Left, 100*ms, 50*ms),  // [100, 150): before the stall ends, inside run ticks
		tap(Right, 500*ms, 20*ms), // in discarded time
		tap(Up, 600*ms, 10*ms),    // in discarded time
		tap(Up, 700*ms, 10*ms),    // a second Up tap in the same tick: waits one tick
		tap(Down, 900*ms, 200*ms), // [900, 1100): pressed in discarded time
	)
	m := loopModel{tick: 40 * ms, maxLoops: 5}
	run := m.run(NewSampler(), events, frames)

	// Derived by hand: ticks end at 40 and 80 (frames 50 and 90); at frame
	// 1000 five ticks end at 120..280, then time0 = 1000-40 = 960; the next
	// ticks end at 1000 (frame 1010), 1040 (frame 1050), 1080, 1120.
	wantEnds := []time.Duration{40, 80, 120, 160, 200, 240, 280, 1000, 1040, 1080, 1120}
	for i := range wantEnds {
		wantEnds[i] *= ms
	}
	if len(run.ends) < len(wantEnds) || !slices.Equal(run.ends[:len(wantEnds)], wantEnds) {
		t.Fatalf("span ends %v, want prefix %v", run.ends, wantEnds)
	}
	want := []Record{
		0:  {},
		1:  {},
		2:  {Held: L, Pressed: L},                  // [80,120): Left down at 100
		3:  {Released: L},                          // [120,160): up at 150
		4:  {},                                     //
		5:  {},                                     //
		6:  {},                                     // [240,280)
		7:  {Pressed: R | U, Released: R | U},      // [280,1000): the discarded time
		8:  {Held: D, Pressed: U | D, Released: U}, // the second Up tap, and Down behind it
		9:  {Held: D},                              //
		10: {Released: D},                          // [1080,1120): up at 1100
	}
	for i, w := range want {
		if run.recs[i] != w {
			t.Errorf("tick %d (end %v): got %v, want %v", i, run.ends[i], run.recs[i], w)
		}
	}
	for _, r := range run.recs[len(want):] {
		if !r.IsZero() {
			t.Errorf("extra input after tick %d: %v", len(want)-1, r)
		}
	}
}

func TestPushIgnoresRepeatsAndInvalidButtons(t *testing.T) {
	s := NewSampler()
	s.Push(release(1*ms, Left)) // up already: ignored
	s.Push(press(2*ms, Left))
	s.Push(press(3*ms, Left)) // key repeat: ignored
	s.Push(press(4*ms, Left)) // key repeat: ignored
	s.Push(press(5*ms, MaxButton+1))
	s.Push(release(6*ms, MaxButton+1))
	if got := s.Pending(); got != 1 {
		t.Fatalf("Pending = %d, want 1 (only the first press)", got)
	}
	if got, want := s.Tick(40*ms), (Record{Held: L, Pressed: L}); got != want {
		t.Fatalf("got %v, want %v", got, want)
	}
	s.Push(release(50*ms, Left))
	s.Push(release(51*ms, Left)) // ignored
	if got, want := s.Tick(80*ms), (Record{Released: L}); got != want {
		t.Fatalf("got %v, want %v", got, want)
	}
	if s.Pending() != 0 {
		t.Fatalf("Pending = %d after draining", s.Pending())
	}
}

func TestPushClampsOutOfOrderTimes(t *testing.T) {
	s := NewSampler()
	s.Push(press(45*ms, Left))
	// Stamped 10 ms earlier than the press, so treated as at 45 ms: it is
	// not part of tick [0, 40).
	s.Push(press(35*ms, Right))
	if got := s.Tick(40 * ms); !got.IsZero() {
		t.Fatalf("tick [0,40): got %v, want nothing", got)
	}
	if got, want := s.Tick(80*ms), (Record{Held: L | R, Pressed: L | R}); got != want {
		t.Fatalf("tick [40,80): got %v, want %v", got, want)
	}
	// Negative times are fine before anything is seen.
	s.Reset()
	s.Push(press(-5*ms, Up))
	if got, want := s.Tick(0), (Record{Held: U, Pressed: U}); got != want {
		t.Fatalf("after Reset: got %v, want %v", got, want)
	}
}

func TestLateEventGoesToNextTick(t *testing.T) {
	s := NewSampler()
	if got := s.Tick(40 * ms); !got.IsZero() {
		t.Fatalf("got %v", got)
	}
	s.Push(press(30*ms, Left)) // its tick already ran
	s.Push(release(35*ms, Left))
	if got, want := s.Tick(80*ms), (Record{Pressed: L, Released: L}); got != want {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestTickClampsBackwardsSpanEnd ticks with span ends that go backwards:
// each is taken as the previous tick's end, so events already due (late
// events whose tick had run) still go to the next tick instead of being
// held back, and the ticks after it carry on as usual. Reset forgets the
// last end.
func TestTickClampsBackwardsSpanEnd(t *testing.T) {
	s := NewSampler()
	s.Push(press(10*ms, Left))
	if got, want := s.Tick(40*ms), (Record{Held: L, Pressed: L}); got != want {
		t.Fatalf("tick [0,40): got %v, want %v", got, want)
	}
	// Late events of tick [0, 40), pushed after it ran, and a tick whose
	// end went back to 20 ms: taken as 40 ms, it takes them all.
	s.Push(release(30*ms, Left))
	s.Push(press(35*ms, Right))
	s.Push(release(38*ms, Right))
	s.Push(press(40*ms, Up)) // at the previous end: for the span after it
	want := Record{Pressed: R, Released: L | R}
	if got := s.Tick(20 * ms); got != want {
		t.Fatalf("tick ending at 20 ms after 40 ms: got %v, want %v", got, want)
	}
	if got, want := s.Held(), Buttons(0); got != want {
		t.Fatalf("Held = %v, want %v", got, want)
	}
	// A press still pending waits for a span that really moves on.
	if got := s.Tick(-time.Hour); !got.IsZero() {
		t.Fatalf("tick ending at -1h: got %v, want nothing", got)
	}
	if got, want := s.Tick(80*ms), (Record{Held: U, Pressed: U}); got != want {
		t.Fatalf("tick [40,80): got %v, want %v", got, want)
	}
	// After a Reset the clock may start again from anywhere.
	s.Reset()
	s.Push(press(20*ms, Down))
	if got := s.Tick(10 * ms); !got.IsZero() {
		t.Fatalf("after Reset, tick ending at 10 ms: got %v, want nothing", got)
	}
	if got, want := s.Tick(40*ms), (Record{Held: D, Pressed: D}); got != want {
		t.Fatalf("after Reset, tick ending at 40 ms: got %v, want %v", got, want)
	}
}

// TestBackwardsSpanEndsActAsPreviousEnd feeds random event streams live,
// with span ends that now and then step back, and checks that the records
// are those of the same run with every end raised to the latest end so far,
// and that no press or release is lost.
func TestBackwardsSpanEndsActAsPreviousEnd(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		events := messyEvents(rng, 1+rng.IntN(100))
		until := events[len(events)-1].Time + time.Second
		var ends, clamped []time.Duration
		var end, latest time.Duration
		for end < until || len(ends) < 10 {
			step := time.Duration(rng.IntN(80)) * ms
			if rng.IntN(4) == 0 {
				step = -step
			}
			end += step
			if len(ends) == 0 {
				latest = end
			}
			latest = max(latest, end)
			ends = append(ends, end)
			clamped = append(clamped, latest)
		}
		live := func(ends []time.Duration) []Record {
			// Deliver each event a random number of ticks late, always
			// before the ticks catch up with the end of the run.
			s := NewSampler()
			r := rand.New(rand.NewPCG(seed, 4))
			var recs []Record
			next := 0
			for i, e := range ends {
				for next < len(events) && (events[next].Time <= clamped[i] && r.IntN(3) > 0 || i == len(ends)-1) {
					s.Push(events[next])
					next++
				}
				recs = append(recs, s.Tick(e))
			}
			for end := latest; s.Pending() > 0; {
				end += 40 * ms
				recs = append(recs, s.Tick(end))
			}
			return recs
		}
		got, want := live(ends), live(clamped)
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("seed %d tick %d: got %v, want %v as with the end raised", seed, i, got[i], want[i])
		}
		checkRecords(t, events, got)
	}
}

// TestQueueGrowsWithoutLoss pushes a burst far larger than the initial
// queue, split across the ring's wrap point, and checks every press comes
// out.
func TestQueueGrowsWithoutLoss(t *testing.T) {
	for _, s := range []*Sampler{NewSampler(), {}} {
		// Move head away from 0 so that growth must unwrap the ring.
		s.Push(press(1*ms, Right))
		s.Push(release(2*ms, Right))
		s.Tick(10 * ms)
		const taps = 1000
		for i := 0; i < taps; i++ {
			// Alternate buttons so that 4 taps fit in each tick.
			b := Button(i % 4)
			at := time.Duration(i) * 10 * ms
			s.Push(press(at, b))
			s.Push(release(at+ms, b))
		}
		if s.Pending() != 2*taps {
			t.Fatalf("Pending = %d, want %d", s.Pending(), 2*taps)
		}
		presses := 0
		for tick := 1; s.Pending() > 0; tick++ {
			r := s.Tick(time.Duration(tick) * 40 * ms)
			presses += r.Pressed.Count()
			if r.Pressed != Of(Left, Right, Up, Down) && s.Pending() > 0 {
				t.Fatalf("tick %d: pressed %v, want all four", tick, r.Pressed)
			}
		}
		if presses != taps {
			t.Fatalf("%d presses came out, want %d", presses, taps)
		}
	}
}

func TestResetForgetsEverything(t *testing.T) {
	s := NewSampler()
	s.Push(press(1*ms, Left))
	s.Tick(40 * ms)
	s.Push(press(50*ms, Right))
	s.Reset()
	if s.Pending() != 0 || s.Held() != 0 {
		t.Fatalf("after Reset: pending %d, held %v", s.Pending(), s.Held())
	}
	s.Push(release(60*ms, Left)) // its press was forgotten: ignored
	if got := s.Tick(80 * ms); !got.IsZero() {
		t.Fatalf("got %v, want nothing", got)
	}
}

func TestReleaseAll(t *testing.T) {
	s := NewSampler()
	s.Push(press(1*ms, Left))
	s.Push(press(2*ms, Up))
	s.Push(press(3*ms, MaxButton))
	s.ReleaseAll(10 * ms)
	s.ReleaseAll(11 * ms) // nothing left down: no events
	if s.Pending() != 6 {
		t.Fatalf("Pending = %d, want 6", s.Pending())
	}
	want := Record{Pressed: Of(Left, Up, MaxButton), Released: Of(Left, Up, MaxButton)}
	if got := s.Tick(40 * ms); got != want {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestSamplerAllocs(t *testing.T) {
	s := NewSampler()
	var now time.Duration
	allocs := testing.AllocsPerRun(1000, func() {
		s.Push(press(now+1*ms, Left))
		s.Push(press(now+2*ms, Right))
		s.Push(release(now+30*ms, Left))
		s.Push(release(now+45*ms, Right))
		now += 40 * ms
		s.Tick(now)
	})
	if allocs != 0 {
		t.Fatalf("Push+Tick allocates %v times per tick, want 0", allocs)
	}
}

func BenchmarkSamplerPushTick(b *testing.B) {
	s := NewSampler()
	var now time.Duration
	b.ReportAllocs()
	for b.Loop() {
		s.Push(press(now+1*ms, Left))
		s.Push(release(now+30*ms, Left))
		now += 40 * ms
		s.Tick(now)
	}
}

func BenchmarkSamplerIdleTick(b *testing.B) {
	s := NewSampler()
	var now time.Duration
	b.ReportAllocs()
	for b.Loop() {
		now += 40 * ms
		s.Tick(now)
	}
}
