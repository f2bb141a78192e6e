//go:build js && wasm

// Command web is the demo as a web page: built with GOOS=js GOARCH=wasm
// into bin/web/interpdemo.wasm by make web, loaded by bin/web/index.html.
// See package internal/web.
package main

import "github.com/interpdemo/interpdemo/internal/web"

func main() {
	web.Run()
	select {} // the loop runs in the browser's callbacks
}
