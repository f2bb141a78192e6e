// The page's side of the program (browser.go), in plain Go so that it is
// tested natively too: its flags come from the page's query string, and
// its end goes back to the page as JSON.

package main

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/interpdemo/interpdemo/examples/ebiten-netplay/puck"
)

// pageKeys are the query's keys that are the page's own (index.html's),
// not the program's flags: report=PATH, where the page posts what the
// program says.
var pageKeys = []string{"report"}

// queryArgs turns the page's query string (location.search) into the
// command line: ?lobby=ws://127.0.0.1:8780/puck&bot=2&interp=false is
// -bot=2 -interp=false -lobby=ws://127.0.0.1:8780/puck, and a key with
// no value a flag of its own (?h is -h). The keys come sorted; a key
// given twice, twice.
func queryArgs(search string) ([]string, error) {
	q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
	if err != nil {
		return nil, fmt.Errorf("the page's query %q: %v", search, err)
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		if !slices.Contains(pageKeys, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var args []string
	for _, k := range keys {
		for _, v := range q[k] {
			if v == "" {
				args = append(args, "-"+k)
			} else {
				args = append(args, "-"+k+"="+v)
			}
		}
	}
	return args, nil
}

// pageEnd is the program's end as the page receives it, as JSON
// (window.puck; see index.html).
type pageEnd struct {
	// State is "over" after a clean end (the tick limit, a player
	// quit), "failed" after a game that failed (a desync, a silent
	// peer), "error" when there was no game (a bad query, a room it
	// could not enter), "help" after ?h.
	State string `json:"state"`
	Code  int    `json:"code"`            // the exit status
	Error string `json:"error,omitempty"` // the last line of stderr, if any
	// The game's end (the result line, parsed), if it ran.
	Result      string               `json:"result,omitempty"` // the line itself
	Ticks       uint64               `json:"ticks"`
	Hash        string               `json:"hash,omitempty"` // 16 hex digits
	Score       [puck.Players]uint16 `json:"score"`
	Netcode     string               `json:"netcode,omitempty"`
	Rollbacks   int64                `json:"rollbacks"`
	Resimulated int64                `json:"resimulated"`
}

// endOf is the end of a run that returned code after printing stdout and
// stderr.
func endOf(code int, stdout, stderr string) pageEnd {
	e := pageEnd{Code: code, Error: lastLine(stderr)}
	var line string
	for l := range strings.Lines(stdout) {
		if strings.HasPrefix(l, "ticks=") {
			line = strings.TrimSpace(l)
		}
	}
	if r, err := puck.ParseResult(line); err == nil {
		e.Result, e.Ticks, e.Hash, e.Score = line, r.Ticks, fmt.Sprintf("%016x", r.Hash), r.Score
		e.Netcode, e.Rollbacks, e.Resimulated = r.Netcode.String(), r.Rollbacks, r.Resimulated
	}
	switch {
	case code == 0 && e.Result != "":
		e.State = "over"
	case code == 0:
		e.State, e.Error = "help", ""
	case e.Result != "":
		e.State = "failed"
	default:
		e.State = "error"
	}
	return e
}

// lastLine is s's last line that is not blank.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
