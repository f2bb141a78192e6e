package main

import (
	"slices"
	"testing"
)

func TestQueryArgs(t *testing.T) {
	for _, c := range []struct {
		search string
		want   []string
	}{
		{"", nil},
		{"?", nil},
		{"?lobby=ws://127.0.0.1:8080/puck&bot=2&ticks=300", []string{"-bot=2", "-lobby=ws://127.0.0.1:8080/puck", "-ticks=300"}},
		{"?lobby=ws%3A%2F%2F127.0.0.1%3A8080%2Fpuck%3Fplayers%3D2&report=/report", []string{"-lobby=ws://127.0.0.1:8080/puck?players=2"}},
		{"?h", []string{"-h"}},
		{"?interp=false&bot=1&bot=2", []string{"-bot=1", "-bot=2", "-interp=false"}},
	} {
		got, err := queryArgs(c.search)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("queryArgs(%q) = %q, %v; want %q", c.search, got, err, c.want)
		}
	}
	if _, err := queryArgs("?a=%zz"); err == nil {
		t.Error("a malformed query: no error")
	}
}

func TestEndOf(t *testing.T) {
	const line = "ticks=300 hash=453e365b435b6503 rollbacks=34 resimulated=232 score=0:2 netcode=rollback"
	e := endOf(0, "hosting the room ws://127.0.0.1:1/r?players=2 as p1\ngame started: player 0 of 2, rollback\n"+line+"\n", "")
	want := pageEnd{State: "over", Result: line, Ticks: 300, Hash: "453e365b435b6503", Score: [2]uint16{0, 2}, Netcode: "rollback", Rollbacks: 34, Resimulated: 232}
	if e != want {
		t.Errorf("a clean end: %+v, want %+v", e, want)
	}
	e = endOf(1, line+"\n", "ebiten-netplay: player 1 silent for 2s\n")
	if e.State != "failed" || e.Code != 1 || e.Error != "ebiten-netplay: player 1 silent for 2s" || e.Ticks != 300 {
		t.Errorf("a failed game: %+v", e)
	}
	e = endOf(1, "", "ebiten-netplay: -lobby: refused\n")
	if e.State != "error" || e.Error != "ebiten-netplay: -lobby: refused" || e.Result != "" {
		t.Errorf("no game: %+v", e)
	}
	e = endOf(2, "", "ebiten-netplay: -tps must be between 10 and 120 (got 0)\n")
	if e.State != "error" || e.Code != 2 {
		t.Errorf("bad flags: %+v", e)
	}
	if e := endOf(0, "", "usage: ...\n\n  -bot SEED\n"); e.State != "help" || e.Error != "" {
		t.Errorf("help: %+v", e)
	}
}
