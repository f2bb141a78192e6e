package adaptive

import "testing"

// among drives a Choice of NewOf through frames whose costs come from
// cost, by option, each reported delay frames after it was drawn.
type among struct {
	c        *Choice
	delay    int
	pending  []late
	frame    int
	drawn    [MaxOptions]int // frames drawn with each option
	trials   int             // frames drawn with an option not in force
	measured int             // frames measured
}

func newAmong(n, delay int) *among {
	s := &among{c: NewOf(n), delay: delay}
	if judgeWhole {
		s.c.JudgeBlocks()
	}
	return s
}

func (s *among) run(frames int, scene Scene, cost func(opt, frame int) Cost) {
	for range frames {
		s.frame++
		for len(s.pending) > 0 && s.pending[0].due <= s.frame {
			s.c.Measured(s.pending[0].tag, s.pending[0].cost)
			s.pending = s.pending[1:]
		}
		opt, measure, tag := s.c.Pick(scene)
		s.drawn[opt]++
		if opt != s.c.Option() {
			s.trials++
		}
		if measure {
			s.measured++
			s.pending = append(s.pending, late{s.frame + s.delay, tag, cost(opt, s.frame)})
		}
	}
}

// flat: each option's frame costs what ns says, with a little noise by
// frame (up to 0.1 ms); option 2's part of it is a strategy's walk.
func flat(ns [MaxOptions]int64) func(int, int) Cost {
	return func(opt, frame int) Cost {
		t := ns[opt] + int64(frame*7919%97)*1000
		if opt == 2 {
			return Cost{Strategy: t / 4, Busy: t - t/4}
		}
		return Cost{Busy: t}
	}
}

// TestAmongFindsTheCheapest: among three options, and among four,
// whichever is the cheapest by more than the margin is in force after
// the first comparisons, from option 0, for every order of the costs:
// among them the case two choices of two options, one after the other,
// got wrong (squares or points, then culled points against the form in
// force): the option in force at first the dearest, the last listed
// cheaper than it and the second cheaper still.
func TestAmongFindsTheCheapest(t *testing.T) {
	for n := 3; n <= MaxOptions; n++ {
		for _, ns := range permutations([]int64{10e6, 14e6, 20e6, 27e6}[:n]) {
			for _, delay := range []int{0, 2} {
				s := newAmong(n, delay)
				s.run(10*MaxTrialFrames, scene10k, flat(ns))
				want := 0
				for i := range n {
					if ns[i] < ns[want] {
						want = i
					}
				}
				if got := s.c.Option(); got != want {
					t.Errorf("costs %v, results %d frames late: option %d in force after %d frames, want %d (drawn %v)", ns[:n], delay, got, s.frame, want, s.drawn)
				}
				// and it holds: no switch in many more frames
				before := s.c.Option()
				for range 20 {
					s.run(MaxEvery, scene10k, flat(ns))
					if s.c.Option() != before {
						t.Fatalf("costs %v: switched from %d to %d in the long run", ns[:n], before, s.c.Option())
					}
				}
			}
		}
	}
}

// permutations is every order of v, each in an array of MaxOptions.
func permutations(v []int64) [][MaxOptions]int64 {
	if len(v) <= 1 {
		var a [MaxOptions]int64
		copy(a[:], v)
		return [][MaxOptions]int64{a}
	}
	var out [][MaxOptions]int64
	for i := range v {
		rest := append(append([]int64(nil), v[:i]...), v[i+1:]...)
		for _, p := range permutations(rest) {
			var a [MaxOptions]int64
			a[0] = v[i]
			copy(a[1:], p[:len(rest)])
			out = append(out, a)
		}
	}
	return out
}

// TestAmongTriesEachAtOnce: after a new scene, and after Restart, every
// other option is tried before the interval between comparisons starts:
// within the frames of two comparisons each.
func TestAmongTriesEachAtOnce(t *testing.T) {
	ns := [MaxOptions]int64{10e6, 11e6, 12e6} // option 0 the cheapest: kept
	s := newAmong(3, 0)
	s.run(2*2*MaxTrialFrames, scene10k, flat(ns))
	if s.drawn[1] == 0 || s.drawn[2] == 0 {
		t.Fatalf("after %d frames, drawn by option %v: each other option tried, want both", s.frame, s.drawn)
	}
	s.run(FirstEvery, scene10k, flat(ns)) // within the interval now: no trial
	s.drawn = [MaxOptions]int{}
	s.c.Restart()
	s.run(2*2*MaxTrialFrames, scene10k, flat(ns))
	if s.drawn[1] == 0 || s.drawn[2] == 0 {
		t.Errorf("after Restart, drawn by option %v: each other option tried, want both", s.drawn)
	}
	frames, tried := s.c.ComparedPair(0, 1)
	frames2, tried2 := s.c.ComparedPair(2, 0)
	all, allTried := s.c.Compared()
	if frames == 0 || frames2 == 0 || frames+frames2 != all || tried+tried2 != allTried {
		t.Errorf("pairs compared 0-1 %d (%d tried), 0-2 %d (%d), want them to add up to all %d (%d)", frames, tried, frames2, tried2, all, allTried)
	}
	if f, _ := s.c.ComparedPair(1, 2); f != 0 {
		t.Errorf("options 1 and 2, never in force together, compared for %d frames", f)
	}
}

// TestAmongFarCheaperFindsItFast: the last option far cheaper (culling
// 100,000 balls on llvmpipe: 40 ms a frame, 540 without, squares or
// points): few frames are drawn with the dear ones, the first
// comparison's block of the option in force and two frames of the other
// before it is plain. The option not yet tried is not tried at once
// (blind, its frames are likely long too) but at the next comparison,
// once the budget allows: then two frames of it.
func TestAmongFarCheaperFindsItFast(t *testing.T) {
	ns := [MaxOptions]int64{540e6, 560e6, 40e6}
	s := newAmong(3, 0)
	s.run(MaxEvery/2, scene10k, flat(ns))
	if s.c.Option() != 2 {
		t.Fatalf("option %d in force, want 2 (drawn %v)", s.c.Option(), s.drawn)
	}
	if dear := s.drawn[0] + s.drawn[1]; dear > Block || s.drawn[1] != 0 {
		t.Errorf("%d frames of %d drawn with options 540 ms and 560 ms (%v), want at most %d, none of the second", dear, s.frame, s.drawn, Block)
	}
	s.run(2*MaxEvery, scene10k, flat(ns))
	if s.c.Option() != 2 || s.drawn[1] == 0 || s.drawn[1] > 2 {
		t.Errorf("after %d frames, option %d in force, drawn %v: want 2 in force, and option 1 tried for 1 or 2 frames", s.frame, s.c.Option(), s.drawn)
	}
}

// TestAmongKeepsToTheOptions: Scene.Options. An option that cannot be
// drawn is never drawn; where the one in force cannot be drawn any more,
// the first listed that can is; with one option left nothing is measured;
// and where all may be drawn again, the cheapest is found again.
func TestAmongKeepsToTheOptions(t *testing.T) {
	ns := [MaxOptions]int64{20e6, 14e6, 10e6}
	s := newAmong(3, 1)
	s.run(6*TrialFrames, scene10k, flat(ns))
	if s.c.Option() != 2 {
		t.Fatalf("option %d in force, want 2", s.c.Option())
	}
	for _, tc := range []struct {
		options uint8
		want    int
	}{{0b011, 1}, {0b101, 2}, {0b001, 0}, {0b100, 2}, {0b110, 2}, {0, 2}} {
		sc := scene10k
		sc.Options = tc.options
		s.drawn, s.measured = [MaxOptions]int{}, 0
		s.run(10*MaxTrialFrames, sc, flat(ns))
		for i, n := range s.drawn {
			if n > 0 && tc.options != 0 && tc.options&(1<<i) == 0 {
				t.Errorf("options %03b: option %d drawn %d times", tc.options, i, n)
			}
		}
		if got := s.c.Option(); got != tc.want {
			t.Errorf("options %03b: option %d in force, want %d (drawn %v)", tc.options, got, tc.want, s.drawn)
		}
		if single := tc.options&(tc.options-1) == 0 && tc.options != 0; single && s.measured > 0 {
			t.Errorf("options %03b: %d frames measured with one option", tc.options, s.measured)
		}
	}
}

// TestAmongNoisy: the three options of the window at 10,000 balls on
// llvmpipe, on the noisy machine of TestNoisyShortFrames: squares, points
// and culled points, in the order the renderer lists them. Over many runs
// of the demo's length, the cheapest is in force at the end of nearly
// all, and few frames are drawn otherwise. Two options to be fooled by,
// not one: at radius 8, squares against culled points alone end 10 runs
// of 200 with culling (8.1 % of the frames), squares against points
// alone 6 (4.3 %), and the three 20 (10.9 %), where the interval between
// comparisons is kept while the untried options are tried (with the
// interval set to one frame for them, it doubled from there, and
// comparisons came every few frames: 33 runs and 23.7 %). The bounds are
// TestNoisyShortFrames' at radius 8.
func TestAmongNoisy(t *testing.T) {
	const runs = 200
	for _, tc := range []struct {
		name        string
		ns          [MaxOptions]int64 // squares, points, culled
		frames      int
		want        int
		wrongEnds   int
		wrongFrames float64
	}{
		// as measured (2026-11-29): radius 8, squares 11.9 ms, culled
		// 14.5; points 1.3 times squares
		{"radius 8: squares", [MaxOptions]int64{11_900_000, 15_500_000, 14_500_000}, 3000, 0, runs * 3 / 20, 0.22},
		// squares dearer than culled points, and points the cheapest of
		// all (as a GPU might measure them)
		{"points the cheapest", [MaxOptions]int64{16_000_000, 10_000_000, 13_000_000}, 3000, 1, runs * 3 / 20, 0.22},
		// culling far cheaper: 100,000 balls
		{"culling", [MaxOptions]int64{400_000_000, 540_000_000, 40_000_000}, 400, 2, 0, 0.05},
	} {
		wrongEnds, wrong := 0, 0
		var ends [MaxOptions]int
		for seed := range uint64(runs) {
			s := newAmong(3, 2)
			// the machine's load, the same whatever a frame draws
			load := noisy(seed, tc.frames, 0, 0, 1e9)
			cost := func(opt, frame int) Cost {
				t := int64(float64(load(false, frame).Busy) / 1e9 * float64(tc.ns[opt]))
				if opt == 2 {
					return Cost{Strategy: t / 40, Busy: t - t/40}
				}
				return Cost{Busy: t}
			}
			warm := tc.frames / 8
			s.run(warm, scene10k, cost)
			s.c.Restart()
			s.run(tc.frames-warm, scene10k, cost)
			if s.c.Option() != tc.want {
				wrongEnds++
				ends[s.c.Option()]++
			}
			wrong += tc.frames - s.drawn[tc.want]
		}
		frac := float64(wrong) / float64(runs*tc.frames)
		t.Logf("%s: another option in force at the end of %d of %d runs %v; %.2f%% of frames drawn otherwise", tc.name, wrongEnds, runs, ends, 100*frac)
		if wrongEnds > tc.wrongEnds || frac > tc.wrongFrames {
			t.Errorf("%s: another option in force at the end of %d of %d runs (want at most %d), %.2f%% of frames drawn otherwise (want at most %.0f%%)",
				tc.name, wrongEnds, runs, tc.wrongEnds, 100*frac, 100*tc.wrongFrames)
		}
	}
}

// TestAmongAllocatesNothing: Pick and Measured allocate nothing.
func TestAmongAllocatesNothing(t *testing.T) {
	c := NewOf(3)
	frame := 0
	ns := flat([MaxOptions]int64{10e6, 11e6, 9e6})
	if n := testing.AllocsPerRun(5000, func() {
		frame++
		opt, measure, tag := c.Pick(scene10k)
		if measure {
			c.Measured(tag, ns(opt, frame))
		}
	}); n != 0 {
		t.Errorf("%v allocations a frame", n)
	}
}

// TestNewOfBounds: NewOf keeps to 1 to MaxOptions options, and Measures
// answers -1 outside them.
func TestNewOfBounds(t *testing.T) {
	for _, n := range []int{-1, 0, 1, 2, 3, 9} {
		c := NewOf(n)
		want := min(max(n, 1), MaxOptions)
		if c.n != want {
			t.Errorf("NewOf(%d): %d options, want %d", n, c.n, want)
		}
		for range 3 * MaxTrialFrames {
			if opt, _, _ := c.Pick(scene10k); opt >= want {
				t.Fatalf("NewOf(%d): option %d drawn", n, opt)
			}
		}
		if tot, st, gpu := c.Measures(want); tot != -1 || st != -1 || gpu != -1 {
			t.Errorf("NewOf(%d).Measures(%d) = %d, %d, %d, want -1s", n, want, tot, st, gpu)
		}
	}
}

// TestLastIsOneComparison: Last gives the option in force among the two
// of the last comparison that ended, with the costs that comparison
// measured of each, whatever other comparisons measured since.
func TestLastIsOneComparison(t *testing.T) {
	s := newAmong(3, 0)
	if _, _, _, _, ok := s.c.Last(); ok {
		t.Fatal("a last comparison before any ended")
	}
	s.run(10*MaxTrialFrames, scene10k, flat([MaxOptions]int64{20e6, 14e6, 10e6}))
	a, b, ta, tb, ok := s.c.Last()
	in := s.c.Option()
	if !ok || a == b || (in != a && in != b) {
		t.Fatalf("last comparison %d against %d (ok %v), option %d in force: want it among them", a, b, ok, in)
	}
	for _, x := range [2]struct {
		opt  int
		cost int64
	}{{a, ta}, {b, tb}} {
		if want := [MaxOptions]int64{20e6, 14e6, 10e6}[x.opt]; x.cost < want || x.cost > want+100_000 {
			t.Errorf("option %d cost %d ns in the last comparison, want its %d (and up to 0.1 ms of noise)", x.opt, x.cost, want)
		}
	}
}
