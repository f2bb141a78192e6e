package cmdline

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"
)

// CheckListenAddr takes what net.Listen("tcp") takes, and refuses the
// rest in one line.
func TestCheckListenAddr(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", ":8780", "localhost:65535", "[::1]:0", "127.0.0.1:http"} {
		if err := CheckListenAddr(addr); err != nil {
			t.Errorf("%q: %v", addr, err)
		}
	}
	for _, addr := range []string{"", "127.0.0.1", "127.0.0.1:", ":", ":abc", ":65536", ":-1", "::1:80"} {
		if err := CheckListenAddr(addr); err == nil {
			t.Errorf("%q: no error", addr)
		}
	}
}

// Main: SIGINT ends run's context, and the process exits with the status
// run returned (the test runs itself as the server, CMDLINE_MAIN=1).
func TestMainEndsOnSignal(t *testing.T) {
	if os.Getenv("CMDLINE_MAIN") == "1" {
		Main(func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
			fmt.Fprintln(stdout, "ready", len(args))
			<-ctx.Done()
			return 3
		})
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestMainEndsOnSignal$")
	cmd.Env = append(os.Environ(), "CMDLINE_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "ready 1\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("first line %q (%v); want ready 1 (the one argument)", line, err)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Errorf("after SIGINT: %v (ctx %v); want exit status 3, run's", err, ctx.Err())
	}
}
