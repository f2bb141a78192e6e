package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/internal/xvfb"
)

// regressionRef is the commit whose build issue 25 measured 10,000 balls
// against: the ordinary path had since become slower than it, and was to
// become faster by a fifth.
const regressionRef = "4222101"

// regressionBalls is the ball count of the comparison; regressionPairs
// how many alternating pairs of runs it takes, headless and in a window
// each (a run on this VM is now and then a quarter slower throughout).
// At regressionBallsHeadless, headless only, regressionPairs pairs too.
const (
	regressionBalls         = "10000"
	regressionBallsHeadless = "100000"
	regressionPairs         = 5
)

// regressionResults compare the demo with regressionRef's build, at
// regressionBalls, HUD and graph off, alternating, headless and in a
// window under Xvfb, and at regressionBallsHeadless headless.
type regressionResults struct {
	note             string // why it was not run; "" if it was
	secs             string
	headless, window []pair // this build (a), regressionRef's (b)
	headless100k     []pair
}

// regression builds regressionRef from this repository's history (a git
// worktree in a temporary folder) and runs both builds alternately.
// Without git, or without the commit (a shallow clone), it says so in
// the report instead.
func regression(o *options, r *results) error {
	g := &regressionResults{secs: o.dur("6s")}
	r.regress = g
	dir, err := os.MkdirTemp("", "interpdemo-"+regressionRef+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "src")
	if out, err := exec.Command("git", "worktree", "add", "--detach", src, regressionRef).CombinedOutput(); err != nil {
		g.note = fmt.Sprintf("not run: `git worktree add %s`: %v: %s", regressionRef, err, strings.TrimSpace(string(out)))
		return nil
	}
	defer exec.Command("git", "worktree", "remove", "--force", src).Run()
	ref := filepath.Join(dir, "interpdemo")
	build := exec.Command(o.goTool, "build", "-o", ref, ".")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s: %v: %s", regressionRef, err, out)
	}
	x, err := xvfb.Start(15 * time.Second)
	if err != nil {
		return fmt.Errorf("%v (make test-deps installs Xvfb)", err)
	}
	defer x.Stop()
	args := []string{"-stats", "-hud=false", "-graph=false", "-vsync", "off", "-balls", regressionBalls, "-duration", g.secs}
	run := func(bin, display string) func() (*report.Stats, error) {
		return func() (*report.Stats, error) {
			b := *o
			b.bin = bin
			if display == "" {
				return runStats(&b, nil, append([]string{"-headless"}, args...))
			}
			return nativeIn(&b, display, args...)
		}
	}
	if g.headless, err = pairs(regressionPairs, "headless", run(o.bin, ""), run(ref, "")); err != nil {
		return err
	}
	if g.window, err = pairs(regressionPairs, "window", run(o.bin, x.Display), run(ref, x.Display)); err != nil {
		return err
	}
	args[len(args)-3] = regressionBallsHeadless
	g.headless100k, err = pairs(regressionPairs, "headless", run(o.bin, ""), run(ref, ""))
	return err
}

func (g *regressionResults) write(p func(string, ...any)) {
	if g == nil {
		return
	}
	p("## 10,000 and 100,000 balls against commit %s\n\n", regressionRef)
	if g.note != "" {
		p("%s\n\n", g.note)
		return
	}
	p("This build and the build of commit %s (`git worktree add`, `go build`), alternating, %d pairs each: `interpdemo -stats -hud=false -graph=false -vsync off -balls %s -duration %s`, headless and in a window under Xvfb, and with `-balls %s` headless. Frame p50 is the median of the frames' histogram; the mean frame is 1 s over FPS.\n\n", regressionRef, regressionPairs, regressionBalls, g.secs, regressionBallsHeadless)
	p("| where | frame p50 ms, this build | frame p50 ms, %s | p50 this / %s (pairs) | mean frame ms, this / %s |\n|---|---|---|---|---|\n", regressionRef, regressionRef, regressionRef)
	for _, c := range []struct {
		name string
		ps   []pair
	}{{"10,000 balls, headless", g.headless}, {"10,000 balls, in a window", g.window}, {"100,000 balls, headless", g.headless100k}} {
		var a, b, means []string
		for _, q := range c.ps {
			a = append(a, fmt.Sprintf("%.2f", q.a.FrameMsP50))
			b = append(b, fmt.Sprintf("%.2f", q.b.FrameMsP50))
			means = append(means, fmt.Sprintf("%.2f / %.2f", 1000/q.a.FPS, 1000/q.b.FPS))
		}
		_, each := ratio(c.ps, frame)
		p("| %s | %s | %s | %s (median %.2fx) | %s |\n", c.name, strings.Join(a, ", "), strings.Join(b, ", "), fmtRatios(each), median(each), strings.Join(means, ", "))
	}
	p("\n")
}

// targets adds the comparison's row to the targets table.
func (g *regressionResults) targets(row func(n int, target, measured string, ok bool), n int) {
	if g == nil {
		return
	}
	const target = "10,000 balls, HUD and graph off: frame p50 at most 0.8x of commit " + regressionRef + "'s build, headless and in a window, alternating runs"
	if g.note != "" {
		row(n, target, g.note, false)
		return
	}
	_, h := ratio(g.headless, frame)
	_, w := ratio(g.window, frame)
	row(n, target, fmt.Sprintf("%.2fx headless, %.2fx in a window (median pairs)", median(h), median(w)), median(h) <= 0.8 && median(w) <= 0.8)
	_, h100 := ratio(g.headless100k, frame)
	row(n+3, "100,000 balls, HUD and graph off: frame p50 at most 0.5x of commit "+regressionRef+"'s build, headless, alternating runs",
		fmt.Sprintf("%.2fx (median pair; pair by pair %s)", median(h100), fmtRatios(h100)), len(h100) > 0 && median(h100) <= 0.5)
}
