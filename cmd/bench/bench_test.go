package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interpdemo/interpdemo/internal/report"
)

func TestParseBench(t *testing.T) {
	out := `goos: linux
BenchmarkTick/1M-2     	     525	   2245851 ns/op	14248.50 MB/s	       0 B/op	       0 allocs/op
BenchmarkLimiter/limiter-2         	     600	  16693746 ns/op	         8.131 cpu-%	         0.1024 p99-err-ms	       0 B/op	       0 allocs/op
PASS
`
	r := &results{bench: map[string]map[string]float64{}}
	r.parseBench("physics", strings.NewReader(out))
	if got := r.bench["physics.BenchmarkTick/1M"]["ns/op"]; got != 2245851 {
		t.Errorf("Tick/1M ns/op = %v", got)
	}
	lim := r.bench["physics.BenchmarkLimiter/limiter"]
	if lim["p99-err-ms"] != 0.1024 || lim["cpu-%"] != 8.131 || lim["allocs/op"] != 0 {
		t.Errorf("limiter metrics = %v", lim)
	}
	if len(r.benchRaw) != 2 {
		t.Errorf("kept %d raw lines, want the 2 benchmark lines", len(r.benchRaw))
	}
}

// TestParseBenchRepeated: a benchmark run -count times gives, unit by
// unit, the median of its runs, and each run is kept in order.
func TestParseBenchRepeated(t *testing.T) {
	out := `BenchmarkLimiter/limiter-2 600 16693746 ns/op 7.1 cpu-% 1.6 p99-err-ms
BenchmarkLimiter/limiter-2 600 16693746 ns/op 9.3 cpu-% 0.03 p99-err-ms
BenchmarkLimiter/limiter-2 600 16693746 ns/op 8.2 cpu-% 0.1 p99-err-ms
`
	r := &results{bench: map[string]map[string]float64{}}
	r.parseBench("loop", strings.NewReader(out))
	lim := r.bench["loop.BenchmarkLimiter/limiter"]
	if lim["p99-err-ms"] != 0.1 || lim["cpu-%"] != 8.2 {
		t.Errorf("medians = %v, want p99 0.1, cpu 8.2", lim)
	}
	runs := r.benchRuns["loop.BenchmarkLimiter/limiter"]
	if len(runs) != 3 || runs[0]["p99-err-ms"] != 1.6 || runs[2]["p99-err-ms"] != 0.1 {
		t.Errorf("runs = %v", runs)
	}
}

// TestTargetsAreJudgedFromTheFigures: a figure over its bound is reported
// as missed, not as met.
func TestTargetsAreJudgedFromTheFigures(t *testing.T) {
	judge := func(tick, floor float64) string {
		r := &results{bench: map[string]map[string]float64{
			"physics.BenchmarkTick/1M":      {"ns/op": tick},
			"physics.BenchmarkCopyFloor/1M": {"ns/op": floor},
		}, startups: []float64{50}}
		var b strings.Builder
		r.writeTargets(func(f string, args ...any) { b.WriteString(sprintf(f, args...)) })
		for _, line := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(line, "| 3 |") {
				return line
			}
		}
		t.Fatal("no row 3")
		return ""
	}
	if row := judge(2.0e6, 1.2e6); !strings.HasSuffix(row, "| yes |") {
		t.Errorf("1.67x judged as %q", row)
	}
	if row := judge(3.0e6, 1.2e6); !strings.HasSuffix(row, "| **no** |") {
		t.Errorf("2.5x judged as %q", row)
	}
}

func TestHist(t *testing.T) {
	got := hist(map[string]int64{"10": 1, "2": 5, "0": 7, "128+": 1})
	if want := "0: 7, 2: 5, 10: 1, 128+: 1"; got != want {
		t.Errorf("hist = %q, want %q", got, want)
	}
}

func TestCommas(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {1_000_000, "1,000,000"}, {-1234, "-1,234"}, {-123, "-123"}} {
		if got := commas(c.n); got != c.want {
			t.Errorf("commas(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestStatsLineIsTyped: the demo's -stats line decodes into report.Stats
// and the report's optional figures print as "-" when a run lacks them.
func TestStatsLineIsTyped(t *testing.T) {
	line := `{"frames":6,"ticks":25,"seconds":0.024,"fps":215.119,"tps":1075.597,"max_ticks_per_frame":5,` +
		`"ticks_per_frame":{"1":1,"4":1,"5":4},"capped_frames":0,"discarded_ms":0,"interp":true,"draw":"interpolate",` +
		`"vsync_requested":"on","vsync_actual":"offscreen","balls":100000,"state_hash":"8d8bcc7077567d27","world_ticks":25,` +
		`"upload_bytes":104,"upload_bytes_no_tick":0,"upload_bytes_per_tick_frame":1600000,"overlay_upload_bytes":373040,` +
		`"frame_ms_p50":0.635,"frame_ms_p99":20.209,"frame_ms_max":20.209,"fps_cap":0,"cpu_fraction":1.132,"mode":"fixed",` +
		`"speed":1,"paused":false,"render_load_ms":0,"logic_load_ms":0,"tick_ms":40,"max_loops":5,` +
		`"lockstep":false,"hud":false,"graph":false,"ghosts":false,"player":false,"startup_ms":95.256,"video_driver":"offscreen",` +
		`"gl_renderer":"llvmpipe"}`
	s, err := report.Parse([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	r := &results{matrix: []scenario{{name: "100k", stats: s}}, startups: []float64{50}}
	var b strings.Builder
	if err := r.write(&b, &options{}); err != nil {
		t.Fatal(err)
	}
	// The matrix row: commas in the counts, "-" for the figures the run
	// did not report (tick_ms_mean, allocs and GC after warm-up).
	want := "| 100,000 | on | 215.1 | 0.635 | 20.209 | 1075.60 | - | 1,600,000 | 0 | 1.13 | - | - |"
	if !strings.Contains(b.String(), want+"\n") {
		t.Errorf("report lacks the row\n%s\nin\n%s", want, b.String())
	}
	// Without the allocation figures, target 2 is not met.
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "| 2 |") && !strings.HasSuffix(line, "| **no** |") {
			t.Errorf("target 2 judged met without allocation figures: %q", line)
		}
	}
}

func sprintf(f string, args ...any) string { return fmt.Sprintf(f, args...) }

// TestRenderTargetsAreJudgedFromTheFigures: the overlay and reference
// rows say yes only when the figures meet the bounds.
func TestRenderTargetsAreJudgedFromTheFigures(t *testing.T) {
	st := func(balls int, fps, p50 float64) *report.Stats {
		return &report.Stats{Balls: balls, FPS: fps, FrameMsP50: p50}
	}
	rows := func(r *results) map[string]string {
		var b strings.Builder
		r.writeRenderTargets(func(n int, target, measured string, ok bool) {
			fmt.Fprintf(&b, "%d %v\n", n, ok)
		})
		out := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
			f := strings.Fields(l)
			out[f[0]] = f[1]
		}
		return out
	}
	good := &results{
		overlay:  []pair{{"1 ball", st(1, 950, 1), st(1, 1000, 1)}, {"1 ball", st(1, 930, 1), st(1, 1000, 1)}},
		ballsRef: []pair{{"100,000 balls", st(100000, 20, 40), st(100000, 8, 120)}, {"10,000 balls", st(10000, 90, 11), st(10000, 80, 12)}},
	}
	if got := rows(good); got["9"] != "true" || got["10"] != "true" || got["11"] != "true" {
		t.Errorf("figures within bounds judged %v", got)
	}
	bad := &results{
		overlay:  []pair{{"1 ball", st(1, 850, 1), st(1, 1000, 1)}},
		ballsRef: []pair{{"100,000 balls", st(100000, 10, 70), st(100000, 8, 120)}, {"10,000 balls", st(10000, 80, 12.5), st(10000, 80, 12)}},
	}
	if got := rows(bad); got["9"] != "false" || got["10"] != "false" || got["11"] != "false" {
		t.Errorf("figures over their bounds judged %v", got)
	}
	if got := rows(&results{}); got["9"] != "false" || got["10"] != "false" || got["11"] != "false" {
		t.Errorf("missing runs judged %v", got)
	}
}

// A peer's ping is its round trip to the other player, wherever in the
// list its own (0) stands.
func TestRTTIsTheOtherPlayers(t *testing.T) {
	for _, c := range []struct {
		player int
		rtts   []float64
		want   string
	}{
		{0, []float64{0, 281.4}, "281"},
		{1, []float64{276.6, 0}, "277"},
		{0, nil, "-"},
	} {
		s := &report.Stats{Net: &report.Net{Player: c.player, RTTMs: c.rtts}}
		if got := rtt(s); got != c.want {
			t.Errorf("player %d of %v: %s, want %s", c.player, c.rtts, got, c.want)
		}
	}
}

// TestQuartiles: interpolated between the nearest ranks, in any order,
// the median the second.
func TestQuartiles(t *testing.T) {
	for _, c := range []struct {
		xs         []float64
		q1, q2, q3 float64
	}{
		{[]float64{5, 1, 3, 2, 4}, 2, 3, 4},
		{[]float64{4, 1, 3, 2}, 1.75, 2.5, 3.25},
		{[]float64{-7}, -7, -7, -7},
		{nil, 0, 0, 0},
	} {
		if q1, q2, q3 := quartiles(c.xs); q1 != c.q1 || q2 != c.q2 || q3 != c.q3 {
			t.Errorf("quartiles(%v) = %v, %v, %v; want %v, %v, %v", c.xs, q1, q2, q3, c.q1, c.q2, c.q3)
		}
	}
}

// TestCheckStartupAgainst: a build that is not there, or too few rounds
// for quartiles, is refused before anything runs.
func TestCheckStartupAgainst(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := checkStartupAgainst(self, 41); err != nil {
		t.Errorf("an existing build, 41 rounds: %v", err)
	}
	if err := checkStartupAgainst(filepath.Join(t.TempDir(), "none"), 41); err == nil || !strings.Contains(err.Error(), "-startup-against") {
		t.Errorf("a missing build: %v, want an error naming -startup-against", err)
	}
	if err := checkStartupAgainst(self, 1); err == nil || !strings.Contains(err.Error(), "-startup-rounds") {
		t.Errorf("1 round: %v, want an error naming -startup-rounds", err)
	}
}

// The page's query for a command line: -name value is name=value, a bare
// -name is name, the order kept; demo.ArgsFromQuery's way back.
func TestQueryOf(t *testing.T) {
	got := queryOf([]string{"-vsync", "off", "-stats", "-sprites", "auto", "-balls", "1000", "-hud-help"})
	if want := "vsync=off&stats&sprites=auto&balls=1000&hud-help"; got != want {
		t.Errorf("queryOf = %q, want %q", got, want)
	}
}

// TestGoBenchBeside: the Go benchmarks' output goes to the file beside
// the report, line for line, and the report's section links it.
func TestGoBenchBeside(t *testing.T) {
	r := &results{benchRaw: []string{"# loop: go test -bench x", "BenchmarkFrame-2 10 5 ns/op"}}
	var raw, sec strings.Builder
	if err := r.writeGoBenchRaw(&raw); err != nil || raw.String() != strings.Join(r.benchRaw, "\n")+"\n" {
		t.Errorf("raw %q, %v", raw.String(), err)
	}
	r.writeGoBench(func(f string, a ...any) { fmt.Fprintf(&sec, f, a...) }, "docs/PERFORMANCE.md")
	if f := goBenchFile("docs/PERFORMANCE.md"); f != "docs/PERFORMANCE-go-bench.txt" || !strings.Contains(sec.String(), "(PERFORMANCE-go-bench.txt)") {
		t.Errorf("%s; section:\n%s", f, sec.String())
	}
}

// The peer comparison's rounds run the three programs in every order,
// so that each runs right after each other as often.
func TestPeerOrdersAreBalanced(t *testing.T) {
	seen := map[[3]int]bool{}
	var after [3][3]int // after[a][b]: rounds where b ran right after a
	for _, o := range peerOrders {
		if o[0] == o[1] || o[1] == o[2] || o[0] == o[2] || seen[o] {
			t.Fatalf("order %v repeats a program or an order", o)
		}
		seen[o] = true
		after[o[0]][o[1]]++
		after[o[1]][o[2]]++
	}
	for a := range after {
		for b := range after[a] {
			if a != b && after[a][b] != after[0][1] {
				t.Errorf("program %d ran right after %d in %d rounds, 0 after 1 in %d: %v", b, a, after[a][b], after[0][1], after)
			}
		}
	}
}

// The page's targets beside Ebitengine follow the medians: each fails
// on its own figure.
func TestPeerTargets(t *testing.T) {
	make3 := func(def, off, eb, tps float64) *peerResults {
		e := &peerResults{}
		for i, v := range [3]float64{def, off, eb} {
			for range peerBalls {
				e.fps[i] = append(e.fps[i], []float64{v, v * 2, v / 2})
				e.tps[i] = append(e.tps[i], []float64{tps, tps, 20})
			}
		}
		return e
	}
	rows := func(e *peerResults) map[int]string {
		got := map[int]string{}
		e.targets(func(n int, target, measured string, ok bool) {
			got[n] = fmt.Sprintf("%s %v", measured, ok)
		}, 22)
		return got
	}
	all := rows(make3(100, 105, 40, 25))
	want := map[int]string{
		22: "default 2.50x, 2.50x, 2.50x; overlays off 2.62x, 2.62x, 2.62x true",
		23: "0.95x at 1, 0.95x at 1,000 true",
		24: "lowest 25.00 true",
	}
	for n, w := range want {
		if all[n] != w {
			t.Errorf("target %d: got %q, want %q", n, all[n], w)
		}
	}
	for _, c := range []struct {
		e    *peerResults
		fail int
	}{
		{make3(79, 80, 40, 25), 22},   // default under 2x
		{make3(100, 150, 40, 25), 23}, // the overlays cost a third
		{make3(100, 105, 40, 24.4), 24},
	} {
		got := rows(c.e)
		for n := 22; n <= 24; n++ {
			if failed := strings.HasSuffix(got[n], "false"); failed != (n == c.fail) {
				t.Errorf("target %d: %q, want failed only for target %d", n, got[n], c.fail)
			}
		}
	}
}
