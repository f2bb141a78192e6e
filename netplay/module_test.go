package netplay

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAFreshModuleUsesIt: a module outside the repository that requires
// this one (through a replace, as the README says until it is published)
// builds and runs a two-player game — ExampleRunner, made a program — and
// its module graph holds no go-sdl2, go-gl, gonum or any other module:
// the library brings none of the demo's dependencies.
func TestAFreshModuleUsesIt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with the go command")
	}
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_runner_test.go")
	if err != nil {
		t.Fatal(err)
	}
	prog := strings.Replace(string(src), "package netplay_test", "package main", 1)
	prog = strings.Replace(prog, "func ExampleRunner() {", "func main() {", 1)
	want := regexp.MustCompile(`(?m)^\t// Output:\n((?:\t// .*\n)+)`).FindStringSubmatch(string(src))
	if want == nil || !strings.Contains(prog, "func main() {") {
		t.Fatal("example_runner_test.go has no ExampleRunner with an Output comment")
	}
	dir := t.TempDir()
	mod := "module example.com/twoplayers\n\ngo 1.24\n\nrequire github.com/interpdemo/interpdemo/netplay v0.0.0\n\nreplace github.com/interpdemo/interpdemo/netplay => " + here + "\n"
	for name, body := range map[string]string{"go.mod": mod, "main.go": prog} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gocmd := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		// Nothing to fetch: the module needs no other.
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	out := gocmd("run", ".")
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(want[1]), "\n") {
		lines = append(lines, strings.TrimPrefix(strings.TrimSpace(l), "// "))
	}
	if got := strings.TrimSpace(out); got != strings.Join(lines, "\n") {
		t.Errorf("the program printed:\n%s\nwant:\n%s", got, strings.Join(lines, "\n"))
	}
	graph := gocmd("mod", "graph")
	for _, line := range strings.Split(strings.TrimSpace(graph), "\n") {
		for _, m := range strings.Fields(line) {
			m = strings.SplitN(m, "@", 2)[0]
			if m != "example.com/twoplayers" && m != "github.com/interpdemo/interpdemo/netplay" && m != "go" && m != "toolchain" {
				t.Errorf("go mod graph lists %s: %q", m, line)
			}
		}
	}
}
