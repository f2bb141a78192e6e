package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/internal/xvfb"
)

// The balls' form (render/quads.go, internal/web/sprites.go): 1,000
// balls of radius 8, culling off, headless and in a window with the
// default overlays (where the frame rate beside other engines is
// measured), and the page in headless Chromium with them, -sprites auto
// against both forced forms, the three in turn, spriteRuns times. No
// target asks for it; it says what the choice costs and gains on this
// machine.
const spriteRuns = 5

var spriteModes = []string{"auto", "points", "quads"}

func spriteChoice(o *options, r *results) error {
	x, err := xvfb.Start(15 * time.Second)
	if err != nil {
		return fmt.Errorf("%v (make test-deps installs Xvfb)", err)
	}
	defer x.Stop()
	pr, err := startPages(o)
	if err != nil {
		return err
	}
	defer pr.stop()
	for _, sc := range []struct {
		name string
		run  func(args ...string) (*report.Stats, error)
	}{
		{"headless, overlays off", func(args ...string) (*report.Stats, error) { return demo(o, args...) }},
		{"in a window (Xvfb), the default overlays", func(args ...string) (*report.Stats, error) {
			return nativeIn(o, x.Display, append([]string{"-vsync", "off", "-stats"}, args...)...)
		}},
		{"the page in headless Chromium (SwiftShader), the default overlays", func(args ...string) (*report.Stats, error) {
			return pr.page(queryOf(append([]string{"-vsync", "off", "-stats"}, args...)))
		}},
	} {
		s := &modeScene{name: sc.name, args: []string{"-balls", "1000", "-cull", "off", "-duration", o.dur("4s")}}
		if s.runs, err = inTurn(spriteModes, spriteRuns, func(m string) (*report.Stats, error) {
			return sc.run(append([]string{"-sprites", m}, s.args...)...)
		}); err != nil {
			return err
		}
		r.sprites = append(r.sprites, s)
	}
	return nil
}

// fps is the median of the runs' frame rates.
func (s *modeScene) fps(mode string) float64 {
	var xs []float64
	for _, st := range s.runs[mode] {
		xs = append(xs, st.FPS)
	}
	return median(xs)
}

func (r *results) writeSprites(p func(string, ...any)) {
	if len(r.sprites) == 0 {
		return
	}
	p("## Squares or points\n\n")
	p("`bin/interpdemo -vsync off -stats -sprites auto|points|quads -balls 1000 -cull off -duration %s`, headless with the overlays off and in a window with them, and the page with the same flags as its query (`?vsync=off&stats&sprites=auto|points|quads&balls=1000&cull=off&duration=%[1]s`, in headless Chromium, WebGL2 through SwiftShader), the three in turn, %[2]d times each (see [DESIGN.md](DESIGN.md#squares-or-points) and [WEB.md](WEB.md#squares-or-points)). `sprites` is the form in force at the end of the run; the costs are those of auto's last comparison (a frame's time from its ball draw to the end of the frame, each form: in the window the median of the blocks' mean frames, each block from an empty GPU queue to an empty one, on the page the lower quartile of the frames).\n\n",
		o1(r.sprites[0].args, "-duration"), spriteRuns)
	p("| scene | -sprites | FPS, each run | median | against points | auto: form at exit, each run | auto: frame ms squares / points, each run |\n|---|---|---|---:|---:|---|---|\n")
	for _, s := range r.sprites {
		for _, m := range spriteModes {
			var each, chose, costs []string
			for _, st := range s.runs[m] {
				each = append(each, fmt.Sprintf("%.0f", st.FPS))
				if m == "auto" {
					chose = append(chose, st.Sprites)
					costs = append(costs, floatOr(st.SpritesCostQuadsMs, "%.2f")+" / "+floatOr(st.SpritesCostPointsMs, "%.2f"))
				}
			}
			p("| %s | %s | %s | %.0f | %.2fx | %s | %s |\n", s.name, m, strings.Join(each, ", "), s.fps(m), s.fps(m)/s.fps("points"), strings.Join(chose, ", "), strings.Join(costs, ", "))
		}
	}
	p("\n")
}

// queryOf is the page's query for a command line of flags, each given
// as -name value or as a bare -name: ?name=value&name.
func queryOf(args []string) string {
	var q []string
	for i := 0; i < len(args); i++ {
		name := strings.TrimPrefix(args[i], "-")
		if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			q = append(q, name+"="+args[i+1])
			i++
			continue
		}
		q = append(q, name)
	}
	return strings.Join(q, "&")
}

// o1 is the value following flag in args.
func o1(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// spritesOnly runs the form's scenes alone and prints their section.
func spritesOnly(o *options) error {
	r := &results{}
	if err := spriteChoice(o, r); err != nil {
		return err
	}
	r.writeSprites(func(format string, args ...any) { fmt.Printf(format, args...) })
	return nil
}
