package platform

import (
	"os"
	"runtime"
	"testing"
)

func TestParseStatm(t *testing.T) {
	for _, c := range []struct {
		in    string
		pages int64
		ok    bool
	}{
		{"12345 678 90 1 0 2 0\n", 678, true},
		{"1 2", 2, true},
		{"1", 0, false},
		{"", 0, false},
		{"1 x 3", 0, false},
		{"1 -5 3", 0, false},
	} {
		pages, ok := parseStatm([]byte(c.in))
		if pages != c.pages || ok != c.ok {
			t.Errorf("parseStatm(%q) = %d, %v; want %d, %v", c.in, pages, ok, c.pages, c.ok)
		}
	}
}

func TestStatusKB(t *testing.T) {
	const status = "Name:\tinterpdemo\nVmPeak:\t  900 kB\nVmHWM:\t  159744 kB\nVmRSS:\t  131072 kB\nThreads:\t9\n"
	for _, c := range []struct {
		key string
		kb  int64
		ok  bool
	}{
		{"VmHWM", 159744, true},
		{"VmRSS", 131072, true},
		{"VmPeak", 900, true},
		{"Threads", 0, false}, // no unit
		{"VmSwap", 0, false},  // missing
		{"Vm", 0, false},      // a prefix of a key is not the key
	} {
		kb, ok := statusKB([]byte(status), c.key)
		if kb != c.kb || ok != c.ok {
			t.Errorf("statusKB(%s) = %d, %v; want %d, %v", c.key, kb, ok, c.kb, c.ok)
		}
	}
}

// TestResidentBytes checks the readers against the process itself:
// touching 64 MiB raises the resident memory by about that much, statm
// agrees with status's VmRSS (another file, the same counters), and the
// peak is at least what was resident before it was read.
func TestResidentBytes(t *testing.T) {
	before, ok := ResidentBytes()
	if !ok {
		t.Skip("no /proc/self/statm")
	}
	const size = 64 << 20
	b := make([]byte, size)
	for i := 0; i < len(b); i += os.Getpagesize() {
		b[i] = 1
	}
	after, ok := ResidentBytes()
	peak, okPeak := PeakResidentBytes()
	runtime.KeepAlive(b)
	if !ok || !okPeak {
		t.Fatalf("ResidentBytes ok %v, PeakResidentBytes ok %v", ok, okPeak)
	}
	if grew := after - before; grew < size*9/10 {
		t.Errorf("resident memory grew by %d bytes after touching %d", grew, size)
	}
	if peak < after {
		t.Errorf("peak %d < resident %d", peak, after)
	}
	st, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	rssKB, ok := statusKB(st, "VmRSS")
	now, _ := ResidentBytes()
	if diff := rssKB*1024 - now; !ok || diff > 8<<20 || diff < -8<<20 {
		t.Errorf("VmRSS %d kB (ok %v), statm %d bytes", rssKB, ok, now)
	}
}
