package adaptive

// What a Choice tells its caller and a report: the option in force,
// what the comparisons measured of each, and what deciding cost.

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

// Last is the last comparison that ended: the option in force when it
// started (a) and the one it tried (b), and what each cost in it, in ns
// (-1 where not measured); ok is false before any ended. Costs of one
// comparison, measured in turn, compare; the last costs of options
// measured in different comparisons (Measures) may not, on a machine
// whose load changed between them.
func (c *Choice) Last() (a, b int, ta, tb int64, ok bool) {
	return c.last[0], c.last[1], c.lastTotals[0], c.lastTotals[1], c.lastOK
}
