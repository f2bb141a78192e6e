package main

import (
	"errors"
	"fmt"
	"os"
)

// onlyRun is what a -*-only flag asks for: one part measured (or read)
// and its section printed on stdout; the report is not written.
type onlyRun struct {
	on   bool   // the flag was given
	what string // names the part in its error: "bench: WHAT: ..."
	run  func(p func(string, ...any)) error
}

// badArgs is an error in an -*-only run's arguments: exit status 2, and
// the error alone after "bench: ".
type badArgs struct{ err error }

func (e badArgs) Error() string { return e.err.Error() }

// runOnly runs the part the first -*-only flag given asks for, in the
// order of onlyRuns, and says the exit status; ok is false where no such
// flag was given (the whole report is made).
func runOnly(o *options, recs []gpuRecording) (status int, ok bool) {
	p := func(format string, args ...any) { fmt.Printf(format, args...) }
	for _, r := range onlyRuns(o, recs) {
		if !r.on {
			continue
		}
		if err := r.run(p); err != nil {
			if bad := (badArgs{}); errors.As(err, &bad) {
				fmt.Fprintf(os.Stderr, "bench: %v\n", bad.err)
				return 2, true
			}
			fmt.Fprintf(os.Stderr, "bench: %s: %v\n", r.what, err)
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// onlyRuns are the -*-only runs, in the order their flags are looked at.
func onlyRuns(o *options, recs []gpuRecording) []onlyRun {
	return []onlyRun{
		{o.gpuOnly, "gpu", func(p func(string, ...any)) error {
			writeGPU(p, recs)
			gpuTarget(targetRow(p), 21, recs)
			return nil
		}},
		{o.soakOnly, "soak", func(func(string, ...any)) error { return runSoakOnly(o, os.Stdout) }},
		{o.winOnly, "window", measured(o, window, func(r *results, p func(string, ...any)) {
			r.window.write(p)
		})},
		{o.enginesOnly, "beside other engines", measured(o, engines, func(r *results, p func(string, ...any)) {
			r.engines.write(p)
			r.engines.targets(targetRow(p), 20)
		})},
		{o.regressOnly, "against " + regressionRef, measured(o, regression, func(r *results, p func(string, ...any)) {
			r.regress.write(p)
			r.regress.targets(targetRow(p), 16)
		})},
		{o.startAgainst != "", "start-up", func(p func(string, ...any)) error {
			if err := checkStartupAgainst(o.startAgainst, o.startRounds); err != nil {
				return badArgs{err}
			}
			return startupAgainst(o, o.startAgainst, o.startRounds, p)
		}},
		{o.startOnly, "start-up", measured(o, startup, func(r *results, p func(string, ...any)) {
			p("| # | target | measured | met |\n|---|---|---|---|\n")
			r.startupTarget(targetRow(p), 8)
		})},
		{o.cullOnly, "culling", func(func(string, ...any)) error { return cullOnly(o) }},
		{o.spritesOnly, "squares or points", func(func(string, ...any)) error { return spritesOnly(o) }},
		{o.roomOnly, "a room's game with the page", func(p func(string, ...any)) error {
			w, err := measureWeb(o)
			if err != nil {
				return err
			}
			w.writeRoom(p)
			return nil
		}},
		{o.lobbyOnly, "lobby", measured(o, lobbySection, (*results).writeLobby)},
		{o.netOnly, "network", measured(o, network, (*results).writeNet)},
		{o.peerOnly, "the page beside Ebitengine", func(p func(string, ...any)) error { return webPeerOnly(o, p) }},
		{o.webOnly, "web", func(p func(string, ...any)) error {
			w, err := measureWeb(o)
			if err != nil {
				return err
			}
			w.write(p)
			return nil
		}},
	}
}

// measured is an -*-only run that measures into results of its own, then
// writes its section from them.
func measured(o *options, measure func(*options, *results) error, write func(*results, func(string, ...any))) func(func(string, ...any)) error {
	return func(p func(string, ...any)) error {
		r := &results{}
		if err := measure(o, r); err != nil {
			return err
		}
		write(r, p)
		return nil
	}
}
