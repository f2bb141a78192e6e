package main

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseBench(t *testing.T) {
	out := `goos: linux
BenchmarkTick/1M-2     	     525	   2245851 ns/op	14248.50 MB/s	       0 B/op	       0 allocs/op
BenchmarkLimiter/limiter-2         	     600	  16693746 ns/op	         8.131 cpu-%	         0.1024 p99-err-ms	       0 B/op	       0 allocs/op
PASS
`
	r := &report{bench: map[string]map[string]float64{}}
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

// TestTargetsAreJudgedFromTheFigures: a figure over its bound is reported
// as missed, not as met.
func TestTargetsAreJudgedFromTheFigures(t *testing.T) {
	judge := func(tick, floor float64) string {
		r := &report{bench: map[string]map[string]float64{
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
	got := hist(map[string]any{"10": 1.0, "2": 5.0, "0": 7.0, "128+": 1.0})
	if want := "0: 7, 2: 5, 10: 1, 128+: 1"; got != want {
		t.Errorf("hist = %q, want %q", got, want)
	}
}

func sprintf(f string, args ...any) string { return fmt.Sprintf(f, args...) }
