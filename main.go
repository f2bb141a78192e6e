// Command interpdemo is the classic interp_demo, ported to Go: a ball
// bouncing around an SDL2 window with an OpenGL 3.3 core context, its logic
// running at a fixed 25 ticks per second while the renderer draws it at
// percentWithinTick between its last and next logic positions, as smoothly
// as the display allows.
//
// Space toggles interpolation, V toggles vsync, Q quits; run with -h for
// every key and flag.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"
)

func init() {
	// SDL's video functions and the OpenGL context belong to the thread
	// that created them. Locking the main goroutine to the main OS thread
	// before main runs keeps every SDL and GL call on that thread.
	runtime.LockOSThread()
}

func main() {
	// run returns instead of exiting, so that its deferred cleanup (GL
	// objects, the context, SDL) happens before the process ends.
	start := time.Now()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, start))
}

// run is the whole program; it returns the exit status: 0 on success, 1
// when something fails at run time, 2 for bad flags.
func run(args []string, stdout, stderr io.Writer, start time.Time) int {
	cfg, err := parseFlags(args, stdout)
	if errors.Is(err, errHelp) {
		return 0
	}
	var usage usageError
	if errors.As(err, &usage) {
		fmt.Fprintf(stderr, "interpdemo: %v\n", err)
		if usage.hint {
			fmt.Fprintln(stderr, usageHint)
		}
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "interpdemo: %v\n", err)
		return 1
	}
	prof, err := startProfiles(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "interpdemo: %v\n", err)
		return 1
	}
	a, err := newApp(cfg, stderr, start)
	if err != nil {
		prof.abort()
		fmt.Fprintf(stderr, "interpdemo: %v\n", err)
		return 1
	}
	defer a.close()
	a.run()
	if err := prof.stop(); err != nil {
		fmt.Fprintf(stderr, "interpdemo: %v\n", err)
		return 1
	}
	if err := a.finish(stdout); err != nil {
		fmt.Fprintf(stderr, "interpdemo: %v\n", err)
		return 1
	}
	return 0
}
