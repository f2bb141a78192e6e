//go:build linux && !android

package main

import (
	"bytes"
	"io"
	"log"
	"os"

	"github.com/jezek/xgb"
)

// Under Xvfb, or any X server a client reaches without an authority file,
// the X binding Ebitengine uses logs two or four lines at start-up
// ("Could not get authority info", "Trying connection without authority
// info...") and then connects without one, as it should. The lines say
// nothing a player can act on; quietX drops them and keeps the binding's
// other messages (an unrecoverable read or write error).
func init() { xgb.Logger = log.New(quietX{os.Stderr}, "XGB: ", log.Lshortfile) }

// quietX writes to w every log line but the authority ones.
type quietX struct{ w io.Writer }

func (q quietX) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("authority info")) {
		return len(p), nil
	}
	return q.w.Write(p)
}
