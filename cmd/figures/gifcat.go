package main

import (
	"errors"
	"flag"
	"fmt"
	"image/gif"
	"io"
	"os"

	"github.com/interpdemo/interpdemo/atomicfile"
)

func gifcatCmd(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("figures gifcat", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "out.gif", "output GIF")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() < 1 {
		fmt.Fprintln(stderr, "figures gifcat: want GIF files: figures gifcat -o out.gif a.gif b.gif")
		return 2
	}
	var parts []*gif.GIF
	for _, p := range fs.Args() {
		g, err := readGIF(p)
		if err != nil {
			fmt.Fprintf(stderr, "figures gifcat: %v\n", err)
			return 1
		}
		parts = append(parts, g)
	}
	all, err := gifcat(parts)
	if err != nil {
		fmt.Fprintf(stderr, "figures gifcat: %v\n", err)
		return 1
	}
	if err := atomicfile.WriteFile(*out, func(w io.Writer) error { return gif.EncodeAll(w, all) }); err != nil {
		fmt.Fprintf(stderr, "figures gifcat: -o: %v\n", err)
		return 1
	}
	return 0
}

func readGIF(path string) (*gif.GIF, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return g, nil
}

// gifcat joins animations of the same size one after the other, looping
// forever.
func gifcat(parts []*gif.GIF) (*gif.GIF, error) {
	out := &gif.GIF{}
	for i, g := range parts {
		if len(g.Image) == 0 {
			return nil, fmt.Errorf("animation %d has no frames", i+1)
		}
		if i > 0 && g.Config.Width != parts[0].Config.Width || g.Config.Height != parts[0].Config.Height {
			return nil, errors.New("the animations differ in size")
		}
		out.Image = append(out.Image, g.Image...)
		out.Delay = append(out.Delay, g.Delay...)
		if g.Disposal != nil {
			out.Disposal = append(out.Disposal, g.Disposal...)
		} else {
			out.Disposal = append(out.Disposal, make([]byte, len(g.Image))...)
		}
	}
	out.Config = parts[0].Config
	return out, nil
}
