package web

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/interpdemo/interpdemo/internal/demo"
)

// Args turns a page's query (location.search, with or without its "?")
// into the demo's command line, the flags by the same names: ?balls=1000
// is -balls=1000, and a bare name is a flag that takes no value (?ghosts
// is -ghosts). The order is kept, so a flag given twice takes its last
// value, as on a command line. The values are then checked by demo.Parse,
// with the command line's messages. A query that does not unescape is a
// usage error of one line.
func Args(query string) ([]string, error) {
	query = strings.TrimPrefix(query, "?")
	var pairs [][2]string
	for item := range strings.SplitSeq(query, "&") {
		if item == "" {
			continue
		}
		rawName, rawValue, _ := strings.Cut(item, "=")
		name, err := url.QueryUnescape(rawName)
		if err != nil {
			return nil, demo.UsageError{Msg: fmt.Sprintf("bad query %q: %v", item, err)}
		}
		value, err := url.QueryUnescape(rawValue)
		if err != nil {
			return nil, demo.UsageError{Msg: fmt.Sprintf("bad query %q: %v", item, err)}
		}
		if name == "" || strings.HasPrefix(name, "-") {
			return nil, demo.UsageError{Msg: fmt.Sprintf("bad query %q: a flag's name, such as balls=1000", item)}
		}
		pairs = append(pairs, [2]string{name, value})
	}
	return demo.ArgsFromQuery(roomSpectator(pairs), demo.IsBoolFlag), nil
}

// roomSpectator turns ?lobby=URL&spectate into -spectate=URL: a page
// watches a room's game as the command line's -spectate URL does.
func roomSpectator(pairs [][2]string) [][2]string {
	lobby, bare := "", false
	for _, p := range pairs {
		switch {
		case p[0] == "lobby":
			lobby = p[1]
		case p[0] == "spectate" && p[1] == "":
			bare = true
		}
	}
	if !bare || lobby == "" {
		return pairs
	}
	out := pairs[:0:0]
	for _, p := range pairs {
		switch p[0] {
		case "lobby":
		case "spectate":
			if p[1] == "" {
				p[1] = lobby
			}
			out = append(out, p)
		default:
			out = append(out, p)
		}
	}
	return out
}

// ReplayURL is the recording a command line asks to replay (-replay), or
// "": the page fetches it before the flags are checked, as the desktop
// reads the file while it checks them. Like the flag package, the last
// -replay counts.
func ReplayURL(args []string) string {
	u := ""
	for i, a := range args {
		switch {
		case strings.HasPrefix(a, "-replay="):
			u = strings.TrimPrefix(a, "-replay=")
		case a == "-replay" && i+1 < len(args):
			u = args[i+1]
		}
	}
	return u
}
