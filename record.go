package main

import (
	"time"

	"github.com/interpdemo/interpdemo/internal/sim"
)

// autosave is how often a recording is written while it runs, so that a
// crash or a kill loses at most this much of it. Each save replaces the
// file atomically.
const autosave = 10 * time.Second

// autosaver writes the recording so far every autosave.
type autosaver struct {
	path   string
	next   time.Duration
	failed bool // the first failure was reported; later ones are not
}

// maybeSave writes the recording so far when an autosave is due. It
// returns the first failure only.
func (s *autosaver) maybeSave(now time.Duration, sm *sim.Sim) error {
	if s.path == "" || now < s.next || !sm.Recording() {
		return nil
	}
	s.next = now + autosave
	err := sm.RecordingSoFar().WriteFile(s.path)
	if err != nil && !s.failed {
		s.failed = true
		return err
	}
	return nil
}
