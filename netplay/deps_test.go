package netplay

import (
	"os/exec"
	"strings"
	"testing"
)

// TestKnowsNoGame: the library and its transport import nothing of the
// demo (its world, recordings, simulation, input, SDL or GL): any
// deterministic game can use them.
func TestKnowsNoGame(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command; the full run checks it")
	}
	out, err := exec.Command("go", "list", "-deps", ".", "./udp").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list listed %d packages", len(deps))
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/interpdemo/interpdemo/") && !strings.HasPrefix(d, "github.com/interpdemo/interpdemo/netplay") ||
			strings.Contains(d, "go-sdl2") || strings.Contains(d, "go-gl") {
			t.Errorf("netplay depends on %s", d)
		}
	}
}
