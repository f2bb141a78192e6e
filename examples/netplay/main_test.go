package main

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// build compiles the example once for the tests.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "netplay")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

var last = regexp.MustCompile(`^player (\d): tick (\d+), dots \[(\d+) (\d+)\], hash ([0-9a-f]{16})$`)

// Two processes over UDP on 127.0.0.1 play the game to its tick limit
// and end in the same state: the README's first example, as a user runs
// it.
func TestTwoProcessesAgree(t *testing.T) {
	bin := build(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	host := exec.CommandContext(ctx, bin, "-host", "127.0.0.1:0")
	var hostErr bytes.Buffer
	host.Stderr = &hostErr
	out, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "hosting on ") {
		t.Fatalf("host's first line %q, stderr %q", lines.Text(), hostErr.String())
	}
	addr := strings.TrimPrefix(lines.Text(), "hosting on ")
	joined, err := exec.CommandContext(ctx, bin, "-join", addr).CombinedOutput()
	if err != nil {
		t.Fatalf("joiner: %v: %s", err, joined)
	}
	var hostLast string
	if lines.Scan() {
		hostLast = lines.Text()
	}
	if err := host.Wait(); err != nil {
		t.Fatalf("host: %v: %s", err, hostErr.String())
	}
	h, j := last.FindStringSubmatch(hostLast), last.FindStringSubmatch(strings.TrimSpace(string(joined)))
	if h == nil || j == nil {
		t.Fatalf("last lines: host %q, joiner %q", hostLast, joined)
	}
	if h[1] != "0" || j[1] != "1" || h[2] != "100" || j[2] != "100" {
		t.Errorf("host %q, joiner %q: want players 0 and 1 at tick 100", h[0], j[0])
	}
	if h[5] != j[5] || h[3] != j[3] || h[4] != j[4] {
		t.Errorf("the players disagree: host %q, joiner %q", h[0], j[0])
	}
}

// A user's mistakes end at once with one line that says what to do.
func TestMistakes(t *testing.T) {
	bin := build(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "netplay: give -host ADDR or -join HOST:PORT\n"},
		{[]string{"-host", ":0", "-join", "127.0.0.1:9"}, "netplay: give -host ADDR or -join HOST:PORT\n"},
		{[]string{"-join", "127.0.0.1:9"}, "netplay: nothing listens at 127.0.0.1:9: no game hosted there\n"},
		{[]string{"-join", "127.0.0.1"}, "netplay: address 127.0.0.1: missing port in address\n"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		out, err := exec.CommandContext(ctx, bin, c.args...).CombinedOutput()
		cancel()
		if err == nil || string(out) != c.want {
			t.Errorf("%q: %v, %q; want an exit with %q", c.args, err, out, c.want)
		}
	}
}
