package adaptive

// The measured costs coming back: counted by option and by block, and
// the early ends of a trial plainly worse or plainly better.

import "slices"

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
