//go:build linux

package cdp

import (
	"testing"
	"time"
)

func TestCPUTimeCountsThePagesWork(t *testing.T) {
	ctx, p := open(t, 20*time.Second, `<title>spin</title>`)
	b := sharedBrowser(t)
	before, err := b.CPUTime()
	if err != nil {
		t.Fatal(err)
	}
	// The renderer spins for 600 ms of its own clock: at least that much
	// processor time, unless the machine took the processor away.
	var spun float64
	if err := p.Eval(ctx, `(() => { const t = performance.now(); let x = 0; while (performance.now() - t < 600) x++; return performance.now() - t; })()`, &spun); err != nil {
		t.Fatal(err)
	}
	after, err := b.CPUTime()
	if err != nil {
		t.Fatal(err)
	}
	if got := after - before; got < 300*time.Millisecond {
		t.Errorf("the browser's CPU time grew by %v while a page spun for %.0f ms, want at least 300 ms", got, spun)
	}
}

func TestParseStat(t *testing.T) {
	for _, c := range []struct {
		line  string
		pgrp  int
		ticks int64
		ok    bool
	}{
		{"4242 (chromium) S 1 4242 4242 0 -1 4194560 100 0 0 0 17 5 0 0 20 0 1 0 1 2 3", 4242, 22, true},
		{"77 (a (b) c) R 1 900 77 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 1 2 3", 900, 7, true},
		{"77 (cut", 0, 0, false},
		{"77 (x) S 1 2", 0, 0, false},
		{"77 (x) S 1 zz 3 0 -1 0 0 0 0 0 3 4 0", 0, 0, false},
	} {
		pgrp, ticks, ok := parseStat([]byte(c.line))
		if pgrp != c.pgrp || ticks != c.ticks || ok != c.ok {
			t.Errorf("parseStat(%q) = %d, %d, %v; want %d, %d, %v", c.line, pgrp, ticks, ok, c.pgrp, c.ticks, c.ok)
		}
	}
}
