package demo

// roomWords, in the page: its query keys (?lobby=URL, &spectate to
// watch), not the native demo's flags.
var roomWords = struct {
	flag     func(name string) string
	spectate func(room string) string
}{
	flag:     func(string) string { return "lobby=" },
	spectate: func(room string) string { return "?lobby=" + room + "&spectate" },
}
