package demo

import "testing"

func TestParseVsync(t *testing.T) {
	for _, c := range []struct {
		s        string
		interval int
	}{{"on", 1}, {"off", 0}, {"adaptive", -1}} {
		v, err := ParseVsync(c.s)
		if err != nil || v.String() != c.s || v.SwapInterval() != c.interval {
			t.Errorf("ParseVsync(%q) = %v (interval %d), %v; want interval %d", c.s, v, v.SwapInterval(), err, c.interval)
		}
	}
	if _, err := ParseVsync("sometimes"); err == nil {
		t.Error("ParseVsync accepted nonsense")
	}
}
