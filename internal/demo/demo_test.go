package demo

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// TestEveryKeyChangesItsSetting presses each key of the key table in an
// in-process demo and checks that the setting the table names changed,
// and nothing else that a key changes. A key added to the table without
// a case here fails the test.
func TestEveryKeyChangesItsSetting(t *testing.T) {
	type check struct {
		keys  []Key
		shift bool
		what  string
		setup []string // flags
		// got reads the setting from the demo after a few frames.
		got  func(f *front) any
		want any
	}
	rep := func(read func(r *report.Stats) any) func(f *front) any {
		return func(f *front) any { return read(f.d.Report()) }
	}
	cases := map[string][]check{
		"Space": {{keys: []Key{KeySpace}, what: "interp", got: rep(func(r *report.Stats) any { return r.Draw }), want: "off"}},
		"E":     {{keys: []Key{KeyE}, what: "drawing", got: rep(func(r *report.Stats) any { return r.Draw }), want: "extrapolate"}},
		"V": {{keys: []Key{KeyV}, what: "vsync", got: func(f *front) any {
			return f.d.Report().VsyncRequested + "/" + f.d.Report().VsyncActual + "/" + f.display.asked[len(f.display.asked)-1].String()
		}, want: "off/off/off"}},
		"J": {{keys: []Key{KeyJ}, what: "pacing", got: func(f *front) any {
			return f.d.Report().Pacing + "/" + f.d.Sim().Stabilize().String()
		}, want: "raw/0s"}},
		"H":       {{keys: []Key{KeyH}, what: "HUD", got: func(f *front) any { return f.d.Report().HUD || f.scene.HUD != nil }, want: false}},
		"? or F1": {{keys: []Key{KeyQuestion}, what: "help", got: func(f *front) any { return strings.Contains(string(f.d.ov.shown), "graph:") }, want: true}, {keys: []Key{KeyF1}, what: "help", got: func(f *front) any { return f.d.ov.snap.Help }, want: true}},
		"F":       {{keys: []Key{KeyF}, what: "graph", got: func(f *front) any { return f.d.Report().Graph || f.scene.Graph != nil }, want: false}},
		"G":       {{keys: []Key{KeyG}, what: "ghosts", got: func(f *front) any { return f.d.Report().Ghosts && f.scene.Ghosts }, want: true}},
		"L / Shift+L": {
			{keys: []Key{KeyL}, what: "render load", got: rep(func(r *report.Stats) any { return r.RenderLoadMs }), want: 10.0},
			{keys: []Key{KeyL}, shift: true, setup: []string{"-render-load", "20ms"}, what: "render load", got: rep(func(r *report.Stats) any { return r.RenderLoadMs }), want: 10.0},
		},
		"K / Shift+K": {
			{keys: []Key{KeyK}, what: "logic load", got: rep(func(r *report.Stats) any { return r.LogicLoadMs }), want: 10.0},
			{keys: []Key{KeyK}, shift: true, setup: []string{"-logic-load", "10ms"}, what: "logic load", got: rep(func(r *report.Stats) any { return r.LogicLoadMs }), want: 0.0},
		},
		"C": {{keys: []Key{KeyC}, what: "frame cap", got: func(f *front) any {
			return [2]any{f.d.Report().FPSCap, f.d.FrameInterval()}
		}, want: [2]any{30, time.Second / 30}}},
		"M": {{keys: []Key{KeyM}, what: "timing mode", got: rep(func(r *report.Stats) any { return r.Mode }), want: "substep"}},
		"[ and ]": {
			{keys: []Key{KeyLeftBracket}, what: "speed", got: rep(func(r *report.Stats) any { return r.Speed }), want: 0.75},
			{keys: []Key{KeyRightBracket}, what: "speed", got: rep(func(r *report.Stats) any { return r.Speed }), want: 1.5},
		},
		"P": {{keys: []Key{KeyP}, what: "pause", got: rep(func(r *report.Stats) any { return r.Paused }), want: true}},
		"R": {{keys: []Key{KeyR}, what: "reset", got: func(f *front) any { return int64(f.d.World().Ticks()) < f.d.Sim().Ticks() }, want: true}},
		"+ and -": {
			{keys: []Key{KeyPlus}, what: "balls", got: rep(func(r *report.Stats) any { return r.Balls }), want: 10},
			{keys: []Key{KeyMinus}, setup: []string{"-balls", "100"}, what: "balls", got: rep(func(r *report.Stats) any { return r.Balls }), want: 10},
		},
		"PageUp/PageDn": {
			{keys: []Key{KeyPageUp}, what: "tick", got: rep(func(r *report.Stats) any { return r.TickMs }), want: 50.0},
			{keys: []Key{KeyPageDown}, what: "tick", got: rep(func(r *report.Stats) any { return r.TickMs }), want: 25.0},
		},
		"arrows, WASD": {
			{keys: []Key{KeyRight}, what: "player", got: rep(func(r *report.Stats) any { return r.Player }), want: true},
			{keys: []Key{KeyW}, what: "player", got: rep(func(r *report.Stats) any { return r.Player }), want: true},
		},
		"X": {{keys: []Key{KeyX}, what: "kick", got: func(f *front) any { return strings.Contains(f.log.String(), "only the host of a network game kicks") }, want: true}},
		"Q, Escape": {
			{keys: []Key{KeyQ}, what: "quit", got: func(f *front) any { return f.d.Done() }, want: true},
			{keys: []Key{KeyEscape}, what: "quit", got: func(f *front) any { return f.d.Done() }, want: true},
		},
	}
	for _, b := range bindings {
		cs, ok := cases[b.label]
		if !ok {
			t.Errorf("key %q has no case in this test", b.label)
			continue
		}
		for _, c := range cs {
			args := append([]string{"-vsync", "on"}, c.setup...)
			f := newFront(t, nil, nil, args...)
			for range 50 { // two ticks, and the HUD's first text
				f.step()
			}
			before := c.got(f)
			if before == c.want {
				t.Errorf("%s (%v): %s is %v before the key: the case proves nothing", b.label, c.keys, c.what, before)
			}
			now := f.clock.Now()
			f.d.StartFrame(now)
			for _, k := range c.keys {
				f.d.Key(KeyEvent{Key: k, Down: true, Shift: c.shift, Time: now})
			}
			f.clock.Advance(time.Millisecond)
			for range 120 { // the key's command runs at the next tick boundary
				if f.d.Done() {
					break
				}
				f.step()
			}
			if got := c.got(f); got != c.want {
				t.Errorf("%s (%v, shift %v): %s is %v, want %v", b.label, c.keys, c.shift, c.what, got, c.want)
			}
		}
	}
}

// TestKeyRepeatAndReleaseDoNothing: only a key's press acts; a repeat
// or a release does not toggle again.
func TestKeyRepeatAndReleaseDoNothing(t *testing.T) {
	f := newFront(t, nil, nil)
	f.step()
	now := f.clock.Now()
	f.d.Key(KeyEvent{Key: KeySpace, Down: true, Time: now})
	f.d.Key(KeyEvent{Key: KeySpace, Down: true, Repeat: true, Time: now})
	f.d.Key(KeyEvent{Key: KeySpace, Down: false, Time: now})
	if r := f.d.Report(); r.Draw != "off" {
		t.Errorf("Space pressed, repeated and released: drawing %q, want off", r.Draw)
	}
}

// TestBadFlagsGiveOneLine: a bad value is a usage error of one line that
// names the flag, before anything is opened; a value the flag package
// refuses asks for the hint too.
func TestBadFlagsGiveOneLine(t *testing.T) {
	files := newMemFiles()
	files.fail["/nope/state.json"] = errors.New("cannot write /nope/state.json: no such file or directory")
	p := Platform{Files: files, Network: newSimNet(t, loop.NewManualClock(0), netsim.Conditions{})}
	for _, c := range []struct {
		args []string
		flag string
		hint bool
	}{
		{[]string{"-balls", "-1"}, "-balls", false},
		{[]string{"-balls", "2000000"}, "-balls", false},
		{[]string{"-speed", "NaN"}, "-speed", false},
		{[]string{"-tick", "0"}, "-tick", false},
		{[]string{"-max-loops", "0"}, "-max-loops", false},
		{[]string{"-vsync", "sometimes"}, "-vsync", false},
		{[]string{"-mode", "warp"}, "-mode", false},
		{[]string{"-width", "0"}, "-width", false},
		{[]string{"-fps-cap", "2000"}, "-fps-cap", false},
		{[]string{"-render-load", "3s"}, "-render-load", false},
		{[]string{"-state", "/nope/state.json"}, "-state", false},
		{[]string{"-record", "a.rec", "-replay", "b.rec"}, "-replay", false},
		{[]string{"-mode", "substep", "-fast"}, "-fast", false},
		{[]string{"-synctest", "61"}, "-synctest", false},
		{[]string{"-players", "3"}, "-players", false},
		{[]string{"-host", ":7777", "-players", "9"}, "-players", false},
		{[]string{"-host", ":7777", "-netcode", "psychic"}, "-netcode", false},
		{[]string{"-join", "nowhere"}, "-join", false},
		{[]string{"-host", ":7777", "-paused"}, "-paused", false},
		{[]string{"-headless", "-paused"}, "-paused", false},
		{[]string{"-gif", "big.gif", "-width", "16384", "-height", "16384"}, "-gif", false},
		{[]string{"-state", "a.out", "-trace", "a.out"}, "-trace", false},
		{[]string{"-screenshot", "p.png", "-gif", "p.png"}, "-gif", false},
		{[]string{"-state", ""}, "-state", false},
		{[]string{"-host", ""}, "-host", false},
		{[]string{"-lobby", ""}, "-lobby", false},
		{[]string{"-host", "127.0.0.1:99999"}, "-host", false},
		{[]string{"-host", ":abc"}, "-host", false},
		{[]string{"-lobby", "ws://127.0.0.1:99999/r"}, "-lobby", false},
		{[]string{"-host", ":7777", "-net-jitter", "-5ms"}, "-net-jitter", false},
		{[]string{"-host", ":7777", "-net-delay", "-1ms"}, "-net-delay", false},
		{[]string{"-host", ":7777", "-net-dup", "2"}, "-net-dup", false},
		{[]string{"-host", ":7777", "-net-reorder", "7"}, "-net-reorder", false},
		{[]string{"-lobby", "ws://127.0.0.1:1/r", "-net-loss", "0.5"}, "-net-loss", false},
		{[]string{"-host", ":7777", "-rollback-smooth=false"}, "-rollback-smooth", false},
		{[]string{"-host", ":7777", "-net-timeout", "1ns"}, "-net-timeout", false},
		{[]string{"-host", ":7777", "-net-delay", "1s"}, "-net-delay", false},
		{[]string{"-host", ":7777", "-bot", "-1"}, "", true},
		{[]string{"-tick", "banana"}, "", true},
		{[]string{"-nope"}, "", true},
		{[]string{"extra"}, "", true},
	} {
		_, err := Parse(c.args, io.Discard, p)
		var ue UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: %v, want a usage error", c.args, err)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || ue.Hint != c.hint || (c.flag != "" && !strings.HasPrefix(msg, c.flag+": ")) {
			t.Errorf("%v: %q (hint %v); want one line starting %q, hint %v", c.args, msg, ue.Hint, c.flag+": ", c.hint)
		}
	}
	// A misspelt flag: the flag meant, and no need of -h.
	_, err := Parse([]string{"-lobyy", "ws://127.0.0.1:8780/r1"}, io.Discard, p)
	if ue, ok := err.(UsageError); !ok || ue.Hint || ue.Msg != "flag provided but not defined: -lobyy (did you mean -lobby?)" {
		t.Errorf("-lobyy: %#v", err)
	}
	if _, err := Parse(nil, io.Discard, p); err != nil {
		t.Errorf("no flags: %v", err)
	}
}

// TestHelpIsGrouped: -h has every flag once, under the group headings in
// order, placeholders that name what a flag takes, and the examples; and
// the examples are valid command lines.
func TestHelpIsGrouped(t *testing.T) {
	var out strings.Builder
	if _, err := Parse([]string{"-h"}, &out, Platform{}); !errors.Is(err, ErrHelp) {
		t.Fatalf("-h: %v, want ErrHelp", err)
	}
	h := out.String()
	if h != Usage() {
		t.Fatal("-h's text is not Usage()")
	}
	at := -1
	for _, g := range flagGroupTitles {
		i := strings.Index(h, "\n"+g+":\n")
		if i <= at {
			t.Errorf("group %q missing or out of order", g)
		}
		at = i
	}
	for _, name := range FlagNames() {
		if n := len(regexp.MustCompile(`(?m)^  -`+regexp.QuoteMeta(name)+`( |$)`).FindAllString(h, -1)); n != 1 {
			t.Errorf("-%s appears %d times in -h", name, n)
		}
	}
	for _, want := range []string{"-bot SEED", "-host ADDR", "-join HOST:PORT", "-balls N", "-tick DURATION", "-state FILE"} {
		if !strings.Contains(h, "  "+want+"\n") {
			t.Errorf("-h lacks the placeholder line %q", want)
		}
	}
	if !strings.Contains(h, "\nExamples:\n") {
		t.Fatal("-h has no examples")
	}
	for _, e := range Examples {
		if !strings.Contains(h, "  "+e.Cmd+"\n") {
			t.Errorf("-h lacks the example %q", e.Cmd)
		}
		args := strings.Fields(e.Cmd)[1:]
		if _, err := Parse(args, io.Discard, Platform{Files: newMemFiles(), Network: newSimNet(t, loop.NewManualClock(0), netsim.Conditions{})}); err != nil {
			t.Errorf("example %q: %v", e.Cmd, err)
		}
	}
}

// documentedStatsKeys are the -stats keys docs/DEMO.md lists between its
// stats-keys markers: every `key` in the list items, and apart, those of
// the item about network games.
func documentedStatsKeys(t *testing.T) (keys, netKeys map[string]bool) {
	t.Helper()
	b, err := os.ReadFile("../../docs/DEMO.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "<!-- stats-keys -->")
	j := strings.Index(s, "<!-- /stats-keys -->")
	if i < 0 || j < i {
		t.Fatal("docs/DEMO.md lost its stats-keys markers")
	}
	keys, netKeys = map[string]bool{}, map[string]bool{}
	key := regexp.MustCompile("`([a-z0-9_]+)`")
	for _, line := range strings.Split(s[i:j], "\n") {
		for _, m := range key.FindAllStringSubmatch(line, -1) {
			keys[m[1]] = true
			if strings.HasPrefix(line, "- **A network game only**") {
				netKeys[m[1]] = true
			}
		}
	}
	if len(netKeys) == 0 {
		t.Fatal("docs/DEMO.md's -stats list has no item about network games")
	}
	return keys, netKeys
}

// TestStatsHasTheDocumentedKeys: the -stats line of an in-process run has
// the keys docs/DEMO.md lists, and every key it has is listed there.
func TestStatsHasTheDocumentedKeys(t *testing.T) {
	doc, netKeys := documentedStatsKeys(t)
	seen := map[string]bool{}
	for _, args := range [][]string{
		{"-ticks", "30", "-stats"},
		{"-ticks", "30", "-stats", "-fps-cap", "60", "-vsync-sim", "60", "-record", "r.rec"},
		{"-ticks", "30", "-stats", "-synctest", "4"},
	} {
		f := newFront(t, nil, nil, args...)
		f.run(2000)
		out, err := f.finish()
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%v: %q: %v", args, out, err)
		}
		for k := range m {
			seen[k] = true
			if !doc[k] {
				t.Errorf("%v: -stats has %q, which docs/DEMO.md does not list", args, k)
			}
		}
	}
	// The front end's own figures are filled in by the front end (the
	// end-to-end tests), a network game's in TestNetworkGameInProcess;
	// the rest must all have appeared.
	frontEnd := map[string]bool{"overlay_upload_bytes": true, "cpu_fraction": true, "startup_ms": true, "video_driver": true, "gl_renderer": true, "present": true,
		"allocs_after_warmup": true, "gc_after_warmup": true, "threads_after_warmup": true, "rss_mb_start": true, "rss_mb_end": true, "rss_mb_peak": true,
		"replay": true, "replay_ok": true, "late_wakeups": true,
		"cull": true, "cull_mode": true, "cull_hidden": true, "cull_walk_ms": true, "cull_gpu_on_ms": true, "cull_gpu_off_ms": true, "cull_cost_on_ms": true, "cull_cost_off_ms": true, "cull_compared_frames": true, "cull_tried_frames": true,
		"sprites": true, "sprites_mode": true, "sprites_cost_quads_ms": true, "sprites_cost_points_ms": true, "sprites_gpu_quads_ms": true, "sprites_gpu_points_ms": true,
		"sprites_compared_frames": true, "sprites_tried_frames": true}
	var missing []string
	for k := range doc {
		if !seen[k] && !frontEnd[k] && !netKeys[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/DEMO.md lists -stats keys no run printed: %v", missing)
	}
}

// TestRecordAndReplayInProcess: a run with keys recorded to a file
// replays to the same state hash; a tampered recording is refused with
// the tick it diverges at.
func TestRecordAndReplayInProcess(t *testing.T) {
	f := newFront(t, nil, nil, "-ticks", "100", "-record", "game.rec", "-balls", "20")
	for i := 0; !f.d.Done(); i++ {
		switch i % 97 {
		case 10:
			f.step(KeyRight)
		case 40:
			f.step(KeyUp)
		default:
			f.step()
		}
	}
	if _, err := f.finish(); err != nil {
		t.Fatal(err)
	}
	hash := f.d.Report().StateHash
	rec := f.files.files["game.rec"]
	if len(rec) == 0 {
		t.Fatal("no recording written")
	}
	if _, err := tryFront(t, nil, nil, "-replay", "game.rec", "-fast"); err == nil || !strings.Contains(err.Error(), "replay file game.rec: ") {
		t.Fatalf("a replay of a file the platform does not have: %v", err)
	}
	p, out, err := replayInMemory(t, rec)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	r, err := report.Parse([]byte(strings.TrimSpace(out)))
	if err != nil {
		t.Fatal(err)
	}
	if r.StateHash != hash || r.ReplayOK == nil || !*r.ReplayOK {
		t.Errorf("replay: hash %s ok %v, want %s and true", r.StateHash, r.ReplayOK, hash)
	}

	// The same recording with one input changed diverges, and says where.
	bad := append([]byte(nil), rec...)
	bad[len(bad)-20] ^= 0x01
	p.files.files["bad.rec"] = bad
	cfg, err := Parse([]string{"-replay", "bad.rec", "-fast"}, io.Discard, p.platform(nil))
	if err != nil {
		return // the change broke the file's framing: refused at once, also fine
	}
	q, err := New(cfg, p.platform(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	p.d = q
	q.Start(p.clock.Now())
	p.run(1000)
	if _, err := p.finish(); err == nil || !strings.Contains(err.Error(), "bad.rec") {
		t.Errorf("a tampered recording replayed without an error naming it: %v", err)
	}
}

// TestNetworkGameInProcess: a host and a joiner, two demos on one manual
// clock over a simulated network with loss, duplication and reordering,
// play a game of bots to its tick limit and end in the same state, each
// reporting its role.
func TestNetworkGameInProcess(t *testing.T) {
	for _, netcode := range []string{"lockstep", "rollback"} {
		t.Run(netcode, func(t *testing.T) {
			clock := loop.NewManualClock(time.Second)
			net := newSimNet(t, clock, netsim.Conditions{Delay: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.1, Duplicate: 0.05, Reorder: 0.05})
			host := newFront(t, clock, net, "-host", ":7777", "-ticks", "150", "-balls", "30", "-bot", "1", "-netcode", netcode, "-stats", "-net-timeout", "1m")
			host.stepAt(clock.Now()) // the host's socket serves its session from now on
			join := newFront(t, clock, net, "-join", "127.0.0.1:7777", "-bot", "2", "-netcode", netcode, "-stats", "-net-timeout", "1m")
			for i := 0; i < 100000 && !(host.d.Done() && join.d.Done()); i++ {
				for _, f := range []*front{host, join} {
					if !f.d.Done() {
						f.frame = 0
						f.stepAt(clock.Now())
					}
				}
				clock.Advance(2 * time.Millisecond)
			}
			if !host.d.Done() || !join.d.Done() {
				t.Fatalf("not done: host %v, joiner %v", host.d.Done(), join.d.Done())
			}
			var reports [2]*report.Stats
			for i, f := range []*front{host, join} {
				out, err := f.finish()
				if err != nil {
					t.Fatalf("peer %d: %v\n%s", i, err, f.log.String())
				}
				checkNetStatsKeys(t, netcode, out)
				if reports[i], err = report.Parse([]byte(strings.TrimSpace(out))); err != nil {
					t.Fatal(err)
				}
			}
			h, j := reports[0], reports[1]
			if h.Net == nil || j.Net == nil || h.Net.Role != "host" || j.Net.Role != "join" || h.Net.Netcode != netcode {
				t.Fatalf("roles: %+v %+v", h.Net, j.Net)
			}
			if h.StateHash != j.StateHash || h.WorldTicks != 150 || j.WorldTicks != 150 || h.Balls != 30 || j.Balls != 30 {
				t.Errorf("host at tick %d, hash %s, %d balls; joiner at tick %d, hash %s, %d balls", h.WorldTicks, h.StateHash, h.Balls, j.WorldTicks, j.StateHash, j.Balls)
			}
			if !strings.Contains(host.log.String(), "game started: player 0 of 2") || !strings.Contains(join.log.String(), "game started: player 1 of 2") {
				t.Errorf("logs:\nhost: %s\njoiner: %s", host.log.String(), join.log.String())
			}
		})
	}
}

// TestNetworkFrameAllocatesNothing: once a network game runs, a frame of
// the demo allocates nothing, with either netcode, on the host and on the
// joiner: the socket's traffic, the session, the simulation, the HUD with
// its network lines (refreshed 10 times a second) and rollback's ghosts.
func TestNetworkFrameAllocatesNothing(t *testing.T) {
	const frame = 2 * time.Millisecond
	// Three windows of 1000 rounds (2 s: 50 ticks, 20 HUD refreshes) after
	// 2000 of warm-up. The count is process-wide: a stray allocation of
	// the runtime (its first GC cycle starts its workers) can land in one
	// window; the least of three is the frames' own.
	const warmup, window, windows = 2000, 1000, 3
	for _, netcode := range []string{"lockstep", "rollback"} {
		t.Run(netcode, func(t *testing.T) {
			clock := loop.NewManualClock(time.Second)
			net := newSimNet(t, clock, netsim.Conditions{Delay: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.1, Duplicate: 0.05, Reorder: 0.05})
			host := newFront(t, clock, net, "-host", ":7777", "-bot", "1", "-netcode", netcode, "-ghosts", "-net-timeout", "1m")
			host.stepAt(clock.Now()) // the host's socket serves its session from now on
			join := newFront(t, clock, net, "-join", "127.0.0.1:7777", "-bot", "2", "-netcode", netcode, "-ghosts", "-net-timeout", "1m")
			peers := []*front{host, join}
			var (
				ms     runtime.MemStats
				allocs [2][windows]uint64
			)
			for round := range warmup + windows*window {
				w := round - warmup
				for i, f := range peers {
					if w < 0 {
						f.stepAt(clock.Now())
						continue
					}
					runtime.ReadMemStats(&ms)
					before := ms.Mallocs
					f.stepAt(clock.Now())
					runtime.ReadMemStats(&ms)
					allocs[i][w/window] += ms.Mallocs - before
				}
				clock.Advance(frame)
			}
			for i, role := range []string{"host", "joiner"} {
				if least := slices.Min(allocs[i][:]); least != 0 {
					t.Errorf("%s: %d allocations in %d frames (the least of the windows: %v)", role, least, window, allocs[i])
				}
				// The measurement saw a running game: 10 s is 250 ticks.
				if s := peers[i].d.sim; s.Finished() || s.Ticks() < 200 {
					t.Errorf("%s: the game did not run: %d ticks, finished %v", role, s.Ticks(), s.Finished())
				}
				if st, ok := peers[i].d.sim.Rollback(); ok && st.Rollbacks == 0 {
					t.Errorf("%s: no rollback", role)
				}
			}
		})
	}
}

// checkNetStatsKeys: a network game's -stats line has every key that
// docs/DEMO.md lists for network games (rollback's only in a rollback
// game), and none it does not list.
func checkNetStatsKeys(t *testing.T, netcode, out string) {
	t.Helper()
	doc, netKeys := documentedStatsKeys(t)
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	for k := range m {
		if !doc[k] {
			t.Errorf("%s game: -stats has %q, which docs/DEMO.md does not list", netcode, k)
		}
	}
	for k := range netKeys {
		var want bool
		switch {
		case strings.HasPrefix(k, "spectator_"):
			want = netcode == "spectator"
		case strings.HasPrefix(k, "net_"):
			want = true
		default: // rollback's
			want = netcode == "rollback"
		}
		if _, ok := m[k]; !ok && want {
			t.Errorf("%s game: -stats lacks %q, which docs/DEMO.md lists", netcode, k)
		}
	}
}

// stepAt runs one frame with the clock as it is (several fronts share
// one clock: the test moves it between rounds).
func (f *front) stepAt(now time.Duration) {
	d := f.d
	d.StartFrame(now)
	d.Update(now)
	d.BeginDraw(now)
	up := d.SyncWorld(f.sync)
	f.scene = f.sceneAt(now)
	d.Presented(now, 0, 0)
	d.EndFrame(now, now, up)
}

// TestSpectatorInProcess: a spectator that arrives while a two-player
// game runs watches it from a snapshot to its end: status 0, the role
// "spectator" in -stats with the keys docs/DEMO.md lists, and the
// players' state at their last tick.
func TestSpectatorInProcess(t *testing.T) {
	for _, netcode := range []string{"lockstep", "rollback"} {
		t.Run(netcode, func(t *testing.T) {
			clock := loop.NewManualClock(time.Second)
			net := newSimNet(t, clock, netsim.Conditions{Delay: 10 * time.Millisecond, Loss: 0.05})
			host := newFront(t, clock, net, "-host", ":7777", "-ticks", "200", "-balls", "50", "-bot", "1", "-netcode", netcode, "-stats", "-net-timeout", "1m")
			host.stepAt(clock.Now())
			join := newFront(t, clock, net, "-join", "127.0.0.1:7777", "-bot", "2", "-netcode", netcode, "-stats", "-net-timeout", "1m")
			fronts := []*front{host, join}
			var spec *front
			for i := 0; i < 100000 && !(host.d.Done() && join.d.Done() && spec != nil && spec.d.Done()); i++ {
				if spec == nil && host.d.Sim().World().Ticks() >= 60 {
					spec = newFront(t, clock, net, "-spectate", "127.0.0.1:7777", "-stats", "-net-timeout", "1m")
					fronts = append(fronts, spec)
				}
				for _, f := range fronts {
					if !f.d.Done() {
						f.frame = 0
						f.stepAt(clock.Now())
					}
				}
				clock.Advance(2 * time.Millisecond)
			}
			if spec == nil || !spec.d.Done() {
				t.Fatal("the spectator did not see the game end")
			}
			var reports []*report.Stats
			for i, f := range fronts {
				out, err := f.finish()
				if err != nil {
					t.Fatalf("peer %d: %v\n%s", i, err, f.log.String())
				}
				r, err := report.Parse([]byte(strings.TrimSpace(out)))
				if err != nil {
					t.Fatal(err)
				}
				reports = append(reports, r)
				if i == 2 {
					checkNetStatsKeys(t, "spectator", out)
				}
			}
			h, s := reports[0], reports[2]
			if s.Net == nil || s.Net.Role != "spectator" || s.Net.Spectator == nil || s.Net.Spectator.StartTick == 0 {
				t.Fatalf("spectator: %+v", s.Net)
			}
			if s.StateHash != h.StateHash || s.WorldTicks != 200 || h.WorldTicks != 200 || reports[1].StateHash != h.StateHash {
				t.Errorf("spectator at tick %d, %s; players at %d, %s and %s", s.WorldTicks, s.StateHash, h.WorldTicks, h.StateHash, reports[1].StateHash)
			}
			if *h.Net.Spectators != 1 {
				t.Errorf("the host welcomed %d spectators, want 1", *h.Net.Spectators)
			}
			if !strings.Contains(spec.log.String(), "watching: 2 players, from tick") {
				t.Errorf("spectator's log: %s", spec.log.String())
			}
		})
	}
}

// TestJoinerSetupIsNotGameTime: a joiner's front end takes 600 ms after
// the host's Welcome to set up (a window and a renderer, on llvmpipe)
// before its first frame. The game starts when the joiner's loop runs:
// the host does not start its tick clock meanwhile, which would leave it
// 600 ms ahead of the joiner for the whole game, stalled every frame
// waiting for inputs that come on the joiner's time, drawing every ball
// at its next position (percentWithinTick 1). Its tick rate is counted
// over the game, not the lobby.
func TestJoinerSetupIsNotGameTime(t *testing.T) {
	clock := loop.NewManualClock(time.Second)
	net := newSimNet(t, clock, netsim.Conditions{Delay: time.Millisecond})
	host := newFront(t, clock, net, "-host", ":7777", "-ticks", "100", "-bot", "1", "-stats")
	host.stepAt(clock.Now()) // the host's socket serves its session from now on
	join := newFront(t, clock, net, "-join", "127.0.0.1:7777", "-bot", "2", "-stats")
	for end := clock.Now() + 600*time.Millisecond; clock.Now() < end; clock.Advance(2 * time.Millisecond) {
		host.stepAt(clock.Now()) // the joiner opens its window
	}
	if st := host.d.net.sess.State(); st != netplay.StateLobby {
		t.Fatalf("the host's game is %v while the joiner sets up", st)
	}
	var frames, stalled int
	for i := 0; i < 100000 && !(host.d.Done() && join.d.Done()); i++ {
		for _, f := range []*front{host, join} {
			if !f.d.Done() {
				f.stepAt(clock.Now())
			}
		}
		if host.d.net.sess.State() == netplay.StateRunning && host.d.Sim().Ticks() > 0 {
			frames++
			if host.d.last.Percent == 1 {
				stalled++
			}
		}
		clock.Advance(2 * time.Millisecond)
	}
	hs, js := host.d.net.sess.Stats(), join.d.net.sess.Stats()
	if d := host.d.net.sess.Stats().StartedAt - join.d.net.sess.Stats().StartedAt; d < -10*time.Millisecond || d > 10*time.Millisecond {
		t.Errorf("the host started %v after the joiner", d)
	}
	if hs.StallTime > 40*time.Millisecond || js.StallTime > 40*time.Millisecond {
		t.Errorf("stalled %v (host), %v (joiner) in a 4 s game", hs.StallTime, js.StallTime)
	}
	if stalled*20 > frames {
		t.Errorf("the host drew %d of %d frames at percentWithinTick 1", stalled, frames)
	}
	out, err := host.finish()
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.Parse([]byte(strings.TrimSpace(out)))
	if err != nil {
		t.Fatal(err)
	}
	if r.TPS < 24.75 || r.TPS > 25.25 {
		t.Errorf("host: %v TPS, want 25 (the lobby is not game time)", r.TPS)
	}
}

// replayInMemory replays the recording rec (-replay -fast -stats) on a
// front end of its own, with the file in memory, and returns the front
// end and -stats. The demo is closed when the test ends.
func replayInMemory(t *testing.T, rec []byte) (*front, string, error) {
	t.Helper()
	p := &front{clock: loop.NewManualClock(time.Second), display: &testDisplay{}, files: newMemFiles(), frame: time.Millisecond, t: t}
	p.files.files["game.rec"] = rec
	cfg, err := Parse([]string{"-replay", "game.rec", "-fast", "-stats"}, io.Discard, p.platform(nil))
	if err != nil {
		t.Fatal(err)
	}
	if p.d, err = New(cfg, p.platform(nil)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.d.Close)
	p.d.Start(p.clock.Now())
	p.run(1000)
	out, err := p.finish()
	return p, out, err
}
