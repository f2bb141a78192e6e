package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
)

// specBalls is the world of the spectator's late join: 100,000 balls, a
// snapshot of 2.4 MB.
const specBalls = "100000"

// specJoin is a spectator's late join into a running game.
type specJoin struct {
	joinMs        float64 // spectator_join_ms: from its Hello to the snapshot loaded
	snapshotBytes int
	startTick     uint64
	same          bool // the spectator ended with the players' state hash
}

var startedRe = regexp.MustCompile(`game started`)

// spectatorJoin plays a two-player rollback game of specBalls balls
// between two headless processes on 127.0.0.1 (no simulated delay) and,
// 2 s after the host says the game started, starts a spectator; it
// returns the spectator's spectator_join_ms from -stats.
func spectatorJoin(o *options) (*specJoin, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	common := []string{"-headless", "-hud=false", "-graph=false", "-stats", "-net-timeout", "30s", "-netcode", "rollback"}
	host := exec.CommandContext(ctx, o.bin, append([]string{"-host", "127.0.0.1:0", "-bot", "1", "-balls", specBalls, "-ticks", "400"}, common...)...)
	var hostOut, joinOut, specOut, errs bytes.Buffer
	host.Stdout, host.Env = &hostOut, benchEnv(nil)
	pipe, err := host.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := host.Start(); err != nil {
		return nil, err
	}
	addr, started := make(chan string, 1), make(chan struct{}, 1)
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if m := hostingRe.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
			if startedRe.MatchString(sc.Text()) {
				started <- struct{}{}
			}
		}
		io.Copy(io.Discard, pipe)
	}()
	var a string
	select {
	case a = <-addr:
	case <-logged:
		host.Wait()
		return nil, fmt.Errorf("the host ended before it said where it hosts")
	case <-ctx.Done():
		return nil, fmt.Errorf("the host did not say where it hosts")
	}
	join := exec.CommandContext(ctx, o.bin, append([]string{"-join", a, "-bot", "2"}, common...)...)
	join.Stdout, join.Stderr, join.Env = &joinOut, &errs, benchEnv(nil)
	if err := join.Start(); err != nil {
		return nil, err
	}
	select {
	case <-started:
	case <-logged:
	case <-ctx.Done():
	}
	time.Sleep(2 * time.Second) // the scenario: a spectator 2 s into the game
	spec := exec.CommandContext(ctx, o.bin, append([]string{"-spectate", a}, common[:len(common)-2]...)...)
	spec.Stdout, spec.Stderr, spec.Env = &specOut, &errs, benchEnv(nil)
	specErr := spec.Run()
	joinErr := join.Wait()
	<-logged
	hostErr := host.Wait()
	if specErr != nil || joinErr != nil || hostErr != nil {
		return nil, fmt.Errorf("host: %v, joiner: %v, spectator: %v: %s", hostErr, joinErr, specErr, errs.String())
	}
	h, err := report.Parse(bytes.TrimSpace(hostOut.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("host's -stats: %v", err)
	}
	s, err := report.Parse(bytes.TrimSpace(specOut.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("spectator's -stats: %v", err)
	}
	if s.Net == nil || s.Net.Spectator == nil {
		return nil, fmt.Errorf("the spectator's -stats has no spectator figures")
	}
	return &specJoin{joinMs: s.Net.Spectator.JoinMs, snapshotBytes: s.Net.Spectator.SnapshotBytes,
		startTick: s.Net.Spectator.StartTick, same: s.StateHash == h.StateHash}, nil
}

// writeSpecJoin writes the spectator's late join, in the network section.
func writeSpecJoin(p func(string, ...any), s *specJoin) {
	if s == nil {
		return
	}
	same := "the players' state hash at the end"
	if !s.same {
		same = "**not** the players' state hash at the end"
	}
	p("A spectator joining a running game of %s balls: `spectator_join_ms` %s (target: at most 1,000), a snapshot of %s bytes at tick %d, %s.\n\n",
		commas(100000), commas(int64(s.joinMs+0.5)), commas(int64(s.snapshotBytes)), s.startTick, same)
	p("The game: a rollback game of two headless peers with bots on 127.0.0.1, `-balls %s -ticks 400`; the spectator `interpdemo -spectate ADDR`, 2 s after the game started.\n\n", specBalls)
}
