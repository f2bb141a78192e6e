package libdeps

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The repository's modules' paths start with this.
const repo = "github.com/interpdemo/interpdemo"

// modules are the library's modules (the folder, from the repository's
// root) and what each may depend on besides the standard library and its
// own packages: a path is in a module when it is the module's path or
// below it.
var modules = []struct {
	dir     string
	allowed []string
	why     string
}{
	{"loop", nil, "the loop takes the time and reads no clock: the standard library alone"},
	{"input", nil, "records and edges of buttons: not even the loop"},
	{"physics", []string{"golang.org/x/sys"}, "golang.org/x/sys for the CPU features of its hot loop"},
	{"atomicfile", []string{"golang.org/x/sys"}, "a module any program can use, golang.org/x/sys for its system calls"},
	{"replay", []string{repo + "/input", repo + "/atomicfile", "golang.org/x/sys"},
		"input, whose records it stores, atomicfile, which writes its files, and golang.org/x/sys through atomicfile"},
}

// TestKnowsNoGame: each library module imports nothing of the demo (its
// world, simulation, SDL or GL), and its go.mod brings nothing else into
// the module graph of a game that requires it (tests' requirements
// included, outside the workspace).
func TestKnowsNoGame(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command; the full run checks it")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.work")); err != nil {
		t.Fatalf("the repository's root: %v", err)
	}
	for _, m := range modules {
		t.Run(m.dir, func(t *testing.T) {
			path := repo + "/" + m.dir
			allowed := append([]string{path}, m.allowed...)
			in := func(p string) bool {
				return slices.ContainsFunc(allowed, func(a string) bool { return p == a || strings.HasPrefix(p, a+"/") })
			}
			dir := filepath.Join(root, filepath.FromSlash(m.dir))
			deps := goList(t, dir, nil, "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...")
			if !slices.Contains(deps, path) {
				t.Fatalf("go list -deps did not list %s itself: %q", m.dir, deps)
			}
			for _, d := range deps {
				if !in(d) {
					t.Errorf("%s depends on %s; it may depend on %s", m.dir, d, m.why)
				}
			}
			mods := goList(t, dir, []string{"GOWORK=off"}, "-m", "-f", "{{.Path}}", "all")
			if mods[0] != path {
				t.Fatalf("go list -m all: the main module is %q, want %s", mods[0], path)
			}
			for _, p := range mods[1:] {
				if !in(p) {
					t.Errorf("%s's go.mod requires %s; it may require %s", m.dir, p, m.why)
				}
			}
		})
	}
}

// goList runs go list with args in dir, env added to the environment,
// and returns the words it printed.
func goList(t *testing.T, dir string, env []string, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if e, ok := err.(*exec.ExitError); ok {
			stderr = e.Stderr
		}
		t.Fatalf("go list %s in %s: %v\n%s", strings.Join(args, " "), dir, err, stderr)
	}
	words := strings.Fields(string(out))
	if len(words) == 0 {
		t.Fatalf("go list %s in %s printed nothing", strings.Join(args, " "), dir)
	}
	return words
}
