//go:build linux && !android

package main

import (
	"bytes"
	"errors"
	"log"
	"strings"
	"testing"

	"github.com/jezek/xgb"
)

// TestXBindingQuiet: the X binding's logger is quietX, which drops the
// lines it logs when it connects without an authority file (its
// conn.go's messages) and keeps an unrecoverable error.
func TestXBindingQuiet(t *testing.T) {
	if _, ok := xgb.Logger.Writer().(quietX); !ok {
		t.Fatalf("xgb.Logger writes to %T, not quietX", xgb.Logger.Writer())
	}
	var b bytes.Buffer
	l := log.New(quietX{&b}, "XGB: ", log.Lshortfile)
	l.Printf("Could not get authority info: %v", errors.New("open /root/.Xauthority: no such file or directory"))
	l.Println("Trying connection without authority info...")
	l.Printf("A read error is unrecoverable: %s", "EOF")
	if got := b.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "unrecoverable") {
		t.Errorf("quietX wrote %q; want only the unrecoverable error", got)
	}
}
