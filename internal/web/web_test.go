package web

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/render/adaptive"
)

func TestArgsMirrorTheFlags(t *testing.T) {
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"", nil},
		{"?", nil},
		{"?balls=1000&tick=40ms&seed=3&ghosts&interp=false&ticks=250&fast&stats",
			[]string{"-balls=1000", "-tick=40ms", "-seed=3", "-ghosts", "-interp=false", "-ticks=250", "-fast", "-stats"}},
		{"balls=10&&balls=20", []string{"-balls=10", "-balls=20"}},
		{"?replay=rec%20one.bin&speed=0.5", []string{"-replay=rec one.bin", "-speed=0.5"}},
		{"?balls", []string{"-balls="}}, // a flag that takes a value, given none: Parse says so
		// A room's game: played, or watched (&spectate is -spectate URL).
		{"?lobby=ws://127.0.0.1:9/r2&ticks=300&stats&bot=2", []string{"-lobby=ws://127.0.0.1:9/r2", "-ticks=300", "-stats", "-bot=2"}},
		{"?lobby=ws://127.0.0.1:9/r2&spectate&stats", []string{"-spectate=ws://127.0.0.1:9/r2", "-stats"}},
		{"?spectate&lobby=ws%3A%2F%2Fh%3A9%2Fr", []string{"-spectate=ws://h:9/r"}},
	} {
		got, err := Args(c.query)
		if err != nil {
			t.Fatalf("%q: %v", c.query, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.query, got, c.want)
		}
	}
}

// A query's bad value gets the command line's message, word for word.
func TestQueryErrorsAreTheCommandLines(t *testing.T) {
	for _, c := range []struct{ query, cmdline string }{
		{"?balls=-1", "-balls=-1"},
		{"?tick=fast", "-tick=fast"},
		{"?speed=9", "-speed=9"},
		{"?nosuchflag", "-nosuchflag"},
		{"?fast&mode=variable", "-fast -mode=variable"},
	} {
		args, err := Args(c.query)
		if err != nil {
			t.Fatal(err)
		}
		_, qerr := demo.Parse(args, io.Discard, demo.Platform{})
		_, cerr := demo.Parse(strings.Fields(c.cmdline), io.Discard, demo.Platform{})
		var usage demo.UsageError
		if !errors.As(qerr, &usage) || cerr == nil || qerr.Error() != cerr.Error() {
			t.Errorf("%s: query gives %v, command line %v", c.query, qerr, cerr)
		}
	}
}

func TestBadQueries(t *testing.T) {
	for _, q := range []string{"?balls=%zz", "?%=1", "?=3", "?-balls=3"} {
		_, err := Args(q)
		var usage demo.UsageError
		if !errors.As(err, &usage) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want a one-line usage error", q, err)
		}
	}
}

func TestReplayURL(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"-stats", "-replay=a.rec"}, "a.rec"},
		{[]string{"-replay", "b.rec", "-stats"}, "b.rec"},
		{[]string{"-replay=a.rec", "-replay=http://127.0.0.1:1/c.rec"}, "http://127.0.0.1:1/c.rec"},
	} {
		if got := ReplayURL(c.args); got != c.want {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
}

// Every key the demo knows has a physical key on the page.
func TestEveryDemoKeyHasACode(t *testing.T) {
	have := map[demo.Key]bool{}
	for code, k := range codeKeys {
		if KeyOf(code) != k || k == demo.KeyNone {
			t.Errorf("%s: %v", code, k)
		}
		have[k] = true
	}
	for k := demo.KeyNone + 1; k < demo.NumKeys; k++ {
		if !have[k] {
			t.Errorf("demo key %d has no KeyboardEvent.code", k)
		}
	}
	if KeyOf("KeyZ") != demo.KeyNone || KeyOf("") != demo.KeyNone {
		t.Error("an unknown code maps to a key")
	}
}

// The page reports its culling with the window's keys: the choice, the
// mode, the hidden balls only when culling, and only the costs measured.
func TestCullStatsReport(t *testing.T) {
	var r report.Stats
	newCullStats(adaptive.On, true, true, 1234, nil).report(&r) // forced: no choice
	if r.Cull != "on" || r.CullMode != "on" || r.CullHidden == nil || *r.CullHidden != 1234 || r.CullWalkMs != nil || r.CullCostOnMs != nil ||
		r.CullComparedFrames != nil {
		t.Errorf("forced on: %q %q hidden %v walk %v cost %v compared %v", r.Cull, r.CullMode, r.CullHidden, r.CullWalkMs, r.CullCostOnMs, r.CullComparedFrames)
	}
	r = report.Stats{}
	newCullStats(adaptive.Auto, false, true, 99, adaptive.NewOf(numOptions)).report(&r)
	if r.Cull != "off" || r.CullMode != "auto" || r.CullHidden != nil || r.CullCostOnMs != nil || r.CullComparedFrames == nil || *r.CullComparedFrames != 0 {
		t.Errorf("auto, off, nothing measured: %q %q hidden %v cost %v compared %v", r.Cull, r.CullMode, r.CullHidden, r.CullCostOnMs, r.CullComparedFrames)
	}
	// A comparison's costs, reported in ms: points 10 ms a frame, 4 of
	// them the GPU's; squares 8 ms, 3 the GPU's; culled points 6 ms, 1 of
	// them the culler's, 2 the GPU's. The cheaper form unculled is the
	// squares: culling's "off".
	c := measuredChoice(sprites3, [numOptions]adaptive.Cost{{Busy: 10e6}, {Busy: 8e6}, {Strategy: 1e6, Busy: 5e6}}, [numOptions]int64{4e6, 3e6, 2e6})
	s := newCullStats(adaptive.Auto, c.Option() == optCulled, true, 0, c)
	r = report.Stats{}
	s.report(&r)
	if r.CullWalkMs == nil || *r.CullWalkMs != 1 || r.CullGPUOnMs == nil || *r.CullGPUOnMs != 2 || r.CullGPUOffMs == nil || *r.CullGPUOffMs != 3 ||
		r.CullCostOnMs == nil || *r.CullCostOnMs != 6 || r.CullCostOffMs == nil || *r.CullCostOffMs != 8 || r.Cull != "on" {
		t.Errorf("measured: cull %q walk %v gpu %v/%v cost %v/%v", r.Cull, r.CullWalkMs, r.CullGPUOnMs, r.CullGPUOffMs, r.CullCostOnMs, r.CullCostOffMs)
	}
	// The culling's comparisons alone: with points, and with squares.
	f0, t0 := c.ComparedPair(optCulled, optPoints)
	f1, t1 := c.ComparedPair(optCulled, optSquares)
	all, _ := c.Compared()
	if r.CullComparedFrames == nil || *r.CullComparedFrames != f0+f1 || *r.CullTriedFrames != t0+t1 || f0 == 0 || f1 == 0 || f0+f1 > all {
		t.Errorf("compared %v (tried %v): want %d+%d (%d+%d) of %d, the pairs with culled points", r.CullComparedFrames, r.CullTriedFrames, f0, f1, t0, t1, all)
	}
	if h := s.hud(); h.Mode != "auto" || !h.On || h.Walk != time.Millisecond || h.CostOff != 8*time.Millisecond {
		t.Errorf("HUD: %+v", h)
	}
	if h := newCullStats(adaptive.Auto, false, false, 0, nil).hud(); h.Mode != noTimerMode || h.On || h.CostOn >= 0 {
		t.Errorf("HUD without a timer: %+v", h)
	}
	// Squares never measured (?sprites=points): "off" is the points'.
	c = measuredChoice(1<<optPoints|1<<optCulled, [numOptions]adaptive.Cost{{Busy: 10e6}, {Busy: 1e6}, {Strategy: 1e6, Busy: 5e6}}, [numOptions]int64{4e6, 1e6, 2e6})
	if s := newCullStats(adaptive.Auto, true, true, 0, c); s.CostOffNs != 10e6 || s.GPUOffNs != 4e6 {
		t.Errorf("squares not allowed: cost off %d, GPU %d; want the points' 10 ms, 4 ms", s.CostOffNs, s.GPUOffNs)
	}
}

// The page reports its form with the window's keys, each cost under its
// form's name.
func TestSpriteStatsReport(t *testing.T) {
	var r report.Stats
	newSpriteStats(adaptive.Off, true, true, nil).report(&r) // squares forced: no choice
	if r.Sprites != "quads" || r.SpritesMode != "quads" || r.SpritesCostQuadsMs != nil || r.SpritesComparedFrames != nil {
		t.Errorf("forced squares: %q %q cost %v compared %v", r.Sprites, r.SpritesMode, r.SpritesCostQuadsMs, r.SpritesComparedFrames)
	}
	// A comparison: squares 6 ms a frame, 2 of them the GPU's; points
	// 10 ms, 4 of them the GPU's; culling not allowed (?cull=off).
	ch := measuredChoice(1<<optPoints|1<<optSquares, [numOptions]adaptive.Cost{{Busy: 10e6}, {Busy: 6e6}, {Busy: 1e6}}, [numOptions]int64{4e6, 2e6, 1e6})
	s := newSpriteStats(adaptive.Auto, ch.Option() == optSquares, true, ch)
	r = report.Stats{}
	s.report(&r)
	frames, _ := ch.Compared()
	if r.Sprites != "quads" || r.SpritesMode != "auto" || r.SpritesCostQuadsMs == nil || *r.SpritesCostQuadsMs != 6 ||
		r.SpritesCostPointsMs == nil || *r.SpritesCostPointsMs != 10 || r.SpritesGPUQuadsMs == nil || *r.SpritesGPUQuadsMs != 2 ||
		r.SpritesGPUPointsMs == nil || *r.SpritesGPUPointsMs != 4 || r.SpritesComparedFrames == nil || *r.SpritesComparedFrames == 0 ||
		*r.SpritesComparedFrames != frames {
		t.Errorf("measured: sprites %q (%q) cost %v/%v gpu %v/%v compared %v of %d", r.Sprites, r.SpritesMode,
			r.SpritesCostQuadsMs, r.SpritesCostPointsMs, r.SpritesGPUQuadsMs, r.SpritesGPUPointsMs, r.SpritesComparedFrames, frames)
	}
	if h := s.hud(); h.Mode != "auto" || !h.Quads || h.CostQuads != 6*time.Millisecond || h.CostPoints != 10*time.Millisecond {
		t.Errorf("HUD: %+v", h)
	}
	if h := newSpriteStats(adaptive.Auto, false, false, nil).hud(); h.Mode != noTimerMode || h.Quads || h.CostQuads >= 0 {
		t.Errorf("HUD without a timer: %+v", h)
	}
	// All three allowed, every pair compared (points 10 ms, squares 8,
	// culled points 9: culling not taken up against points, by the
	// margin, nor against squares): the forms' frames are those of their
	// own comparisons, the culling's the rest.
	ch = measuredChoice(sprites3, [numOptions]adaptive.Cost{{Busy: 10e6}, {Busy: 8e6}, {Strategy: 1e6, Busy: 8e6}}, [numOptions]int64{4e6, 3e6, 2e6})
	s = newSpriteStats(adaptive.Auto, ch.Option() == optSquares, true, ch)
	cs := newCullStats(adaptive.Auto, ch.Option() == optCulled, true, 0, ch)
	pair, _ := ch.ComparedPair(optPoints, optSquares)
	all, _ := ch.Compared()
	if !s.Quads || cs.On || s.CostQuadsNs != 8e6 || s.CostPointsNs != 10e6 || cs.CostOnNs != 9e6 || cs.CostOffNs != 8e6 ||
		s.Compared != pair || pair == 0 || cs.Compared != all-pair || cs.Compared == 0 {
		t.Errorf("three options: quads %v, culled %v, costs %d/%d, culled %d against %d, compared %d and %d (the forms' pair %d of %d)",
			s.Quads, cs.On, s.CostQuadsNs, s.CostPointsNs, cs.CostOnNs, cs.CostOffNs, s.Compared, cs.Compared, pair, all)
	}
}

// sprites3 allows the three ways to draw sprites, not painting.
const sprites3 = 1<<optPoints | 1<<optSquares | 1<<optCulled

// The options a frame can draw, for each mode of ?cull=, ?sprites= (as
// demo.SpritesForms names them) and ?paint=, where the balls can be
// culled, drawn as squares and painted or not; and what a page without a
// choice draws (the first of them).
func TestAllowedOptions(t *testing.T) {
	const P, Q, C, D = 1 << optPoints, 1 << optSquares, 1 << optCulled, 1 << optPainted
	auto, on, off := adaptive.Auto, adaptive.On, adaptive.Off
	for _, c := range []struct {
		cull, sprites, paint         adaptive.Mode
		cullable, squares, paintable bool
		want                         uint8
		first                        int
	}{
		{auto, auto, auto, true, true, true, P | Q | C | D, optPoints},
		{auto, auto, auto, false, true, true, P | Q | D, optPoints},
		{auto, auto, auto, true, false, true, P | C | D, optPoints}, // no squares' program: no GPU timer
		{auto, auto, auto, true, true, false, P | Q | C, optPoints},
		{on, auto, auto, true, true, true, C, optCulled},          // culling forced
		{on, off, auto, true, true, true, C, optCulled},           // culled balls are points, even with ?sprites=quads
		{on, auto, auto, false, true, true, P | Q | D, optPoints}, // forced, but the balls cannot be culled now
		{on, off, auto, false, true, true, Q, optSquares},
		{off, auto, auto, false, true, true, P | Q | D, optPoints},
		{off, off, off, false, true, true, Q, optSquares},      // everything forced
		{off, on, auto, false, false, true, P, optPoints},      // a form forced: sprites, not painted
		{auto, off, auto, true, true, true, Q | C, optSquares}, // squares unless culled
		{auto, on, auto, true, false, true, P | C, optPoints},
		{auto, off, auto, false, false, false, P, optPoints},      // nothing drawable: points
		{auto, auto, on, true, true, true, D, optPainted},         // painting forced
		{on, off, on, true, true, true, D, optPainted},            // ... whatever the others say
		{auto, auto, on, true, true, false, P | Q | C, optPoints}, // forced, but the balls cannot be painted now
		{auto, auto, off, true, true, true, P | Q | C, optPoints},
	} {
		got := allowedOptions(c.cull, c.sprites, c.paint, c.cullable, c.squares, c.paintable)
		if got != c.want || adaptive.First(got) != c.first {
			t.Errorf("cull %s, sprites %s, paint %s, cullable %v, squares %v, paintable %v: options %04b (first %d), want %04b (%d)",
				c.cull, demo.SpritesForms[c.sprites], c.paint, c.cullable, c.squares, c.paintable, got, adaptive.First(got), c.want, c.first)
		}
	}
	for _, c := range []struct {
		cull, sprites, paint adaptive.Mode
		timer, want          bool
	}{
		{auto, auto, auto, true, true}, {auto, on, off, true, true}, {off, auto, off, true, true}, {on, off, off, true, false},
		{off, off, off, true, false}, {off, off, auto, true, true}, {auto, auto, auto, false, false},
	} {
		if got := choosing(c.cull, c.sprites, c.paint, c.timer); got != c.want {
			t.Errorf("cull %s, sprites %s, paint %s, timer %v: a choice %v, want %v", c.cull, demo.SpritesForms[c.sprites], c.paint, c.timer, got, c.want)
		}
	}
}

// measuredChoice is the page's choice after comparisons among the
// options mask allows (0: all), whose frames cost cost and the GPU gpu
// of them, by option.
func measuredChoice(mask uint8, cost [numOptions]adaptive.Cost, gpu [numOptions]int64) *adaptive.Choice {
	c := adaptive.NewOf(numOptions)
	sc := adaptive.Scene{Balls: 10, ViewW: 640, ViewH: 480, RadiusPx64: 512, Options: mask}
	for range 8 * adaptive.MaxTrialFrames {
		opt, measure, tag := c.Pick(sc)
		if measure {
			c.MeasuredGPU(tag, gpu[opt])
			c.Measured(tag, cost[opt])
		}
	}
	return c
}
