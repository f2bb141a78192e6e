package platform

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/interpdemo/interpdemo/internal/platform/preloadon" // these tests' processes preload
)

func TestNextPreload(t *testing.T) {
	a, b, c := "/lib/a.so", "/lib/b.so", "/lib/c.so"
	for _, k := range []struct {
		name          string
		st            preloadState
		cached, since []string
		want          []string
		write         bool
	}{
		{"a start that learns writes what the driver loaded", preloadState{}, nil, []string{a, b}, []string{a, b}, true},
		{"a start that learns nothing writes nothing", preloadState{}, nil, nil, nil, false},
		{"a start that learns ignores the file", preloadState{}, []string{c}, []string{a}, []string{a}, true},
		{"a preloaded start that needed nothing more keeps the file", preloadState{used: true, tried: 2, loaded: 2}, []string{a, b}, []string{a, b}, nil, false},
		{"a preloaded start adds what the driver loaded besides", preloadState{used: true, tried: 2, loaded: 2}, []string{a, b}, []string{a, c, b}, []string{a, b, c}, true},
		{"a preloaded start drops what did not open", preloadState{used: true, tried: 3, loaded: 2}, []string{a, c, b}, []string{a, b}, []string{a, b}, true},
	} {
		got, write := nextPreload(k.st, k.cached, k.since)
		if write != k.write || (write && !slices.Equal(got, k.want)) {
			t.Errorf("%s: nextPreload = %q, %v; want %q, %v", k.name, got, write, k.want, k.write)
		}
	}
	if got := parsePreload([]byte(a + "\n\n" + b + "\r\n" + c)); !slices.Equal(got, []string{a, b, c}) {
		t.Errorf("parsePreload: %q", got)
	}
}

// preloadChildEnv marks a run of the test binary as TestPreloadChild.
const preloadChildEnv = "INTERPDEMO_PRELOAD_CHILD"

// TestPreloadChild is a child process of the preloading tests: as its
// executable was loaded, the preloading read the file its environment
// points at (or did not); it prints what came of it and which of the
// libraries named by the environment are loaded now.
func TestPreloadChild(t *testing.T) {
	mode := os.Getenv(preloadChildEnv)
	if mode == "" {
		t.Skip("a child process of the preloading tests")
	}
	if mode == "open" {
		runtime.LockOSThread()
		w, err := Open(Options{Title: "preload", Width: 32, Height: 32, Headless: true, Preload: true})
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	st, done := waitPreload(10 * time.Second)
	if !done {
		t.Fatal("the preloading did not finish within 10 s")
	}
	loaded := loadedLibraries()
	var has []string
	for _, l := range strings.Split(os.Getenv("PRELOAD_PROBE"), ":") {
		if l != "" && slices.Contains(loaded, l) {
			has = append(has, l)
		}
	}
	start := startLibraries()
	fmt.Printf("PRELOAD used=%t tried=%d loaded=%d has=%s start=%s\n", st.used, st.tried, st.loaded, strings.Join(has, ":"), strings.Join(start, ":"))
}

// preloadChild runs TestPreloadChild with the cache directory dir and the
// extra environment env, and returns what it printed.
func preloadChild(t *testing.T, dir string, env ...string) (st preloadState, has, start []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPreloadChild$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), append([]string{"XDG_CACHE_HOME=" + dir, preloadEnv + "="}, env...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child failed: %v\n%s", err, out)
	}
	i := bytes.Index(out, []byte("PRELOAD "))
	if i < 0 {
		t.Fatalf("the child said %q", out)
	}
	line, _, _ := strings.Cut(string(out[i:]), "\n")
	f := map[string]string{}
	for _, kv := range strings.Fields(line)[1:] {
		k, v, _ := strings.Cut(kv, "=")
		f[k] = v
	}
	st.used = f["used"] == "true"
	if _, err := fmt.Sscan(f["tried"], &st.tried); err != nil {
		t.Fatalf("the child said %q", line)
	}
	if _, err := fmt.Sscan(f["loaded"], &st.loaded); err != nil {
		t.Fatalf("the child said %q", line)
	}
	hasS, startS := f["has"], f["start"]
	for s := range strings.SplitSeq(hasS, ":") {
		if s != "" {
			has = append(has, s)
		}
	}
	for s := range strings.SplitSeq(startS, ":") {
		if s != "" {
			start = append(start, s)
		}
	}
	return st, has, start
}

// probeLibrary builds a shared library of one function in dir, with the
// C compiler cgo uses, and returns its path.
func probeLibrary(t *testing.T, dir, name string) string {
	t.Helper()
	return cLibrary(t, dir, name, "int "+name+"(void) { return 42; }\n")
}

// cLibrary builds the shared library lib<name>.so of the C source src in
// dir, with the C compiler cgo uses, and returns its path.
func cLibrary(t *testing.T, dir, name, src string) string {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		out, err := exec.Command("go", "env", "CC").Output()
		if err != nil {
			t.Fatalf("go env CC: %v", err)
		}
		cc = strings.Fields(string(out))[0]
	}
	file := filepath.Join(dir, name+".c")
	lib := filepath.Join(dir, "lib"+name+".so")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, file).CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", lib, err, out)
	}
	if err := os.Chmod(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	return lib
}

// writePreload writes the preload file of cache directory dir, listing
// lines, last modified at mtime.
func writePreload(t *testing.T, dir string, mtime time.Time, lines ...string) {
	t.Helper()
	name := filepath.Join(dir, "interpdemo", "gl-preload")
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// TestPreloadOpensTheListedLibraries: a start whose preload file is
// fresh opens the libraries it lists, on its own thread, before main;
// but not where INTERPDEMO_PRELOAD=0, nor from a file older than a day,
// nor a library that others may write or named by a relative path. Each
// case is a process of its own: the preloading is done as the
// executable is loaded.
func TestPreloadOpensTheListedLibraries(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("glibc's dynamic loader")
	}
	libs := t.TempDir()
	a, b := probeLibrary(t, libs, "preloadprobea"), probeLibrary(t, libs, "preloadprobeb")
	probe := "PRELOAD_PROBE=" + a + ":" + b
	now := time.Now()
	for _, k := range []struct {
		name    string
		env     []string
		mtime   time.Time
		lines   []string
		setup   func()
		st      preloadState
		opened  []string
		noFile  bool
		learned bool
	}{
		{name: "a fresh file", mtime: now, lines: []string{a, b}, st: preloadState{used: true, tried: 2, loaded: 2}, opened: []string{a, b}},
		{name: "turned off", env: []string{preloadEnv + "=0"}, mtime: now, lines: []string{a, b}},
		{name: "a file from two days ago", mtime: now.Add(-48 * time.Hour), lines: []string{a, b}},
		{name: "no file", noFile: true},
		{name: "a relative path", mtime: now, lines: []string{filepath.Base(a), b}, st: preloadState{used: true, tried: 2, loaded: 1}, opened: []string{b}},
		{name: "a library others may write", mtime: now, lines: []string{a, b},
			setup: func() { os.Chmod(a, 0o775) }, st: preloadState{used: true, tried: 2, loaded: 1}, opened: []string{b}},
	} {
		os.Chmod(a, 0o755)
		if k.setup != nil {
			k.setup()
		}
		dir := t.TempDir()
		if !k.noFile {
			writePreload(t, dir, k.mtime, k.lines...)
		}
		st, has, start := preloadChild(t, dir, append([]string{preloadChildEnv + "=wait", probe}, k.env...)...)
		if st != k.st {
			t.Errorf("%s: the preloading did %+v, want %+v", k.name, st, k.st)
		}
		if !slices.Equal(has, k.opened) {
			t.Errorf("%s: the probe libraries loaded are %q, want %q", k.name, has, k.opened)
		}
		if slices.Contains(start, a) || slices.Contains(start, b) {
			t.Errorf("%s: a probe library counted among those loaded at the start: %q", k.name, start)
		}
	}
}

// TestOpenLearnsTheDriversLibraries: a start with no preload file opens
// the window and context as ever and writes the libraries that doing so
// loaded; the next start preloads every one of them and, its driver
// loading nothing more, leaves the file as it was.
func TestOpenLearnsTheDriversLibraries(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("glibc's dynamic loader")
	}
	runtime.LockOSThread()
	openHeadless(t, 32, 32).Close()
	dir := t.TempDir()
	name := filepath.Join(dir, "interpdemo", "gl-preload")
	st, _, start := preloadChild(t, dir, preloadChildEnv+"=open")
	if st.used {
		t.Fatalf("a start with no file preloaded: %+v", st)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("the start did not write its driver's libraries: %v", err)
	}
	list := parsePreload(b)
	if len(list) == 0 {
		t.Fatal("the file lists no library")
	}
	if !slices.ContainsFunc(start, func(l string) bool { return strings.Contains(filepath.Base(l), "libc.so") }) {
		t.Fatalf("the libraries counted at the start lack the C library: %q", start)
	}
	for _, l := range list {
		if !filepath.IsAbs(l) || slices.Contains(start, l) {
			t.Errorf("listed %q: not absolute, or loaded at the start", l)
		}
	}
	t.Logf("learned %d libraries: %s", len(list), strings.Join(list, " "))
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	// Back a minute, so that a rewrite shows in the time as well.
	old := fi.ModTime().Add(-time.Minute)
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	st, has, _ := preloadChild(t, dir, preloadChildEnv+"=open", "PRELOAD_PROBE="+strings.Join(list, ":"))
	if !st.used || st.tried != len(list) || st.loaded != len(list) {
		t.Errorf("the next start's preloading did %+v, want all %d libraries opened", st, len(list))
	}
	if !slices.Equal(has, list) {
		t.Errorf("loaded of the list: %q, want %q", has, list)
	}
	b2, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	fi2, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, b2) || !fi2.ModTime().Equal(old) {
		t.Errorf("a start that needed nothing more rewrote the file:\n%s\nthen\n%s", b, b2)
	}
}

// TestOpenWaitsForThePreloading: Open changes the environment
// (SDL_VIDEODRIVER, headless) only once the start's preloading is done,
// for the libraries it opens read the environment as they load, and C's
// setenv beside a getenv on another thread may free the array the getenv
// reads. The library preloaded here takes a second to load and then
// reads SDL_VIDEODRIVER: it must see the value the process started with,
// not Open's. (Open before waited for nothing: the library saw Open's
// value.)
func TestOpenWaitsForThePreloading(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("glibc's dynamic loader")
	}
	libs := t.TempDir()
	seen := filepath.Join(libs, "seen")
	lib := cLibrary(t, libs, "preloadslow", `#include <stdio.h>
#include <stdlib.h>
#include <time.h>
__attribute__((constructor)) static void slow(void) {
	struct timespec d = {1, 0};
	nanosleep(&d, NULL);
	const char *out = getenv("PRELOAD_SEEN"), *v = getenv("SDL_VIDEODRIVER");
	FILE *f = out ? fopen(out, "w") : NULL;
	if (f) {
		fputs(v ? v : "(unset)", f);
		fclose(f);
	}
}
int preloadslow(void) { return 42; }
`)
	dir := t.TempDir()
	writePreload(t, dir, time.Now(), lib)
	st, _, _ := preloadChild(t, dir, preloadChildEnv+"=open", "SDL_VIDEODRIVER=before", "PRELOAD_SEEN="+seen)
	if !st.used || st.loaded != 1 {
		t.Fatalf("the start's preloading did %+v, want the slow library opened", st)
	}
	b, err := os.ReadFile(seen)
	if err != nil {
		t.Fatalf("the slow library said nothing: %v", err)
	}
	if got := string(b); got != "before" {
		t.Errorf("the library preloaded read SDL_VIDEODRIVER=%s as it loaded, want the start's value, before: Open changed the environment while the preloading ran", got)
	}
}
