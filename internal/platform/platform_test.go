package platform

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
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

// openHeadless opens a headless window of w x h pixels on the calling
// thread, or skips the test where there is no offscreen GL, but for
// INTERPDEMO_REQUIRE_GL=1, which fails it.
func openHeadless(t *testing.T, w, h int) *Window {
	t.Helper()
	win, err := Open(Options{Title: t.Name(), Width: w, Height: h, Headless: true})
	if err != nil {
		if os.Getenv("INTERPDEMO_REQUIRE_GL") == "1" {
			t.Fatal(err)
		}
		t.Skipf("no offscreen GL: %v", err)
	}
	return win
}

// TestHeadlessWindowAndClocks opens the offscreen driver for real: a GL
// context, a vsync answer, and event timestamps mapped onto the clock.
func TestHeadlessWindowAndClocks(t *testing.T) {
	runtime.LockOSThread()
	w := openHeadless(t, 64, 48)
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

// heapChildEnv runs TestHeapChild in a child process of TestKeepHeapTop:
// "keep" sets the trim threshold first, "default" does not.
const heapChildEnv = "INTERPDEMO_HEAP_CHILD"

// TestKeepHeapTop: 8 MiB allocated from the C heap, written and freed
// stay resident where keepHeapTop set the trim threshold (the next
// frame's buffers find them mapped), and go back to the system with
// glibc's default, or where the user tuned malloc in the environment,
// whose choice stands. Each case runs in a process of its own, as the
// setting holds for a process.
func TestKeepHeapTop(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("glibc's malloc")
	}
	const block, blocks = 16 << 10, 512 // 8 MiB of blocks below the size glibc maps alone
	for _, c := range []struct {
		name string
		env  []string
		kept bool
	}{
		{"kept", []string{heapChildEnv + "=keep"}, true},
		{"glibc's default", []string{heapChildEnv + "=default"}, false},
		{"the user's MALLOC_TRIM_THRESHOLD_", []string{heapChildEnv + "=keep", "MALLOC_TRIM_THRESHOLD_=131072"}, false},
		{"the user's GLIBC_TUNABLES", []string{heapChildEnv + "=keep", "GLIBC_TUNABLES=glibc.malloc.trim_threshold=131072"}, false},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHeapChild$", "-test.v", "-test.count=1")
		// No driver loading beside the measure (preload.go).
		cmd.Env = append(os.Environ(), append([]string{preloadEnv + "=0"}, c.env...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: the child failed: %v\n%s", c.name, err, out)
		}
		var kept bool
		var grew int64
		i := bytes.Index(out, []byte("HEAP "))
		if i < 0 {
			t.Fatalf("%s: the child said %q", c.name, out)
		}
		if _, err := fmt.Sscanf(string(out[i:]), "HEAP %t %d", &kept, &grew); err != nil {
			t.Fatalf("%s: the child said %q: %v", c.name, out, err)
		}
		t.Logf("%s: %d KiB of %d stayed resident", c.name, grew>>10, blocks*block>>10)
		if kept != c.kept {
			t.Errorf("%s: keepHeapTop set the threshold %v, want %v", c.name, kept, c.kept)
		}
		if c.kept && grew < blocks*block*3/4 {
			t.Errorf("%s: %d KiB stayed resident after freeing %d KiB, want most of it", c.name, grew>>10, blocks*block>>10)
		}
		if !c.kept && grew > blocks*block/4 {
			t.Errorf("%s: %d KiB stayed resident after freeing %d KiB, want little", c.name, grew>>10, blocks*block>>10)
		}
	}
}

// TestHeapChild is TestKeepHeapTop's child process: it prints whether
// the threshold was set and how much resident memory the C heap's churn
// left.
func TestHeapChild(t *testing.T) {
	mode := os.Getenv(heapChildEnv)
	if mode == "" {
		t.Skip("a child process of TestKeepHeapTop")
	}
	kept := mode == "keep" && keepHeapTop()
	before, ok := ResidentBytes()
	if !ok || !churnCHeap(512, 16<<10) {
		t.Fatal("no resident size, or no C heap")
	}
	after, _ := ResidentBytes()
	fmt.Printf("HEAP %t %d\n", kept, after-before)
}
