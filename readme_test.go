package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// readmeProgram returns the Go block that follows the marker in README.md.
func readmeProgram(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "<!-- readme-program")
	if i < 0 {
		t.Fatal("README.md lost its readme-program marker")
	}
	s = s[i:]
	start := strings.Index(s, "```go\n")
	end := strings.Index(s[start+6:], "\n```")
	if start < 0 || end < 0 {
		t.Fatal("no Go block after the readme-program marker")
	}
	return s[start+6 : start+6+end+1]
}

// newModule writes a module of its own (gomod, and main as main.go) in a
// new folder, and returns the folder and a function that runs the go
// command there, with env added to the environment, within 3 minutes in
// all, and returns its output (a failure fails the test).
func newModule(t *testing.T, gomod, main string, env ...string) (dir string, gocmd func(args ...string) string) {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return dir, func(args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, goTool, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
}

// TestREADMEProgramBuildsInANewModule: the README's library program, as
// it stands, in a new module that only requires the loop's module
// (replaced by the working tree's, as the README says), builds and runs:
// its ball is drawn at increasing x; and its module graph holds nothing
// else (none of the demo's dependencies).
func TestREADMEProgramBuildsInANewModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	mod := "module example.com/ball\n\ngo 1.24\n\nrequire github.com/interpdemo/interpdemo/loop v0.0.0\n\nreplace github.com/interpdemo/interpdemo/loop => " + filepath.Join(root, "loop") + "\n"
	_, gorun := newModule(t, mod, readmeProgram(t), "GOFLAGS=-mod=mod")
	gorun("mod", "tidy")
	for _, line := range strings.Split(strings.TrimSpace(gorun("mod", "graph")), "\n") {
		for _, m := range strings.Fields(line) {
			if m = strings.SplitN(m, "@", 2)[0]; m != "example.com/ball" && m != "github.com/interpdemo/interpdemo/loop" && m != "go" && m != "toolchain" {
				t.Errorf("go mod graph lists %s: %q", m, line)
			}
		}
	}
	out := gorun("run", ".")
	re := regexp.MustCompile(`(?m)^frame +(\d+): (\d+) ticks, percentWithinTick ([0-9.]+), ball drawn at x = +([0-9.]+)$`)
	m := re.FindAllStringSubmatch(out, -1)
	if len(m) != 6 {
		t.Fatalf("want 6 lines of output, got:\n%s", out)
	}
	prev := -1.0
	for _, l := range m {
		x, _ := strconv.ParseFloat(l[4], 64)
		if x <= prev {
			t.Errorf("the ball went back or stood still: %q after x = %v", l[0], prev)
		}
		prev = x
	}
}

// clonedLibraryProgram is a game of the library's modules beside loop
// (input, replay, and atomicfile under replay) on a loop.Driver: a 5 ms
// tap of Right at 245 ms, polled in GatherInput once the clock has passed
// it, at 1000 and at 5 frames a second, each run recorded, written to a
// file and replayed from it. It prints the tick that acted on the tap
// each time, in the game and in the replay.
const clonedLibraryProgram = `package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/replay"
)

type game struct {
	clock  *loop.ManualClock
	events []input.Event // the platform's queue, in time order
	s      input.Sampler
	prev   input.Record
	ticks  int
	acted  []int
	rec    *replay.Recorder
}

func (g *game) GatherInput(fr loop.FixedFrame) {
	for len(g.events) > 0 && g.events[0].Time <= fr.Now {
		g.s.Push(g.events[0])
		g.events = g.events[1:]
	}
}

func (g *game) Tick(span loop.TickSpan) {
	rec := g.s.Tick(span.End)
	if rec.Down(g.prev).Has(input.Right) {
		g.acted = append(g.acted, g.ticks)
	}
	g.prev = rec
	g.ticks++
	g.rec.Tick(rec, g.hash)
}

func (g *game) Independent(loop.FixedFrame) {}
func (g *game) Draw(float64)               {}

// hash is the game's state: the ticks it ran.
func (g *game) hash() uint64 { return uint64(g.ticks) }

// replayed reads a recording and returns the ticks on which Right went
// down, checking the state hashes as it goes.
func replayed(path string) ([]int, error) {
	rec, err := replay.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p := rec.Player()
	prev := p.Initial()
	ticks := 0
	hash := func() uint64 { return uint64(ticks) }
	var acted []int
	for {
		_, in, ok := p.Next()
		if !ok {
			break
		}
		if in.Down(prev).Has(input.Right) {
			acted = append(acted, ticks)
		}
		prev = in
		ticks++
		if err := p.Check(hash); err != nil {
			return nil, err
		}
	}
	return acted, p.CheckFinal(hash())
}

func main() {
	dir, err := os.MkdirTemp("", "taps")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	for _, frame := range []time.Duration{time.Millisecond, 200 * time.Millisecond} {
		clock := loop.NewManualClock(0)
		fixed, err := loop.NewFixed(loop.FixedConfig{}, 0)
		if err != nil {
			panic(err)
		}
		g := &game{clock: clock, events: []input.Event{
			{Time: 245 * time.Millisecond, Button: input.Right, Down: true},
			{Time: 250 * time.Millisecond, Button: input.Right},
		}, rec: replay.NewRecorder(replay.Settings{Tick: 40 * time.Millisecond, MaxLoops: 5}, 4)}
		d := &loop.Driver{Clock: clock, Loop: fixed, Game: g}
		for g.ticks < 12 {
			if _, err := d.Frame(); err != nil {
				panic(err)
			}
			clock.Advance(frame)
		}
		path := filepath.Join(dir, "taps.rec")
		if err := g.rec.Finish(g.hash()).WriteFile(path); err != nil {
			panic(err)
		}
		again, err := replayed(path)
		if err != nil {
			panic(err)
		}
		fmt.Printf("frames of %v: the tap acted on ticks %v, replayed on ticks %v\n", frame, g.acted, again)
	}
}
`

// TestLibraryFromAClone: a game outside the repository uses input, loop
// and replay, each a module of its own, as README.md says: a new module
// that requires and replaces them and atomicfile, which replay requires
// (a module's replace directives do not reach the modules that import
// it). It builds with nothing fetched (the module proxy is off), and its
// module graph lists nothing else but golang.org/x/sys, which atomicfile
// requires: none of the demo's modules. The tap acts on its own tick,
// tick 6 ([240 ms, 280 ms)), at 1000 and at 5 frames a second (input
// gathered before the ticks: loop.InputGatherer), and the recording
// written to a file replays it there.
func TestLibraryFromAClone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	mods := []string{"input", "loop", "replay", "atomicfile"}
	gomod := "module example.com/taps\n\ngo 1.24\n"
	for _, m := range mods {
		gomod += "\nrequire github.com/interpdemo/interpdemo/" + m + " v0.0.0\nreplace github.com/interpdemo/interpdemo/" + m + " => " + filepath.Join(root, m) + "\n"
	}
	_, gocmd := newModule(t, gomod, clonedLibraryProgram,
		"GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off")
	gocmd("mod", "tidy")
	for _, line := range strings.Split(strings.TrimSpace(gocmd("mod", "graph")), "\n") {
		for _, m := range strings.Fields(line) {
			m = strings.SplitN(m, "@", 2)[0]
			if m != "example.com/taps" && m != "golang.org/x/sys" && m != "go" && m != "toolchain" && !slices.Contains(mods, strings.TrimPrefix(m, "github.com/interpdemo/interpdemo/")) {
				t.Errorf("go mod graph lists %s: %q", m, line)
			}
		}
	}
	out := gocmd("run", ".")
	want := "frames of 1ms: the tap acted on ticks [6], replayed on ticks [6]\nframes of 200ms: the tap acted on ticks [6], replayed on ticks [6]\n"
	if out != want {
		t.Errorf("the program printed\n%s\nwant\n%s", out, want)
	}
}
