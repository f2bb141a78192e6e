//go:build !js

package demo

// roomWords are the words a room's failure uses for the flags that name
// a room: the native demo's flags here, the page's query keys in
// roomwords_js.go.
var roomWords = struct {
	flag     func(name string) string // -lobby, -spectate
	spectate func(room string) string // how to watch the room
}{
	flag:     func(name string) string { return "-" + name },
	spectate: func(room string) string { return "-spectate " + room },
}
