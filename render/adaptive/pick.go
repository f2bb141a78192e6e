package adaptive

// Which option each frame draws: the option in force, or a comparison's
// blocks of two options in turn; and when a comparison starts.

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
