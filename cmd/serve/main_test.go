package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The page's files go out with the types a browser needs:
// WebAssembly.instantiateStreaming refuses a .wasm that is not served as
// application/wasm. Nothing is cached, so a rebuilt page shows at the
// next reload.
func TestServesThePage(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"index.html": "<!DOCTYPE html>", "interpdemo.wasm": "\x00asm\x01\x00\x00\x00", "wasm_exec.js": "//"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := handler(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for path, typ := range map[string]string{"/": "text/html; charset=utf-8", "/interpdemo.wasm": "application/wasm", "/wasm_exec.js": "text/javascript; charset=utf-8"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != typ || resp.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("%s: %d, %q, cache %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
		}
	}
}

func TestRefusesAFolderWithNoPage(t *testing.T) {
	dir := t.TempDir()
	if _, err := handler(dir); err == nil || err.Error() != dir+" has no index.html: run make web first" {
		t.Errorf("%v", err)
	}
}

// Bad flags: exit 2, one line on stderr that names the flag. Its ctx has
// ended, and the folder holds the page: a command line taken by mistake
// returns at once, after serving.
func TestFlags(t *testing.T) {
	dir := pageDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-addr", ""}, `serve: -addr "": missing port in address`},
		{[]string{"-addr", "nonsense"}, `serve: -addr "nonsense": address nonsense: missing port in address`},
		{[]string{"-addr", "127.0.0.1:"}, `serve: -addr "127.0.0.1:": missing port (port 0 picks one)`},
		{[]string{"-addr", ":abc"}, `serve: -addr ":abc": port "abc": want 0 to 65535 or a service name`},
		{[]string{"-addr", "127.0.0.1:65536"}, `serve: -addr "127.0.0.1:65536": port "65536": want 0 to 65535 or a service name`},
		{[]string{"-bogus"}, "serve: flag provided but not defined: -bogus (serve -h lists the flags)"},
		{[]string{"-addr", "127.0.0.1:0", "extra"}, `serve: unexpected argument "extra" (serve -h lists the flags)`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(ctx, append([]string{"-dir", dir}, tc.args...), &stdout, &stderr)
		if code != 2 || stderr.String() != tc.want+"\n" || stdout.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want 2 and %q", tc.args, code, stderr.String(), stdout.String(), tc.want)
		}
	}
}

// -h lists the flags on stdout and exits 0; a folder with no page exits 1.
func TestHelpAndNoPage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"-h"}, &stdout, &stderr); code != 0 || stderr.Len() != 0 || !strings.Contains(stdout.String(), "-addr") || !strings.Contains(stdout.String(), "-dir") {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	dir := t.TempDir()
	stdout.Reset()
	stderr.Reset()
	if code := run(context.Background(), []string{"-dir", dir, "-addr", "127.0.0.1:0"}, &stdout, &stderr); code != 1 || stderr.String() != "serve: "+dir+" has no index.html: run make web first\n" {
		t.Errorf("no page: exit %d, stderr %q", code, stderr.String())
	}
}

// In the process: serve the page on a port the system picks, stop when
// ctx ends, exit 0.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	dir := pageDir(t)
	out, w := io.Pipe()
	var stderr bytes.Buffer
	exit := make(chan int, 1)
	go func() {
		exit <- run(runCtx, []string{"-dir", dir, "-addr", "127.0.0.1:0"}, w, &stderr)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	go io.Copy(io.Discard, out)
	url, ok := strings.CutPrefix(line, "serving "+dir+" at ")
	url, _, _ = strings.Cut(url, " ")
	if err != nil || !ok {
		t.Fatalf("first line %q, %v", line, err)
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("%s: %d", url, resp.StatusCode)
	}
	stop()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("run did not return after its ctx ended")
	}
}

// The binary exits 2 with one line for a bad command line.
func TestBinaryFlags(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool to build the binary: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "serve")
	if out, err := exec.CommandContext(ctx, goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := pageDir(t)
	for _, args := range [][]string{{"-bogus"}, {"-addr", ""}, {"-addr", ":abc"}, {"-addr", "127.0.0.1:0", "extra"}} {
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, bin, append([]string{"-dir", dir}, args...)...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || strings.Count(stderr.String(), "\n") != 1 || stdout.Len() != 0 {
			t.Errorf("%q: %v, stderr %q, stdout %q; want exit 2 and one line", args, err, stderr.String(), stdout.String())
		}
	}
}

// pageDir returns a folder that holds a page.
func pageDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!DOCTYPE html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
