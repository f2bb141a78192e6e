// Command figures makes the pictures of the README and docs/LOOP.md from the demo's own output:
//
//	figures positions -o interpolation.png -from 1s -to 1.5s off.csv on.csv extrapolate.csv
//
// plots where ball 0 was drawn against time in three -trace runs (drawing
// off, interpolated, extrapolated) with the logic ticks marked, and
//
//	figures gifcat -o demo.gif a.gif b.gif
//
// joins -gif animations one after the other. `make plot` runs both.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "figures: want a command: positions or gifcat (figures CMD -h for its flags)")
		return 2
	}
	switch args[0] {
	case "positions":
		return positionsCmd(args[1:], stderr)
	case "gifcat":
		return gifcatCmd(args[1:], stderr)
	}
	fmt.Fprintf(stderr, "figures: unknown command %q (want positions or gifcat)\n", args[0])
	return 2
}
