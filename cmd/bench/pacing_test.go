package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interpdemo/interpdemo/internal/report"
)

// TestFormatPacingTable: one row per run, the tick histogram folded into
// 0 / 1 / 2+, absent figures as dashes, and the flags of the runs named.
func TestFormatPacingTable(t *testing.T) {
	p99, missed, late := 0.052, int64(2), int64(1)
	rows := []pacingRow{
		{pacingCase{60, "16.667ms"}, "raw", &report.Stats{Frames: 600, TicksPerFrame: map[string]int64{"0": 140, "1": 320, "2": 138, "3": 2}}},
		{pacingCase{60, "16.667ms"}, "smooth", &report.Stats{Frames: 601, TicksPerFrame: map[string]int64{"0": 1, "1": 600},
			DisplayStepErrorMsP99: &p99, MissedVblanks: &missed, LateWakeups: &late}},
	}
	out := formatPacingTable(rows)
	for _, want := range []string{
		"| 60 Hz | 16.667ms | raw | 600 | 140 / 320 / 140 | – | – | – |",
		"| 60 Hz | 16.667ms | smooth | 601 | 1 / 600 / 0 | 0.052 | 2 | 1 |",
		"-vsync-sim HZ -vsync-jitter 1ms -tick T -pacing P -duration 10s",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n| "); n != 3 { // the header and two rows
		t.Errorf("%d table lines:\n%s", n, out)
	}
}

// TestPacingDisturbed: the share of frames the machine spoiled; a run
// without the figures counts as wholly disturbed.
func TestPacingDisturbed(t *testing.T) {
	late, missed := int64(3), int64(3)
	if d := pacingDisturbed(&report.Stats{Frames: 600, LateWakeups: &late, MissedVblanks: &missed}); d != 0.01 {
		t.Errorf("6 of 600: %v", d)
	}
	if d := pacingDisturbed(&report.Stats{Frames: 600}); d != 1 {
		t.Errorf("no figures: %v", d)
	}
}

// TestPacingTableRuns drives pacingTable with a stand-in for the demo (a
// shell script that logs its flags and prints a -stats line, disturbed on
// its first run): every case runs raw then smooth with the flags of the
// table, a disturbed run is run again, and the table has a row per run.
func TestPacingTableRuns(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "demo")
	log := filepath.Join(dir, "log")
	script := `#!/bin/sh
echo "$@" >> ` + log + `
if [ ! -e ` + dir + `/once ]; then
	touch ` + dir + `/once
	echo '{"frames":600,"ticks_per_frame":{"1":600},"late_wakeups":30,"missed_vblanks":0,"display_step_error_ms_p99":5}'
	exit 0
fi
echo '{"frames":600,"ticks_per_frame":{"0":1,"1":599},"late_wakeups":0,"missed_vblanks":1,"display_step_error_ms_p99":0.05}'
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := pacingTable(bin)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	runs := strings.Split(strings.TrimSpace(string(b)), "\n")
	if want := 2*len(pacingCases) + 1; len(runs) != want {
		t.Fatalf("%d runs, want %d (one case run again):\n%s", len(runs), want, b)
	}
	for i, run := range runs[1:] { // the first run was disturbed and ran again
		c, pacing := pacingCases[i/2], []string{"raw", "smooth"}[i%2]
		want := strings.Join(pacingArgs(c, pacing), " ")
		if run != want {
			t.Errorf("run %d: %q, want %q", i+1, run, want)
		}
	}
	if n := strings.Count(out, "| 0.050 | 1 | 0 |"); n != 2*len(pacingCases) {
		t.Errorf("%d rows of the undisturbed runs, want %d:\n%s", n, 2*len(pacingCases), out)
	}
}
