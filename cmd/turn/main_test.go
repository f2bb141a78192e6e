package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Bad flags: exit 2 and one line, before anything listens.
func TestBadFlags(t *testing.T) {
	dir := t.TempDir()
	secret, empty := filepath.Join(dir, "secret"), filepath.Join(dir, "empty")
	if os.WriteFile(secret, []byte("s3cret\n"), 0o600) != nil || os.WriteFile(empty, []byte("\nsecond line\n"), 0o600) != nil {
		t.Fatal("cannot write the test's files")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "turn: -user and -pass are required"},
		{[]string{"-user", "a"}, "turn: -user and -pass are required"},
		{[]string{"-user", "a", "-pass", "b", "-addr", "0.0.0.0:0"}, `turn: -addr "0.0.0.0:0": want IP:PORT`},
		{[]string{"-user", "a", "-pass", "b", "-addr", "localhost:0"}, `turn: -addr "localhost:0": want IP:PORT`},
		{[]string{"-user", "a", "-pass", "b", "x"}, `turn: unexpected argument "x"`},
		{[]string{"-nope"}, "turn: flag provided but not defined: -nope"},
		{[]string{"-secret-file", secret, "-user", "a"}, "turn: -secret-file, or -user and -pass: not both"},
		{[]string{"-secret-file", filepath.Join(dir, "none")}, "turn: -secret-file: open "},
		{[]string{"-secret-file", empty}, "turn: -secret-file " + empty + ": its first line is empty"},
		{[]string{"-secret-file", secret, "-addr", "0.0.0.0:0"}, `turn: -addr "0.0.0.0:0": want IP:PORT`},
	} {
		var out, errs bytes.Buffer
		code := run(context.Background(), c.args, &out, &errs)
		if code != 2 || !strings.HasPrefix(errs.String(), c.want) || strings.Count(errs.String(), "\n") != 1 || out.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want 2 and one line %q...", c.args, code, errs.String(), out.String(), c.want)
		}
	}
}

// It says where it listens first, and what it relayed last, when its
// context ends; a port it cannot have is an error of exit 1.
func TestListensAndEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // ends as soon as it listens
	var out, errs bytes.Buffer
	if code := run(ctx, []string{"-addr", "127.0.0.1:0", "-user", "a", "-pass", "b"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !regexp.MustCompile(`^turn: listening on 127\.0\.0\.1:\d+\nturn: relayed 0 bytes to peers, 0 from them\n$`).MatchString(out.String()) {
		t.Errorf("stdout %q", out.String())
	}
	held, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	errs.Reset()
	if code := run(context.Background(), []string{"-addr", held.LocalAddr().String(), "-user", "a", "-pass", "b"}, &bytes.Buffer{}, &errs); code != 1 || strings.Count(errs.String(), "\n") != 1 {
		t.Errorf("a port in use: exit %d, stderr %q; want 1 and one line", code, errs.String())
	}
}
