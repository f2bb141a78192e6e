package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/replay"
)

// hashLine finds "<what> hash <16 hex digits>" in the output.
func hashLine(t *testing.T, out, what string) uint64 {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		var h uint64
		if _, err := fmt.Sscanf(line, what+" hash %x", &h); err == nil {
			return h
		}
	}
	t.Fatalf("no %q hash line in:\n%s", what, out)
	return 0
}

// recordTo runs the example to record (and replay) into path.
func recordTo(t *testing.T, path string, args ...string) (recorded, replayed uint64) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"-o", path}, args...), &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d; stderr: %s", code, stderr.String())
	}
	return hashLine(t, stdout.String(), "recorded"), hashLine(t, stdout.String(), "replayed")
}

func TestReplayMatchesRecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.rec")
	recorded, replayed := recordTo(t, path)
	if recorded != replayed {
		t.Fatalf("recorded hash %016x, replayed %016x", recorded, replayed)
	}
	// The file holds what the example says it recorded: 100 ticks, the
	// player's input and the command, ending at the printed hash.
	rec, err := replay.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Ticks() != 100 || rec.FinalHash != recorded {
		t.Errorf("file: %d ticks, final hash %016x; want 100 ticks, %016x", rec.Ticks(), rec.FinalHash, recorded)
	}
	var pressed input.Buttons
	for _, r := range rec.Inputs {
		pressed |= r.Record.Pressed
	}
	if want := input.Of(input.Left, input.Right, input.Up, input.Down); pressed != want {
		t.Errorf("buttons pressed in the recording: %v, want %v", pressed, want)
	}
	if len(rec.Commands) != 1 || rec.Commands[0].At != 50 || rec.Commands[0].Kind != replay.CmdSetBalls {
		t.Errorf("commands %v, want SetBalls after tick 50", rec.Commands)
	}
	if len(rec.Checkpoints) != 10 {
		t.Errorf("%d checkpoints, want 10 (every 10 ticks)", len(rec.Checkpoints))
	}

	// Replaying the file on its own gives the same hash again.
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-replay", path}, &stdout, &stderr); code != 0 {
		t.Fatalf("-replay: exit status %d; stderr: %s", code, stderr.String())
	}
	if again := hashLine(t, stdout.String(), "replayed"); again != recorded {
		t.Errorf("-replay: hash %016x, recorded %016x", again, recorded)
	}

	// The recording does not depend on the run: a second one is the same,
	// byte for byte.
	path2 := filepath.Join(t.TempDir(), "again.rec")
	recordTo(t, path2)
	a, _ := os.ReadFile(path)
	b, _ := os.ReadFile(path2)
	if !bytes.Equal(a, b) {
		t.Error("two recordings of the same game differ")
	}
}

// TestTamperedRecordingRefused changes the input of some ticks (Right
// becomes Left) and re-encodes the recording, so that it is a valid file
// of another game: the replay must stop at the first checkpoint after the
// change with a *replay.DivergenceError.
func TestTamperedRecordingRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.rec")
	recordTo(t, path)
	rec, err := replay.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	swap := func(s input.Buttons) input.Buttons {
		if s.Has(input.Right) {
			return s.Without(input.Right).With(input.Left)
		}
		return s
	}
	var firstTick uint64 // the first tick whose input changed, counted from 1
	tick := uint64(1)
	for i := range rec.Inputs {
		r := &rec.Inputs[i].Record
		if r.Held.Has(input.Right) || r.Pressed.Has(input.Right) {
			if firstTick == 0 {
				firstTick = tick
			}
			r.Held, r.Pressed, r.Released = swap(r.Held), swap(r.Pressed), swap(r.Released)
		}
		tick += rec.Inputs[i].Count
	}
	if firstTick == 0 {
		t.Fatal("the recording never presses Right: nothing to tamper with")
	}
	if err := rec.Validate(); err != nil {
		t.Fatalf("the tampered recording is not a valid one: %v", err)
	}
	if err := rec.WriteFile(path); err != nil {
		t.Fatal(err)
	}

	_, err = play(path)
	var div *replay.DivergenceError
	if !errors.As(err, &div) {
		t.Fatalf("replaying a tampered recording: %v, want a *replay.DivergenceError", err)
	}
	// Checkpoints are every 10 ticks: the first one at or after the
	// first changed tick catches it.
	if want := (firstTick + 9) / 10 * 10; div.Tick != want || div.Final {
		t.Errorf("diverged at tick %d (final %v), want at the checkpoint after tick %d: %d", div.Tick, div.Final, firstTick, want)
	}

	var stdout, stderr bytes.Buffer
	if code := run([]string{"-replay", path}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "diverges") {
		t.Errorf("-replay of a tampered recording: exit status %d, stderr %q; want 1 and a divergence", code, stderr.String())
	}
}

// A flipped byte breaks the file's checksum: the recording is refused
// before it is replayed at all.
func TestCorruptFileRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.rec")
	recordTo(t, path)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x01
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = play(path)
	var div *replay.DivergenceError
	if err == nil || errors.As(err, &div) {
		t.Fatalf("replaying a corrupt file: %v, want a decoding error", err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-replay", path}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), path) {
		t.Errorf("-replay of a corrupt file: exit status %d, stderr %q; want 1 and an error naming the file", code, stderr.String())
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-ticks", "0"}, {"-every", "-1"}, {"-every", "4294967296"}, {"-x"}, {"extra"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2; stderr: %s", args, code, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-replay", filepath.Join(t.TempDir(), "missing.rec")}, &stdout, &stderr); code != 1 {
		t.Errorf("-replay of a missing file: exit status %d, want 1", code)
	}
}
