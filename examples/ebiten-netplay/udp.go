//go:build !js

// A game over UDP (netplay/udp), -host and -join: native programs only. A
// browser has no UDP sockets; a page plays through a lobby's room alone
// (browser.go).

package main

import (
	"flag"
	"fmt"
	"net/netip"
	"os"

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

// openUDP opens the socket of a game over UDP: a host's, or a joiner's
// connected to its host.
func openUDP(o options) (place, error) {
	cfg := udp.Config{Outgoing: netsim.Conditions{Delay: o.netDelay}}
	if o.host != "" {
		c, err := udp.Listen(o.host, cfg)
		if err != nil {
			return place{}, fmt.Errorf("-host: %v", err)
		}
		return place{conn: c, hello: "hosting on " + c.LocalAddr()}, nil
	}
	addr, _ := udp.Resolve(o.join) // checked with the flags
	listen := ":0"
	if ap, err := netip.ParseAddrPort(addr); err == nil && ap.Addr().IsLoopback() {
		listen = netip.AddrPortFrom(ap.Addr(), 0).String() // a game on this machine stays on it
	}
	c, err := udp.Listen(listen, cfg)
	if err != nil {
		return place{}, err
	}
	if addr, err = c.Connect(addr); err != nil { // nothing listening there ends the join at once
		c.Close()
		return place{}, fmt.Errorf("-join: %v", err)
	}
	return place{conn: c, host: addr, about: o.join}, nil
}
