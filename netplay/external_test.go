package netplay

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// outsideGoMod and outsideMain are a module outside the repository: a
// game of its own (two paddles and a ball) that imports the library,
// plays a two-session rollback game over the library's network in memory
// and prints both sessions' final state hashes.
const outsideGoMod = `module example.com/paddles

go 1.24

require github.com/interpdemo/interpdemo/netplay v0.0.0

replace github.com/interpdemo/interpdemo/netplay => %ROOT%
`

const outsideMain = `// Command paddles plays a two-player rollback game of its own over the
// netplay library's network in memory (netsim.Net) and prints both peers' final state.
package main

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// court is the game: two paddles that the players move up and down, and
// a ball that bounces off the walls and the paddles.
type court struct {
	s     state
	slots [10]state // MaxPrediction (8) + 2
	me    *netplay.Session
}

type state struct {
	Tick         uint32
	Paddle       [2]int32
	BallX, BallY int32
	VX, VY       int32
	Score        [2]uint32
}

// An input is two bytes: the paddle's move (-1, 0, 1) and a serve button.
func (c *court) Advance(in *netplay.Inputs) {
	s := &c.s
	for p := range 2 {
		b := in.Input(p)
		s.Paddle[p] = min(max(s.Paddle[p]+3*int32(int8(b[0])), -40), 40)
		if b[1] != 0 && s.VX == 0 {
			s.VX, s.VY = 2-4*int32(p), 1
		}
	}
	s.BallX += s.VX
	s.BallY += s.VY
	if s.BallY < -50 || s.BallY > 50 {
		s.VY = -s.VY
	}
	for p, x := range [2]int32{-100, 100} {
		if (p == 0 && s.BallX <= x) || (p == 1 && s.BallX >= x) {
			if d := s.BallY - s.Paddle[p]; d < -10 || d > 10 {
				s.Score[1-p]++
				s.BallX, s.BallY, s.VX, s.VY = 0, 0, 0, 0
			} else {
				s.VX = -s.VX
			}
		}
	}
	s.Tick++
}

func (c *court) Save(slot int) { c.slots[slot] = c.s }
func (c *court) Load(slot int) { c.s = c.slots[slot] }

func (c *court) Hash() uint64 {
	h := fnv.New64a()
	binary.Write(h, binary.LittleEndian, c.s)
	return h.Sum64()
}

// LocalInput is a bot's paddle: it follows a pattern of its own and
// serves.
func (c *court) LocalInput(tick uint64, _ int, dst []byte) {
	dst[0] = byte(int8((int(tick/6)+c.me.Index())%3 - 1))
	if tick%50 == 10 {
		dst[1] = 1
	}
}

func main() {
	const tick = 16 * time.Millisecond
	net, err := netsim.NewNet(netsim.Conditions{Delay: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.08, Duplicate: 0.02, Reorder: 0.05}, 42)
	if err != nil {
		fail(err)
	}
	ports := make([]*netsim.Port, 2)
	for i, a := range []string{"host", "joiner"} {
		if ports[i], err = net.Port(a); err != nil {
			fail(err)
		}
	}
	games := []*court{{}, {}}
	host, err := netplay.Host(netplay.Config{InputSize: 2, Nonce: 0xc0ffee, Players: 2, TickLimit: 300, Tick: tick}, games[0], ports[0], 0)
	if err != nil {
		fail(err)
	}
	join, err := netplay.Join(netplay.Config{InputSize: 2, Nonce: 0xbeef}, games[1], ports[1], "host", 0)
	if err != nil {
		fail(err)
	}
	sessions := []*netplay.Session{host, join}
	games[0].me, games[1].me = host, join
	var now time.Duration
	counted := []int{0, 0}
	for !host.Done() || !join.Done() {
		if now > time.Minute {
			fail(fmt.Errorf("not done after a minute: %v %v", host.State(), join.State()))
		}
		net.SetTime(now)
		for i, s := range sessions {
			due := 0
			if st := s.Stats(); st.State == netplay.StateRunning {
				ticks := int((now - st.StartedAt) / tick)
				due, counted[i] = ticks-counted[i], ticks
			}
			s.Frame(now, due, 5)
		}
		now += 7 * time.Millisecond
	}
	for i, s := range sessions {
		if s.Err() != nil {
			fail(fmt.Errorf("player %d: %w", i, s.Err()))
		}
		fmt.Printf("player %d: tick %d score %v hash %016x rollbacks %d\n", i, games[i].s.Tick, games[i].s.Score, games[i].Hash(), s.Stats().Rollbacks)
	}
	fmt.Println("agree:", games[0].s == games[1].s && games[0].s.Tick == 300)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "paddles:", err)
	os.Exit(1)
}
`

// A module outside the repository imports the package and plays a
// two-session game of its own over the library's simulated network: the
// library, a module of its own, needs nothing of the repository but
// itself (no other module, no network: the module proxy is off, and the
// module cache is empty), and the game's module graph lists nothing else:
// none of the demo's go-sdl2, go-gl or gonum.
func TestOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a module with the go command; the full run checks it")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command: %v", err)
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	if mod, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !strings.HasPrefix(string(mod), "module github.com/interpdemo/interpdemo/netplay\n") {
		t.Fatalf("%s is not the library's module: %v", root, err)
	}
	dir := t.TempDir()
	mod := filepath.Join(dir, "paddles")
	if err := os.Mkdir(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"go.mod":  strings.ReplaceAll(outsideGoMod, "%ROOT%", strconv.Quote(root)),
		"main.go": outsideMain,
	} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	env := append(os.Environ(),
		"GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod",
		"GOPROXY=off", "GOSUMDB=off", "GONOSUMDB=*",
		"GOMODCACHE="+filepath.Join(dir, "modcache"), // empty: nothing to take from it
	)
	graph := exec.CommandContext(ctx, goCmd, "mod", "graph")
	graph.Dir, graph.Env = mod, env
	g, err := graph.CombinedOutput()
	if err != nil {
		t.Fatalf("go mod graph: %v\n%s", err, g)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(g)), "\n") {
		for _, m := range strings.Fields(line) {
			if m = strings.SplitN(m, "@", 2)[0]; m != "example.com/paddles" && m != "github.com/interpdemo/interpdemo/netplay" && m != "go" && m != "toolchain" {
				t.Errorf("go mod graph lists %s: %q", m, line)
			}
		}
	}
	cmd := exec.CommandContext(ctx, goCmd, "run", ".")
	cmd.Dir, cmd.Env = mod, env
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("go run did not finish in time:\n%s", out)
	}
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	t.Logf("go run:\n%s", out)
	lines := regexp.MustCompile(`(?m)^player (0|1): tick 300 score \[\d+ \d+\] hash ([0-9a-f]{16}) rollbacks \d+$`).FindAllStringSubmatch(string(out), -1)
	if len(lines) != 2 || lines[0][1] != "0" || lines[1][1] != "1" || lines[0][2] != lines[1][2] ||
		!strings.Contains(string(out), "\nagree: true\n") {
		t.Errorf("the sessions do not agree:\n%s", out)
	}
}
