// Command serve serves a folder over HTTP on the loopback interface: make
// serve uses it to open the demo's web page (bin/web). It prints the URL
// and serves until interrupted.
package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "`ADDR` to listen on (host:port; port 0 picks one)")
	dir := flag.String("dir", "bin/web", "the `DIR` to serve")
	flag.Parse()
	if err := run(*addr, *dir); err != nil {
		fmt.Fprintf(os.Stderr, "serve: %v\n", err)
		os.Exit(1)
	}
}

func run(addr, dir string) error {
	h, err := handler(dir)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("serving %s at http://%s/ (Ctrl-C to stop)\n", dir, ln.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
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
