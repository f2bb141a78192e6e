//go:build !(js && wasm)

// Command web is the demo as a web page; it runs only in a browser. Build
// it with make web (GOOS=js GOARCH=wasm) and serve bin/web with make
// serve.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "web: this is the demo's web page: build it with make web (GOOS=js GOARCH=wasm) and open it with make serve")
	os.Exit(2)
}
