package main

import (
	"fmt"
	"strings"

	"github.com/interpdemo/interpdemo/internal/report"
)

// The culling's choice (issue 34), now one choice of three (squares,
// points, culled points; render/choice.go): in a scene where culling
// pays on llvmpipe (10,000 balls of radius 8 in 640x480) and one where it
// cannot (radius 1: almost nothing hidden), -cull auto against each of
// the three options forced, the four in turn, cullRuns times. (Until
// 2026-12-01 against -cull on and -cull off, where -cull off still chose
// the form: a run that chose the dearer form there was taken for the
// forced choice.)
const cullRuns = 5

// modeScene is one scene's runs: of a choice made by measurement
// (-cull, -sprites), auto against its forced modes.
type modeScene struct {
	name string
	args []string
	runs map[string][]*report.Stats // by mode: auto, then the forced ones
}

// cullModes are auto and the three options forced, with their flags.
var (
	cullModes = []string{"auto", "on", "squares", "points"}
	cullFlags = map[string][]string{
		"auto":    {"-cull", "auto"},
		"on":      {"-cull", "on"},
		"squares": {"-cull", "off", "-sprites", "quads"},
		"points":  {"-cull", "off", "-sprites", "points"},
	}
)

func cullChoice(o *options, r *results) error {
	for _, sc := range []struct {
		name   string
		radius string
	}{{"10,000 balls, radius 8 (culling pays on llvmpipe)", "8"}, {"10,000 balls, radius 1 (almost nothing hidden)", "1"}} {
		s := &modeScene{name: sc.name, args: []string{"-balls", "10000", "-radius", sc.radius, "-duration", o.dur("8s")}}
		var err error
		if s.runs, err = inTurn(cullModes, cullRuns, func(m string) (*report.Stats, error) {
			return demo(o, append(append([]string(nil), cullFlags[m]...), s.args...)...)
		}); err != nil {
			return err
		}
		r.cull = append(r.cull, s)
	}
	return nil
}

// inTurn runs each of modes n times, the modes in turn, each first in
// turn, and returns the runs' stats by mode.
func inTurn(modes []string, n int, run func(mode string) (*report.Stats, error)) (map[string][]*report.Stats, error) {
	runs := map[string][]*report.Stats{}
	for i := 0; i < n; i++ {
		for k := range modes {
			m := modes[(i+k)%len(modes)]
			st, err := run(m)
			if err != nil {
				return nil, err
			}
			runs[m] = append(runs[m], st)
		}
	}
	return runs, nil
}

// p50 is the median of the runs' frame p50s.
func (s *modeScene) p50(mode string) float64 {
	var xs []float64
	for _, st := range s.runs[mode] {
		xs = append(xs, st.FrameMsP50)
	}
	return median(xs)
}

// better is the forced option with the lowest median frame p50.
func (s *modeScene) better() string {
	b := cullModes[1]
	for _, m := range cullModes[2:] {
		if s.p50(m) < s.p50(b) {
			b = m
		}
	}
	return b
}

// autoChose counts the auto runs that ended with culling on, and with
// squares.
func (s *modeScene) autoChose() (on, squares, runs int) {
	for _, st := range s.runs["auto"] {
		switch optionAtExit(st) {
		case "culled":
			on++
		case "squares":
			squares++
		}
	}
	return on, squares, len(s.runs["auto"])
}

// optionAtExit is the option an auto run ended with.
func optionAtExit(st *report.Stats) string {
	switch {
	case st.Cull == "on":
		return "culled"
	case st.Sprites == "quads":
		return "squares"
	}
	return "points"
}

// cullFlagsOf is mode's flags as text.
func cullFlagsOf(mode string) string { return strings.Join(cullFlags[mode], " ") }

func (r *results) cullTargets(row func(n int, target, measured string, ok bool), n int) {
	for i, s := range r.cull {
		b := s.better()
		ratio := s.p50("auto") / s.p50(b)
		on, squares, runs := s.autoChose()
		row(n+i, fmt.Sprintf("%s: `-cull auto`'s frame p50 within 10 %% of the best option forced (culled points `-cull on`, squares `-cull off -sprites quads`, points `-cull off -sprites points`; median of %d runs each, the four in turn)", s.name, runs),
			fmt.Sprintf("%.2fx of `%s`'s (auto %.3f ms, culled %.3f, squares %.3f, points %.3f); auto ended with culled points in %d of %d runs, squares in %d, points in %d", ratio, cullFlagsOf(b), s.p50("auto"), s.p50("on"), s.p50("squares"), s.p50("points"), on, runs, squares, runs-on-squares),
			ratio <= 1.10)
	}
}

func (r *results) writeCull(p func(string, ...any)) {
	if len(r.cull) == 0 {
		return
	}
	p("## Culling chosen by measurement\n\n")
	p("`bin/interpdemo -headless -vsync off -hud=false -graph=false -stats %s` with `-cull auto`, and with each of the three options forced (`-cull on`: culled points; `-cull off -sprites quads`: squares; `-cull off -sprites points`: points), the four in turn, %d times each (see [DESIGN.md](DESIGN.md#one-choice-of-three)). The option at exit is the one in force at the end of the run; the costs are those of auto's last comparisons that measured each option (a frame's time from its ball draw to the end of the frame: the median of the blocks' mean frames, each block from an empty GPU queue to an empty one, [DESIGN.md](DESIGN.md#blocks-measured-whole)).\n\n",
		strings.Join(r.cull[0].args, " "), cullRuns)
	p("| scene | flags | frame p50 ms, each run | median | auto: option at exit, each run | auto: frame ms culled / squares / points, each run |\n|---|---|---|---:|---|---|\n")
	for _, s := range r.cull {
		for _, m := range cullModes {
			var each, chose, costs []string
			for _, st := range s.runs[m] {
				each = append(each, fmt.Sprintf("%.3f", st.FrameMsP50))
				if m == "auto" {
					chose = append(chose, optionAtExit(st))
					costs = append(costs, floatOr(st.CullCostOnMs, "%.2f")+" / "+floatOr(st.SpritesCostQuadsMs, "%.2f")+" / "+floatOr(st.SpritesCostPointsMs, "%.2f"))
				}
			}
			p("| %s | `%s` | %s | %.3f | %s | %s |\n", s.name, cullFlagsOf(m), strings.Join(each, ", "), s.p50(m), strings.Join(chose, ", "), strings.Join(costs, ", "))
		}
	}
	p("\n")
}

// cullOnly runs the culling's scenes alone and prints their section.
func cullOnly(o *options) error {
	r := &results{}
	if err := cullChoice(o, r); err != nil {
		return err
	}
	p := func(format string, args ...any) { fmt.Printf(format, args...) }
	r.writeCull(p)
	p("| # | target | measured | met |\n|---|---|---|---|\n")
	r.cullTargets(targetRow(p), 17)
	return nil
}
