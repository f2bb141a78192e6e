// Command plottrace draws an interpdemo -trace file as a PNG: every
// frame's duration over time, coloured by the number of logic ticks it ran,
// frames that hit MaxLoops and frames that discarded time debt marked, and
// below it the ticks run per frame.
//
//	interpdemo -headless -render-load 200ms -duration 6s -trace run.csv
//	go run ./cmd/plottrace -o run.png run.csv
package main

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"os"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/interpdemo/interpdemo/atomicfile"
	"github.com/interpdemo/interpdemo/internal/trace"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("plottrace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "trace.png", "output PNG")
	title := fs.String("title", "", "plot title (default: the trace's name)")
	tick := fs.Duration("tick", 40*time.Millisecond, "the tick time, drawn as a line")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "plottrace: want one trace file: plottrace [-o out.png] trace.csv")
		return 2
	}
	path := fs.Arg(0)
	if err := atomicfile.CheckWritable(*out); err != nil {
		fmt.Fprintf(stderr, "plottrace: -o: %v\n", err)
		return 2
	}
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "plottrace: %v\n", err)
		return 1
	}
	defer f.Close()
	frames, err := trace.Read(f)
	if err != nil {
		fmt.Fprintf(stderr, "plottrace: %s: %v\n", path, err)
		return 1
	}
	if *title == "" {
		*title = path
	}
	if err := atomicfile.WriteFile(*out, func(w io.Writer) error {
		return plotTrace(w, frames, *title, *tick)
	}); err != nil {
		fmt.Fprintf(stderr, "plottrace: %v\n", err)
		return 1
	}
	return 0
}

// tickColors match the demo's graph: grey 0, green 1, cyan 2, yellow 3,
// orange 4+, red for frames that hit MaxLoops.
var tickColors = []color.RGBA{
	{110, 110, 120, 255}, {40, 170, 60, 255}, {30, 160, 190, 255}, {210, 180, 20, 255}, {240, 140, 30, 255},
}

// plotTrace draws frames as a PNG to w: each frame's duration, its dot
// coloured by the ticks it ran, over the ticks run, on one time axis.
func plotTrace(w io.Writer, frames []trace.Row, title string, tick time.Duration) error {
	t0 := frames[0].Start
	sec := func(d time.Duration) float64 { return (d - t0).Seconds() }
	top, err := durations(frames, title, tick, sec)
	if err != nil {
		return err
	}
	bottom, err := ticksRun(frames, sec)
	if err != nil {
		return err
	}
	bottom.X.Min, bottom.X.Max = top.X.Min, top.X.Max

	img := vgimg.New(vg.Points(720), vg.Points(480))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadX: vg.Millimeter, PadY: vg.Points(6), PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8)}
	// Two thirds of the height for the durations, a third for the ticks.
	canvases := plot.Align([][]*plot.Plot{{top}, {bottom}}, tiles, dc)
	cTop, cBot := canvases[0][0], canvases[1][0]
	split := cBot.Min.Y + (cTop.Max.Y-cBot.Min.Y)/3
	cBot.Max.Y = split - vg.Points(6)
	cTop.Min.Y = split
	top.Draw(cTop)
	bottom.Draw(cBot)
	png := vgimg.PngCanvas{Canvas: img}
	if _, err := png.WriteTo(w); err != nil {
		return err
	}
	if len(frames) == 0 {
		return errors.New("no frames")
	}
	return nil
}

func msOf(d time.Duration) float64 { return float64(d) / 1e6 }

// durations is the upper plot: the frames' durations as a step line, a
// dot a frame in its tick colour, the frames that hit MaxLoops or
// discarded debt marked, and the tick's length as a dashed line.
func durations(frames []trace.Row, title string, tick time.Duration, sec func(time.Duration) float64) (*plot.Plot, error) {
	top := plot.New()
	top.Title.Text = title
	top.Y.Label.Text = "frame duration (ms)"
	top.X.Label.Text = "time (s)"
	top.Add(plotter.NewGrid())

	steps := make(plotter.XYs, 0, 2*len(frames))
	byTicks := map[int]plotter.XYs{}
	var capped, discarded plotter.XYs
	for _, f := range frames {
		x0, x1, y := sec(f.Start), sec(f.Start+f.Dur), msOf(f.Dur)
		steps = append(steps, plotter.XY{X: x0, Y: y}, plotter.XY{X: x1, Y: y})
		k := min(f.Ticks, len(tickColors)-1)
		byTicks[k] = append(byTicks[k], plotter.XY{X: x0, Y: y})
		if f.Capped {
			capped = append(capped, plotter.XY{X: x0, Y: y})
		}
		if f.Discarded > 0 {
			discarded = append(discarded, plotter.XY{X: x0, Y: y})
		}
	}
	line, err := plotter.NewLine(steps)
	if err != nil {
		return nil, err
	}
	line.Color = color.RGBA{150, 150, 160, 255}
	top.Add(line)
	if err := addTickDots(top, byTicks); err != nil {
		return nil, err
	}
	if err := addMarks(top, capped, discarded); err != nil {
		return nil, err
	}
	tl := plotter.NewFunction(func(float64) float64 { return msOf(tick) })
	tl.Color = color.RGBA{60, 110, 230, 255}
	tl.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	top.Add(tl)
	top.Legend.Add(fmt.Sprintf("tick %v", tick), tl)
	top.Legend.Top = true
	top.Y.Min = 0
	// Head room above the tallest frame for the legend.
	var longest time.Duration
	for _, f := range frames {
		longest = max(longest, f.Dur)
	}
	top.Y.Max = max(msOf(longest), msOf(tick)) * 1.45
	return top, nil
}

// addTickDots adds the frames' dots, byTicks[k] those that ran k ticks
// (the last, k or more), each in its colour with its legend.
func addTickDots(top *plot.Plot, byTicks map[int]plotter.XYs) error {
	for k := 0; k < len(tickColors); k++ {
		pts := byTicks[k]
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color = tickColors[k]
		sc.GlyphStyle.Radius = vg.Points(2.5)
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		top.Add(sc)
		name := fmt.Sprintf("%d ticks", k)
		if k == len(tickColors)-1 {
			name = fmt.Sprintf("%d+ ticks", k)
		}
		top.Legend.Add(name, sc)
	}
	return nil
}

// addMarks rings the frames that hit MaxLoops and crosses those that
// discarded debt.
func addMarks(top *plot.Plot, capped, discarded plotter.XYs) error {
	for _, m := range []struct {
		pts   plotter.XYs
		name  string
		col   color.RGBA
		shape draw.GlyphDrawer
		r     float64
	}{
		{capped, "hit MaxLoops", color.RGBA{220, 30, 30, 255}, draw.RingGlyph{}, 5},
		{discarded, "discarded debt", color.RGBA{200, 40, 200, 255}, draw.CrossGlyph{}, 6},
	} {
		if len(m.pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(m.pts)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: m.col, Radius: vg.Points(m.r), Shape: m.shape}
		top.Add(sc)
		top.Legend.Add(m.name, sc)
	}
	return nil
}

// ticksRun is the lower plot: the ticks each frame ran, as a step line.
func ticksRun(frames []trace.Row, sec func(time.Duration) float64) (*plot.Plot, error) {
	bottom := plot.New()
	bottom.Y.Label.Text = "ticks run"
	bottom.X.Label.Text = "time (s)"
	bottom.Add(plotter.NewGrid())
	tsteps := make(plotter.XYs, 0, 2*len(frames))
	for _, f := range frames {
		tsteps = append(tsteps, plotter.XY{X: sec(f.Start), Y: float64(f.Ticks)}, plotter.XY{X: sec(f.Start + f.Dur), Y: float64(f.Ticks)})
	}
	tline, err := plotter.NewLine(tsteps)
	if err != nil {
		return nil, err
	}
	tline.Color = color.RGBA{40, 170, 60, 255}
	bottom.Add(tline)
	bottom.Y.Min = 0
	return bottom, nil
}
