// Command serve serves a folder over HTTP on the loopback interface: make
// serve uses it to open the demo's web page (bin/web). It prints the URL
// and serves until interrupted (SIGINT or SIGTERM: it exits 0). A bad
// flag exits 2 with a one-line error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/interpdemo/interpdemo/internal/cmdline"
)

func main() { cmdline.Main(run) }

// run serves until ctx ends and returns the exit status: 0 when ctx
// ends, 1 when it cannot serve, 2 for a bad flag.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "`ADDR` to listen on (host:port; port 0 picks one)")
	dir := fs.String("dir", "bin/web", "the `DIR` to serve")
	if code, ok := cmdline.Parse(fs, args, stdout, stderr); !ok {
		return code
	}
	if err := cmdline.CheckListenAddr(*addr); err != nil {
		fmt.Fprintf(stderr, "serve: -addr %q: %v\n", *addr, err)
		return 2
	}
	if err := serve(ctx, *addr, *dir, stdout); err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}
	return 0
}

// serve serves dir on addr until ctx ends.
func serve(ctx context.Context, addr, dir string, stdout io.Writer) error {
	h, err := handler(dir)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "serving %s at http://%s/ (Ctrl-C to stop)\n", dir, ln.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	stop := context.AfterFunc(ctx, func() { srv.Close() })
	defer stop()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// handler serves dir, which must hold the page (index.html).
func handler(dir string) (http.Handler, error) {
	st, err := os.Stat(filepath.Join(dir, "index.html"))
	if err != nil || st.IsDir() {
		return nil, fmt.Errorf("%s has no index.html: run make web first", dir)
	}
	return noCache(http.FileServer(http.Dir(dir))), nil
}

// noCache makes the browser ask again on every load: a page rebuilt by
// make web is seen at the next reload.
func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}
