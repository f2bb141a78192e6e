package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

// netArgs are the flags of both peers of the network scenario: headless,
// with bots, on a link of 60 ms one way (each process delays what it
// sends and what it receives, so a packet takes about 120 ms), 20 ms of
// jitter and 5 % loss, simulated in the processes: nothing leaves
// 127.0.0.1.
var netArgs = []string{"-headless", "-hud=false", "-graph=false", "-stats", "-fps-cap", "60",
	"-net-delay", "60ms", "-net-jitter", "20ms", "-net-loss", "0.05", "-net-timeout", "30s"}

// netTicks is the length of a game of the network scenario.
const netTicks = "750"

// netGame is one two-player game: the host's and the joiner's -stats.
type netGame struct {
	netcode    string
	host, join *report.Stats
	spec       *specJoin // the spectator's late join, on the last game
}

var hostingRe = regexp.MustCompile(`hosting on (127\.0\.0\.1:\d+)`)

// network plays a lockstep game and a rollback game between two local
// processes, for docs/NETPLAY.md's table.
func network(o *options, r *results) error {
	for _, netcode := range []string{"lockstep", "rollback"} {
		g, err := playNet(o, netcode)
		if err != nil {
			return fmt.Errorf("%s: %v", netcode, err)
		}
		r.net = append(r.net, g)
	}
	s, err := spectatorJoin(o)
	if err != nil {
		return fmt.Errorf("a spectator's late join: %v", err)
	}
	r.net[len(r.net)-1].spec = s
	return nil
}

// playNet plays one game: the host on a port the system picks, then the
// joiner on the address the host says; both end at the game's last tick.
func playNet(o *options, netcode string) (*netGame, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	common := append(append([]string{}, netArgs...), "-netcode", netcode)
	host := exec.CommandContext(ctx, o.bin, append([]string{"-host", "127.0.0.1:0", "-bot", "1", "-ticks", netTicks}, common...)...)
	join := exec.CommandContext(ctx, o.bin, append([]string{"-bot", "2"}, common...)...)
	var hostOut, joinOut, hostErr, joinErr bytes.Buffer
	host.Stdout, join.Stdout, join.Stderr = &hostOut, &joinOut, &joinErr
	for _, c := range []*exec.Cmd{host, join} {
		c.Env = benchEnv(nil)
	}
	pipe, err := host.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := host.Start(); err != nil {
		return nil, err
	}
	// The host's address, from its log; the rest of the log kept for an
	// error.
	addr := make(chan string, 1)
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			hostErr.WriteString(sc.Text() + "\n")
			if m := hostingRe.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, pipe)
	}()
	select {
	case a := <-addr:
		join.Args = append(join.Args, "-join", a)
	case <-logged:
		host.Wait()
		return nil, fmt.Errorf("the host ended before it said where it hosts: %s", hostErr.String())
	case <-ctx.Done():
		return nil, fmt.Errorf("the host did not say where it hosts within 3 minutes")
	}
	if err := join.Start(); err != nil {
		return nil, err
	}
	joinDone := join.Wait()
	<-logged
	hostDone := host.Wait()
	if hostDone != nil || joinDone != nil {
		return nil, fmt.Errorf("host: %v: %s; joiner: %v: %s", hostDone, hostErr.String(), joinDone, joinErr.String())
	}
	g := &netGame{netcode: netcode}
	if g.host, err = report.Parse(bytes.TrimSpace(hostOut.Bytes())); err != nil {
		return nil, fmt.Errorf("host's -stats: %v", err)
	}
	if g.join, err = report.Parse(bytes.TrimSpace(joinOut.Bytes())); err != nil {
		return nil, fmt.Errorf("joiner's -stats: %v", err)
	}
	if g.host.Net == nil || g.join.Net == nil {
		return nil, fmt.Errorf("-stats without the network game's figures")
	}
	return g, nil
}

// writeNet writes the network section.
func (r *results) writeNet(p func(string, ...any)) {
	if len(r.net) == 0 {
		return
	}
	p("## A network game\n\n")
	p("Two headless peers with bots on 127.0.0.1, a game of %s ticks: `interpdemo -host 127.0.0.1:0 -bot 1 -ticks %s -netcode N %s` and `interpdemo -join ADDR -bot 2 -netcode N` with the same flags. Each process delays what it sends and what it receives, so a packet takes about 120 ms one way; the delay, the jitter and the loss are simulated in the processes.\n\n", netTicks, netTicks, strings.Join(netArgs, " "))
	head := []string{""}
	for _, g := range r.net {
		head = append(head, fmt.Sprintf("%s (input delay %d)", g.netcode, g.host.InputDelay))
	}
	p("| %s |\n|---|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(r.net)))
	row := func(name string, f func(g *netGame) string) {
		cells := []string{name}
		for _, g := range r.net {
			cells = append(cells, f(g))
		}
		p("| %s |\n", strings.Join(cells, " | "))
	}
	row("ping (RTT), host / joiner", func(g *netGame) string {
		return fmt.Sprintf("%s / %s ms", rtt(g.host), rtt(g.join))
	})
	row("ticks, time, TPS (host)", func(g *netGame) string {
		return fmt.Sprintf("%d in %.1f s (%.2f TPS)", g.host.WorldTicks, g.host.Seconds, g.host.TPS)
	})
	row("time stalled, host / joiner", func(g *netGame) string {
		return fmt.Sprintf("%.1f s over %s frames / %.1f s over %s frames", g.host.StallMs/1000, commas(g.host.Net.StallFrames), g.join.StallMs/1000, commas(g.join.Net.StallFrames))
	})
	row("rollbacks, host / joiner", func(g *netGame) string {
		if g.host.Rollback == nil || g.join.Rollback == nil {
			return "-"
		}
		return fmt.Sprintf("%d / %d (%.1f a second on the host)", g.host.Rollbacks, g.join.Rollbacks, float64(g.host.Rollbacks)/g.host.Seconds)
	})
	row("ticks re-simulated, host / joiner; deepest rollback", func(g *netGame) string {
		if g.host.Rollback == nil || g.join.Rollback == nil {
			return "-"
		}
		return fmt.Sprintf("%s / %s; %d ticks", commas(g.host.ResimulatedTicks), commas(g.join.ResimulatedTicks), max(g.host.MaxRollbackTicks, g.join.MaxRollbackTicks))
	})
	row("re-simulation per frame that rolled back, p99 (host)", func(g *netGame) string {
		if g.host.Rollback == nil {
			return "-"
		}
		return fmt.Sprintf("%.3f ms (%s)", g.host.RollbackMsP99, balls(int(g.host.Balls)))
	})
	row("frames at the prediction limit, host / joiner", func(g *netGame) string {
		if g.host.Rollback == nil || g.join.Rollback == nil {
			return "-"
		}
		return fmt.Sprintf("%d / %d", g.host.Rollback.StallFrames, g.join.Rollback.StallFrames)
	})
	row("sent, host / joiner", func(g *netGame) string {
		return fmt.Sprintf("%s / %s bytes a second", commas(int64(g.host.SendBytesPerS+0.5)), commas(int64(g.join.SendBytesPerS+0.5)))
	})
	row("final state hash, host / joiner", func(g *netGame) string {
		return fmt.Sprintf("%s / %s", g.host.StateHash, g.join.StateHash)
	})
	p("\n")
	writeSpecJoin(p, r.net[len(r.net)-1].spec)
}

// rtt is a peer's round-trip time to the other player, in ms.
func rtt(s *report.Stats) string {
	for i, v := range s.RTTMs {
		if i != s.Net.Player {
			return fmt.Sprintf("%.0f", v)
		}
	}
	return "-"
}

// benchEnv is the environment of a run: this process's, less the display,
// the renderer's switches and a launch time, plus extra.
func benchEnv(extra []string) []string {
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "SDL_VIDEODRIVER=") && !strings.HasPrefix(kv, renderEnv+"=") &&
			!strings.HasPrefix(kv, report.LaunchedEnv+"=") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// launchNow tells cmd, about to be started, the time it is started at
// (report.LaunchedEnv), from which it counts its start-up: to within a
// fraction of a millisecond, where the system's count of the process's
// start is rounded down to 10 ms.
func launchNow(cmd *exec.Cmd) {
	cmd.Env = append(cmd.Env, report.LaunchedEnv+"="+strconv.FormatInt(time.Now().UnixNano(), 10))
}
