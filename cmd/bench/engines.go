package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/cmd/bench/engines/scene"
	"github.com/interpdemo/interpdemo/internal/xvfb"
)

// enginesBalls are the ball counts of the side-by-side runs; enginesRounds
// how many times each program runs at each, all of them in turn.
var enginesBalls = []int{1, 1000, 10_000, 100_000}

const enginesRounds = 3

// engineProg is one program of the side-by-side runs.
type engineProg struct {
	name string
	run  func(balls int) (fps float64, err error)
}

// enginesResults are the demo's and other engines' frame rates drawing
// the same scene in a window under Xvfb: fps[program][ball count index]
// holds one figure a round.
type enginesResults struct {
	secs  string
	names []string
	fps   map[string][][]float64
}

// engines builds the Ebitengine and raylib-go programs of
// cmd/bench/engines (modules of their own, built with GOWORK=off) and runs
// them in a window under Xvfb in turn with the demo, default settings and
// with the overlays off.
func engines(o *options, r *results) error {
	dir, err := os.MkdirTemp("", "interpdemo-engines-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	e := &enginesResults{secs: o.dur("4s"), fps: map[string][][]float64{}}
	x, err := xvfb.Start(15 * time.Second)
	if err != nil {
		return fmt.Errorf("%v (make test-deps installs Xvfb)", err)
	}
	defer x.Stop()
	ours := func(args ...string) func(int) (float64, error) {
		return func(n int) (float64, error) {
			s, err := nativeIn(o, x.Display, append([]string{"-vsync", "off", "-stats", "-balls", strconv.Itoa(n), "-duration", e.secs}, args...)...)
			if err != nil {
				return 0, err
			}
			return s.FPS, nil
		}
	}
	progs := []engineProg{{"interpdemo, default", ours()}, {"interpdemo, overlays off", ours("-hud=false", "-graph=false")}}
	for _, eng := range []struct{ name, dir string }{{"Ebitengine v2.8.8", "ebiten"}, {"raylib-go v0.55.1", "raylib"}} {
		bin := filepath.Join(dir, eng.dir)
		b := exec.Command(o.goTool, "build", "-o", bin, ".")
		b.Dir = filepath.Join("cmd", "bench", "engines", eng.dir)
		b.Env = append(os.Environ(), "GOWORK=off")
		if out, err := b.CombinedOutput(); err != nil {
			return fmt.Errorf("building %s (make test-ebiten-deps installs what it needs): %v: %s", b.Dir, err, out)
		}
		progs = append(progs, engineProg{eng.name, func(n int) (float64, error) {
			return runEngine(bin, x.Display, n, e.secs)
		}})
	}
	for _, p := range progs {
		e.names = append(e.names, p.name)
		e.fps[p.name] = make([][]float64, len(enginesBalls))
	}
	for i, n := range enginesBalls {
		for range enginesRounds {
			for _, p := range progs {
				f, err := p.run(n)
				if err != nil {
					return fmt.Errorf("%s, %d balls: %v", p.name, n, err)
				}
				e.fps[p.name][i] = append(e.fps[p.name][i], f)
			}
		}
	}
	r.engines = e
	return nil
}

// runEngine runs one of cmd/bench/engines' programs in display and
// returns its frame rate.
func runEngine(bin, display string, balls int, secs string) (float64, error) {
	cmd := exec.Command(bin, "-balls", strconv.Itoa(balls), "-duration", secs)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = benchEnv([]string{"DISPLAY=" + display})
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s: %v: %s", bin, err, lastLines(stderr.String(), 1))
	}
	var res scene.Result
	if err := json.Unmarshal([]byte(lastLines(stdout.String(), 1)), &res); err != nil || res.Balls != balls || res.FPS <= 0 {
		return 0, fmt.Errorf("%s: no result line for %d balls (%v): %q", bin, balls, err, lastLines(stdout.String(), 1))
	}
	return res.FPS, nil
}

// med is program name's median frame rate at ball count index i.
func (e *enginesResults) med(name string, i int) float64 { return median(e.fps[name][i]) }

// bestPeer is the better of the other engines' median frame rates at ball
// count index i, and its name.
func (e *enginesResults) bestPeer(i int) (float64, string) {
	var best float64
	var who string
	for _, n := range e.names[2:] {
		if f := e.med(n, i); f > best {
			best, who = f, n
		}
	}
	return best, who
}

func (e *enginesResults) write(p func(string, ...any)) {
	if e == nil {
		return
	}
	p("## Beside other engines, in a window\n\n")
	p("The demo's scene drawn by other Go engines, each as its users draw many sprites (`cmd/bench/engines`: the same balls of package physics, ticked at 25 TPS by a loop.Fixed and drawn at percentWithinTick, one texture of a ball drawn once per ball, tinted; Ebitengine with `DrawImage`, raylib-go with `DrawTextureV`, both batching), in a 640x480 window with vsync off, against `bin/interpdemo -vsync off -stats -balls N -duration %s` with its defaults (the HUD and the graph on: a 920x588 window) and with `-hud=false -graph=false`. All in windows of one Xvfb, with Mesa's llvmpipe, the %d programs in turn, %d rounds; FPS is frames over the run, as the demo's `-stats` counts them; each cell is the median of the rounds, then the rounds.\n\n", e.secs, len(e.names), enginesRounds)
	p("| balls |")
	for _, n := range e.names {
		p(" %s FPS |", n)
	}
	p(" default / best other |\n|---:|")
	for range e.names {
		p("---|")
	}
	p("---:|\n")
	for i, n := range enginesBalls {
		p("| %s |", commas(int64(n)))
		for _, name := range e.names {
			var each []string
			for _, f := range e.fps[name][i] {
				each = append(each, fmt.Sprintf("%.0f", f))
			}
			p(" **%.0f** (%s) |", e.med(name, i), strings.Join(each, ", "))
		}
		best, who := e.bestPeer(i)
		p(" %.2fx (%s) |\n", e.med(e.names[0], i)/best, who)
	}
	p("\n")
}

// targets adds the side-by-side target's row.
func (e *enginesResults) targets(row func(n int, target, measured string, ok bool), n int) {
	if e == nil {
		return
	}
	i := 1 // 1,000 balls
	best, who := e.bestPeer(i)
	ours := e.med(e.names[0], i)
	row(n, "1,000 balls in a window (Xvfb), default settings: at least 2x the frame rate of the best of Ebitengine and raylib-go drawing the same scene (medians of runs in turn)",
		fmt.Sprintf("%.2fx (%.0f FPS against %s's %.0f)", ours/best, ours, who, best), ours >= 2*best)
}
