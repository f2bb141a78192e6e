package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
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
	// Ticks running: the loop is past its first frame, the 200 ms frames
	// come one after another.
	d.waitTicking(10 * time.Second)
	// The key presses, as a person makes them (xdotool's sleeps are how
	// long each key is held and the gaps between them): Right 100 ms, Down
	// 300 ms, Left 50 ms (shorter than a tick, and a quarter of a frame).
	d.xdo("keydown", "Right", "sleep", "0.1", "keyup", "Right", "sleep", "0.45",
		"keydown", "Down", "sleep", "0.3", "keyup", "Down", "sleep", "0.45",
		"keydown", "Left", "sleep", "0.05", "keyup", "Left")
	// Before Q, the ticks over the last tap must have run. Space twice,
	// each seen in the title: the frame that shows the second started a
	// whole frame (200 ms, five ticks) after the one that took the first,
	// which came after the last key-up; a frame runs every tick but the
	// one in progress. (Space changes the drawing only, not the world.)
	d.keys("space")
	d.waitTitle("interp off", 5*time.Second, func(w winTitle) bool { return w.draw == "interp off" })
	d.keys("space")
	d.waitTitle("interp on", 5*time.Second, func(w winTitle) bool { return w.draw == "interp on" })
	d.keys("q")
	d.mustSucceed(10 * time.Second)
	live := d.stats()
	// Every frame lasted over 200 ms (the render load), so every frame
	// after the first ran MaxLoops 5 ticks: the slow machine of the test.
	if h := live.TicksHist(); live.MaxTicksPerFrame != 5 || len(h) != 6 || h[5] < live.Frames-1 {
		t.Fatalf("recording run: ticks per frame %v over %d frames; want 5 in every frame after the first", live.TicksPerFrame, live.Frames)
	}
	if !live.Player {
		t.Errorf("ball 0 did not become the player's: %+v", live)
	}

	rec, err := replay.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rec.Ticks(), uint64(live.Ticks); got != want {
		t.Errorf("recording holds %d ticks, the run ran %d", got, want)
	}
	acted, presses := actedTicks(rec)
	// Every tap registers exactly once, and acts on the ticks whose 40 ms
	// spans it overlaps: a hold of h overlaps ceil(h/40ms) spans or one
	// more, depending on where it falls in the tick grid. The hold the
	// demo sees is xdotool's, give or take the scheduling of xdotool and
	// of the demo's event pumping on a busy machine: the bounds allow it
	// to be up to 20 ms shorter (one tick fewer) or 60 ms longer (one tick
	// more). (Sampling the keys once per 200 ms frame would lose the 50 ms
	// tap or apply it to all 5 ticks of a frame: 0 or 5.)
	for _, c := range []struct {
		b        input.Button
		min, max int
	}{{input.Right, 2, 5}, {input.Down, 7, 10}, {input.Left, 1, 4}} {
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
	if rs.StateHash != live.StateHash || rs.ReplayOK == nil || !*rs.ReplayOK {
		t.Errorf("replay ended in %s (ok %v), the recording in %s", rs.StateHash, rs.ReplayOK, live.StateHash)
	}
	// The render load is the recording machine's, not the recording's:
	// the replay runs without it, -fast, MaxLoops ticks a frame.
	if rs.RenderLoadMs != 0 {
		t.Errorf("the replay ran with a %v ms render load", rs.RenderLoadMs)
	}
	assertFastFrames(t, rs, live.Ticks)
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
	if d := runDemo(t, "", 60*time.Second, "-headless", "-replay", path, "-fast", "-stats"); d.code() != 0 {
		t.Fatalf("the untouched recording fails: %s", d.stderr.String())
	} else if s := d.stats(); s.ReplayOK == nil || !*s.ReplayOK || s.Replay != path || s.Ticks != 450 {
		t.Errorf("the untouched recording: replay %q ok %v after %d ticks; want %q, true, 450", s.Replay, s.ReplayOK, s.Ticks, path)
	}
	d := runDemo(t, "", 60*time.Second, "-headless", "-replay", bad, "-fast", "-stats")
	msg := d.stderr.String()
	if d.code() != 1 || !strings.Contains(msg, "diverges at tick 300") || strings.Count(msg, "\n") != 1 {
		t.Fatalf("altered replay: exit %d, message %q; want 1 and one line naming tick 300", d.code(), msg)
	}
	// The stats still come, saying the replay failed where it stopped.
	if s := d.stats(); s.ReplayOK == nil || *s.ReplayOK || s.Ticks != 300 {
		t.Errorf("altered replay: ok %v after %d ticks; want false after 300", s.ReplayOK, s.Ticks)
	}
}

// recordRun records a short headless run to path and returns the file's
// bytes.
func recordRun(t *testing.T, path string, ticks int) []byte {
	t.Helper()
	d := runDemo(t, "", 30*time.Second, "-headless", "-fast", "-ticks", strconv.Itoa(ticks), "-record", path)
	if d.code() != 0 {
		t.Fatalf("recording: %s", d.stderr.String())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// corrupt writes b to path with one byte of its middle changed.
func corrupt(t *testing.T, path string, b []byte) {
	t.Helper()
	b = bytes.Clone(b)
	b[len(b)/2] ^= 0x40
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
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
	// A recording with one byte changed.
	corrupted := filepath.Join(dir, "corrupted.rec")
	corrupt(t, corrupted, recordRun(t, filepath.Join(dir, "good.rec"), 50))
	for _, c := range []struct {
		path, want string
	}{
		{absurd, "max-loops"},
		{empty, "empty"},
		{garbage, garbage},
		{corrupted, corrupted},
		{dir, "directory"},
		{filepath.Join(dir, "missing.rec"), "no such file"},
	} {
		d := runDemo(t, "", 10*time.Second, "-headless", "-replay", c.path, "-stats")
		msg := d.stderr.String()
		if d.code() != 1 || !strings.HasPrefix(msg, "interpdemo: ") || !strings.Contains(msg, c.want) || strings.Count(msg, "\n") != 1 || d.stdout.String() != "" {
			t.Errorf("%s: exit %d, message %q, stdout %q; want 1, one line with %q, nothing", c.path, d.code(), msg, d.stdout.String(), c.want)
		}
		if strings.Contains(msg, "panic") {
			t.Errorf("%s: panicked: %s", c.path, msg)
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
		if msg := d.stderr.String(); d.code() != 2 || strings.Count(msg, "\n") != 1 || d.stdout.String() != "" {
			t.Errorf("%v: exit %d, %q; want 2 and one line", args, d.code(), msg)
		}
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("refused runs left %v", names)
	}
}

// TestCPUProfile: -cpuprofile writes a profile when the run goes well,
// and leaves nothing behind (no profile, no temporary file) when the run
// fails to start.
func TestCPUProfile(t *testing.T) {
	dir := t.TempDir()
	good := recordRun(t, filepath.Join(dir, "good.rec"), 50)
	for _, c := range []struct {
		name string
		args []string
		want string // in the one line on stderr
	}{
		{"not a recording", []string{"-headless", "-replay", "NOTREC"}, "NOTREC"},
		{"corrupted recording", []string{"-headless", "-replay", "BADREC"}, "BADREC"},
		// Fails after the profile has started: opening the window.
		{"no display", nil, "-headless"},
	} {
		sub := t.TempDir()
		notRec, badRec := filepath.Join(sub, "not.rec"), filepath.Join(sub, "bad.rec")
		if err := os.WriteFile(notRec, []byte("this is not a recording"), 0o644); err != nil {
			t.Fatal(err)
		}
		corrupt(t, badRec, good)
		args := []string{"-cpuprofile", filepath.Join(sub, "cpu.pprof")}
		for _, a := range c.args {
			args = append(args, strings.NewReplacer("NOTREC", notRec, "BADREC", badRec).Replace(a))
		}
		want := strings.NewReplacer("NOTREC", notRec, "BADREC", badRec).Replace(c.want)
		d := runDemo(t, "", 10*time.Second, args...)
		msg := d.stderr.String()
		if d.code() != 1 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, want) {
			t.Errorf("%s: exit %d, stderr %q; want 1 and one line with %q", c.name, d.code(), msg, want)
		}
		if names := dirNames(t, sub); len(names) != 2 {
			t.Errorf("%s: left %v; want only the two recordings", c.name, names)
		}
	}

	sub := t.TempDir()
	prof := filepath.Join(sub, "cpu.pprof")
	if d := runDemo(t, "", 30*time.Second, "-headless", "-ticks", "10", "-fast", "-cpuprofile", prof); d.code() != 0 {
		t.Fatalf("exit %d: %s", d.code(), d.stderr.String())
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	// A pprof profile is a gzipped protocol buffer.
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("%s: %d bytes, not a gzipped profile", prof, len(b))
	}
	if names := dirNames(t, sub); len(names) != 1 {
		t.Errorf("a good run left %v; want only the profile", names)
	}
}

// TestSignalQuitsCleanly: SIGTERM (or Ctrl-C) ends the run like Q: the
// trace and the recording are written whole, no temporary file is left,
// and the recording replays.
func TestSignalQuitsCleanly(t *testing.T) {
	display := xvfb(t)
	dir := t.TempDir()
	rec, tr := filepath.Join(dir, "run.rec"), filepath.Join(dir, "run.csv")
	// In a window, for its title: once it shows ticks, the demo is past
	// its set-up (it catches SIGTERM) and has ticks to record.
	d := startDemo(t, display, "-record", rec, "-trace", tr, "-stats", "-fps-cap", "200")
	d.waitTicking(10 * time.Second)
	d.cmd.Process.Signal(syscall.SIGTERM)
	d.mustSucceed(10 * time.Second)
	live := d.stats()
	if live.Ticks < 1 {
		t.Errorf("%d ticks recorded; the title said it was ticking", live.Ticks)
	}
	if names := dirNames(t, dir); len(names) != 2 {
		t.Errorf("files after the run: %v, want just the recording and the trace", names)
	}
	if rows := readTrace(t, tr); int64(len(rows)) != live.Frames {
		t.Errorf("trace has %d rows for %d frames", len(rows), live.Frames)
	}
	r := runDemo(t, "", 60*time.Second, "-headless", "-replay", rec, "-fast", "-stats")
	if r.code() != 0 {
		t.Fatalf("replay of the interrupted recording: exit %d: %s", r.code(), r.stderr.String())
	}
	if rs := r.stats(); rs.StateHash != live.StateHash || rs.Ticks != live.Ticks {
		t.Errorf("replay of the interrupted recording: hash %s after %d ticks; live %s after %d", rs.StateHash, rs.Ticks, live.StateHash, live.Ticks)
	}
}
