package demo

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/interpdemo/interpdemo/netplay"
)

// Two demos, the joiner's world made to go wrong at tick 37
// (-fault-desync): both end with one line naming the desync, and each
// writes a report (-desync-report) naming the first tick whose hashes
// differ, at most one check interval after the fault, and ball 0's X
// with both values; the log says where the report is.
func TestDesyncReportInProcess(t *testing.T) {
	for _, netcode := range []string{"lockstep", "rollback"} {
		t.Run(netcode, func(t *testing.T) {
			g := newNetTestGame(t, lossy, []string{"-bot", "1", "-netcode", netcode, "-desync-report", "reports", "-ticks", "400"},
				[]string{"-bot", "2", "-netcode", netcode, "-desync-report", "reports", "-fault-desync", "37"})
			g.run(nil)
			for i, f := range g.peers {
				_, err := f.finish()
				var e *netplay.Error
				if !errors.As(err, &e) || e.Reason != netplay.ErrDesync || e.Tick > 37+25 || strings.Contains(err.Error(), "\n") {
					t.Fatalf("peer %d: %v", i, err)
				}
				var path string
				for p := range f.files.files {
					path = p
				}
				text := string(f.files.files[path])
				wantPath := fmt.Sprintf("reports/desync-%s-tick%d.txt", []string{"host-player0of2", "player1of2"}[i], e.Tick)
				if path != wantPath || !strings.Contains(f.log.String(), "): desync report: "+wantPath+"\n") {
					t.Errorf("peer %d: files %v; log:\n%s", i, keys(f.files.files), f.log.String())
				}
				for _, want := range []string{e.Error() + "\n", "the states first differ after tick 37", "World.Balls[0].X: "} {
					if !strings.Contains(text, want) {
						t.Errorf("peer %d's report lacks %q:\n%s", i, want, text)
					}
				}
			}
		})
	}
}

func keys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
