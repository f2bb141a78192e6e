// Package cmdline is what the project's servers (cmd/lobby, cmd/turn,
// cmd/serve) share on their command lines: a main that ends on SIGINT or
// SIGTERM, flags whose errors are one line, an address to listen on
// checked before anything starts, and a secret read from a file rather
// than given where ps shows it.
package cmdline

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// Main runs a server's body until SIGINT or SIGTERM ends its context,
// then exits with the status run returned: os.Exit only once run has
// returned, so that its deferred cleanup runs.
func Main(run func(ctx context.Context, args []string, stdout, stderr io.Writer) int) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Parse parses args into fs, a flag set named after the command, made
// with flag.ContinueOnError. With -h it prints the usage on stdout; a bad
// flag, or an argument that is not a flag, is one line on stderr that
// ends by pointing at -h. ok says to go on; otherwise the command exits
// with code (0 after -h, 2 for a bad command line).
func Parse(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	name := fs.Name()
	fs.SetOutput(io.Discard) // errors are printed on one line below
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fmt.Fprintf(stdout, "Usage: %s [flags]\n%s", name, Fold(b.String(), HelpWidth))
		return 0, false
	case err != nil:
		fmt.Fprintln(stderr, FlagError(fs, err))
		return 2, false
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "%s: unexpected argument %q (%s -h lists the flags)\n", name, fs.Arg(0), name)
		return 2, false
	}
	return 0, true
}

// ReadSecret returns the first line of the file at path, trimmed: a
// secret that a command takes from a file named by its flag -name. An
// error is one line that names the flag and never holds the secret.
func ReadSecret(name, path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("-%s: %v", name, err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "", fmt.Errorf("-%s %s: its first line is empty", name, path)
	}
	return line, nil
}

// CheckListenAddr checks an address to listen on as net.Listen("tcp")
// takes it: HOST:PORT, the port a number from 0 (the system picks one) to
// 65535 or a service name, so that a bad one is a flag error before
// anything starts.
func CheckListenAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if port == "" {
		return errors.New("missing port (port 0 picks one)")
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("port %q: want 0 to 65535 or a service name", port)
	}
	return nil
}
