package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/replay"
)

// actedTicks counts, per button, the ticks of a recording that acted on it
// (the button was down at some moment of the tick's span), and the presses.
func actedTicks(rec *replay.Recording) (acted, presses map[input.Button]int) {
	acted, presses = map[input.Button]int{}, map[input.Button]int{}
	p := rec.Player()
	prev := p.Initial()
	for {
		_, in, ok := p.Next()
		if !ok {
			return
		}
		for b := input.Left; b <= input.Down; b++ {
			if in.Down(prev).Has(b) {
				acted[b]++
			}
			if in.Pressed.Has(b) {
				presses[b]++
			}
		}
		prev = in
	}
}

// TestTapsAtFiveFPSAreRecordedAndReplay is the seed's low-frame-rate test
// as a person would run it: the demo drawing at 5 FPS (200 ms render load),
// quick taps of the arrow keys, then the recording replayed headless at
// full speed, ending in the same state.
func TestTapsAtFiveFPSAreRecordedAndReplay(t *testing.T) {
	display := xvfb(t)
	path := filepath.Join(t.TempDir(), "taps.rec")
	d := startDemo(t, display, "-render-load", "200ms", "-record", path, "-stats", "-hud=false", "-graph=false")
	d.window()
	time.Sleep(500 * time.Millisecond) // let a few 200 ms frames pass
	// Hold times: Right 100 ms, Down 300 ms, Left 50 ms (shorter than a
	// tick, and a quarter of a frame).
	d.xdo("keydown", "Right", "sleep", "0.1", "keyup", "Right", "sleep", "0.45",
		"keydown", "Down", "sleep", "0.3", "keyup", "Down", "sleep", "0.45",
		"keydown", "Left", "sleep", "0.05", "keyup", "Left", "sleep", "0.5")
	d.keys("q")
	if code, ok := d.wait(10 * time.Second); !ok || code != 0 {
		t.Fatalf("recording run: exited=%v status %d: %s", ok, code, d.stderr.String())
	}
	live := d.stats()
	if live["fps"].(float64) > 6 {
		t.Fatalf("recording ran at %v FPS; the render load should hold it near 5", live["fps"])
	}
	if live["player"] != true {
		t.Errorf("ball 0 did not become the player's: %v", live)
	}

	rec, err := replay.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rec.Ticks(), uint64(live["ticks"].(float64)); got != want {
		t.Errorf("recording holds %d ticks, the run ran %d", got, want)
	}
	acted, presses := actedTicks(rec)
	// Every tap registers exactly once, and acts on the ticks whose 40 ms
	// spans it overlaps: ceil(hold/40ms) or one more depending on where it
	// falls in the tick grid, give or take one for xdotool's own timing.
	// (Sampling the keys once per 200 ms frame would lose the 50 ms tap or
	// apply a tap to all 5 ticks of a frame.)
	for _, c := range []struct {
		b        input.Button
		min, max int
	}{{input.Right, 2, 4}, {input.Down, 7, 9}, {input.Left, 1, 3}} {
		if presses[c.b] != 1 {
			t.Errorf("%v: %d presses recorded, want 1", c.b, presses[c.b])
		}
		if n := acted[c.b]; n < c.min || n > c.max {
			t.Errorf("%v acted on %d ticks, want %d to %d", c.b, n, c.min, c.max)
		}
	}

	r := runDemo(t, "", 60*time.Second, "-headless", "-replay", path, "-fast", "-stats")
	if r.code() != 0 {
		t.Fatalf("replay: exit %d: %s", r.code(), r.stderr.String())
	}
	rs := r.stats()
	if rs["state_hash"] != live["state_hash"] || rs["replay_ok"] != true {
		t.Errorf("replay ended in %v (ok %v), the recording in %v", rs["state_hash"], rs["replay_ok"], live["state_hash"])
	}
	if rs["fps"].(float64) < 20 {
		t.Errorf("the -fast replay ran at %v FPS: it should not be paced at 5", rs["fps"])
	}
}

// TestReplayNamesTheDivergingTick alters one input run of a valid
// recording (re-encoded, so the file itself is sound): the replay must fail
// with status 1 naming the first checkpoint that differs.
func TestReplayNamesTheDivergingTick(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "good.rec")
	if d := runDemo(t, "", 60*time.Second, "-headless", "-fast", "-ticks", "450", "-balls", "20", "-record", path); d.code() != 0 {
		t.Fatalf("recording: %s", d.stderr.String())
	}
	rec, err := replay.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Checkpoints) != 4 || len(rec.Inputs) != 1 {
		t.Fatalf("want 4 checkpoints and one idle run, got %d and %d", len(rec.Checkpoints), len(rec.Inputs))
	}
	// Hold Right from tick 251 on: ticks 1-200 still match, 300 differs.
	rec.Inputs = []replay.Run{
		{Count: 250, Record: input.Record{}},
		{Count: 1, Record: input.Record{Pressed: input.Of(input.Right), Held: input.Of(input.Right)}},
		{Count: 199, Record: input.Record{Held: input.Of(input.Right)}},
	}
	bad := filepath.Join(dir, "bad.rec")
	if err := rec.WriteFile(bad); err != nil {
		t.Fatal(err)
	}
	if d := runDemo(t, "", 60*time.Second, "-headless", "-replay", path, "-fast"); d.code() != 0 {
		t.Fatalf("the untouched recording fails: %s", d.stderr.String())
	}
	d := runDemo(t, "", 60*time.Second, "-headless", "-replay", bad, "-fast", "-stats")
	msg := strings.TrimSpace(d.stderr.String())
	if d.code() != 1 || !strings.Contains(msg, "diverges at tick 300") || strings.Contains(msg, "\n") {
		t.Fatalf("altered replay: exit %d, message %q; want 1 and one line naming tick 300", d.code(), msg)
	}
}

func TestReplayBadFiles(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.rec")
	garbage := filepath.Join(dir, "garbage.rec")
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(garbage, []byte("IDRP\x01 this is not a recording at all"), 0o644)
	// A sound file whose settings the demo cannot run.
	absurd := filepath.Join(dir, "absurd.rec")
	rec := &replay.Recording{
		Settings: replay.Settings{Balls: 1, Width: 640, Height: 480, Radius: 8, Speed: 400, Tick: 40 * time.Millisecond, MaxLoops: 5000},
		Inputs:   []replay.Run{{Count: 1}},
	}
	if err := rec.WriteFile(absurd); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, want string
	}{
		{absurd, "max-loops"},
		{empty, "empty"},
		{garbage, garbage},
		{dir, "directory"},
		{filepath.Join(dir, "missing.rec"), "no such file"},
	} {
		d := runDemo(t, "", 10*time.Second, "-headless", "-replay", c.path)
		msg := strings.TrimSpace(d.stderr.String())
		if d.code() == 0 || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") || strings.Contains(msg, "panic") {
			t.Errorf("%s: exit %d, message %q; want non-zero and one line with %q", c.path, d.code(), msg, c.want)
		}
	}
}

func TestRecordAndReplayOnlyInFixedMode(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-record", filepath.Join(dir, "x.rec"), "-mode", "variable"},
		{"-replay", filepath.Join(dir, "x.rec"), "-mode", "substep"},
		{"-replay", filepath.Join(dir, "x.rec"), "-balls", "10"},
	} {
		d := runDemo(t, "", 10*time.Second, args...)
		if msg := d.stderr.String(); d.code() != 2 || strings.Count(strings.TrimSpace(msg), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want 2 and one line", args, d.code(), msg)
		}
	}
}

// TestSignalQuitsCleanly: SIGTERM (or Ctrl-C) ends the run like Q: the
// trace and the recording are written whole, no temporary file is left,
// and the recording replays.
func TestSignalQuitsCleanly(t *testing.T) {
	dir := t.TempDir()
	rec, trace := filepath.Join(dir, "run.rec"), filepath.Join(dir, "run.csv")
	d := startDemo(t, "", "-headless", "-record", rec, "-trace", trace, "-stats", "-fps-cap", "200")
	time.Sleep(700 * time.Millisecond) // some ticks to record
	d.cmd.Process.Signal(syscall.SIGTERM)
	if code, ok := d.wait(10 * time.Second); !ok || code != 0 {
		t.Fatalf("after SIGTERM: exited=%v status %d: %s", ok, code, d.stderr.String())
	}
	live := d.stats()
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("files after the run: %v, want just the recording and the trace", ents)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if rows := strings.Count(string(b), "\n") - 1; rows != int(live["frames"].(float64)) {
		t.Errorf("trace has %d rows for %v frames", rows, live["frames"])
	}
	r := runDemo(t, "", 60*time.Second, "-headless", "-replay", rec, "-fast", "-stats")
	if r.code() != 0 || r.stats()["state_hash"] != live["state_hash"] {
		t.Errorf("replay of the interrupted recording: exit %d, hash %v, live %v: %s", r.code(), r.stats()["state_hash"], live["state_hash"], r.stderr.String())
	}
}
