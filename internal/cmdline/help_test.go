package cmdline

import (
	"bytes"
	"flag"
	"io"
	"strings"
	"testing"
)

// TestFlagErrorSuggests: a misspelt flag names the flag meant, a name
// near none points at -h, and other errors are left as they are.
func TestFlagErrorSuggests(t *testing.T) {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, name := range []string{"lobby", "host", "join", "balls", "spectate", "v", "mode"} {
		fs.Bool(name, false, "")
	}
	for _, tc := range []struct{ typed, want string }{
		{"lobyy", "demo: flag provided but not defined: -lobyy (did you mean -lobby?)"},
		{"lboby", "demo: flag provided but not defined: -lboby (did you mean -lobby?)"},
		{"spectat", "demo: flag provided but not defined: -spectat (did you mean -spectate?)"},
		{"bals", "demo: flag provided but not defined: -bals (did you mean -balls?)"},
		{"x", "demo: flag provided but not defined: -x (demo -h lists the flags)"},
		{"nope", "demo: flag provided but not defined: -nope (demo -h lists the flags)"},
		{"hots", "demo: flag provided but not defined: -hots (did you mean -host?)"},
		{"xyz", "demo: flag provided but not defined: -xyz (demo -h lists the flags)"},
		{"colour", "demo: flag provided but not defined: -colour (demo -h lists the flags)"},
	} {
		err := fs.Parse([]string{"-" + tc.typed})
		if got := FlagError(fs, err); got != tc.want {
			t.Errorf("-%s: %q, want %q", tc.typed, got, tc.want)
		}
	}
	err := fs.Parse([]string{"-balls=many"})
	if got := FlagError(fs, err); strings.Contains(got, "did you mean") || !strings.HasSuffix(got, "(demo -h lists the flags)") {
		t.Errorf("a bad value: %q", got)
	}
}

// TestFold: lines fit the width, continuations hang under the text,
// tabs count to the next 8 columns, and nothing but spaces changes.
func TestFold(t *testing.T) {
	in := "  -lobby URL\n    \tplay a network game in the lobby's room at URL (ws://HOST:PORT/ROOM), over WebRTC: the first to arrive hosts\n" +
		"  J              frame pacing: raw (the wake-up time) / smooth (the vblank's time, stable tick counts), and more\n" +
		"  arrows, WASD   move ball 0 (it becomes the player's on the first press); in a network game player i moves ball i\n" +
		"short\n" + strings.Repeat("x", 120)
	got := Fold(in, 60)
	for _, line := range strings.Split(got, "\n") {
		if len(line) > 60 && !strings.HasPrefix(line, "xxxx") {
			t.Errorf("a line of %d columns: %q", len(line), line)
		}
	}
	lines := strings.Split(got, "\n")
	if !strings.HasPrefix(lines[1], "        play a network") || !strings.HasPrefix(lines[2], "        ") || lines[2][8] == ' ' {
		t.Errorf("the flag's usage does not hang at column 8:\n%s", got)
	}
	var pacing int
	for i, l := range lines {
		if strings.HasPrefix(l, "  J ") {
			pacing = i
		}
	}
	if !strings.HasPrefix(lines[pacing+1], strings.Repeat(" ", 17)) || lines[pacing+1][17] == ' ' {
		t.Errorf("the key's text does not hang under its column (17):\n%s", got)
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "  arrows, WASD ") && (!strings.HasPrefix(lines[i+1], strings.Repeat(" ", 17)) || lines[i+1][17] == ' ') {
			t.Errorf("the keys' text (two names) does not hang under its column (17):\n%s", got)
		}
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if norm(got) != norm(strings.ReplaceAll(in, "\t", " ")) {
		t.Errorf("folding changed the words:\n%s", got)
	}
}

// TestHelpFits: Parse's -h fits HelpWidth columns.
func TestHelpFits(t *testing.T) {
	fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
	fs.String("ice", "", "STUN and TURN servers handed to every peer in its welcome, `URLS` separated by commas: stun:HOST:PORT, turn:HOST:PORT?transport=udp (a credential made for each peer)")
	var out bytes.Buffer
	if code, ok := Parse(fs, []string{"-h"}, &out, io.Discard); code != 0 || ok {
		t.Fatalf("-h: %d, %v", code, ok)
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if len(expandTabs(line)) > HelpWidth {
			t.Errorf("a line of %d columns: %q", len(expandTabs(line)), line)
		}
	}
	if !strings.Contains(out.String(), "URLS separated") {
		t.Errorf("-h lost the usage:\n%s", out.String())
	}
}
