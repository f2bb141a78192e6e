//go:build !js

package lobby_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
)

// A lobby, a host and a joiner: the joiner offers, the host answers.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv, err := lobby.NewServer(lobby.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer srv.Close()
	room := "ws" + strings.TrimPrefix(hs.URL, "http") + "/r1?players=2"

	host, err := lobby.Join(ctx, room)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer host.Close()
	joiner, err := lobby.Join(ctx, room)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer joiner.Close()
	fmt.Println("host:", host.ID(), host.IsHost(), "joiner:", joiner.ID(), "hosted by", joiner.Host())
	fmt.Println("host hears:", <-host.Events())

	joiner.Send(joiner.Host(), []byte(`{"kind":"offer","sdp":"..."}`))
	from, offer, _ := host.Recv(ctx)
	fmt.Printf("host got %s from %s\n", offer, from)
	host.Send(from, []byte(`{"kind":"answer","sdp":"..."}`))
	from, answer, _ := joiner.Recv(ctx)
	fmt.Printf("joiner got %s from %s\n", answer, from)

	_, err = lobby.Join(ctx, room)
	fmt.Println(err)
	// Output:
	// host: p1 true joiner: p2 hosted by p1
	// host hears: {joined p2 false}
	// host got {"kind":"offer","sdp":"..."} from p2
	// joiner got {"kind":"answer","sdp":"..."} from p1
	// lobby: room "r1" is full (2 of 2 players)
}
