package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
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
