//go:build !js

// A game over UDP (netplay/udp), -host and -join: native programs only. A
// browser has no UDP sockets; a page plays through a lobby's room alone
// (browser.go).

package main

import (
	"flag"
	"fmt"
	"io"
	"net/netip"
	"os"

	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
	"github.com/interpdemo/interpdemo/netplay/udp"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// modes are the ways to play, for the usage line, and usageNote what
// it adds; needed says that one is missing.
const (
	modes     = "-lobby ws://HOST:PORT/ROOM | -host ADDR | -join HOST:PORT"
	usageNote = ""
	needed    = "-lobby ws://HOST:PORT/ROOM, -host ADDR or -join HOST:PORT is needed"
)

// defineUDP defines the flags of a game over UDP.
func defineUDP(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.host, "host", "", "host the game over UDP on `ADDR` (e.g. :7777, or 127.0.0.1:0 for a free port) and wait for the other player")
	fs.StringVar(&o.join, "join", "", "join the game hosted over UDP at `HOST:PORT`")
	fs.DurationVar(&o.netDelay, "net-delay", 0, "UDP: a simulated one-way `DELAY` added to every packet this player sends")
}

// checkJoin checks -join's address.
func checkJoin(hostport string) error {
	_, err := udp.Resolve(hostport)
	return err
}

// openUDP opens the socket and the session of a game over UDP; host is a
// joiner's host, as given.
func openUDP(o options, nonce uint64, clock loop.Clock, stdout io.Writer) (c conn, sess *netplay.Session, host string, err error) {
	cfg := udp.Config{Outgoing: netsim.Conditions{Delay: o.netDelay}, Seed: nonce}
	var uc *udp.Conn
	if o.host != "" {
		if uc, err = udp.Listen(o.host, cfg); err != nil {
			return nil, nil, "", fmt.Errorf("-host: %v", err)
		}
		sess, err = netplay.NewHost(o.hostConfig(nonce), clock.Now())
		if err == nil {
			fmt.Fprintf(stdout, "hosting on %v\n", uc.LocalAddr())
		}
	} else {
		addr, _ := udp.Resolve(o.join) // checked with the flags
		listen := ":0"
		if ap, err := netip.ParseAddrPort(string(addr)); err == nil && ap.Addr().IsLoopback() {
			listen = netip.AddrPortFrom(ap.Addr(), 0).String() // a game on this machine stays on it
		}
		if uc, err = udp.Listen(listen, cfg); err != nil {
			return nil, nil, "", err
		}
		sess, err = netplay.NewJoiner(o.joinConfig(nonce), addr, clock.Now())
	}
	if err != nil {
		uc.Close()
		return nil, nil, "", err
	}
	return uc, sess, o.join, nil
}
