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
	"math"
	"slices"
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
const MaxOptions = 3

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
	c := &Choice{mode: mode, n: n, every: FirstEvery, size: Block, long: LongBlock, sorted: make([]int64, 0, MaxSamples), gpu: [MaxOptions]int64{-1, -1, -1}}
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
// which cost a fifth more than the squares in force (DESIGN.md).
func (c *Choice) JudgeBlocks() { c.whole = true }

// Mode is the mode it was made with.
func (c *Choice) Mode() Mode { return c.mode }

// On reports whether option 1 is in force: New's strategy on.
func (c *Choice) On() bool { return c.cur == 1 }

// Option reports the option in force.
func (c *Choice) Option() int { return c.cur }

// Costs returns the typical costs of each option, off and on (options 0
// and 1), as last compared (each part's lower quartile, and the total's),
// and whether each was measured.
func (c *Choice) Costs() (off, on Cost, offTotal, onTotal int64, offKnown, onKnown bool) {
	return c.typical[0], c.typical[1], c.totals[0], c.totals[1], c.known[0], c.known[1]
}

// Measures is what the last comparison that measured option opt found
// of it, in nanoseconds, -1 where nothing was: its typical frame (the
// lower quartile of its frames' totals), the strategy's own time in its
// frames (that part's lower quartile), and its last GPU time reported
// (MeasuredGPU).
func (c *Choice) Measures(opt int) (total, strategy, gpu int64) {
	if opt < 0 || opt >= c.n {
		return -1, -1, -1
	}
	total, strategy = -1, -1
	if c.known[opt] {
		total, strategy = c.totals[opt], c.typical[opt].Strategy
	}
	return total, strategy, c.gpu[opt]
}

// Summary is a choice's last comparison as a report shows it: in
// nanoseconds, -1 where not measured, each option's typical frame (the
// lower quartile of its frames' totals, as Costs), the strategy's own
// time in its frames (that part's lower quartile), and each option's last
// GPU time (as GPU); and the frames the comparisons drew and tried (as
// Compared). Off is option 0, on option 1.
type Summary struct {
	OffTotal, OnTotal, OnStrategy int64
	OffGPU, OnGPU                 int64
	Compared, Tried               int
}

// Summary returns the choice's last comparison for a report.
func (c *Choice) Summary() Summary {
	offTotal, _, offGPU := c.Measures(0)
	onTotal, onStrategy, onGPU := c.Measures(1)
	return Summary{OffTotal: offTotal, OnTotal: onTotal, OnStrategy: onStrategy, OffGPU: offGPU, OnGPU: onGPU,
		Compared: c.compared, Tried: c.tried}
}

// Compared returns how many frames the comparisons drew since New, both
// options, and how many of those tried the option not in force: what
// deciding by measurement cost.
func (c *Choice) Compared() (frames, tried int) { return c.compared, c.tried }

// ComparedPair is Compared for the comparisons of options a and b alone.
func (c *Choice) ComparedPair(a, b int) (frames, tried int) {
	if a > b {
		a, b = b, a
	}
	if a < 0 || b >= c.n || a == b {
		return 0, 0
	}
	p := c.pairs[a][b]
	return p[0], p[1]
}

// GPU returns the last GPU times reported (MeasuredGPU) of options 0 and
// 1, off and on: -1 for none.
func (c *Choice) GPU() (off, on int64) { return c.gpu[0], c.gpu[1] }

// MeasuredGPU records, for the report only, the GPU's time for a
// measured frame's drawing (a timer query, read frames late): it does not
// decide, for a GPU's time is in the frame's wherever the frame waits for
// it, and a software rasterizer's timer queries miss most of its work.
func (c *Choice) MeasuredGPU(tag Tag, ns int64) {
	if tag.round != 0 && !tag.settle && int(tag.opt) < c.n {
		c.gpu[tag.opt] = ns
	}
}

// Frame returns whether the frame about to be drawn uses the strategy
// (option 1), and whether to measure it (then report its cost with tag).
// Call it, or Pick, once for each frame the strategy could serve. It
// allocates nothing.
func (c *Choice) Frame(s Scene) (on, measure bool, tag Tag) {
	opt, measure, tag := c.Pick(s)
	return opt == 1, measure, tag
}

// Pick returns the option the frame about to be drawn uses, and whether
// to measure it (then report its cost with tag). Call it once for each
// frame the choice could serve. It allocates nothing.
func (c *Choice) Pick(s Scene) (opt int, measure bool, tag Tag) {
	if c.mode != Auto {
		return c.cur, false, Tag{}
	}
	if s != c.scene {
		c.scene = s
		c.lastMeasured = false // the GPU may still draw the old scene
		c.near = [MaxOptions][MaxOptions]bool{}
		if !c.allowed(c.cur) {
			c.cur = c.firstAllowed()
		}
		c.restart()
	}
	c.frames++
	switch c.phase {
	case idle:
		if c.frames < c.every && !c.soon {
			c.lastOpt, c.lastMeasured = c.cur, false
			return c.cur, false, Tag{}
		}
		c.start()
		c.frames = 1
		if c.phase == idle { // nothing else to try
			c.lastOpt, c.lastMeasured = c.cur, false
			return c.cur, false, Tag{}
		}
	case waiting:
		// A comparison whose costs never come (frames the caller did
		// not measure to their end) ends after a while with what it has.
		if c.frames > 2*Blocks*c.size {
			c.decide()
		}
		c.lastOpt, c.lastMeasured = c.cur, false
		return c.cur, false, Tag{}
	}
	// Measuring: blocks of the option in force and of the other in turn.
	k, size := c.drawn, c.size
	c.drawn++
	use := c.cur
	if (k/size)%2 == 1 {
		use = c.alt
	}
	settle := k%size < Settle
	var edge uint8
	if c.whole && (k%size == 0 || k == c.first) {
		edge |= opens
	}
	if c.whole && k%size == size-1 {
		edge |= closes | last
	}
	if c.whole && k < size && c.first > 0 {
		// A first block without settling frames: its first frames
		// would find the queue emptied, costing their CPU time alone
		// (on an NVIDIA H100 at 1,000,000 balls without culling, the
		// run's first two 0.1 ms, against 27 for the third:
		// TestPipelinedStart). Each waits for its own work instead.
		edge |= closes
	}
	if c.drawn >= c.limit {
		c.phase, c.frames = waiting, 0
	}
	c.compared++
	p := &c.pairs[min(c.cur, c.alt)][max(c.cur, c.alt)]
	p[0]++
	if use != c.cur {
		c.tried++
		p[1]++
		c.altDrawn++
	} else {
		c.curDrawn++
	}
	c.lastOpt, c.lastMeasured = use, true
	return use, true, Tag{round: c.round, opt: uint8(use), settle: settle, block: uint8(k / size), edge: edge}
}

// allowed reports whether option i can be drawn in the scene.
func (c *Choice) allowed(i int) bool {
	return i < c.n && (c.scene.Options == 0 || c.scene.Options&(1<<i) != 0)
}

// firstAllowed is the first option listed that can be drawn (0 where
// none can).
func (c *Choice) firstAllowed() int { return First(c.scene.Options & (1<<c.n - 1)) }

// First is the first option of options (bit i for option i, as
// Scene.Options): 0 where there is none.
func First(options uint8) int {
	for i := range 8 {
		if options&(1<<i) != 0 {
			return i
		}
	}
	return 0
}

// OptionIn is the option in force where options (as Scene.Options)
// hold it, else the first of them: what a frame drawing with those
// options draws, when the choice is asked outside Pick (a report).
func (c *Choice) OptionIn(options uint8) int {
	if options&(1<<c.cur) != 0 {
		return c.cur
	}
	return First(options)
}

// challenger is the option the next comparison tries: the one a switch
// left, where it is to be confirmed; else the last listed not yet tried
// since the scene changed; else one that the last Skips comparisons did
// not try (the longest untried first), so that none goes unmeasured
// long; else the one that measured cheapest when last tried, the likely
// better (the option in force, chosen wrongly on a busy machine, is
// compared with the one it should have been, not a dearer one first). -1
// where no other option can be drawn.
func (c *Choice) challenger() int {
	if c.confirm && c.allowed(c.left) {
		return c.left
	}
	for i := c.n - 1; i >= 0; i-- {
		if i != c.cur && c.allowed(i) && !c.looked[i] {
			return i
		}
	}
	best := -1
	for i := c.n - 1; i >= 0; i-- {
		if i != c.cur && c.allowed(i) && (best < 0 || c.sooner(i, best)) {
			best = i
		}
	}
	return best
}

// sooner reports whether option i is to be tried before option j: one
// that Skips comparisons have passed over first (the longer passed over
// first), else the cheaper when last tried.
func (c *Choice) sooner(i, j int) bool {
	oi, oj := c.skipped[i] >= Skips, c.skipped[j] >= Skips
	switch {
	case oi != oj:
		return oi
	case oi && c.skipped[i] != c.skipped[j]:
		return c.skipped[i] > c.skipped[j]
	}
	return c.lastCost(i) < c.lastCost(j)
}

// costIn is what option i cost in the comparison ending: the lower
// quartile of its counted frames, or where none was counted the cheapest
// frame of it measured (a trial ended while settling); -1 for neither.
func (c *Choice) costIn(i int) int64 {
	switch {
	case len(c.samples[i]) > 0:
		return c.totals[i]
	case i == c.alt && c.altSeen:
		return c.altMin
	}
	return -1
}

// Last is the last comparison that ended: the option in force when it
// started (a) and the one it tried (b), and what each cost in it, in ns
// (-1 where not measured); ok is false before any ended. Costs of one
// comparison, measured in turn, compare; the last costs of options
// measured in different comparisons (Measures) may not, on a machine
// whose load changed between them.
func (c *Choice) Last() (a, b int, ta, tb int64, ok bool) {
	return c.last[0], c.last[1], c.lastTotals[0], c.lastTotals[1], c.lastOK
}

// lastCost is what option i's frames cost when last counted: the lower
// quartile of their totals, or the most there is where none was counted
// (a trial ended while its frames were settling, far dearer).
func (c *Choice) lastCost(i int) int64 {
	if !c.known[i] {
		return math.MaxInt64
	}
	return c.totals[i]
}

// untried reports whether an option that can be drawn has not been tried
// since the scene changed.
func (c *Choice) untried() bool {
	for i := range c.n {
		if i != c.cur && c.allowed(i) && !c.looked[i] {
			return true
		}
	}
	return false
}

// Restart forgets what was measured and compares again from the next
// frame, as for a new scene: when what was measured no longer holds (the
// program's warm-up, which is no frame's cost, is over). Where the last
// two comparisons chose one option with the other over FarApart times
// dearer, and none is going on, it compares again only FirstEvery frames
// later: a warm-up's work does not make one option four times dearer in
// two comparisons, and comparing again at once drew the dear option for
// nothing (at 100,000 balls on llvmpipe, 3 more frames of 100 to 280 ms
// without culling).
//
// Where the comparisons since New have drawn fewer frames than two
// TrialFrames (frames so long that the warm-up held few of them), a
// comparison going on is not thrown away: it ends first, and the next
// starts at once after it, unless it switched away from an option far
// dearer, or it and the one before found the options far apart (or it
// made a switch to confirm, which the next comparison is). Drawing those
// frames again costs seconds: at 1,000,000 balls on llvmpipe a frame
// without culling takes about a second, and the warm-up ended after two
// of them, drawn for nothing. Where frames are short, throwing the
// comparison away costs little, and the next, measured after the
// warm-up, chooses better (on 2,000 runs of the noisy model at radius 8,
// 16.5 % of the frames unculled, against 20.0 % where every comparison
// going on ends first).
func (c *Choice) Restart() {
	switch {
	case c.phase != idle && c.compared < TrialFrames*2:
		c.again = true
	case c.farRun >= 2 && !c.confirm:
		c.every, c.frames = max(c.every, FirstEvery), 0
	default:
		c.restart()
	}
}

// restart compares again from the next frame, what was measured
// forgotten.
func (c *Choice) restart() {
	c.chosen, c.confirm, c.farRun, c.again = false, false, 0, false
	c.every = FirstEvery
	c.looked = [MaxOptions]bool{}
	c.start()
}

// start begins a comparison: a new round, whose costs alone count. With
// no other option to try, it leaves the option in force alone.
func (c *Choice) start() {
	alt := c.challenger()
	if alt < 0 {
		c.phase, c.frames, c.every = idle, 0, MaxEvery
		return
	}
	c.alt, c.soon = alt, false
	c.round++
	c.phase, c.frames, c.far = measuring, 0, 0
	c.size = Block
	if c.whole && c.confirm && c.near[min(c.cur, alt)][max(c.cur, alt)] {
		c.size = c.long
	}
	c.drawn, c.limit, c.want = 0, 2*Blocks*c.size, Blocks*(c.size-Settle)
	if c.compared == 0 || (c.lastMeasured && c.lastOpt == c.cur) {
		// Nothing drawn yet, or the other way, or left behind unfenced,
		// is in flight: the first block needs no settling frames.
		c.drawn = Settle
	}
	c.first = c.drawn
	for i := range c.samples {
		c.samples[i] = c.samples[i][:0]
		c.blocks[i] = c.blocks[i][:0]
	}
	c.blockID, c.blockN = -1, 0
	c.altMin, c.altSeen, c.altDrawn, c.curDrawn = 0, false, 0, 0
}

// Measured reports the cost of a frame Frame or Pick asked to measure,
// with its tag. Costs of a comparison already over, or of another scene,
// are dropped.
func (c *Choice) Measured(tag Tag, cost Cost) {
	if tag.round != c.round || c.phase == idle || c.mode != Auto {
		return
	}
	cur, alt := c.cur, c.alt
	opt := int(tag.opt)
	if opt != cur && opt != alt {
		return
	}
	closed := c.whole && c.addToBlock(tag, cost)
	if t := cost.Total(); opt != cur && (!c.altSeen || t < c.altMin) {
		c.altMin, c.altSeen = t, true
	}
	if closed && opt == alt && c.blockBetter() {
		// A block of the other option, judged whole, under half the
		// cheapest of the option in force: plainly better.
		c.keep(alt, cost)
		c.end(true)
		return
	}
	if opt == cur {
		c.far = 0
	} else if len(c.samples[cur]) >= Block-Settle {
		// The other option: plainly worse, or plainly better?
		t := cost.Total()
		lo, hi := span(c.samples[cur])
		if t > 4*hi {
			c.far++
			if c.far >= 2 {
				c.end(false) // far worse even while settling: no more of it
				return
			}
		} else {
			c.far = 0
		}
		if !tag.settle && len(c.samples[alt]) >= 1 {
			prev := c.samples[alt][len(c.samples[alt])-1].Total()
			switch {
			case prev > 2*hi && t > 2*hi:
				c.keep(alt, cost)
				c.end(false)
				return
			case !c.whole && 2*prev < lo && 2*t < lo:
				// (Judging blocks whole, by blocks: blockBetter.)
				c.keep(alt, cost)
				c.end(true)
				return
			}
		}
	}
	if tag.settle {
		return
	}
	c.keep(opt, cost)
	if opt != cur && len(c.samples[alt]) >= Block-Settle && len(c.samples[cur]) >= Block-Settle {
		// Every counted frame of the other option dearer than Apart
		// times the dearest of the option in force: no more of it.
		lo, _ := span(c.samples[alt])
		if _, hi := span(c.samples[cur]); float64(lo) > Apart*float64(hi) {
			c.end(false)
			return
		}
	}
	if c.phase == waiting && len(c.samples[cur]) == c.want && len(c.samples[alt]) == c.want {
		c.decide()
	}
}

// addToBlock adds a frame's cost to its block's, and counts the block's
// mean frame when it closes with all its frames' costs in (then it
// reports true): a block whose frame went unmeasured is not counted (its
// work is in the block's closing wait, its time nowhere).
func (c *Choice) addToBlock(tag Tag, cost Cost) bool {
	if b := int(tag.block); b != c.blockID {
		c.blockID, c.blockSum, c.blockN = b, Cost{}, 0
	}
	c.blockSum.Strategy += cost.Strategy
	c.blockSum.Busy += cost.Busy
	c.blockN++
	if tag.edge&last == 0 {
		return false
	}
	size := c.size
	if tag.block == 0 {
		size -= c.first
	}
	counted := false
	if s := &c.blocks[tag.opt]; c.blockN == size && len(*s) < cap(*s) {
		n := int64(size)
		*s = append(*s, Cost{Strategy: c.blockSum.Strategy / n, Busy: c.blockSum.Busy / n})
		counted = true
	}
	c.blockID, c.blockN = -1, 0
	return counted
}

// blockBetter reports whether the last block of the other option, judged
// whole, cost under half the cheapest block and the cheapest counted
// frame of the option in force (of which it has Block-Settle): the
// early end "plainly better" of a choice judging blocks whole. By single
// frames it would be fooled where the option tried leaves its work
// queued: on llvmpipe at 10,000 balls of radius 1, frames of point
// sprites of 1.7 to 2.2 ms, the last of a block waiting 9.5 to 14 for
// the rasterizer, against squares' 3.7 to 3.9, ended comparisons with
// the points after two of their frames, and a short confirmation, which
// saw the two alike, let the switch stand.
func (c *Choice) blockBetter() bool {
	cur, alt := c.blocks[c.cur], c.blocks[c.alt]
	if len(cur) == 0 || len(alt) == 0 || len(c.samples[c.cur]) < Block-Settle {
		return false
	}
	lo, _ := span(c.samples[c.cur])
	for _, b := range cur {
		lo = min(lo, b.Total())
	}
	return 2*alt[len(alt)-1].Total() < lo
}

// keep counts a cost of option i, up to the comparison's count.
func (c *Choice) keep(i int, cost Cost) {
	if s := &c.samples[i]; len(*s) < c.want {
		*s = append(*s, cost)
	}
}

// end ends a comparison early, switching to the other option or not, with
// what was measured of each for the report.
func (c *Choice) end(switchOver bool) {
	c.report(1)
	if switchOver {
		c.found(c.alt)
	} else {
		c.found(c.cur)
	}
}

// found ends a comparison that found opt (the option in force or the one
// tried) the cheaper. A switch is provisional, but away from an option
// far dearer: the next comparison starts at once, and the switch stands
// only where that one agrees; else the option before is back.
func (c *Choice) found(opt int) {
	c.last, c.lastOK = [2]int{c.cur, c.alt}, true
	c.lastTotals = [2]int64{c.costIn(c.cur), c.costIn(c.alt)}
	a, b := c.lastTotals[0], c.lastTotals[1]
	c.near[min(c.cur, c.alt)][max(c.cur, c.alt)] = a > 0 && b > 0 && float64(max(a, b)) < Near*float64(min(a, b))
	tried := c.alt
	c.looked[c.cur], c.looked[tried] = true, true
	for i := range c.skipped {
		c.skipped[i]++
	}
	c.skipped[tried] = 0
	budget := 0
	if opt == c.cur {
		budget = c.budget()
	}
	far := c.farApart(opt)
	switch {
	case far && c.farRun > 0 && opt == c.farOpt:
		c.farRun++
	case far:
		c.farRun, c.farOpt = 1, opt
	default:
		c.farRun = 0
	}
	switch {
	case c.confirm && opt == c.cur: // confirmed
		c.confirm = false
		c.every = FirstEvery
	case c.confirm: // not confirmed: undone, the choice before held
		c.cur, c.confirm = opt, false
		c.every = c.held
	case opt != c.cur && far && c.spanApart(opt):
		// Away from an option far dearer, each of its counted frames
		// over FarApart times the dearest of the other: as plain as two
		// comparisons agreeing, so it stands without one more. (By the
		// lower quartiles alone, a burst of load over the block of the
		// option in force switched it on the noisy model: 23 runs of 400
		// at radius 1 ending with culling on, against 17.) The frames of
		// the option left are what trying it again costs: the next
		// comparison waits for the budget, as after a trial.
		budget = c.budgetLeft()
		c.cur, c.farRun = opt, 2
		c.every = FirstEvery
	case opt != c.cur:
		c.left = c.cur
		c.cur, c.confirm = opt, true
		c.held, c.every = c.every, 1 // at once
	case !c.chosen && !c.otherDearer():
		// The first comparison since a start or a new scene keeps the
		// option, though the other measured cheaper (not by the margin):
		// the next comes no later than at first, its frames may still
		// have carried the start's work.
		c.every = FirstEvery
	default:
		c.every = min(2*c.every, MaxEvery)
	}
	c.every = max(c.every, budget)
	// An option not yet tried since the scene changed: tried at once,
	// the interval kept for the comparison after it; but not where this
	// comparison or the one before found an option far dearer than the
	// other (farRun): there the options' frames are far apart, the dear
	// ones long, and one tried blind costs what the budget is there to
	// bound (at 1,000,000 balls on llvmpipe, squares against culled
	// points, then points at once: two frames of a second each, and 7.1
	// and 7.7 FPS in 8 s runs against 11.2 and 11.6 without). It comes
	// first at the next comparison, at the interval and the budget.
	c.soon = !c.confirm && c.farRun == 0 && c.untried()
	c.chosen = true
	c.phase, c.frames = idle, 0
	if c.again && !c.confirm {
		// Restart came while this comparison went on: compare again at
		// once, unless it switched away from an option far dearer, or it
		// and the one before found the options far apart.
		c.again = false
		if c.farRun < 2 {
			c.restart()
		}
	}
}

// budget is how many frames of the option in force, at its typical
// cost, take Budget times what the comparison's frames of the other
// option cost more than they would have (0 where they cost no more): the
// next comparison comes no sooner, so that trying costs at most 1/Budget
// of the time, however much dearer the other option is and however short
// the frames. What they cost more is taken low: each the cheapest of
// them, against the lower quartile of the option in force, so that a
// frame held up by the machine's other work puts off no comparison. At
// most MaxWait of frames, or MaxEvery where that is more.
func (c *Choice) budget() int {
	if !c.altSeen || !c.known[c.cur] {
		return 0
	}
	return budgetFor(c.altDrawn, c.altMin, c.totals[c.cur])
}

// budgetLeft is budget's for a switch: how many frames of the option
// switched to, at its typical cost, take Budget times what the
// comparison's frames of the option left cost more than it (their lower
// quartile against its). The same bounds.
func (c *Choice) budgetLeft() int {
	cur, alt := c.cur, c.alt
	if !c.known[cur] || !c.known[alt] {
		return 0
	}
	return budgetFor(c.curDrawn, c.totals[cur], c.totals[alt])
}

// budgetFor is how many frames of cheap ns take Budget times what frames
// of dear ns cost more: at most MaxWait of them, or MaxEvery where that
// is more; 0 where dear is no dearer.
func budgetFor(frames int, dear, cheap int64) int {
	extra := dear - cheap
	if cheap <= 0 || extra <= 0 {
		return 0
	}
	need := int64(frames) * extra * Budget / cheap
	return int(min(need, max(MaxEvery, MaxWait/cheap)))
}

// other is the option of the comparison going on that is not opt.
func (c *Choice) other(opt int) int {
	if opt == c.cur {
		return c.alt
	}
	return c.cur
}

// spanApart reports whether each counted frame of the option not chosen
// (opt's other) cost over FarApart times the dearest of the one chosen:
// judging blocks whole, the dearest block of the one chosen, where it has
// one (a frame among its counted ones that a tick's walk made dearer
// does not make a switch from an option five times dearer wait for a
// confirmation: TestPipelinedStart).
func (c *Choice) spanApart(opt int) bool {
	left, to := c.samples[c.other(opt)], c.samples[opt]
	if c.whole && len(c.blocks[opt]) > 0 {
		to = c.blocks[opt]
	}
	if len(left) == 0 || len(to) == 0 {
		return false
	}
	lo, _ := span(left)
	_, hi := span(to)
	return lo > FarApart*hi
}

// farApart reports whether the comparison ending found the option not
// chosen (opt's other) over FarApart times dearer than the one chosen:
// the cheapest measured frame of the option tried against the lower
// quartile of the option in force, where opt keeps it; the lower
// quartiles of both, where opt switches.
func (c *Choice) farApart(opt int) bool {
	cur, alt := c.cur, c.alt
	if opt == cur {
		return c.altSeen && c.known[cur] && c.altMin > FarApart*c.totals[cur]
	}
	return c.known[cur] && c.known[alt] && c.totals[cur] > FarApart*c.totals[alt]
}

// otherDearer reports whether the last comparison measured the option
// tried dearer than the one in force.
func (c *Choice) otherDearer() bool {
	cur, alt := c.cur, c.alt
	return c.known[cur] && c.known[alt] && c.totals[alt] > c.totals[cur]
}

// report keeps the typical costs of the comparison's options with at
// least least counted frames, and says whether both had. Judging blocks
// whole, an option's are its blocks' (to decide, at least Blocks-1 of
// them), or for an early end (least 1), where none closed, its frames'.
func (c *Choice) report(least int) bool {
	ok := true
	for _, i := range [2]int{c.cur, c.alt} {
		s, need, blocks := c.samples[i], least, false
		switch {
		case c.whole && least > 1:
			s, need, blocks = c.blocks[i], Blocks-1, true
		case c.whole && len(c.blocks[i]) > 0:
			s, blocks = c.blocks[i], true
		}
		if len(s) < need {
			ok = false
			continue
		}
		c.typical[i] = Cost{Strategy: c.quartile(s, 0, blocks), Busy: c.quartile(s, 1, blocks)}
		c.totals[i] = c.quartile(s, 2, blocks)
		c.known[i] = true
	}
	return ok
}

// decide ends a comparison, by the lower quartiles of the frames' total
// costs: another program's load only ever adds to a frame's cost, so the
// cheaper frames of each option say best what it costs by itself.
// Judging blocks whole, by the medians of the blocks' mean frames
// (quartile).
//
// A switch (or its confirmation) measured on frames too short to say much
// (less than MinCounted of either option) is measured on: a block of each
// option more, up to MaxBlocks.
func (c *Choice) decide() {
	if c.report(Samples / 2) { // else too few costs came back to decide on
		// The option listed later (New's strategy on) is taken up only
		// where it pays by the margin, and kept while it pays at all:
		// between the two, no flapping. A switch under confirmation
		// stands where the comparison going on finds it pays at all: the
		// margin was met once, and it takes two comparisons agreeing to
		// change the choice.
		lo, hi := min(c.cur, c.alt), max(c.cur, c.alt)
		// hi in force before any provisional switch (which left alt)
		was := c.cur == hi
		if c.confirm {
			was = c.alt == hi
		}
		up := float64(c.totals[hi]) < Margin*float64(c.totals[lo])
		if (was && c.chosen) || c.confirm {
			up = c.totals[hi] < c.totals[lo]
		}
		opt := lo
		if up {
			opt = hi
		}
		if (opt != c.cur || c.confirm) && c.limit < 2*MaxBlocks*c.size &&
			len(c.samples[lo]) == c.want && len(c.samples[hi]) == c.want &&
			(sum(c.samples[lo]) < MinCounted || sum(c.samples[hi]) < MinCounted) {
			c.limit += 2 * c.size
			c.want += c.size - Settle
			c.phase = measuring // from the next frame, a block of each
			return
		}
		c.found(opt)
		return
	}
	c.phase, c.frames = idle, 0
}

// span is the least and the most of costs' totals.
func span(costs []Cost) (lo, hi int64) {
	lo, hi = costs[0].Total(), costs[0].Total()
	for _, k := range costs[1:] {
		lo, hi = min(lo, k.Total()), max(hi, k.Total())
	}
	return lo, hi
}

// sum is the total of costs' totals.
func sum(costs []Cost) (t int64) {
	for _, k := range costs {
		t += k.Total()
	}
	return t
}

// quartile is the lower quartile of one part of costs (0: Strategy, 1:
// Busy, 2: Total); of blocks' mean frames (JudgeBlocks), the median (the
// lower, of an even count). A block's mean already evens out its frames'
// spread, and the least of three blocks is one block alone: a block whose
// frames' costs changed under it decided (the first, short block of a
// comparison that confirms a switch, its frames still in the scene the
// switch was measured in: TestSwitchConfirmed).
func (c *Choice) quartile(costs []Cost, part int, blocks bool) int64 {
	c.sorted = c.sorted[:0]
	for _, k := range costs {
		v := k.Total()
		switch part {
		case 0:
			v = k.Strategy
		case 1:
			v = k.Busy
		}
		c.sorted = append(c.sorted, v)
	}
	slices.Sort(c.sorted)
	if blocks {
		return c.sorted[(len(c.sorted)-1)/2]
	}
	return c.sorted[len(c.sorted)/4]
}
