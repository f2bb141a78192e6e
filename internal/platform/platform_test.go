package platform

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/veandco/go-sdl2/sdl"
)

func TestWiden(t *testing.T) {
	const wrap = uint64(1) << 32
	for _, c := range []struct {
		now   uint64
		stamp uint32
		want  uint64
	}{
		{1000, 990, 990},
		{1000, 1000, 1000},
		{wrap + 5, 0xFFFFFFF0, wrap - 16}, // stamped before the wrap, seen after
		{3*wrap + 100, 40, 3*wrap + 40},   // days of uptime
		{wrap - 1, 0xFFFFFFFE, wrap - 2},  // just before the wrap
		{50 * 24 * 3600 * 1000, 0, 50*24*3600*1000 - (50*24*3600*1000)%wrap}, // 50 days
	} {
		if got := widen(c.now, c.stamp); got != c.want {
			t.Errorf("widen(%d, %d) = %d, want %d", c.now, c.stamp, got, c.want)
		}
	}
}

// TestHeadlessWindowAndClocks opens the offscreen driver for real: a GL
// context, a vsync answer, and event timestamps mapped onto the clock.
func TestHeadlessWindowAndClocks(t *testing.T) {
	runtime.LockOSThread()
	w, err := Open(Options{Title: "test", Width: 64, Height: 48, Headless: true})
	if err != nil {
		if os.Getenv("INTERPDEMO_REQUIRE_GL") == "1" {
			t.Fatal(err)
		}
		t.Skipf("no offscreen GL: %v", err)
	}
	defer w.Close()
	if w.Driver() != "offscreen" {
		t.Errorf("driver %q, want offscreen", w.Driver())
	}
	if dw, dh := w.DrawableSize(); dw != 64 || dh != 48 {
		t.Errorf("drawable %dx%d", dw, dh)
	}
	for _, v := range []int{1, 0, -1} {
		actual, err := w.SetVsync(v)
		switch actual {
		case "offscreen":
			if err != nil {
				t.Errorf("%v: state %q with error %v", v, actual, err)
			}
		case "unsupported":
			if err == nil {
				t.Errorf("%v: unsupported without an error", v)
			}
		default:
			t.Errorf("%v: state %q", v, actual)
		}
	}
	c := NewClock()
	a := c.Now()
	e := CalibrateEventTimes(c)
	b := c.Now()
	if a < 0 || b < a {
		t.Fatalf("clock went %v -> %v", a, b)
	}
	// An event stamped now maps to within a millisecond (a stamp's
	// resolution) of the clock's reads around it; a thread that lost the
	// CPU between them widens the window, which is measured, not guessed.
	before := c.Now()
	got := e.Map(uint32(sdl.GetTicks64()))
	after := c.Now()
	if got < before-2*time.Millisecond || got > after+time.Millisecond {
		t.Errorf("an event stamped between %v and %v maps to %v", before, after, got)
	}
	// The same measured on a goroutine of its own: the first Map, at
	// once, waits for it (SDL started long before c, so an offset not
	// yet measured maps the stamp far from c's reads).
	s := StartEventTimes(c)
	before = c.Now()
	got = s.Map(uint32(sdl.GetTicks64()))
	after = c.Now()
	if got < before-2*time.Millisecond || got > after+time.Millisecond {
		t.Errorf("measured on a goroutine: an event stamped between %v and %v maps to %v", before, after, got)
	}
}

// TestResidentBytesGrowsWithTouchedMemory: touching 64 MiB more of the
// heap raises the resident size by at least most of it (Linux only).
func TestResidentBytesGrowsWithTouchedMemory(t *testing.T) {
	before, ok := ResidentBytes()
	if runtime.GOOS != "linux" {
		if ok {
			t.Errorf("ResidentBytes reported %d off Linux", before)
		}
		t.Skip("resident memory is read from /proc/self/statm")
	}
	if !ok || before <= 0 {
		t.Fatalf("ResidentBytes = %d, %v", before, ok)
	}
	const n = 64 << 20
	buf := make([]byte, n)
	for i := 0; i < n; i += 4096 {
		buf[i] = 1
	}
	after, _ := ResidentBytes()
	if after-before < n/2 {
		t.Errorf("resident %d -> %d bytes after touching %d", before, after, n)
	}
	runtime.KeepAlive(buf)
}

// TestSerialRasterLeavesTheUsersChoice: SerialRaster asks llvmpipe for no
// rasterizer threads only where the user has not said how many.
func TestSerialRasterLeavesTheUsersChoice(t *testing.T) {
	for _, c := range []struct {
		on      bool
		user    string // "" for unset
		want    string
		wantSet bool
	}{
		{true, "", "0", true},
		{true, "3", "3", true},
		{false, "", "", false},
		{false, "2", "2", true},
	} {
		t.Setenv("LP_NUM_THREADS", c.user) // restored after the test
		if c.user == "" {
			os.Unsetenv("LP_NUM_THREADS")
		}
		serialRaster(c.on)
		got, set := os.LookupEnv("LP_NUM_THREADS")
		if got != c.want || set != c.wantSet {
			t.Errorf("on %v, user %q: LP_NUM_THREADS %q (set %v), want %q (set %v)", c.on, c.user, got, set, c.want, c.wantSet)
		}
	}
}
