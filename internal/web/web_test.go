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
	newCullStats(adaptive.On, true, true, 1234, adaptive.New(adaptive.On)).report(&r)
	if r.Cull != "on" || r.CullMode != "on" || r.CullHidden == nil || *r.CullHidden != 1234 || r.CullWalkMs != nil || r.CullCostOnMs != nil {
		t.Errorf("forced on: %q %q hidden %v walk %v cost %v", r.Cull, r.CullMode, r.CullHidden, r.CullWalkMs, r.CullCostOnMs)
	}
	r = report.Stats{}
	newCullStats(adaptive.Auto, false, true, 99, adaptive.New(adaptive.Auto)).report(&r)
	if r.Cull != "off" || r.CullMode != "auto" || r.CullHidden != nil {
		t.Errorf("auto, off: %q %q hidden %v", r.Cull, r.CullMode, r.CullHidden)
	}
	// A comparison's costs, reported in ms.
	c := measuredChoice(adaptive.Cost{Busy: 10e6}, adaptive.Cost{Strategy: 1e6, Busy: 5e6}, 4e6, 2e6)
	s := newCullStats(adaptive.Auto, c.On(), true, 0, c)
	r = report.Stats{}
	s.report(&r)
	if r.CullWalkMs == nil || *r.CullWalkMs != 1 || r.CullGPUOnMs == nil || *r.CullGPUOnMs != 2 || r.CullGPUOffMs == nil || *r.CullGPUOffMs != 4 ||
		r.CullCostOnMs == nil || *r.CullCostOnMs != 6 || r.CullCostOffMs == nil || *r.CullCostOffMs != 10 || r.Cull != "on" {
		t.Errorf("measured: cull %q walk %v gpu %v/%v cost %v/%v", r.Cull, r.CullWalkMs, r.CullGPUOnMs, r.CullGPUOffMs, r.CullCostOnMs, r.CullCostOffMs)
	}
	if h := s.hud(); h.Mode != "auto" || !h.On || h.Walk != time.Millisecond {
		t.Errorf("HUD: %+v", h)
	}
	if h := newCullStats(adaptive.Auto, false, false, 0, nil).hud(); h.Mode != noTimerMode || h.On || h.CostOn >= 0 {
		t.Errorf("HUD without a timer: %+v", h)
	}
}

// The page reports its form with the window's keys, each cost under its
// form's name: the page's choice is of squares (on draws them), the
// window's of points.
func TestSpriteStatsReport(t *testing.T) {
	for _, c := range []struct {
		mode adaptive.Mode
		want adaptive.Mode
	}{{adaptive.Auto, adaptive.Auto}, {adaptive.On, adaptive.Off}, {adaptive.Off, adaptive.On}} {
		if got := squaresMode(c.mode); got != c.want {
			t.Errorf("squaresMode(%s) = %s, want %s", demo.SpritesForms[c.mode], got, c.want)
		}
	}
	var r report.Stats
	newSpriteStats(adaptive.Off, true, true, adaptive.New(squaresMode(adaptive.Off))).report(&r)
	if r.Sprites != "quads" || r.SpritesMode != "quads" || r.SpritesCostQuadsMs != nil || r.SpritesComparedFrames != nil {
		t.Errorf("forced squares: %q %q cost %v compared %v", r.Sprites, r.SpritesMode, r.SpritesCostQuadsMs, r.SpritesComparedFrames)
	}
	// A comparison: squares (on) 6 ms a frame, 2 of them the GPU's;
	// points 10 ms, 4 of them the GPU's.
	ch := measuredChoice(adaptive.Cost{Busy: 10e6}, adaptive.Cost{Busy: 6e6}, 4e6, 2e6)
	s := newSpriteStats(adaptive.Auto, ch.On(), true, ch)
	r = report.Stats{}
	s.report(&r)
	if r.Sprites != "quads" || r.SpritesMode != "auto" || r.SpritesCostQuadsMs == nil || *r.SpritesCostQuadsMs != 6 ||
		r.SpritesCostPointsMs == nil || *r.SpritesCostPointsMs != 10 || r.SpritesGPUQuadsMs == nil || *r.SpritesGPUQuadsMs != 2 ||
		r.SpritesGPUPointsMs == nil || *r.SpritesGPUPointsMs != 4 || r.SpritesComparedFrames == nil || *r.SpritesComparedFrames == 0 {
		t.Errorf("measured: sprites %q (%q) cost %v/%v gpu %v/%v compared %v", r.Sprites, r.SpritesMode,
			r.SpritesCostQuadsMs, r.SpritesCostPointsMs, r.SpritesGPUQuadsMs, r.SpritesGPUPointsMs, r.SpritesComparedFrames)
	}
	if h := s.hud(); h.Mode != "auto" || !h.Quads || h.CostQuads != 6*time.Millisecond || h.CostPoints != 10*time.Millisecond {
		t.Errorf("HUD: %+v", h)
	}
	if h := newSpriteStats(adaptive.Auto, false, false, nil).hud(); h.Mode != noTimerMode || h.Quads || h.CostQuads >= 0 {
		t.Errorf("HUD without a timer: %+v", h)
	}
}

// measuredChoice is an auto Choice after comparisons whose frames cost
// off and on, the GPU offGPU and onGPU of them.
func measuredChoice(off, on adaptive.Cost, offGPU, onGPU int64) *adaptive.Choice {
	c := adaptive.New(adaptive.Auto)
	sc := adaptive.Scene{Balls: 10, ViewW: 640, ViewH: 480, RadiusPx64: 512}
	for range 4 * adaptive.TrialFrames {
		use, measure, tag := c.Frame(sc)
		if measure {
			cost, gpu := off, offGPU
			if use {
				cost, gpu = on, onGPU
			}
			c.MeasuredGPU(tag, gpu)
			c.Measured(tag, cost)
		}
	}
	return c
}
