package render

import "github.com/interpdemo/interpdemo/render/adaptive"

// How the balls are drawn: one choice among three, by measurement on the
// running machine (package render/adaptive): squares of two triangles
// (quads.go), point sprites, or point sprites culled (cellcull.go). Each
// costs what the others save: the squares six vertices a ball for a
// cheaper rasterizing, culling a walk over every ball on the CPU for the
// hidden sprites not rasterized.
//
// They were two choices of two, the culling's and the form's: culled
// balls are points, so the culling's comparison weighed culled points
// against whichever form was in force, and the form was compared only in
// frames that did not cull. Where the form in force was dearer than
// culled points and the other form cheaper than both, a run took up
// culling and never tried the other form; which form a run started with
// decided it. One choice compares the three, one pair at a time (the
// option in force against each of the others at once after a new scene,
// then against the one measured cheapest, and each at least every third
// comparison).
//
// The list's order is the hysteresis': squares first (where auto starts:
// on llvmpipe the cheapest at the ball counts the demo starts with),
// then points, then culled points, the option that spends most to save
// most; an option is taken up over one listed before it where it
// measures 10 % cheaper, twice, as culling was over going without
// (adaptive.NewOf). The modes (Config.Cull, Config.Sprites) keep the
// choice to the options they allow: -cull on leaves culled points alone
// (where the culler can run), -cull off the two forms; -sprites points
// or quads one form of the two.
const (
	optSquares = iota
	optPoints
	optCulled
	numOptions
)

// options are the options the modes allow where the culler can run
// (cullable) and where the squares can be drawn (quadsUsable), as a
// Scene's Options: at least one.
func (r *Renderer) options() uint8 {
	cull := r.cullable()
	if cull && r.cfg.Cull == adaptive.On {
		return 1 << optCulled
	}
	var m uint8
	if cull {
		m |= 1 << optCulled
	}
	if r.quadsUsable() {
		m |= 1 << optSquares
	}
	if r.cfg.Sprites != adaptive.Off || m&(1<<optSquares) == 0 {
		m |= 1 << optPoints // points, unless squares are forced and can be drawn
	}
	return m
}

// option is the option in force that the modes allow now.
func (r *Renderer) option() int { return r.choice.OptionIn(r.options()) }

// newChoice makes the balls' choice: among all three options, which
// the modes narrow frame by frame (options), each judged by its blocks
// of frames whole (adaptive.Choice.JudgeBlocks): drawBalls lets the GPU
// finish what is queued before a block's first frame, and EndFrame waits
// for it to finish a block's last.
func newChoice() *adaptive.Choice {
	c := adaptive.NewOf(numOptions)
	c.JudgeBlocks()
	return c
}

// CompareCullAgain forgets the measured costs of the balls' forms,
// culled or not, and compares them again: for the end of a program's
// warm-up, whose work (compiling shaders, starting threads) is no
// frame's cost.
func (r *Renderer) CompareCullAgain() { r.choice.Restart() }

// PrepareChoices makes the ball programs of every option the modes allow
// that no frame has drawn with yet: the programs of frames painted
// whole, and of repaints of parts where the drawable is retained. Call it
// where allocations do not count, before the warm-up's end (CompareCullAgain):
// a program made on first use is made in the first frame of its option,
// which at 1,000,000 balls on llvmpipe, where the first frames take a
// second each, came after the warm-up (24 allocations after it in 8 s
// runs, the squares' comparison with culled points the first three
// frames).
func (r *Renderer) PrepareChoices() {
	if r.cfg.Painter || r.cfg.LayersOnly {
		return
	}
	m := r.options()
	if m&(1<<optSquares) != 0 {
		r.ready(&r.discWholeQuads)
		if r.cfg.Retained {
			r.ready(&r.discQuads)
		}
	}
	if m&(1<<optPoints|1<<optCulled) != 0 {
		r.ready(&r.discWhole)
		if r.cfg.Retained {
			r.ready(&r.disc)
		}
	}
}

// pick says how this frame, which repaints the world whole, draws its
// balls, and whether the choice measures it (then report its cost with
// tag: timers).
func (r *Renderer) pick() (opt int, measure bool, tag adaptive.Tag) {
	r.timers.poll(r.choice)
	s := r.cullScene()
	s.Options = r.options()
	return r.choice.Pick(s)
}
