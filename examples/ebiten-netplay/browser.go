//go:build js

// The program in a browser: built with GOOS=js GOARCH=wasm into
// puck.wasm, served over HTTP beside index.html, which loads it, and Go's
// wasm_exec.js (README.md has the commands). A page has no UDP: it plays
// in a lobby's room (over the browser's WebRTC data channels), its flags in
// the query: index.html?lobby=ws://127.0.0.1:8780/puck&bot=2&ticks=300.
// What it prints goes to the console (wasm_exec.js writes stdout and
// stderr there); at its end it sets window.puck to its end (pageEnd, as
// JSON) and calls window.puckEnded(json) if the page defines it.

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"syscall/js"
)

// modes are the ways to play, for the usage line, and usageNote what
// it adds; needed says that one is missing.
const (
	modes     = "-lobby ws://HOST:PORT/ROOM"
	usageNote = "In a page the flags are the query: ?lobby=ws://HOST:PORT/ROOM&bot=2&ticks=300.\n"
	needed    = "-lobby ws://HOST:PORT/ROOM is needed: a page plays in a lobby's room (?lobby=ws://HOST:PORT/ROOM)"
)

func main() {
	var stdout, stderr bytes.Buffer
	code := 2
	args, err := queryArgs(js.Global().Get("location").Get("search").String())
	if err != nil {
		fmt.Fprintf(io.MultiWriter(os.Stderr, &stderr), "%s: %v\n", name, err)
	} else {
		code = run(args, io.MultiWriter(os.Stdout, &stdout), io.MultiWriter(os.Stderr, &stderr))
	}
	b, err := json.Marshal(endOf(code, stdout.String(), stderr.String()))
	if err != nil {
		panic(err) // plain fields: cannot fail
	}
	js.Global().Set("puck", js.Global().Get("JSON").Call("parse", string(b)))
	if f := js.Global().Get("puckEnded"); f.Type() == js.TypeFunction {
		f.Invoke(string(b))
	}
	os.Exit(code)
}

// errNoUDP: the UDP flags do not exist in a page, so only a caller that
// bypasses them meets it.
var errNoUDP = errors.New("a page has no UDP: play in a lobby's room (?lobby=ws://HOST:PORT/ROOM)")

// defineUDP defines no flags: a page has no UDP.
func defineUDP(*flag.FlagSet, *options) {}

func checkJoin(string) error { return errNoUDP }

func openUDP(options) (place, error) { return place{}, errNoUDP }
