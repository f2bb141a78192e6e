package main

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/interpdemo/interpdemo/atomicfile"
	"github.com/interpdemo/interpdemo/internal/trace"
)

// series is one run: its label and frames.
type series struct {
	label string
	rows  []trace.Row
}

func positionsCmd(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("figures positions", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "positions.png", "output PNG")
	title := fs.String("title", "where ball 0 is drawn", "plot title")
	tick := fs.Duration("tick", 40*time.Millisecond, "the runs' tick time")
	from := fs.Duration("from", 0, "start of the time window, from each run's first frame")
	to := fs.Duration("to", time.Second, "end of the time window")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 || *to <= *from || *tick <= 0 {
		fmt.Fprintln(stderr, "figures positions: want LABEL=trace.csv arguments, -tick > 0 and -from < -to")
		return 2
	}
	var runs []series
	for _, a := range fs.Args() {
		i := strings.LastIndexByte(a, '=')
		label, path, ok := a[:max(i, 0)], a[i+1:], i > 0
		if !ok {
			fmt.Fprintf(stderr, "figures positions: %q: want LABEL=trace.csv\n", a)
			return 2
		}
		rows, err := readTrace(path)
		if err != nil {
			fmt.Fprintf(stderr, "figures positions: %v\n", err)
			return 1
		}
		runs = append(runs, series{label, rows})
	}
	if err := atomicfile.WriteFile(*out, func(w io.Writer) error {
		return plotPositions(w, runs, *title, *tick, *from, *to)
	}); err != nil {
		fmt.Fprintf(stderr, "figures positions: %v\n", err)
		return 1
	}
	return 0
}

func readTrace(path string) ([]trace.Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := trace.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return rows, nil
}

// drawn is a run's drawn x against time since its first frame, within
// [from, to].
func drawn(rows []trace.Row, from, to time.Duration) plotter.XYs {
	var pts plotter.XYs
	for _, r := range rows {
		t := r.Start - rows[0].Start
		if t < from || t > to || math.IsNaN(r.Ball0X) {
			continue
		}
		pts = append(pts, plotter.XY{X: t.Seconds(), Y: r.Ball0X})
	}
	return pts
}

// logicTicks are the logic positions of ball 0, tick by tick: the state
// after tick k stands for time k*tick since the loop started (the end of
// the tick's span), which is when an interpolating renderer reaches it.
func logicTicks(rows []trace.Row, tick, from, to time.Duration) plotter.XYs {
	var pts plotter.XYs
	k := 0
	for _, r := range rows {
		if r.Ticks == 0 {
			continue
		}
		k += r.Ticks
		t := time.Duration(k) * tick
		if t < from || t > to || math.IsNaN(r.Ball0NextX) {
			continue
		}
		pts = append(pts, plotter.XY{X: t.Seconds(), Y: r.Ball0NextX})
	}
	return pts
}

var seriesColors = []color.RGBA{{220, 60, 60, 255}, {40, 150, 70, 255}, {60, 100, 230, 255}, {200, 140, 20, 255}}

func plotPositions(w io.Writer, runs []series, title string, tick, from, to time.Duration) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "time since the first frame (s)"
	p.Y.Label.Text = "x drawn (world units)"
	p.Add(plotter.NewGrid())
	for i, s := range runs {
		pts := drawn(s.rows, from, to)
		if len(pts) == 0 {
			return fmt.Errorf("%s: no frame in the window", s.label)
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		c := seriesColors[i%len(seriesColors)]
		l.Color = c
		l.Width = vg.Points(1.2)
		sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(1.6), Shape: draw.CircleGlyph{}}
		p.Add(l, sc)
		p.Legend.Add(s.label, l, sc)
	}
	ticks := logicTicks(runs[0].rows, tick, from, to)
	if len(ticks) == 0 {
		return errors.New("no logic tick in the window")
	}
	sc, err := plotter.NewScatter(ticks)
	if err != nil {
		return err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4), Shape: draw.RingGlyph{}}
	p.Add(sc)
	p.Legend.Add(fmt.Sprintf("logic position after each tick (every %v)", tick), sc)
	p.Legend.Top = true
	p.Legend.Left = true
	p.X.Min, p.X.Max = from.Seconds(), to.Seconds()
	img := vgimg.New(vg.Points(720), vg.Points(420))
	p.Draw(draw.New(img))
	_, err = vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}
