package input

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestKnowsNoGame: input imports nothing but the standard library: none
// of the demo (its world, simulation, SDL or GL), not even the loop. A
// game that requires this module gets nothing else in its module graph.
func TestKnowsNoGame(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command; the full run checks it")
	}
	// What the module may depend on, besides the standard library: its
	// own packages and these modules' (a path is in a module when it is
	// the module's path or below it).
	allowed := []string{"github.com/interpdemo/interpdemo/input"}
	in := func(path string) bool {
		return slices.ContainsFunc(allowed, func(m string) bool { return path == m || strings.HasPrefix(path, m+"/") })
	}

	// The packages it builds (tests aside), on this platform.
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/interpdemo/interpdemo/input") {
		t.Fatalf("go list -deps did not list input itself: %q", deps)
	}
	for _, d := range deps {
		if !in(d) {
			t.Errorf("input depends on %s", d)
		}
	}

	// The modules its go.mod brings into a game's graph, tests' included,
	// outside the workspace.
	cmd := exec.Command("go", "list", "-m", "all")
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -m all: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if lines[0] != "github.com/interpdemo/interpdemo/input" {
		t.Fatalf("go list -m all: the main module is %q, want github.com/interpdemo/interpdemo/input", lines[0])
	}
	for _, l := range lines[1:] {
		if m := strings.Fields(l)[0]; !in(m) {
			t.Errorf("input's go.mod requires %s (%s)", m, l)
		}
	}
}
