package adaptive

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWholeBlockEdges: judging blocks whole, the first frame of each
// block of a comparison opens it and the last closes it; where the
// comparison starts without settling frames (here with nothing drawn
// before), its first block is short, and each of its frames closes (waits
// for its own work). Without JudgeBlocks, no frame opens or closes.
func TestWholeBlockEdges(t *testing.T) {
	for _, whole := range []bool{false, true} {
		c := NewOf(2)
		if whole {
			c.JudgeBlocks()
		}
		var opens, closes, blockFrames []int // frames (from 0) of the first comparison
		measured := 0
		for f := 0; measured < TrialFrames*2-Settle && f < 100; f++ {
			_, measure, tag := c.Pick(scene10k)
			if !measure {
				continue
			}
			if tag.Opens() {
				opens = append(opens, measured)
			}
			if tag.Closes() {
				closes = append(closes, measured)
			}
			blockFrames = append(blockFrames, int(tag.block))
			measured++
			// costs that end no comparison early: the same for both
			c.Measured(tag, Cost{Busy: 200_000_000})
		}
		if !whole {
			if len(opens)+len(closes) != 0 {
				t.Errorf("not judging blocks whole: frames %v open and %v close blocks, want none", opens, closes)
			}
			continue
		}
		// The first comparison starts with nothing drawn: its first
		// block is Block-Settle frames, the others Block.
		var wantOpens, wantCloses []int
		for k := Settle; k < 2*TrialFrames; k++ {
			if k == Settle || k%Block == 0 {
				wantOpens = append(wantOpens, k-Settle)
			}
			if k < Block || k%Block == Block-1 {
				wantCloses = append(wantCloses, k-Settle)
			}
		}
		if !slices.Equal(opens, wantOpens) || !slices.Equal(closes, wantCloses) {
			t.Errorf("frames opening blocks %v, closing %v; want %v and %v", opens, closes, wantOpens, wantCloses)
		}
		if got := len(c.blocks[0]) + len(c.blocks[1]); got != 2*Blocks {
			t.Errorf("%d blocks counted, want %d (block of each frame: %v)", got, 2*Blocks, blockFrames)
		}
	}
}

// queue is a rasterizer that works behind the loop, as llvmpipe's point
// sprites were measured at 10,000 balls of radius 1 (2026-12-01): a
// frame pays, besides its own CPU time, for some of the work queued
// before it, and leaves the rest to the frames after it. Squares (option
// 0) pay for all of it at once: each frame what it queued, and the first
// after other frames what those left. Points (option 1) pay for 0.6 of a
// frame's work while what is queued stays under 1.5 frames' worth, and
// for all of it when it does not: two cheap frames and one dear, in
// turn, and the work of up to two frames left to whatever comes next.
// A frame that opens a block finds the queue emptied, not counted; one
// that closes it pays for everything queued.
type queue struct {
	rng   *rand.Rand
	work  [2]int64 // each option's work a frame (ns)
	cpu   int64
	debt  int64 // work queued, not yet waited for
	total int64 // ns the frames took, counted or not: what the run cost
}

func (q *queue) frame(opt int, tag Tag) Cost {
	if tag.Opens() {
		q.total += q.debt
		q.debt = 0
	}
	x := math.Exp(0.1 * q.rng.NormFloat64())
	w := int64(float64(q.work[opt]) * x)
	q.debt += w
	pay := q.debt
	if opt == 1 && !tag.Closes() && q.debt < 3*q.work[1]/2 {
		pay = min(q.debt, 6*q.work[1]/10)
	}
	q.debt -= pay
	t := q.cpu + pay
	q.total += t
	return Cost{Busy: t}
}

// TestWholeBlocksCountWhatIsLeftQueued: on the queue above, points' work
// a fifth over the squares', so the squares are the cheaper, the choice
// judging blocks whole keeps the squares in nearly every run; the same
// runs judged by single frames, whose lower quartile is a cheap frame of
// points, take the points in most of them (that is what the model is
// for: were it not so, this test would show nothing).
func TestWholeBlocksCountWhatIsLeftQueued(t *testing.T) {
	const runs, frames = 100, 3000
	for _, whole := range []bool{false, true} {
		onPoints, pointFrames := 0, 0
		for seed := range uint64(runs) {
			c := NewOf(2)
			if whole {
				c.JudgeBlocks()
			}
			q := &queue{rng: rand.New(rand.NewPCG(seed, 12)), work: [2]int64{2_600_000, 3_150_000}, cpu: 100_000}
			for f := range frames {
				if f == frames/8 {
					c.Restart() // the warm-up's end, as the demo's
				}
				opt, measure, tag := c.Pick(scene10k)
				if !measure {
					tag = Tag{}
				}
				cost := q.frame(opt, tag)
				if opt == 1 {
					pointFrames++
				}
				if measure {
					c.Measured(tag, cost)
				}
			}
			if c.Option() == 1 {
				onPoints++
			}
		}
		frac := float64(pointFrames) / (runs * frames)
		t.Logf("judging blocks whole %v: points at the end of %d of %d runs, %.1f%% of frames", whole, onPoints, runs, 100*frac)
		switch {
		case whole && (onPoints > runs/20 || frac > 0.05):
			t.Errorf("judging blocks whole: points, the dearer, at the end of %d of %d runs (want at most %d), %.1f%% of frames (want at most 5%%)",
				onPoints, runs, runs/20, 100*frac)
		case !whole && onPoints < runs/2:
			t.Errorf("judged by single frames: points at the end of only %d of %d runs; the model no longer misleads it, and shows nothing", onPoints, runs)
		}
	}
}

// TestWholeBlocksAllocateNothing: judging blocks whole, Pick and
// Measured allocate nothing.
func TestWholeBlocksAllocateNothing(t *testing.T) {
	c := NewOf(3)
	c.JudgeBlocks()
	f := 0
	step := func() {
		f++
		opt, measure, tag := c.Pick(scene10k)
		if measure {
			c.Measured(tag, Cost{Busy: int64(1_000_000 + 100_000*opt + f%7*10_000)})
		}
	}
	for range 5000 {
		step()
	}
	if a := testing.AllocsPerRun(5000, step); a != 0 {
		t.Errorf("%v allocations a frame, want 0", a)
	}
}

// TestModelsJudgingBlocksWhole runs the models' tests again with choices
// that judge blocks whole, as the renderer's do: each must hold for
// both.
func TestModelsJudgingBlocksWhole(t *testing.T) {
	judgeWhole = true
	defer func() { judgeWhole = false }()
	for _, tc := range []struct {
		name string
		test func(*testing.T)
	}{
		{"PicksTheCheaper", TestPicksTheCheaper},
		{"FewTrialsNoFlapping", TestFewTrialsNoFlapping},
		{"FollowsAChange", TestFollowsAChange},
		{"NewSceneComparesAgain", TestNewSceneComparesAgain},
		{"NoMeasurements", TestNoMeasurements},
		{"StaleCostsDropped", TestStaleCostsDropped},
		{"Blocks", TestBlocks},
		{"EarlyEnd", TestEarlyEnd},
		{"SwitchConfirmed", TestSwitchConfirmed},
		{"ShortFramesMeasuredLonger", TestShortFramesMeasuredLonger},
		{"NoAllocation", TestNoAllocation},
		{"FirstComparisonInterval", TestFirstComparisonInterval},
		{"SettleOnlyAfterOthers", TestSettleOnlyAfterOthers},
		{"WarmUpEndAfterFarComparisons", TestWarmUpEndAfterFarComparisons},
		{"WarmUpEndDuringComparison", TestWarmUpEndDuringComparison},
		{"WarmUpEndWithSwitchToConfirm", TestWarmUpEndWithSwitchToConfirm},
		{"Summary", TestSummary},
		{"AmongFindsTheCheapest", TestAmongFindsTheCheapest},
		{"AmongTriesEachAtOnce", TestAmongTriesEachAtOnce},
		{"AmongFarCheaperFindsItFast", TestAmongFarCheaperFindsItFast},
		{"AmongKeepsToTheOptions", TestAmongKeepsToTheOptions},
		{"AmongNoisy", TestAmongNoisy},
		{"LastIsOneComparison", TestLastIsOneComparison},
		{"RecordedGPUTrials", TestRecordedGPUTrials},
		{"TrialBudget", TestTrialBudget},
		{"ApartEndsTrial", TestApartEndsTrial},
		{"LongFramesStart", TestLongFramesStart},
		{"PipelinedStart", TestPipelinedStart},
		{"NoisyShortFrames", TestNoisyShortFrames},
		{"NoisyFewTrials", TestNoisyFewTrials},
	} {
		t.Run(tc.name, tc.test)
	}
}
