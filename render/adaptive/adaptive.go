// Package adaptive decides at run time, from measured costs, whether a
// strategy that spends work to save other work pays on the machine it
// runs on: the CPU occlusion culler (package render/occlusion) first. A
// constant tuned on one machine cannot be right on both a software
// rasterizer, where every hidden sprite costs a microsecond, and a GPU,
// where the whole draw costs less than finding what to skip.
//
// A Choice keeps one option in force (the strategy on or off; or one of
// a few, NewOf: the renderer's squares, points and culled points) and,
// now and then, compares it with another: blocks of a few frames of
// each, in turn, so that a load that comes and goes on the machine weighs
// on both alike. The first frames of a block are not counted: a GPU (or a
// software rasterizer's threads) still works on the frames before them,
// drawn the other way (or, before a comparison, left unfenced); where
// none can be, at the start and after the comparison's own frames of the
// option, the first block has none. It keeps whichever measured cheaper.
// The caller measures each frame it is asked to (Frame's measure) and
// reports the cost when it has it, at the frame's end or some frames
// later. Plain Go, no clock: the costs come in as nanoseconds.
//
// Where the caller can empty the GPU's queue (a fence, glFinish), a
// Choice can judge each block whole instead (JudgeBlocks, as the native
// renderer's does): each block starts from an empty queue and ends with
// one, and an option costs the mean frame of its blocks, the work it
// left queued in its own cost. Judged by single frames, on a rasterizer
// that works behind the loop, an option can look cheap by leaving its
// work to the frames after it, drawn another way. A comparison that
// confirms a switch between options that measured near measures blocks
// twice as long (LongBlock), where a block's start and end weigh less.
//
// Frames of a few milliseconds are noisy: on a busy machine one option's
// frames spread over three times and more, more than the options differ
// (10,000 balls of radius 1 on llvmpipe). So a comparison whose frames
// add up to less than MinCounted of each option, and whose answer would
// change the option in force, goes on with more blocks, up to MaxBlocks
// of each; and a switch is provisional: the next comparison starts at
// once, with the new option in force, and the switch stands only where
// it agrees. Two comparisons must agree to change the choice, unless
// the option left is far dearer (each of its counted frames over
// FarApart times the dearest of the other): then one is enough.
//
// A comparison ends early where the answer is plain, so that trying an
// option that is far worse costs a few frames, not dozens (at 100,000
// balls on llvmpipe a frame takes 40 ms with culling and 540 without):
// two frames in a row of the other option that cost over 4 times the
// dearest counted frame of the option in force end the trial at once; two
// counted frames that both cost over twice that, or under half its
// cheapest, decide it (judging blocks whole, the other option is plainly
// cheaper by a block: one frame can be cheap by leaving its work queued).
// Beyond the spread of its own frames, not within it: on a busy machine
// a frame now and then costs a tenth of the others (it found the
// rasterizer done), or ten times as much.
//
//	on, measure, tag := choice.Frame(scene)
//	... draw with the strategy on or off; if measure, time it ...
//	choice.Measured(tag, cost) // when the cost is known, frames later
//
// A new Scene (another ball count, view or ball size) starts a new
// comparison. Trials are few: TrialFrames frames of the other option
// (MaxTrialFrames at most) every FirstEvery frames, the interval doubling
// up to MaxEvery while the choice holds: a machine settled on one option
// spends well under one frame in a hundred trying the other. And what
// trying costs is budgeted: where the other option measured dearer, the
// next comparison waits until the frames since have taken Budget times
// what its frames cost more, so that frames far cheaper than the other
// option's (a GPU drawing one ball in 10 µs, where the walk alone takes
// 160) do not spend a percent of the time trying it every 4,096 frames.
// A trial ends after one block where the other option is plainly dearer
// on frames that spread little (each counted frame over Apart times the
// dearest of the option in force: a GPU at 100,000 balls, where culling
// doubles the frame, tried it for whole comparisons). Hysteresis:
// the strategy is taken up where it measures Margin cheaper than going
// without, twice in a row, and kept while it measures cheaper at all.
package adaptive

import (
	"errors"
)

// Mode is what the user asked for: decide by measurement, or force it.
type Mode uint8

const (
	Auto Mode = iota // measured: the cheaper option on this machine
	On               // always on (where it can run at all)
	Off              // never
)

// Modes lists the modes by name, as a flag takes them.
var Modes = [...]string{Auto: "auto", On: "on", Off: "off"}

func (m Mode) String() string {
	if int(m) < len(Modes) {
		return Modes[m]
	}
	return "invalid"
}

// ErrMode is returned by ParseMode for a name that is not a mode.
var ErrMode = errors.New("want auto, on or off")

// ParseMode parses auto, on or off.
func ParseMode(s string) (Mode, error) {
	for m, name := range Modes {
		if s == name {
			return Mode(m), nil
		}
	}
	return Auto, ErrMode
}

// Scene is what the costs depend on: a change starts a new comparison.
type Scene struct {
	Balls      int
	ViewW      int
	ViewH      int
	RadiusPx64 int // a ball's radius in pixels, times 64
	// Options are the options that can be drawn (bit i for option i of
	// NewOf's), 0 for all: a change starts a new comparison, among them.
	Options uint8
}

// Cost is one measured frame: the strategy's own time (0 when off), and
// the rest of the frame's (Busy): what the choice compares.
type Cost struct {
	Strategy, Busy int64 // nanoseconds
}

// Total is what the frame took.
func (c Cost) Total() int64 { return c.Strategy + c.Busy }

// The comparisons' shape.
const (
	Block = 5 // frames of one option in a row; the first Settle are not counted
	// Settle is how many frames of a block wait for the GPU's work on
	// the frames before them, drawn the other way, to be done.
	Settle = 2
	Blocks = 3 // blocks of each option in a comparison
	// TrialFrames is how many frames of the other option a comparison
	// draws, Samples how many of each option it counts...
	TrialFrames = Blocks * Block
	Samples     = Blocks * (Block - Settle)
	// ... unless its counted frames of either option add up to less
	// than MinCounted (ns) and its answer would change the option in
	// force (or it confirms a switch): then it goes on, a block of each
	// at a time, up to MaxBlocks of each.
	MinCounted = 100_000_000
	MaxBlocks  = 6
	// LongBlock: judging blocks whole (JudgeBlocks), a comparison that
	// confirms a switch between two options the comparison before found
	// Near (the dearer under Near times the cheaper) measures blocks of
	// LongBlock frames, not Block: a block's start and end, from an
	// empty queue to an empty one, weigh half as much on its mean frame.
	LongBlock = 2 * Block
	Near      = 1.25
	// MaxTrialFrames is the most frames of the other option a comparison
	// draws (long blocks), MaxSamples the most of each it counts.
	MaxTrialFrames = MaxBlocks * LongBlock
	MaxSamples     = MaxBlocks * (LongBlock - Settle)
	FirstEvery     = 512  // frames from one comparison to the next, at first
	MaxEvery       = 4096 // at most, the interval doubling while the choice holds
	// Budget: trying the other option costs at most 1/Budget of the
	// time. Where a comparison's frames of it cost more than that of the
	// frames to the next comparison, the next comes later, up to MaxWait
	// (ns) of frames.
	Budget  = 400
	MaxWait = 30_000_000_000
	// Apart: a comparison ends, keeping the option in force, once a
	// block's counted frames of the other option each cost over Apart
	// times the dearest counted frame of the option in force.
	Apart = 1.5
	// FarApart: two comparisons in a row that find the option not
	// chosen over FarApart times dearer make the end of the warm-up
	// (Restart) compare again only at the usual interval.
	FarApart = 4
	// Margin: the strategy is taken up where it costs at most this
	// fraction of going without (10 % cheaper), and kept while it costs
	// less: no flapping between two options that cost the same, and no
	// work spent for a saving lost in the noise.
	Margin = 0.9
)

// MaxOptions is the most options a Choice chooses among.
const MaxOptions = 4

// Skips: among more than two options, an option is tried again at the
// latest after this many comparisons that tried others.
const Skips = 2

// Tag names a measured frame: the comparison it belongs to, the option it
// was drawn with, and whether it is a block's settling frame. The zero
// Tag belongs to no comparison.
type Tag struct {
	round  uint32
	opt    uint8
	settle bool
	block  uint8 // the block's number in the comparison
	edge   uint8 // opens, closes, last (below)
}

// A Tag's edges: the frame opens a block, or closes it.
const (
	opens  uint8 = 1 << iota
	closes       // waits for its own work
	last         // the block's last frame
)

// Opens reports whether the frame opens a block that a choice judging
// blocks whole (JudgeBlocks) measures whole: the caller lets the GPU
// finish what is queued before it measures the frame, not counted.
func (t Tag) Opens() bool { return t.edge&opens != 0 }

// Closes reports whether the frame closes such a block, or is a frame
// of a comparison's first block where that has no settling frames (the
// option in force was drawing, or nothing was): the caller waits for the
// GPU to finish the frame before it ends, and counts the wait in the
// frame's cost.
func (t Tag) Closes() bool { return t.edge&closes != 0 }

// The phases of a comparison.
const (
	idle      = iota // the option in force, unmeasured
	measuring        // blocks of each option in turn
	waiting          // the option in force, until the late costs are in
)

// Choice decides among a few options. Make it with New or NewOf.
type Choice struct {
	mode Mode
	n    int // options: 0 to n-1
	cur  int // the option in force
	alt  int // the option the comparison going on tries

	scene  Scene
	round  uint32 // comparisons started
	phase  int
	frames int  // frames drawn in the phase
	every  int  // frames from one comparison to the next
	chosen bool // a comparison has ended since the scene changed
	// confirm: the option in force is a switch that the comparison
	// going on (started at once) must confirm, or it is undone; left is
	// the option it switched from, which that comparison tries.
	confirm bool
	left    int
	held    int // the interval before a switch to confirm
	drawn   int // frames the comparison has drawn
	limit   int // and is to draw, both options
	want    int // costs of each option it is to count
	size    int // frames in each of its blocks: Block, or long
	long    int // LongBlock (a test's model sets Block, to compare)
	far     int // frames in a row of the other option far worse
	// What the comparison's frames of the other option cost: the least
	// measured (settling frames too), whether any was, and how many were
	// drawn; and how many of the option in force were.
	altMin   int64
	altSeen  bool
	altDrawn int
	curDrawn int
	// The last frame drawn: its option, and whether it was measured (a
	// comparison's, fenced).
	lastOpt      int
	lastMeasured bool
	// farRun counts the comparisons in a row that chose farOpt with the
	// other option over FarApart times dearer.
	farRun int
	farOpt int
	// again: Restart came while a comparison went on, which ends first;
	// the next starts at once then, unless that one found the options
	// far apart.
	again bool
	// looked: the options a comparison has tried since the scene changed
	// (or Restart); next: where the search for the next option to try
	// starts, going down the list.
	looked  [MaxOptions]bool
	soon    bool            // the next comparison starts at once, to try one not looked at
	skipped [MaxOptions]int // comparisons since the option was last tried

	samples [MaxOptions][]Cost // this round's counted costs, by option
	// Judging blocks whole (JudgeBlocks): each block's mean frame,
	// counted by option; the block measured now, its number, the sum of
	// its frames' costs and how many came; and the frame the comparison
	// began at (Settle where its first block is short).
	whole    bool
	blocks   [MaxOptions][]Cost
	blockID  int
	blockSum Cost
	blockN   int
	first    int
	// near: the last comparison of each pair (the lower option first)
	// found the two within Near of each other, since the scene changed:
	// one that confirms a switch between them measures long blocks.
	near [MaxOptions][MaxOptions]bool

	typical [MaxOptions]Cost  // the lower quartiles of the last comparison that measured the option (judging blocks, the medians)
	totals  [MaxOptions]int64 // and of its frames' totals (its blocks')
	known   [MaxOptions]bool
	gpu     [MaxOptions]int64 // the last GPU time reported of each option, -1 for none
	// compared counts the frames comparisons drew, both options, and
	// tried those of the option not in force; pairs counts them for each
	// pair of options compared, the lower first.
	compared, tried int
	pairs           [MaxOptions][MaxOptions][2]int
	// last: the options of the last comparison that ended, the one in
	// force first, and what each cost in it (Last).
	last       [2]int
	lastTotals [2]int64
	lastOK     bool
	sorted     []int64
}

// New makes a Choice of a strategy, on or off, for mode. With Auto, it
// starts off: nothing spent until a measurement says it pays. Option 0
// is off, 1 on (Pick's options, as Frame's on).
func New(mode Mode) *Choice {
	c := newChoice(2, mode)
	if mode == On {
		c.cur = 1
	}
	return c
}

// NewOf makes a Choice among n options (1 to MaxOptions), chosen by
// measurement, option 0 in force at first. The list's order is the
// hysteresis': an option is taken up in place of one listed before it
// only where it measures Margin cheaper, twice in a row, and kept while
// it measures cheaper at all, as New's on is against off. So list first
// what spends the least work to save other work. Each comparison pits
// the option in force against one other: after a new Scene or Restart,
// each other option is tried at once, one after the other, the last
// listed first; then the one that measured cheapest when last tried, and
// every option at least once in Skips+1 comparisons.
//
// Scene.Options says which of them can be drawn in a frame: a Choice
// keeps to those (in force and tried), and where the option in force
// cannot be drawn any more, the first listed that can is in force.
func NewOf(n int) *Choice {
	return newChoice(min(max(n, 1), MaxOptions), Auto)
}

func newChoice(n int, mode Mode) *Choice {
	c := &Choice{mode: mode, n: n, every: FirstEvery, size: Block, long: LongBlock, sorted: make([]int64, 0, MaxSamples)}
	for i := range c.gpu {
		c.gpu[i] = -1
	}
	for i := range c.samples[:n] {
		c.samples[i] = make([]Cost, 0, MaxSamples)
		c.blocks[i] = make([]Cost, 0, MaxBlocks)
	}
	return c
}

// JudgeBlocks makes the choice judge each option by its blocks whole,
// not by its frames one at a time: each block of a comparison starts
// from an empty queue (its first frame's tag Opens: the caller lets the
// GPU finish what is queued, then measures) and ends with one (its last
// frame's tag Closes: the caller waits for the GPU to finish that frame,
// in its cost), and what an option costs is the mean frame of its
// blocks (their median), the work it left queued counted in its own.
// Call it before the first frame. The single frames still end a
// comparison early where the other option is plainly dearer, and the
// settling frames are still not counted for that; where it is plainly
// cheaper, a block of it, judged whole, must be (under half the cheapest
// block and counted frame of the option in force).
//
// A block's start and end (the queue empty at each) cost more than its
// frames do in force, and not alike for every option: on llvmpipe at
// 10,000 balls of radius 1, blocks of 5 frames of squares took 1.18 to
// 1.32 times what squares take in force, of points 1.06 to 1.23, and the
// two measured alike where the squares cost a seventh to a quarter less.
// So a comparison that confirms a switch between options found Near
// measures blocks of LongBlock frames, where the ends weigh half as much
// (there blocks of 10 frames measured the points at 1.14 to 1.18 times
// the squares); the other comparisons keep blocks of Block, which a
// burst of the machine's load weighs on less unevenly.
//
// Where a GPU (or a software rasterizer's threads) works behind the
// loop, a frame's cost is not its own: it pays for the frames before it
// and leaves its own work to those after. On llvmpipe at 10,000 balls of
// radius 1, point sprites' frames alternated cheap and dear (the lower
// quartile of their frames a quarter under the median; squares' barely
// spread), and their work ran on into the first squares after them; by
// the lower quartiles of single frames, the choice took the points,
// which cost a fifth more than the squares in force.
func (c *Choice) JudgeBlocks() { c.whole = true }
