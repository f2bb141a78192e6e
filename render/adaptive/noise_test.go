package adaptive

import (
	"math"
	"math/rand/v2"
	"testing"
)

// noisy returns the costs of n frames as a busy 2-core machine with a
// software rasterizer gives them, for options that cost on and off
// nanoseconds by themselves (the strategy's walk, walk, part of on's):
// each frame's cost varies by a third either way; one in ten finds the
// rasterizer done early and costs a tenth to a half; one in thirty is
// held up by the scheduler, 3 to 15 times its cost; and the machine's other work comes
// in bursts of 3 to 40 frames that make every frame 1.5 to 4 times
// dearer, one frame in five spent in one. As measured at 10,000 balls of
// radius 1 on llvmpipe, each option's frames spread over 3x and more,
// far more than the options differ.
func noisy(seed uint64, n int, walk, on, off int64) func(bool, int) Cost {
	rng := rand.New(rand.NewPCG(seed, 34))
	f := make([]float64, n+1)
	for i := 0; i <= n; {
		if rng.IntN(100) < 1 { // a burst of load
			k := 3 + rng.IntN(38)
			x := 1.5 + 2.5*rng.Float64()
			for ; k > 0 && i <= n; k, i = k-1, i+1 {
				f[i] = x
			}
			continue
		}
		f[i] = 1
		i++
	}
	for i := range f {
		f[i] *= math.Exp(0.35 * rng.NormFloat64())
		switch r := rng.IntN(30); {
		case r < 3:
			f[i] *= 0.1 + 0.4*rng.Float64()
		case r == 3:
			f[i] *= 3 + 12*rng.Float64()
		}
	}
	return func(drawn bool, frame int) Cost {
		x := f[min(frame, n)]
		if drawn {
			return Cost{Strategy: int64(float64(walk) * x), Busy: int64(float64(on-walk) * x)}
		}
		return Cost{Busy: int64(float64(off) * x)}
	}
}

// TestNoisyShortFrames: 10,000 balls of radius 1 on llvmpipe, where
// almost nothing is hidden and culling costs a little more than it saves,
// on a busy machine: frames of a few milliseconds, each option's spread
// over far more than they differ (as measured, 2026-11-26: the lower
// quartiles of the frames a comparison counts, 3.6 ms with culling and
// 3.2 without, over 10 runs of the demo; a frame with culling cheaper
// than one without in 47 % of pairs). Over many runs of 8 s as the
// demo's (a comparison at start, another after its 1 s warm-up), the
// choice must end with culling off nearly always and cull few frames,
// trials included. And where culling pays (radius 8: 14.4 ms against
// 18.2, frames five times longer), it must still be taken up, and kept.
// The choice before issue 34's fix ended 92 of the 400 runs at radius 1
// with culling on, 18.5 % of the frames culled, and 99 at radius 8 with
// culling off, 32 % of the frames not culled.
func TestNoisyShortFrames(t *testing.T) {
	const runs = 400
	for _, tc := range []struct {
		name         string
		on, off      int64
		frames, warm int // frames of a run, and of the warm-up in them
		want         bool
		wrongEnds    int     // runs ending with the dearer option, at most
		wrongFrames  float64 // frames drawn with the dearer option, at most
	}{
		// 8 s at 4 ms a frame: before the fix 92 runs and 18.5 %; with
		// a switch confirmed by the margin again, 13 and 6.4 %, but then
		// the real GL test at radius 8 (TestAutoCullingChoosesByCost)
		// missed culling for most of its frames in 2 runs of 3: a
		// confirmation by the direction alone, 28 and 9 %.
		{"radius 1: culling 12 % dearer", 3_600_000, 3_200_000, 2000, 250, false, runs / 10, 0.11},
		// The frame p50s of issue 34's table: before the fix 0 runs and
		// 0.6 % (its trials: they are more now, 1.8 %).
		{"culling 3 times dearer", 3_500_000, 1_100_000, 2000, 250, false, 0, 0.03},
		// 75 s at 25 ms: before the fix 99 runs and 32 %.
		{"radius 8: culling 21 % cheaper", 14_400_000, 18_200_000, 3000, 40, true, runs * 3 / 20, 0.22},
	} {
		wrongEnds, wrongFrames := 0, 0
		for seed := range uint64(runs) {
			s := newSim(Auto, 2)
			cost := noisy(seed, tc.frames, 200_000, tc.on, tc.off)
			s.run(tc.warm, scene10k, cost)
			s.c.Restart()
			s.run(tc.frames-tc.warm, scene10k, cost)
			if s.c.On() != tc.want {
				wrongEnds++
			}
			if tc.want {
				wrongFrames += tc.frames - s.onFrames
			} else {
				wrongFrames += s.onFrames
			}
		}
		frac := float64(wrongFrames) / float64(runs*tc.frames)
		t.Logf("%s: the dearer option in force at the end of %d of %d runs; %.2f%% of frames drawn with it", tc.name, wrongEnds, runs, 100*frac)
		if wrongEnds > tc.wrongEnds {
			t.Errorf("%s: the dearer option in force at the end of %d of %d runs, want at most %d", tc.name, wrongEnds, runs, tc.wrongEnds)
		}
		if frac > tc.wrongFrames {
			t.Errorf("%s: %.2f%% of frames drawn with the dearer option, want at most %.0f%%", tc.name, 100*frac, 100*tc.wrongFrames)
		}
	}
}

// TestNoisyFewTrials: over long runs on the noisy machine, with options
// close enough that a comparison now and then finds the other cheaper
// (and its confirmation, measured longer, mostly does not), under 1 % of
// the frames try the other option once the first comparisons are over.
func TestNoisyFewTrials(t *testing.T) {
	const seeds, frames = 10, 200_000
	trials := 0
	for seed := range uint64(seeds) {
		s := newSim(Auto, 2)
		cost := noisy(seed, frames, 200_000, 3_000_000, 3_200_000)
		s.run(1000, scene10k, cost)
		s.trials = 0
		s.run(frames-1000, scene10k, cost)
		trials += s.trials
	}
	if f := float64(trials) / (seeds * (frames - 1000)); f > 0.01 {
		t.Errorf("%.2f%% of frames tried the other option, want under 1%%", 100*f)
	} else {
		t.Logf("%.2f%% of frames tried the other option", 100*f)
	}
}
