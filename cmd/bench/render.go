package main

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/interpdemo/interpdemo/internal/report"
)

// The renderer's scenarios: what the overlays cost, the drawing of many
// balls against its reference, and how many balls the logic keeps up
// with.

// renderEnv is the demo's hidden switch for its renderer's references
// (overlay.go): "painter" draws every ball, "redraw" paints every frame
// whole.
const renderEnv = "INTERPDEMO_RENDER"

// referencePath is the renderer's reference as the demo drew before:
// every ball drawn (the painter's algorithm) and every frame painted whole.
const referencePath = "painter,redraw"

// pair is two runs made one after the other, a then b: on a shared
// machine, a ratio within a pair is worth more than a ratio of runs made
// minutes apart.
type pair struct {
	name string
	a, b *report.Stats
}

// pairs runs a and b alternately, reps times.
func pairs(reps int, name string, a, b func() (*report.Stats, error)) ([]pair, error) {
	var out []pair
	for i := 0; i < reps; i++ {
		sa, err := a()
		if err != nil {
			return nil, err
		}
		sb, err := b()
		if err != nil {
			return nil, err
		}
		out = append(out, pair{name, sa, sb})
	}
	return out, nil
}

// overlayRuns is how many on/off pairs the overlay scenario runs.
const overlayRuns = 5

// overlayRunLength is each overlay run's length.
const overlayRunLength = "4s"

// overlays: one ball, the HUD and the graph on (the defaults) against
// both off; then, to tell the overlays' own cost from what they hide,
// the same with no ball (nothing to hide), and with every frame painted
// whole (as in a window, whose back buffer is not kept from one frame to
// the next).
func overlays(o *options, r *results) error {
	d := o.dur(overlayRunLength)
	run := func(on bool, balls string, env ...string) func() (*report.Stats, error) {
		v := strconv.FormatBool(on)
		return func() (*report.Stats, error) {
			return demoEnv(o, env, "-balls", balls, "-hud="+v, "-graph="+v, "-duration", d)
		}
	}
	var err error
	if r.overlay, err = pairs(overlayRuns, "1 ball", run(true, "1"), run(false, "1")); err != nil {
		return err
	}
	if r.overlayNoBall, err = pairs(overlaySideRuns, "no ball", run(true, "0"), run(false, "0")); err != nil {
		return err
	}
	whole := renderEnv + "=redraw"
	r.overlayWhole, err = pairs(overlaySideRuns, "1 ball, whole frames", run(true, "1", whole), run(false, "1", whole))
	return err
}

// overlaySideRuns is how many on/off pairs the overlay scenario's side
// measurements (no ball, whole frames) run.
const overlaySideRuns = 3

// ballsVsReference: the demo's drawing against the reference (every ball
// drawn, every frame painted whole: referencePath) at 10,000 and
// 100,000 balls.
func ballsVsReference(o *options, r *results) error {
	for _, n := range []int{10_000, 100_000} {
		args := []string{"-balls", strconv.Itoa(n), "-duration", o.dur("10s")}
		p, err := pairs(2, commas(int64(n))+" balls",
			func() (*report.Stats, error) { return demo(o, args...) },
			func() (*report.Stats, error) { return demoEnv(o, []string{renderEnv + "=" + referencePath}, args...) })
		if err != nil {
			return err
		}
		r.ballsRef = append(r.ballsRef, p...)
	}
	return nil
}

// scaleCounts are the ball counts tried for the largest at which the
// logic keeps 25 TPS.
var scaleCounts = []int{200_000, 300_000, 500_000, 700_000, 1_000_000}

// scale runs the demo at growing ball counts, to find the largest at which
// the logic still runs 25 ticks a second (MAX_LOOPS, 5 ticks a frame,
// needs 5 FPS).
func scale(o *options, r *results) error {
	for _, n := range scaleCounts {
		args := []string{"-balls", strconv.Itoa(n), "-duration", o.dur("12s")}
		s, err := demo(o, args...)
		if err != nil {
			return err
		}
		r.scaleRuns = append(r.scaleRuns, scenario{name: commas(int64(n)) + " balls", args: args, stats: s})
	}
	return nil
}

// ratio is the mean of b's field over the mean of a's, and the ratios
// pair by pair.
func ratio(ps []pair, f func(*report.Stats) float64) (mean float64, each []float64) {
	var sa, sb float64
	for _, p := range ps {
		sa += f(p.a)
		sb += f(p.b)
		if f(p.b) > 0 {
			each = append(each, f(p.a)/f(p.b))
		}
	}
	if sb == 0 {
		return 0, each
	}
	return sa / sb, each
}

// median of xs (0 for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// named returns the pairs whose name is name.
func named(ps []pair, name string) []pair {
	var out []pair
	for _, p := range ps {
		if p.name == name {
			out = append(out, p)
		}
	}
	return out
}

// largestAt25TPS is the largest ball count of the scale runs (and the
// matrix) at which the logic kept 25 TPS.
func (r *results) largestAt25TPS() (n int, s *report.Stats) {
	for _, runs := range [][]scenario{r.matrix, r.scaleRuns} {
		for _, sc := range runs {
			if sc.stats.TPS >= 24.5 && sc.stats.Balls > n {
				n, s = sc.stats.Balls, sc.stats
			}
		}
	}
	return n, s
}

func fps(s *report.Stats) float64   { return s.FPS }
func frame(s *report.Stats) float64 { return s.FrameMsP50 }

func fmtRatios(xs []float64) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%.2f", x)
	}
	return out
}

// writeRenderTargets adds the renderer's rows to the targets table.
func (r *results) writeRenderTargets(row func(n int, target, measured string, ok bool)) {
	// 9. Overlays: judged by the median pair (a run the shared machine
	// disturbed moves the mean of a handful of runs by more than 10 %).
	mean, each := ratio(r.overlay, fps)
	med := median(each)
	measured := fmt.Sprintf("%.2fx (the median of %d on/off pairs: %s; mean FPS on over mean FPS off %.2fx)", med, len(r.overlay), fmtRatios(each), mean)
	for _, side := range []struct {
		name  string
		pairs []pair
	}{{"with no ball (what the overlays cost themselves, nothing to hide)", r.overlayNoBall}, {"with every frame painted whole, as in a window", r.overlayWhole}} {
		if _, e := ratio(side.pairs, fps); len(e) > 0 {
			measured += fmt.Sprintf("; %s: %.2fx", side.name, median(e))
		}
	}
	row(9, "with the HUD and the graph on (the defaults), at least 0.9x the frame rate with both off (1 ball, headless, alternating runs)",
		measured, len(each) > 0 && med >= 0.9)

	// 10, 11. Balls against the reference.
	f100, e100 := ratio(named(r.ballsRef, "100,000 balls"), frame)
	row(10, "100,000 balls: a frame at most 0.5x the reference's (every ball drawn), alternating runs",
		fmt.Sprintf("%.2fx (mean frame p50, pair by pair %s)", f100, fmtRatios(e100)), len(e100) > 0 && f100 <= 0.5)
	f10, e10 := ratio(named(r.ballsRef, "10,000 balls"), frame)
	row(11, "10,000 balls: a frame below the reference's", fmt.Sprintf("%.2fx (mean frame p50, pair by pair %s)", f10, fmtRatios(e10)), len(e10) > 0 && f10 < 1)

	// 12. Scale.
	if n, s := r.largestAt25TPS(); s != nil {
		p := fmt.Sprintf("%s balls: %.2f TPS at %.2f FPS (frame p50 %.0f ms)", commas(int64(n)), s.TPS, s.FPS, s.FrameMsP50)
		row(12, "the most balls at which the logic keeps 25 TPS (MAX_LOOPS of 5 needs 5 FPS), of the counts run", p, true)
	}
}

// writeRender writes the renderer's sections.
func (r *results) writeRender(p func(string, ...any)) {
	p("## Overlays\n\n")
	p("`bin/interpdemo -headless -vsync off -stats -balls N -hud=X -graph=X -duration %s`, on and off alternately. The HUD's text is rendered and uploaded when it changes (10 times a second at most); the graph is a sweep, refreshed 30 times a second, and a refresh redraws, uploads and repaints only the few columns that changed. Headless, the drawable keeps its pixels, so a frame repaints only where the ball was and is, and where an overlay changed. Both overlays lie beside the world, not over it (the HUD in a column at the left, the graph in a strip below): the window with them on is larger (920x588 against 640x480), and the ball is never beneath them.\n\n", overlayRunLength)
	p("- **1 ball**: the target's runs: what the overlays cost a frame that draws one ball.\n")
	p("- **no ball**: nothing to hide, so on against off is what the overlays themselves cost (refreshes and per-frame bookkeeping), against frames that draw nothing at all.\n")
	p("- **1 ball, whole frames** (`%s=redraw`): every frame painted whole, as in a window, whose back buffer is not kept after a swap: the overlays are drawn over their whole rectangles every frame.\n\n", renderEnv)
	p("| runs | # | FPS on | FPS off | on/off | frame p50 ms on | frame p50 ms off | overlay texture bytes uploaded (on) |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
	for _, set := range [][]pair{r.overlay, r.overlayNoBall, r.overlayWhole} {
		for i, pr := range set {
			p("| %s | %d | %.1f | %.1f | %.2f | %.3f | %.3f | %s |\n", pr.name, i+1, pr.a.FPS, pr.b.FPS, pr.a.FPS/pr.b.FPS, pr.a.FrameMsP50, pr.b.FrameMsP50, commas(pr.a.OverlayUploadBytes))
		}
	}
	p("\n## Balls against the reference\n\n")
	p("The demo's drawing against the reference (`%s=%s`: every ball drawn, the painter's algorithm, and every frame painted whole, as before the occlusion culling), alternately, `-balls N -duration 10s`. The two draw the same picture (the GL tests compare their read-backs: `go test ./render -run Culling`).\n\n", renderEnv, referencePath)
	p("| balls | FPS | frame p50 ms | FPS, reference | frame p50 ms, reference | frame / reference |\n|---:|---:|---:|---:|---:|---:|\n")
	for _, pr := range r.ballsRef {
		p("| %s | %.2f | %.3f | %.2f | %.3f | %.2f |\n", commas(int64(pr.a.Balls)), pr.a.FPS, pr.a.FrameMsP50, pr.b.FPS, pr.b.FrameMsP50, pr.a.FrameMsP50/pr.b.FrameMsP50)
	}
	p("\n## How many balls the logic keeps up with\n\n")
	p("`-balls N -duration 12s`. MAX_LOOPS runs at most 5 ticks a frame, so 25 ticks a second need 5 frames a second; below that the logic slows down (debt is discarded) rather than spiral.\n\n")
	p("| balls | FPS | frame p50 ms | TPS | frames at MAX_LOOPS | debt discarded ms | allocs after warm-up |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, sc := range r.scaleRuns {
		st := sc.stats
		p("| %s | %.2f | %.1f | %.2f | %d | %.0f | %s |\n", commas(int64(st.Balls)), st.FPS, st.FrameMsP50, st.TPS, st.CappedFrames, st.DiscardedMs, intOr(st.AllocsAfterWarmup))
	}
	if n, s := r.largestAt25TPS(); s != nil {
		p("\nThe most balls of these runs at which the logic kept 25 TPS: **%s** (%.2f TPS, %.2f FPS).\n", commas(int64(n)), s.TPS, s.FPS)
	}
	p("\n")
}
