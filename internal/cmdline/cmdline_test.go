package cmdline

import "testing"

// CheckListenAddr takes what net.Listen("tcp") takes, and refuses the
// rest in one line.
func TestCheckListenAddr(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", ":8780", "localhost:65535", "[::1]:0", "127.0.0.1:http"} {
		if err := CheckListenAddr(addr); err != nil {
			t.Errorf("%q: %v", addr, err)
		}
	}
	for _, addr := range []string{"", "127.0.0.1", "127.0.0.1:", ":", ":abc", ":65536", ":-1", "::1:80"} {
		if err := CheckListenAddr(addr); err == nil {
			t.Errorf("%q: no error", addr)
		}
	}
}
