// Command netplay: two players move a dot each over UDP (-host :7777; -join 127.0.0.1:7777).
package main

import (
	"cmp"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/udp"
)

type game struct { // a bot presses the keys: -1, 0 or +1 a tick, at random
	dot   [2]int8     // each player's dot on a ring of 40 cells: the state
	saved [10][2]int8 // save slots: Config.MaxPrediction (8) + 2
	me    *netplay.Session
}

func (g *game) Save(slot int)                          { g.saved[slot] = g.dot }
func (g *game) Load(slot int)                          { g.dot = g.saved[slot] }
func (g *game) Hash() uint64                           { return uint64(g.dot[0])<<8 | uint64(g.dot[1]) }
func (g *game) LocalInput(_ uint64, _ int, key []byte) { key[0] = byte(rand.IntN(3) - 1) }
func (g *game) Advance(in *netplay.Inputs) {
	for p := range g.dot {
		g.dot[p] = (g.dot[p] + int8(in.Input(p)[0]) + 40) % 40
	}
}

func main() {
	log.SetFlags(0)
	host := flag.String("host", "", "host a game on this address, as :7777")
	join := flag.String("join", "", "join the game hosted at this host:port")
	if flag.Parse(); (*host == "") == (*join == "") {
		log.Fatal("netplay: give -host ADDR or -join HOST:PORT")
	}
	cfg, g, start := netplay.Config{InputSize: 1, Tick: 40 * time.Millisecond}, &game{}, time.Now()
	conn, err := udp.Listen(cmp.Or(*host, ":0"), udp.Config{})
	if err == nil && *host != "" {
		cfg.TickLimit = 100 // 4 s
		fmt.Println("hosting on", conn.LocalAddr())
		g.me, err = netplay.Host(cfg, g, conn, 0)
	} else if err == nil {
		if *join, err = conn.Connect(*join); err == nil { // the host's address
			g.me, err = netplay.Join(cfg, g, conn, *join, 0)
		}
	}
	for tick := time.NewTicker(cfg.Tick); err == nil && !g.me.Done(); <-tick.C {
		g.me.Update(time.Since(start))
	}
	if err == nil {
		err = g.me.Err()
	}
	if err != nil {
		log.Fatal("netplay: ", err)
	}
	fmt.Printf("player %d: tick %d, dots %v, hash %016x\n", g.me.Index(), g.me.Stats().Tick, g.dot, g.Hash())
}
