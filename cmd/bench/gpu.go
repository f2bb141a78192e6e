package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/interpdemo/interpdemo/internal/report"
)

// This machine has no GPU, and the GPU machines lent to this project now
// and then are lent for minutes: what was measured there is recorded in
// docs/gpu/*.jsonl, and the report shows it beside what its own run
// measured, saying which is which. A recording's first line is its
// header; each line after it is one run of the demo's -stats.

// gpuHeader says where, when and how a recording was made.
type gpuHeader struct {
	Recorded   string `json:"recorded"`    // when, UTC
	GPU        string `json:"gpu"`         // the machine
	GLRenderer string `json:"gl_renderer"` // as the demo reported it
	Build      string `json:"build"`       // the commit of "this" build
	Ref        string `json:"ref"`         // the reference build's commit
	Command    string `json:"command"`     // BIN stands for either build
	Order      string `json:"order"`       // in which order the runs went
	Window     string `json:"window"`      // the runs in a window, or why none
	Note       string `json:"note"`        // what the recording showed beyond its tables
}

// gpuRun is one run of a recording.
type gpuRun struct {
	Build string        `json:"build"` // "this" or "ref"
	Balls int           `json:"balls"`
	Cull  string        `json:"cull"` // -cull forced on or off; "" for the default (auto)
	Round int           `json:"round"`
	Stats *report.Stats `json:"stats"` // nil where the run failed
}

// gpuRecording is one file of docs/gpu.
type gpuRecording struct {
	file   string
	header gpuHeader
	runs   []gpuRun
}

// readGPURecordings reads every recording in dir (docs/gpu beside the
// report), oldest first by name. None is no error: the section then says
// so.
func readGPURecordings(dir string) ([]gpuRecording, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var recs []gpuRecording
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		rec, err := parseGPURecording(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		rec.file = filepath.ToSlash(filepath.Join("docs", "gpu", filepath.Base(name)))
		recs = append(recs, rec)
	}
	return recs, nil
}

// parseGPURecording reads one recording: its header line, then its runs.
func parseGPURecording(r io.Reader) (gpuRecording, error) {
	var rec gpuRecording
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		if line == 1 {
			var h struct {
				Header *gpuHeader `json:"header"`
			}
			if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Header == nil || h.Header.Recorded == "" {
				return rec, fmt.Errorf("line 1: not a recording's header (%v)", err)
			}
			rec.header = *h.Header
			continue
		}
		var run gpuRun
		if err := json.Unmarshal(sc.Bytes(), &run); err != nil {
			return rec, fmt.Errorf("line %d: %v", line, err)
		}
		if (run.Build != "this" && run.Build != "ref") || run.Balls < 0 || run.Round < 1 {
			return rec, fmt.Errorf("line %d: not a run (build %q, %d balls, round %d)", line, run.Build, run.Balls, run.Round)
		}
		rec.runs = append(rec.runs, run)
	}
	if err := sc.Err(); err != nil {
		return rec, err
	}
	if len(rec.runs) == 0 {
		return rec, errors.New("no runs")
	}
	return rec, nil
}

// balls lists the ball counts the default runs cover, in order.
func (g *gpuRecording) balls() []int {
	var ns []int
	for _, r := range g.runs {
		if r.Cull == "" && !slices.Contains(ns, r.Balls) {
			ns = append(ns, r.Balls)
		}
	}
	slices.Sort(ns)
	return ns
}

// of returns the runs of build at n balls with cull forced as given, by
// round.
func (g *gpuRecording) of(build string, n int, cull string) []gpuRun {
	var rs []gpuRun
	for _, r := range g.runs {
		if r.Build == build && r.Balls == n && r.Cull == cull {
			rs = append(rs, r)
		}
	}
	slices.SortFunc(rs, func(a, b gpuRun) int { return a.Round - b.Round })
	return rs
}

// ratio is the median over rounds of this build's frame rate over the
// reference's in the same round (each round runs both, in turn), and
// whether every round had both.
func (g *gpuRecording) ratio(n int) (float64, bool) {
	this, ref := g.of("this", n, ""), g.of("ref", n, "")
	var rs []float64
	for _, a := range this {
		for _, b := range ref {
			if a.Round == b.Round && a.Stats != nil && b.Stats != nil && b.Stats.FPS > 0 {
				rs = append(rs, a.Stats.FPS/b.Stats.FPS)
			}
		}
	}
	if len(rs) == 0 {
		return 0, false
	}
	return median(rs), len(rs) == len(this) && len(rs) == len(ref)
}

// cells is a build's runs as "FPS (frame p50 ms)", round by round.
func cells(rs []gpuRun) string {
	if len(rs) == 0 {
		return "-"
	}
	var each []string
	for _, r := range rs {
		if r.Stats == nil {
			each = append(each, "failed")
			continue
		}
		each = append(each, fmt.Sprintf("%s (%.3f)", commas(int64(r.Stats.FPS+0.5)), r.Stats.FrameMsP50))
	}
	return strings.Join(each, ", ")
}

// cullCell says what -cull auto ended with in each run, and what it had
// measured: the walk's ms, the ball draw's GPU ms with and without.
func cullCell(rs []gpuRun) string {
	var each []string
	for _, r := range rs {
		s := r.Stats
		if s == nil {
			continue
		}
		each = append(each, fmt.Sprintf("%s (walk %s, GPU %s / %s)", s.Cull, floatOr(s.CullWalkMs, "%.3f"), floatOr(s.CullGPUOnMs, "%.3f"), floatOr(s.CullGPUOffMs, "%.3f")))
	}
	return strings.Join(each, ", ")
}

// writeGPU writes the section of the recordings, or says there are none:
// the one target 21 judges in full, the others by name.
func writeGPU(p func(string, ...any), recs []gpuRecording) {
	p("## On a GPU (recorded, not measured by this run)\n\n")
	if len(recs) == 0 {
		p("No recording in docs/gpu.\n\n")
		return
	}
	shown := judged(recs)
	// The other recordings, by renderer in the order first met: each
	// renderer named once.
	var renderers []string
	older := map[string][]string{}
	for i, g := range recs {
		h := g.header
		if i != shown {
			if _, ok := older[h.GLRenderer]; !ok {
				renderers = append(renderers, h.GLRenderer)
			}
			older[h.GLRenderer] = append(older[h.GLRenderer], fmt.Sprintf("[%s](gpu/%s)", g.file, filepath.Base(g.file)))
			continue
		}
		p("Recorded on %s on %s (`%s`), headless (SDL's offscreen driver, EGL), not by this run: `%s`, BIN this build (commit %s) and commit %s's; %s. The runs are in [%s](gpu/%s). Each cell is FPS (frame p50 ms), round by round; the ratio is the median over rounds of this build's FPS over %s's in the same round.\n\n",
			h.Recorded, h.GPU, h.GLRenderer, h.Command, h.Build, h.Ref, h.Order, g.file, filepath.Base(g.file), h.Ref)
		p("| balls | this build | %s | this / %s | `-cull auto` at exit (walk ms, ball draw GPU ms on / off) |\n|---:|---|---|---:|---|\n", h.Ref, h.Ref)
		for _, n := range g.balls() {
			r, _ := g.ratio(n)
			p("| %s | %s | %s | %.2fx | %s |\n", commas(int64(n)), cells(g.of("this", n, "")), cells(g.of("ref", n, "")), r, cullCell(g.of("this", n, "")))
		}
		p("\n")
		var forced []int
		for _, r := range g.runs {
			if r.Cull != "" && !slices.Contains(forced, r.Balls) {
				forced = append(forced, r.Balls)
			}
		}
		if len(forced) > 0 {
			slices.Sort(forced)
			p("This build with the culling forced, against `-cull auto` above:\n\n| balls | `-cull on` | `-cull off` | `-cull auto` |\n|---:|---|---|---|\n")
			for _, n := range forced {
				p("| %s | %s | %s | %s |\n", commas(int64(n)), cells(g.of("this", n, "on")), cells(g.of("this", n, "off")), cells(g.of("this", n, "")))
			}
			p("\n")
		}
		if h.Note != "" {
			p("%s\n\n", h.Note)
		}
		if h.Window != "" {
			p("In a window: %s\n\n", h.Window)
		}
	}
	if len(renderers) > 0 {
		by := make([]string, len(renderers))
		for i, r := range renderers {
			by[i] = fmt.Sprintf("`%s`: %s", r, strings.Join(older[r], ", "))
		}
		p("The other recordings (each file's name is its time and GPU), by renderer: %s.\n\n", strings.Join(by, "; "))
	}
}

// gpuTarget adds the row of the newest recording against regressionRef's
// build: this build at least as fast as it at every ball count. A
// recording against another build (the one issue 34 was filed on, say)
// is shown in the section, but judges nothing.
func gpuTarget(row func(n int, target, measured string, ok bool), n int, recs []gpuRecording) {
	target := "on a GPU (recorded; NVIDIA, headless, EGL): FPS at least commit " + regressionRef + "'s at every ball count from 1 to 1,000,000, each build in turn"
	i := judged(recs)
	if i < 0 || recs[i].header.Ref != regressionRef {
		row(n, target, "no recording against "+regressionRef+" in docs/gpu", false)
		return
	}
	g := recs[i]
	ok := true
	var parts []string
	for _, b := range g.balls() {
		r, all := g.ratio(b)
		ok = ok && all && r >= 1
		parts = append(parts, fmt.Sprintf("%.2fx at %s", r, commas(int64(b))))
	}
	row(n, target, fmt.Sprintf("%s (%s, %s; recorded, not this run: see below)", strings.Join(parts, ", "), g.header.GPU, g.header.Recorded), ok && len(parts) > 0)
}

// judged is the index of the recording target 21 judges: the newest
// against regressionRef's build, or else the newest; -1 when none.
func judged(recs []gpuRecording) int {
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].header.Ref == regressionRef {
			return i
		}
	}
	return len(recs) - 1
}
