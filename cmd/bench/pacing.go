package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

// The frame-pacing table of docs/PACING.md: the demo on simulated vsynced
// displays (-vsync-sim, wake-ups up to 1 ms after each vblank), raw
// pacing (the original loop: the time the frame wakes up) against smooth
// pacing (the vblank's time, stable tick counts).

// pacingCase is one display of the table: its rate and the tick it runs.
type pacingCase struct {
	hz   int
	tick string
}

// pacingCases: a tick of one refresh at 60 Hz (where tick counts wobble),
// and the demo's 40 ms tick at 60, 120 and 144 Hz.
var pacingCases = []pacingCase{{60, "16.667ms"}, {60, "40ms"}, {120, "40ms"}, {144, "40ms"}}

// pacingRunLength is each run's length.
const pacingRunLength = 10 * time.Second

// pacingRow is one run of the table.
type pacingRow struct {
	c      pacingCase
	pacing string
	stats  *report.Stats
}

// pacingTable runs the demo binary bin for every case of pacingCases,
// raw then smooth (a run the machine disturbed, with more than 0.3 % of
// its frames late or missed for want of CPU, is run again, up to three
// times, and the least disturbed is kept), and returns the table in
// Markdown with a line on how it was made.
func pacingTable(bin string) (string, error) {
	var rows []pacingRow
	for _, c := range pacingCases {
		for _, pacing := range []string{"raw", "smooth"} {
			var best *report.Stats
			for attempt := 0; attempt < 3; attempt++ {
				s, err := pacingRun(bin, c, pacing)
				if err != nil {
					return "", err
				}
				if best == nil || pacingDisturbed(s) < pacingDisturbed(best) {
					best = s
				}
				if pacingDisturbed(best) <= 0.003 {
					break
				}
			}
			rows = append(rows, pacingRow{c, pacing, best})
		}
	}
	return formatPacingTable(rows), nil
}

// pacingArgs are the flags of one run.
func pacingArgs(c pacingCase, pacing string) []string {
	hz := "HZ"
	if c.hz > 0 {
		hz = fmt.Sprint(c.hz)
	}
	return []string{"-headless", "-stats", "-hud=false", "-graph=false", "-width", "320", "-height", "240",
		"-vsync-sim", hz, "-vsync-jitter", "1ms", "-tick", c.tick, "-pacing", pacing,
		"-duration", pacingRunLength.String()}
}

// pacingRun runs the demo once, headless, and returns its -stats.
func pacingRun(bin string, c pacingCase, pacing string) (*report.Stats, error) {
	args := pacingArgs(c, pacing)
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "SDL_VIDEODRIVER=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %v: %s", bin, strings.Join(args, " "), err, stderr.String())
	}
	s, err := report.Parse(bytes.TrimSpace(stdout.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v", bin, strings.Join(args, " "), err)
	}
	return s, nil
}

// pacingDisturbed is the share of a run's frames the machine spoiled:
// wake-ups more than half an interval late, and missed vblanks.
func pacingDisturbed(s *report.Stats) float64 {
	if s.Frames == 0 || s.LateWakeups == nil || s.MissedVblanks == nil {
		return 1
	}
	return float64(*s.LateWakeups+*s.MissedVblanks) / float64(s.Frames)
}

// formatPacingTable writes the rows as a Markdown table.
func formatPacingTable(rows []pacingRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "`bin/interpdemo %s`, each frame waking up to 1 ms after its simulated vblank:\n\n",
		strings.Join(pacingArgs(pacingCase{0, "T"}, "P"), " "))
	b.WriteString("| display | tick | pacing | frames | frames at 0 / 1 / 2+ ticks | display step error p99 ms | missed vblanks | late wake-ups |\n")
	b.WriteString("|---:|---:|---|---:|---|---:|---:|---:|\n")
	for _, r := range rows {
		s := r.stats
		h := s.TicksHist()
		at := func(i int) int64 {
			if i < len(h) {
				return h[i]
			}
			return 0
		}
		var more int64
		for i := 2; i < len(h); i++ {
			more += h[i]
		}
		fmt.Fprintf(&b, "| %d Hz | %s | %s | %d | %d / %d / %d | %s | %s | %s |\n",
			r.c.hz, r.c.tick, r.pacing, s.Frames, at(0), at(1), more,
			pacingFloat(s.DisplayStepErrorMsP99), pacingInt(s.MissedVblanks), pacingInt(s.LateWakeups))
	}
	b.WriteString("\nThe display step error of a frame is |(game time drawn − the last frame's) − (vblank shown at − the last frame's)|: 0 when motion steps exactly with the display. Missed vblanks and late wake-ups are the machine's: frames it did not run in time.\n")
	return b.String()
}

func pacingFloat(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%.3f", *p)
}

func pacingInt(p *int64) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprint(*p)
}

// pacingStep is the bench step that measures the pacing table.
func pacingStep(o *options, r *results) error {
	t, err := pacingTable(o.bin)
	r.pacing = t
	return err
}
