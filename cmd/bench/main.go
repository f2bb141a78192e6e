// Command bench measures interpdemo and writes docs/PERFORMANCE.md: the Go
// benchmarks of the loop, the physics and the renderer, a matrix of
// headless runs of the demo (1 to 1,000,000 balls, with and without
// interpolation), the overlays on against off, the renderer against its
// reference path, the slow-machine and frame-cap scenarios, frame pacing,
// rollback's costs, a soak of several minutes (allocations, GC cycles and
// resident memory over a long run), start-up time, and where the CPU time
// goes. Every figure in the file comes from this run; the file says on
// what machine.
//
//	make bench              # = go run ./cmd/bench
//	go run ./cmd/bench -quick   # shorter runs, for a first look
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/interpdemo/interpdemo/atomicfile"
	"github.com/interpdemo/interpdemo/internal/report"
)

func main() {
	os.Exit(run())
}

type options struct {
	bin, out    string
	quick       bool
	soakOnly    bool
	webOnly     bool
	peerOnly    bool
	winOnly     bool
	netOnly     bool
	lobbyOnly   bool
	roomOnly    bool
	cullOnly    bool
	spritesOnly bool
	startOnly   bool
	enginesOnly bool
	regressOnly bool
	gpuOnly     bool
	goTool      string
	// startAgainst: another build of the demo whose start-up is
	// measured in turn with bin's, startRounds rounds (startupAgainst).
	startAgainst string
	startRounds  int
}

func run() int {
	var o options
	o.define()
	flag.Parse()
	goTool, err := findGo(o.goTool)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: -go: %v\n", err)
		return 2
	}
	o.goTool = goTool
	if _, err := os.Stat(o.bin); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v (run make build first)\n", err)
		return 2
	}
	// The recordings made on a GPU, for the report's section of them:
	// read first, so that a bad one fails the run before it measures.
	var recs []gpuRecording
	if o.gpuOnly || !o.partial() {
		if recs, err = readGPURecordings(filepath.Join(filepath.Dir(o.out), "gpu")); err != nil {
			fmt.Fprintf(os.Stderr, "bench: the GPU recordings: %v\n", err)
			return 1
		}
	}
	if status, ok := runOnly(&o, recs); ok {
		return status
	}
	if err := atomicfile.CheckWritable(o.out); err != nil {
		fmt.Fprintf(os.Stderr, "bench: -o: %v\n", err)
		return 2
	}
	return writeReport(&o, recs)
}

// define defines the command's flags on the command line's flag set.
func (o *options) define() {
	flag.StringVar(&o.bin, "bin", "bin/interpdemo", "the demo binary to measure (make bench builds it)")
	flag.StringVar(&o.out, "o", "docs/PERFORMANCE.md", "the report to write")
	flag.BoolVar(&o.quick, "quick", false, "shorter runs (numbers are noisier)")
	flag.BoolVar(&o.soakOnly, "soak-only", false, "run only the soak and print its section (the report is not written)")
	flag.BoolVar(&o.webOnly, "web-only", false, "measure only the web page in a browser and print its section (the report is not written)")
	flag.BoolVar(&o.peerOnly, "web-ebiten-only", false, "measure only the page beside Ebitengine's wasm build in the same browser and print its table (the report is not written)")
	flag.BoolVar(&o.roomOnly, "room-only", false, "play only the page's game against a native host through a lobby and print its line (the report is not written)")
	flag.BoolVar(&o.lobbyOnly, "lobby-only", false, "play only the games through a lobby (WebRTC) and over UDP and print their section (the report is not written)")
	flag.BoolVar(&o.netOnly, "net-only", false, "play only the network scenario's games and print their section (the report is not written)")
	flag.BoolVar(&o.regressOnly, "regress-only", false, "measure only this build against commit "+regressionRef+"'s and print the section (the report is not written)")
	flag.BoolVar(&o.gpuOnly, "gpu-only", false, "print only the section of the runs recorded on a GPU (docs/gpu beside the report) and its target's row; measures nothing")
	flag.BoolVar(&o.startOnly, "startup-only", false, "measure only the start-up, the demo's and the floor's in turn, and print target 8's row (the report is not written)")
	flag.StringVar(&o.startAgainst, "startup-against", "", "measure only the start-up of -bin against that of another build of the demo (a path), in turn, and print both medians and the median of the rounds' differences (the report is not written)")
	flag.IntVar(&o.startRounds, "startup-rounds", 41, "the rounds of -startup-against")
	flag.BoolVar(&o.cullOnly, "cull-only", false, "measure only the balls' choice (-cull auto against each of its three options forced) and print its section (the report is not written)")
	flag.BoolVar(&o.spritesOnly, "sprites-only", false, "measure only the balls' form (-sprites auto against points and quads) and print its section (the report is not written)")
	flag.BoolVar(&o.enginesOnly, "engines-only", false, "measure only the demo beside Ebitengine and raylib-go in a window under Xvfb and print the section (the report is not written)")
	flag.BoolVar(&o.winOnly, "window-only", false, "measure only the runs in a window under Xvfb and print their sections (the report is not written)")
	flag.StringVar(&o.goTool, "go", "go", "the go command that runs the Go benchmarks (a name looked up in PATH, or a path)")
}

// writeReport runs every step of the report, in order, and writes it to
// -o; a step that fails ends the run (status 1) with nothing written.
func writeReport(o *options, recs []gpuRecording) int {
	r := &results{started: time.Now(), gpu: recs}
	steps := []struct {
		name string
		f    func(*options, *results) error
	}{
		{"machine", machine},
		{"go benchmarks", goBenchmarks},
		{"ball matrix", matrix},
		{"overlays", overlays},
		{"balls against the reference", ballsVsReference},
		{"culling chosen by measurement", cullChoice},
		{"squares or points", spriteChoice},
		{"scale", scale},
		{"scenarios", scenarios},
		{"frame pacing", pacingStep},
		{"network game", network},
		{"through a lobby", lobbySection},
		{"soak", soak},
		{"window", window},
		{"beside other engines", engines},
		{"against " + regressionRef, regression},
		{"web page", web},
		{"start-up", startup},
		{"profile", profile},
	}
	for _, s := range steps {
		fmt.Fprintf(os.Stderr, "bench: %s...\n", s.name)
		if err := s.f(o, r); err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s: %v\n", s.name, err)
			return 1
		}
	}
	if err := atomicfile.WriteFile(goBenchFile(o.out), func(w io.Writer) error { return r.writeGoBenchRaw(w) }); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		return 1
	}
	if err := atomicfile.WriteFile(o.out, func(w io.Writer) error { return r.write(w, o) }); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "bench: wrote %s and %s in %v\n", o.out, goBenchFile(o.out), time.Since(r.started).Round(time.Second))
	return 0
}

// findGo returns the go command to run: name itself when it is a path,
// else the first name in PATH. (Not GOROOT/bin/go: runtime.GOROOT is
// deprecated, and is the GOROOT the bench was built with, not necessarily
// the go command the user runs: -go names it.)
func findGo(name string) (string, error) {
	return exec.LookPath(name)
}

// results is everything measured.
type results struct {
	started time.Time
	cpu     string
	cores   int
	kernel  string
	gl      string
	goVer   string

	bench     map[string]map[string]float64   // benchmark name -> unit -> value (the median of repeated runs)
	benchRuns map[string][]map[string]float64 // benchmark name -> each run's units and values, in order
	benchRaw  []string

	matrix    []scenario
	scenarios []scenario
	startups  []float64
	faultUs   float64 // a page fault's cost, µs
	// startFloor is cmd/bench/startfloor's start-up, run in turn with the
	// demo's: the same window and GL context, one point, nothing else.
	startFloor []float64
	pacing     string // the frame-pacing table (pacing.go)
	soak       []*soakRun

	profile     []share // where the time goes, 100k balls
	profileRef  []share // the same, drawing with the reference (every ball)
	profileNote string

	overlay []pair // 1 ball: HUD and graph on (a) and off (b), alternating
	// The same with no ball, and with every frame painted whole.
	overlayNoBall, overlayWhole []pair
	ballsRef                    []pair // the demo's path (a) and the reference (b), alternating
	scaleRuns                   []scenario
	web                         *webResults    // the page in a browser
	window                      *windowResults // runs in a window under Xvfb
	regress                     *regressionResults
	gpu                         []gpuRecording  // recorded on a GPU, not measured by the run
	net                         []*netGame      // the network scenario's games
	lobby                       []*lobbyGame    // games through a lobby and over UDP, in turn
	cull                        []*modeScene    // -cull auto against on and off
	sprites                     []*modeScene    // -sprites auto against points and quads
	engines                     *enginesResults // beside other engines, in a window
}

type scenario struct {
	name  string
	args  []string
	stats *report.Stats
}

type share struct {
	what string
	pct  float64
}

func machine(o *options, r *results) error {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "model name") {
			r.cpu = strings.TrimSpace(strings.SplitN(line, ":", 2)[1])
			break
		}
	}
	r.cores = runtime.NumCPU()
	if out, err := exec.Command("uname", "-sr").Output(); err == nil {
		r.kernel = strings.TrimSpace(string(out))
	}
	r.goVer = runtime.Version()
	r.faultUs = pageFaultUs()
	return nil
}

// pageFaultUs is what a first touch of a page of fresh memory costs here,
// in µs (the median of 5 passes over 16 MiB), or 0 where it cannot be
// measured: a virtual machine's page faults can cost ten times a bare
// machine's, and a program's start-up is thousands of them.
func pageFaultUs() float64 {
	const size = 16 << 20
	page := os.Getpagesize()
	var us []float64
	for range 5 {
		b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			return 0
		}
		t := time.Now()
		for i := 0; i < size; i += page {
			b[i] = 1
		}
		us = append(us, float64(time.Since(t).Nanoseconds())/1e3/float64(size/page))
		syscall.Munmap(b)
	}
	sort.Float64s(us)
	return us[len(us)/2]
}

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+(\d+)\s+(.*)$`)

// goBenchmarks runs the packages' benchmarks and keeps every metric.
func goBenchmarks(o *options, r *results) error {
	r.bench = map[string]map[string]float64{}
	bt := "1s"
	limiterN := "600x" // 10 s of 60 FPS waits per variant
	if o.quick {
		bt, limiterN = "200ms", "120x"
	}
	runs := [][]string{
		{"-bench", "^BenchmarkFrame$", "-benchtime", bt, "./loop"},
		// 3 runs: a p99 of 600 waits is their 6th worst, and this
		// machine's wake-ups are late by milliseconds in bursts (see
		// target 6), so one run says more of the VM than of the limiter.
		{"-bench", "^BenchmarkLimiter$", "-benchtime", limiterN, "-count", "3", "./loop"},
		{"-bench", "^(BenchmarkTick|BenchmarkCopyFloor|BenchmarkSnapshot|BenchmarkRollback8|BenchmarkSnapshotCopyFloor)$", "-benchtime", bt, "./physics"},
		{"-bench", "^BenchmarkFrame$", "-benchtime", bt, "./render"},
		{"-bench", "^BenchmarkPaint$", "-benchtime", bt, "./render/paint"},
	}
	for _, args := range runs {
		pkg := args[len(args)-1][2:]
		cmdArgs := append([]string{"test", "-run", "^$", "-count", "1"}, args...)
		dir := ""
		if pkg == "loop" || pkg == "physics" {
			// A module of its own: its tests run in its folder.
			dir, cmdArgs[len(cmdArgs)-1] = pkg, "."
		}
		cmd := exec.Command(o.goTool, cmdArgs...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go test %v: %v\n%s", args, err, out.String())
		}
		r.benchRaw = append(r.benchRaw, "# "+pkg+": go test -bench '"+args[1]+"' "+strings.Join(args[2:len(args)-1], " "))
		r.parseBench(pkg, &out)
	}
	return nil
}

// parseBench keeps the benchmark lines of go test's output, and their
// metrics under "pkg.BenchmarkName/sub" (without the -GOMAXPROCS suffix).
func (r *results) parseBench(pkg string, out io.Reader) {
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		r.benchRaw = append(r.benchRaw, sc.Text())
		metrics := map[string]float64{}
		f := strings.Fields(m[4])
		for i := 0; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				metrics[f[i+1]] = v
			}
		}
		name := pkg + "." + m[1]
		if r.benchRuns == nil {
			r.benchRuns = map[string][]map[string]float64{}
		}
		r.benchRuns[name] = append(r.benchRuns[name], metrics)
		r.bench[name] = medians(r.benchRuns[name])
	}
}

// medians is, unit by unit, the median of runs' values (the lower middle
// of an even count).
func medians(runs []map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for unit := range runs[0] {
		var vs []float64
		for _, run := range runs {
			if v, ok := run[unit]; ok {
				vs = append(vs, v)
			}
		}
		sort.Float64s(vs)
		out[unit] = vs[(len(vs)-1)/2]
	}
	return out
}

// demo runs the binary headless and returns its -stats.
func demo(o *options, args ...string) (*report.Stats, error) {
	return demoEnv(o, nil, args...)
}

// demoEnv runs the binary headless, with the extra environment variables
// extra (KEY=value), and returns its -stats.
func demoEnv(o *options, extra []string, args ...string) (*report.Stats, error) {
	return runStats(o, extra, append([]string{"-headless", "-stats", "-hud=false", "-graph=false", "-vsync", "off"}, args...))
}

// runStats runs the binary with args, in the environment without a
// display, a video driver or a renderer choice of its own, plus extra
// (KEY=value), and returns its -stats.
func runStats(o *options, extra, args []string) (*report.Stats, error) {
	cmd := exec.Command(o.bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = benchEnv(extra)
	launchNow(cmd)
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s %s: %v: %s", strings.Join(extra, " "), o.bin, strings.Join(args, " "), err, stderr.String())
	}
	s, err := report.Parse(bytes.TrimSpace(stdout.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v", o.bin, strings.Join(args, " "), err)
	}
	return s, nil
}

func (o *options) dur(long string) string {
	if o.quick {
		return "3s"
	}
	return long
}

func matrix(o *options, r *results) error {
	for _, n := range []int{1, 1000, 10_000, 100_000, 1_000_000} {
		for _, interp := range []bool{true, false} {
			d := o.dur("10s")
			if n == 1_000_000 {
				d = o.dur("20s") // a frame takes seconds: enough of them after warm-up
			}
			args := []string{"-balls", strconv.Itoa(n), "-interp=" + strconv.FormatBool(interp), "-duration", d}
			s, err := demo(o, args...)
			if err != nil {
				return err
			}
			if r.gl == "" {
				r.gl = s.GLRenderer
			}
			name := fmt.Sprintf("%s balls, interpolation %s", commas(int64(n)), map[bool]string{true: "on", false: "off"}[interp])
			r.matrix = append(r.matrix, scenario{name: name, args: args, stats: s})
		}
	}
	return nil
}

func scenarios(o *options, r *results) error {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"200 ms render load (5 FPS)", []string{"-render-load", "200ms", "-duration", o.dur("10s")}},
		{"300 ms render load", []string{"-render-load", "300ms", "-duration", o.dur("10s")}},
		{"300 ms render load, lockstep", []string{"-render-load", "300ms", "-duration", o.dur("10s"), "-lockstep"}},
		{"frame cap 60, no load", []string{"-fps-cap", "60", "-duration", o.dur("10s")}},
	} {
		s, err := demo(o, c.args...)
		if err != nil {
			return err
		}
		r.scenarios = append(r.scenarios, scenario{name: c.name, args: c.args, stats: s})
	}
	return nil
}

// startup runs the demo for one tick several times and keeps startup_ms.
func startup(o *options, r *results) error {
	floor := filepath.Join(filepath.Dir(o.bin), "startfloor")
	if out, err := exec.Command(o.goTool, "build", "-o", floor, "./cmd/bench/startfloor").CombinedOutput(); err != nil {
		return fmt.Errorf("building cmd/bench/startfloor: %v\n%s", err, out)
	}
	for i := 0; i < 7; i++ {
		demoMs, err := startupRun(o)
		if err != nil {
			return err
		}
		r.startups = append(r.startups, demoMs)
		// In turn, the floor: the same window and context, one point.
		cmd := exec.Command(floor)
		cmd.Env = benchEnv(nil)
		launchNow(cmd)
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("startfloor: %v", err)
		}
		ms, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
		if err != nil {
			return fmt.Errorf("startfloor said %q", out)
		}
		r.startFloor = append(r.startFloor, ms)
	}
	sort.Float64s(r.startups)
	sort.Float64s(r.startFloor)
	return nil
}

// profile records a 100k-ball run with perf, when it is installed, and
// splits the CPU time between the GL driver (llvmpipe's JIT-compiled
// shaders and its rasterizer), the kernel, and the demo's own Go code: the
// demo's drawing, then the reference (every ball drawn), for comparison.
func profile(o *options, r *results) error {
	perf, err := exec.LookPath("perf")
	if err != nil {
		r.profileNote = "perf is not installed (apt-get install linux-perf); no profile taken."
		return nil
	}
	for _, c := range []struct {
		env []string
		out *[]share
	}{{nil, &r.profile}, {[]string{renderEnv + "=painter"}, &r.profileRef}} {
		shares, note := perfShares(o, perf, c.env)
		if note != "" {
			r.profileNote = note
			return nil
		}
		*c.out = shares
	}
	return nil
}

// perfShares runs the demo at 100,000 balls under perf record and groups
// the samples by library.
func perfShares(o *options, perf string, env []string) ([]share, string) {
	dir, err := os.MkdirTemp("", "interpdemo-bench-")
	if err != nil {
		return nil, err.Error()
	}
	defer os.RemoveAll(dir)
	data := filepath.Join(dir, "perf.data")
	args := []string{"record", "-o", data, "-F", "999", "--", o.bin, "-headless", "-hud=false", "-graph=false", "-vsync", "off", "-balls", "100000", "-duration", o.dur("8s")}
	cmd := exec.Command(perf, args...)
	cmd.Env = append(os.Environ(), append([]string{"SDL_VIDEODRIVER=offscreen"}, env...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Sprintf("perf record failed (%v): %s", err, firstLine(string(out)))
	}
	out, err := exec.Command(perf, "report", "-i", data, "--no-children", "-g", "none", "--sort", "dso", "--stdio").Output()
	if err != nil {
		return nil, fmt.Sprintf("perf report failed: %v", err)
	}
	groups := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || !strings.HasSuffix(f[0], "%") {
			continue
		}
		pct, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
		if err != nil {
			continue
		}
		dso := strings.Join(f[1:], " ")
		switch {
		case strings.Contains(dso, "[JIT]"):
			groups[shareJIT] += pct
		case strings.Contains(dso, "swrast_dri") || strings.Contains(dso, "libLLVM") || strings.Contains(dso, "libgallium"):
			groups[shareRaster] += pct
		case strings.Contains(dso, "kernel"):
			groups["kernel (scheduling, page faults, futexes)"] += pct
		case strings.Contains(dso, filepath.Base(o.bin)):
			groups["interpdemo's own Go code (loop, physics, GL calls, cgo)"] += pct
		default:
			groups["other libraries (libc, ld.so, SDL, EGL)"] += pct
		}
	}
	var shares []share
	for k, v := range groups {
		shares = append(shares, share{k, v})
	}
	sort.Slice(shares, func(i, j int) bool { return shares[i].pct > shares[j].pct })
	return shares, ""
}

// The profile's groups for llvmpipe.
const (
	shareJIT    = "llvmpipe: JIT-compiled shaders (vertex and fragment), blending, depth"
	shareRaster = "llvmpipe: rasterizer, binning, setup (per primitive and tile)"
)

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// commas writes n with thousands separators: 1000000 is "1,000,000".
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	digits := s
	sign := ""
	if n < 0 {
		sign, digits = "-", s[1:]
	}
	for i := len(digits) - 3; i > 0; i -= 3 {
		digits = digits[:i] + "," + digits[i:]
	}
	return sign + digits
}

// partial reports whether a -*-only flag asks for one section that
// measures something, not the whole report.
func (o *options) partial() bool {
	return o.soakOnly || o.webOnly || o.peerOnly || o.winOnly || o.netOnly || o.lobbyOnly || o.roomOnly || o.cullOnly || o.spritesOnly || o.enginesOnly || o.regressOnly || o.startOnly || o.startAgainst != ""
}
