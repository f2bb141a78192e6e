package input

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// messyEvents returns a random event stream as a platform might deliver
// it: key repeat, releases of keys that are up, simultaneous events, stamps
// a little out of order, buttons beyond the four arrows, and invalid ones.
func messyEvents(rng *rand.Rand, n int) []Event {
	events := make([]Event, n)
	var t time.Duration
	for i := range events {
		switch k := rng.IntN(10); {
		case k == 0:
			// simultaneous with the previous event
		case k == 1:
			t -= time.Duration(rng.IntN(5000)) * time.Microsecond // out of order
		case k < 5:
			t += time.Duration(rng.IntN(20)) * ms
		default:
			t += time.Duration(rng.Int64N(int64(300 * ms)))
		}
		b := Button(rng.IntN(6))
		if rng.IntN(50) == 0 {
			b = MaxButton + 1 + Button(rng.IntN(10))
		}
		events[i] = Event{Time: t, Button: b, Down: rng.IntN(2) == 0}
	}
	return events
}

// randomFrames returns frame times: steady rates with jitter, slow frames,
// and stalls of up to 3 s.
func randomFrames(rng *rand.Rand, until time.Duration) []time.Duration {
	var fs []time.Duration
	var t time.Duration
	step := []time.Duration{1 * ms, 7 * ms, 16 * ms, 40 * ms, 200 * ms}[rng.IntN(5)]
	for t < until {
		switch rng.IntN(40) {
		case 0:
			t += time.Duration(rng.Int64N(int64(3 * time.Second))) // stall
		case 1:
			step = []time.Duration{1 * ms, 7 * ms, 16 * ms, 40 * ms, 200 * ms}[rng.IntN(5)]
		}
		t += step/2 + time.Duration(rng.Int64N(int64(step)))
		fs = append(fs, t)
	}
	return fs
}

func randomModel(rng *rand.Rand) loopModel {
	return loopModel{
		tick:     time.Duration(5+rng.IntN(60)) * ms,
		maxLoops: 1 + rng.IntN(10),
		lockstep: rng.IntN(2) == 0,
	}
}

// effective counts the presses and releases that are not key repeat,
// independently of the Sampler: per button, a press counts when the button
// is up, a release when it is down.
func effective(events []Event) (presses, releases int) {
	down := map[Button]bool{}
	for _, e := range events {
		if e.Button > MaxButton || e.Down == down[e.Button] {
			continue
		}
		down[e.Button] = e.Down
		if e.Down {
			presses++
		} else {
			releases++
		}
	}
	return
}

// checkRecords checks what must hold for any record sequence: every
// effective press shows up as Pressed in exactly one tick, every release is
// accounted for, and each record is consistent with the one before it.
func checkRecords(t *testing.T, events []Event, recs []Record) {
	t.Helper()
	wantP, wantR := effective(events)
	gotP, gotR := 0, 0
	var prev Record
	for i, r := range recs {
		gotP += r.Pressed.Count()
		gotR += r.Released.Count()
		// A tick takes at most one press of a button, so a button held
		// when the tick began, pressed and released in it and up at its
		// end went release, press, release: two releases in one bit.
		gotR += (prev.Held & r.Pressed & r.Released &^ r.Held).Count()
		for b := Button(0); b <= MaxButton; b++ {
			p, rel, was, is := r.Pressed.Has(b), r.Released.Has(b), prev.Held.Has(b), r.Held.Has(b)
			bad := false
			switch {
			case !p && !rel:
				bad = was != is
			case p && !rel:
				bad = was || !is
			case !p && rel:
				bad = !was || is
			}
			if bad {
				t.Fatalf("tick %d: %v inconsistent after %v (button %v)", i, r, prev, b)
			}
		}
		prev = r
	}
	if gotP != wantP || gotR != wantR {
		t.Fatalf("records hold %d presses and %d releases, the events %d and %d", gotP, gotR, wantP, wantR)
	}
	if prev.Held != 0 && wantP == wantR {
		t.Fatalf("buttons %v still held after every release", prev.Held)
	}
}

// TestRecordsIndependentOfFrames: for random event streams and random frame
// schedules (stalls included, debt kept or discarded), the records depend
// only on the event times and the tick spans: feeding events as frames
// deliver them gives the same records as feeding them all up front and
// ticking one by one; no press or release is lost; and in lockstep mode,
// where no time is discarded, two different frame schedules give the same
// records.
func TestRecordsIndependentOfFrames(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		events := messyEvents(rng, 1+rng.IntN(200))
		m := randomModel(rng)
		until := events[len(events)-1].Time + time.Second
		a := m.run(NewSampler(), events, randomFrames(rng, until))
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			if up := tickAll(events, a.ends); !slices.Equal(a.recs, up) {
				i := firstDiff(a.recs, up)
				t.Fatalf("tick %d (end %v): live %v, up front %v", i, a.ends[i], a.recs[i], up[i])
			}
			checkRecords(t, events, a.recs)
			if !m.lockstep {
				return
			}
			for i, end := range a.ends {
				if end != time.Duration(i+1)*m.tick {
					t.Fatalf("lockstep tick %d ends at %v (model loop broken)", i, end)
				}
			}
			b := m.run(NewSampler(), events, randomFrames(rng, until))
			n := min(len(a.recs), len(b.recs))
			if i := firstDiff(a.recs[:n], b.recs[:n]); i >= 0 {
				t.Fatalf("tick %d: %v with one frame schedule, %v with another", i, a.recs[i], b.recs[i])
			}
		})
	}
}

func firstDiff(a, b []Record) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// interval is one press of a button: down over [p, r).
type interval struct {
	b    Button
	p, r time.Duration
}

// cleanEvents returns a well-formed stream (no repeats, times in order, no
// two buttons changing at the same instant) and the intervals it holds.
// Times fall on whole milliseconds most of the time, so many land exactly
// on span boundaries. Some taps have zero length.
func cleanEvents(rng *rand.Rand, n int) ([]Event, []interval) {
	var events []Event
	open := map[Button]int{} // button -> index in ivs of its open interval
	var ivs []interval
	t := time.Duration(rng.IntN(100)) * ms
	for len(events) < n {
		b := Button(rng.IntN(4))
		if i, ok := open[b]; ok {
			events = append(events, release(t, b))
			ivs[i].r = t
			delete(open, b)
		} else {
			events = append(events, press(t, b))
			if rng.IntN(10) == 0 { // zero-length tap
				events = append(events, release(t, b))
				ivs = append(ivs, interval{b, t, t})
			} else {
				open[b] = len(ivs)
				ivs = append(ivs, interval{b, t, 1 << 62})
			}
		}
		gap := time.Duration(1+rng.IntN(150)) * ms
		if rng.IntN(4) == 0 {
			gap += time.Duration(rng.IntN(1000)) * time.Microsecond
		}
		t += gap
	}
	return events, ivs
}

// TestRecordsMatchIntervals checks each record against interval arithmetic,
// independently of the Sampler's algorithm: with tick i taking the window
// [E(i-1), E(i)) of the loop's clock (E(-1) = -inf; the window is longer
// than a tick when the loop discarded time),
//
//   - Left is in Down(prev) exactly when a press interval [p, r) of it meets
//     the window (p < E(i) and r > E(i-1)), or a zero-length tap lies in it;
//   - Pressed when some p lies in [E(i-1), E(i));
//   - Released when some r lies in (E(i-1), E(i)], or a zero-length tap
//     lies in the window;
//   - Held when some interval has p < E(i) < r.
//
// This holds until the first window that holds two presses of one button,
// where the Sampler defers the second press; the check stops there.
func TestRecordsMatchIntervals(t *testing.T) {
	checked := 0
	for seed := uint64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewPCG(seed, 2))
		events, ivs := cleanEvents(rng, 2+rng.IntN(100))
		m := randomModel(rng)
		until := events[len(events)-1].Time + time.Second
		run := m.run(NewSampler(), events, randomFrames(rng, until))
		const minTime = -1 << 62
		start := time.Duration(minTime)
	ticks:
		for i, end := range run.ends {
			var want Record
			var down Buttons
			presses := map[Button]int{}
			for _, iv := range ivs {
				if iv.p >= start && iv.p < end {
					want.Pressed = want.Pressed.With(iv.b)
					presses[iv.b]++
				}
				if (iv.p < iv.r && iv.r > start && iv.r <= end) ||
					(iv.p == iv.r && iv.p >= start && iv.p < end) {
					want.Released = want.Released.With(iv.b)
				}
				if iv.p < end && end < iv.r {
					want.Held = want.Held.With(iv.b)
				}
				if (iv.p < end && iv.r > start) || (iv.p == iv.r && iv.p >= start && iv.p < end) {
					down = down.With(iv.b)
				}
			}
			for _, n := range presses {
				if n > 1 {
					break ticks // deferral from here on
				}
			}
			var prev Record
			if i > 0 {
				prev = run.recs[i-1]
			}
			if got := run.recs[i]; got != want || got.Down(prev) != down {
				t.Fatalf("seed %d tick %d window [%v, %v): got %v down %v, want %v down %v",
					seed, i, start, end, got, got.Down(prev), want, down)
			}
			checked++
			start = end
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d ticks checked against intervals", checked)
	}
	t.Logf("%d ticks checked against interval arithmetic", checked)
}
