package adaptive

// A comparison's end: which option it found cheaper, whether a switch
// stands or waits for the next comparison to confirm it, and when that
// comes (the interval and the budget).

import "math"

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

// lastCost is what option i's frames cost when last counted: the lower
// quartile of their totals, or the most there is where none was counted
// (a trial ended while its frames were settling, far dearer).
func (c *Choice) lastCost(i int) int64 {
	if !c.known[i] {
		return math.MaxInt64
	}
	return c.totals[i]
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
