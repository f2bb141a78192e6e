package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recording builds a recording's text: its header, then runs given as
// build, balls, cull, round and FPS (0: a failed run).
func recording(runs ...[5]any) string {
	var b strings.Builder
	b.WriteString(`{"header":{"recorded":"2026-11-27 10:13 UTC","gpu":"G","gl_renderer":"R","build":"abc","ref":"4222101","command":"BIN -headless"}}` + "\n")
	for _, r := range runs {
		stats := "null"
		if fps := r[4].(float64); fps > 0 {
			stats = sprintf(`{"fps":%g,"frame_ms_p50":%g,"cull":"off"}`, fps, 1000/fps)
		}
		b.WriteString(sprintf(`{"build":%q,"balls":%d,"cull":%q,"round":%d,"stats":%s}`+"\n", r[0], r[1], r[2], r[3], stats))
	}
	return b.String()
}

// TestGPURatioIsPairedByRound: the ratio is the median of each round's
// this-over-reference, and the target is met only where it is at least 1
// at every ball count, every round having both builds.
func TestGPURatioIsPairedByRound(t *testing.T) {
	rec, err := parseGPURecording(strings.NewReader(recording(
		[5]any{"this", 1, "", 1, 200.0}, [5]any{"ref", 1, "", 1, 100.0},
		[5]any{"this", 1, "", 2, 90.0}, [5]any{"ref", 1, "", 2, 100.0},
		[5]any{"this", 1, "", 3, 330.0}, [5]any{"ref", 1, "", 3, 300.0},
		[5]any{"this", 10, "", 1, 99.0}, [5]any{"ref", 10, "", 1, 100.0},
		[5]any{"this", 10, "on", 1, 50.0},
	)))
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.balls(); len(got) != 2 || got[0] != 1 || got[1] != 10 {
		t.Errorf("balls = %v, want the default runs' [1 10] (not the forced one's alone)", got)
	}
	if r, all := rec.ratio(1); r != 1.1 || !all {
		t.Errorf("ratio at 1 ball = %v (all rounds %v), want the median of 2, 0.9 and 1.1: 1.1", r, all)
	}
	judge := func(recs []gpuRecording) (string, bool) {
		var measured string
		var met bool
		gpuTarget(func(n int, target, m string, ok bool) { measured, met = m, ok }, 21, recs)
		return measured, met
	}
	if m, ok := judge([]gpuRecording{rec}); ok || !strings.Contains(m, "0.99x at 10") {
		t.Errorf("0.99x at 10 balls judged met=%v: %s", ok, m)
	}
	fast, err := parseGPURecording(strings.NewReader(recording(
		[5]any{"this", 1, "", 1, 100.0}, [5]any{"ref", 1, "", 1, 100.0},
	)))
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := judge([]gpuRecording{rec, fast}); !ok {
		t.Errorf("the newest recording at 1.00x judged missed: %s", m)
	}
	failed, err := parseGPURecording(strings.NewReader(recording(
		[5]any{"this", 1, "", 1, 100.0}, [5]any{"ref", 1, "", 1, 0.0},
	)))
	if err != nil {
		t.Fatal(err)
	}
	other := fast
	other.header.Ref = "041303e"
	if m, ok := judge([]gpuRecording{rec, other}); ok || !strings.Contains(m, "0.99x at 10") {
		t.Errorf("a newer recording against another build judged the target (met=%v): %s", ok, m)
	}
	if m, ok := judge([]gpuRecording{other}); ok {
		t.Errorf("only a recording against another build judged met: %s", m)
	}
	if m, ok := judge([]gpuRecording{failed}); ok {
		t.Errorf("a failed reference run judged met: %s", m)
	}
	if m, ok := judge(nil); ok {
		t.Errorf("no recording judged met: %s", m)
	}
}

// TestGPURecordingRefused: what is not a recording is an error, not a
// section of zeros.
func TestGPURecordingRefused(t *testing.T) {
	for name, text := range map[string]string{
		"no header":  `{"build":"this","balls":1,"round":1,"stats":null}` + "\n",
		"no runs":    recording(),
		"bad build":  recording([5]any{"mine", 1, "", 1, 1.0}),
		"no round":   recording([5]any{"this", 1, "", 0, 1.0}),
		"not json":   recording() + "{\n",
		"empty file": "",
	} {
		if _, err := parseGPURecording(strings.NewReader(text)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// TestGPURecordingsInDocs: the recordings committed in docs/gpu parse,
// each with runs of both builds, and the section names each file.
func TestGPURecordingsInDocs(t *testing.T) {
	recs, err := readGPURecordings(filepath.Join("..", "..", "docs", "gpu"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatal("no recording in docs/gpu")
	}
	var b strings.Builder
	writeGPU(func(f string, args ...any) { b.WriteString(sprintf(f, args...)) }, recs)
	for _, g := range recs {
		if len(g.of("this", 1, "")) == 0 || len(g.of("ref", 1, "")) == 0 {
			t.Errorf("%s: no run of both builds at 1 ball", g.file)
		}
		if !strings.Contains(b.String(), g.file) || !strings.Contains(b.String(), g.header.GLRenderer) {
			t.Errorf("the section does not name %s and its renderer", g.file)
		}
	}
	// The report shows the recordings as they are: a recording added or
	// changed since PERFORMANCE.md was written needs it written again
	// (make bench, or the section of go run ./cmd/bench -gpu-only).
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "PERFORMANCE.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), b.String()) {
		t.Error("docs/PERFORMANCE.md does not hold the section of docs/gpu's recordings as they are now")
	}
}
