package report

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestParseRoundTrip: what the demo writes (json.Marshal of a Stats),
// Parse reads back the same, the optional memory figures included.
func TestParseRoundTrip(t *testing.T) {
	u := func(v uint64) *uint64 { return &v }
	f := func(v float64) *float64 { return &v }
	in := Stats{
		Frames: 482, Ticks: 2387, Balls: 100_000, StateHash: "a893d76d6c622b05",
		TicksPerFrame:     map[string]int64{"0": 1, "5": 476, "128+": 2},
		AllocsAfterWarmup: u(0), GCAfterWarmup: u(1),
		RSSMBStart: f(155.863), RSSMBEnd: f(183.906), RSSMBPeak: f(183.926),
	}
	line, err := json.Marshal(&in)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"rss_mb_start":155.863`, `"rss_mb_end":183.906`, `"rss_mb_peak":183.926`, `"gc_after_warmup":1`} {
		if !strings.Contains(string(line), key) {
			t.Errorf("%s lacks %s", line, key)
		}
	}
	out, err := Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*out, in) {
		t.Errorf("Parse(Marshal(s)) = %+v, want %+v", *out, in)
	}
	if h := out.TicksHist(); len(h) != 129 || h[0] != 1 || h[5] != 476 || h[128] != 2 {
		t.Errorf("TicksHist = %v", h)
	}
}

// TestParseOmitsWhatDoesNotApply: a run too short to warm up writes no
// memory figures, and reads back as nil, not as zero.
func TestParseOmitsWhatDoesNotApply(t *testing.T) {
	line, err := json.Marshal(&Stats{Frames: 3})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(line), "rss_mb") || strings.Contains(string(line), "after_warmup") {
		t.Errorf("short run wrote %s", line)
	}
	s, err := Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	if s.RSSMBStart != nil || s.RSSMBPeak != nil || s.AllocsAfterWarmup != nil {
		t.Errorf("absent figures parsed as %v, %v, %v", s.RSSMBStart, s.RSSMBPeak, s.AllocsAfterWarmup)
	}
}

func TestParseRejectsUnknownKeys(t *testing.T) {
	_, err := Parse([]byte(`{"frames":1,"rss_mb_top":3}`))
	var syntax *json.SyntaxError
	if err == nil || errors.As(err, &syntax) || !strings.Contains(err.Error(), "rss_mb_top") {
		t.Errorf("Parse with an unknown key: %v", err)
	}
	if _, err := Parse([]byte(`{"frames":`)); err == nil {
		t.Error("Parse of a cut line succeeded")
	}
}

func TestRound3(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{{1.2344, 1.234}, {1.2345, 1.235}, {-1.2345, -1.235}, {0, 0}} {
		if got := Round3(c.in); got != c.want {
			t.Errorf("Round3(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if got := Ms(1_500_000); got != 1.5 {
		t.Errorf("Ms(1.5e6) = %v", got)
	}
}
