package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

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

// Where the driver refuses vsync, asking for it still gives no more
// pictures than the display shows: each frame waits for the next vblank
// of a grid at the display mode's rate (60 Hz where it reports none), and
// the vsync in force says so. Asking for no vsync stays uncapped.
func TestRefusedVsyncIsEmulated(t *testing.T) {
	for _, c := range []struct {
		refresh time.Duration
		hz      int
	}{{0, 60}, {time.Second / 75, 75}, {time.Second / 144, 144}} {
		disp := &testDisplay{refuse: true, refresh: c.refresh}
		f, err := tryFrontOn(t, nil, nil, disp, "-stats", "-duration", "2s")
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("emulated %d Hz", c.hz)
		interval := time.Second / time.Duration(c.hz)
		start := f.clock.Now()
		frames := 0
		for !f.d.Done() {
			f.step()
			frames++
		}
		elapsed := f.clock.Now() - start
		// One frame a vblank: the frames of 1 ms each wait for the next.
		if rate := float64(frames) / elapsed.Seconds(); math.Abs(rate-float64(c.hz)) > 1.5 {
			t.Errorf("%v: %d frames in %v: %.1f a second, want %d", c.refresh, frames, elapsed, rate, c.hz)
		}
		out, err := f.finish()
		if err != nil {
			t.Fatal(err)
		}
		var s report.Stats
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		if s.VsyncActual != want || s.VsyncRequested != "on" || s.RefreshMs == nil || math.Abs(*s.RefreshMs-float64(interval)/1e6) > 0.01 {
			t.Errorf("%v: vsync %s/%s, refresh %v ms; want on/%s, %v", c.refresh, s.VsyncRequested, s.VsyncActual, s.RefreshMs, want, interval)
		}
		if title, _ := f.d.Title(f.clock.Now() + time.Hour); !bytes.Contains(title, []byte("vsync "+want)) {
			t.Errorf("title %q", title)
		}
		if n := strings.Count(f.log.String(), "interpdemo:"); n != 1 || !strings.Contains(f.log.String(), want) {
			t.Errorf("log %q: want the refusal once, saying %s", f.log.String(), want)
		}
	}
}

// V turns the emulation off (uncapped: the driver's default, which it
// reports as unsupported) and on again; -vsync off starts uncapped.
func TestRefusedVsyncToggles(t *testing.T) {
	disp := &testDisplay{refuse: true}
	f, err := tryFrontOn(t, nil, nil, disp, "-vsync", "off")
	if err != nil {
		t.Fatal(err)
	}
	check := func(when, want string, waits bool) {
		t.Helper()
		f.step()
		if f.d.vsync.actual != want {
			t.Errorf("%s: vsync %q, want %q", when, f.d.vsync.actual, want)
		}
		if _, _, ok := f.d.VblankWait(f.clock.Now()); ok != waits {
			t.Errorf("%s: frames wait for a vblank: %v, want %v", when, ok, waits)
		}
	}
	check("-vsync off", "unsupported", false)
	f.step(KeyV)
	check("V", "emulated 60 Hz", true)
	f.step(KeyV)
	check("V again", "unsupported", false)
	if n := strings.Count(f.log.String(), "swap") + strings.Count(f.log.String(), "not supported"); n != 1 {
		t.Errorf("refusals logged: %q, want one line", f.log.String())
	}
}
