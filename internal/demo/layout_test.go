package demo

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/netplay"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// TestLayoutKeepsTheWorldClear: in every window, with every overlay on or
// off, the world's rectangle and the panels' lie in the window and none
// overlaps another; the window a configuration opens gives the world
// exactly -width x -height pixels.
func TestLayoutKeepsTheWorldClear(t *testing.T) {
	in := func(r Rect, w, h int) bool { return r.X >= 0 && r.Y >= 0 && r.X+r.W <= w && r.Y+r.H <= h }
	overlap := func(a, b Rect) bool {
		return a.W > 0 && a.H > 0 && b.W > 0 && b.H > 0 &&
			a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
	}
	for _, size := range [][2]int{{640, 480}, {320, 240}, {16, 16}, {1920, 1080}} {
		for _, hud := range []bool{false, true} {
			for _, graph := range []bool{false, true} {
				for _, long := range []bool{false, true} {
					c := Config{Width: size[0], Height: size[1], HUD: hud, Graph: graph, HUDHelp: long}
					w, h := c.WindowSize()
					world, ha, ga := Layout(w, h, c.HUDColumn(), graph)
					name := fmt.Sprintf("%dx%d hud %v (long %v) graph %v, window %dx%d", size[0], size[1], hud, long, graph, w, h)
					if world.W != size[0] || world.H < size[1] {
						t.Errorf("%s: the world gets %dx%d pixels, want %dx%d", name, world.W, world.H, size[0], size[1])
					}
					if hud && h < HUDMaxHeight {
						t.Errorf("%s: the HUD's column is %d high, want at least %d", name, h, HUDMaxHeight)
					}
					for _, r := range []Rect{world, ha, ga} {
						if !in(r, w, h) {
							t.Errorf("%s: %+v leaves the window", name, r)
						}
					}
					if overlap(world, ha) || overlap(world, ga) || overlap(ha, ga) {
						t.Errorf("%s: overlap: world %+v, HUD %+v, graph %+v", name, world, ha, ga)
					}
					if (ha.W > 0) != hud || (ga.H > 0) != graph {
						t.Errorf("%s: HUD %+v, graph %+v", name, ha, ga)
					}
				}
			}
		}
	}
	// A window the user made smaller than the overlays: the world
	// keeps 16 pixels a side.
	if world, _, _ := Layout(300, 100, HUDMaxWidth, true); world.W != 16 || world.H != 16 {
		t.Errorf("a 300x100 window leaves the world %+v", world)
	}
}

// TestSceneKeepsPanelsOffTheWorld: the demo's Scene puts the panels where
// Layout says, outside Scene.World; the HUD's long form widens its
// column, in the same window, taking the room from the world, and the
// short form gives it back; the world takes the room of an overlay
// turned off.
func TestSceneKeepsPanelsOffTheWorld(t *testing.T) {
	f := newFront(t, nil, nil, "-ticks", "5")
	f.step()
	sc := f.scene
	w, h := f.d.Config().WindowSize()
	if w != 640+HUDWidth || sc.World != (Rect{HUDWidth, 0, 640, h - GraphHeight}) {
		t.Errorf("world %+v in a %dx%d window", sc.World, w, h)
	}
	for _, c := range []struct {
		key   Key
		width int
	}{{KeyQuestion, HUDMaxWidth}, {KeyQuestion, HUDWidth}} {
		if sc.HUD == nil || sc.Graph == nil {
			t.Fatal("no HUD or graph")
		}
		if sc.HUD.X+sc.HUD.W > sc.World.X || sc.Graph.Y < sc.World.Y+sc.World.H || sc.Graph.X < sc.World.X {
			t.Errorf("panels over the world %+v: HUD %+v, graph %+v", sc.World, *sc.HUD, *sc.Graph)
		}
		f.step(c.key)
		if sc = f.scene; sc.World != (Rect{c.width, 0, w - c.width, h - GraphHeight}) || sc.HUD == nil || sc.HUD.W > c.width || sc.HUD.W < c.width/2 {
			t.Errorf("after %v: world %+v, HUD %+v; want a column %d wide", c.key, sc.World, sc.HUD, c.width)
		}
		hudFits(t, fmt.Sprint("after ", c.key), f.d)
		if !bytes.Equal(f.d.ov.raw, f.d.ov.shown) {
			t.Errorf("after %v: a line wider than the column had to wrap:\n%s", c.key, f.d.ov.shown)
		}
	}
	f.step(KeyH)
	f.step(KeyF)
	if sc := f.scene; sc.World != (Rect{0, 0, w, h}) || sc.HUD != nil || sc.Graph != nil {
		t.Errorf("overlays off: world %+v, HUD %v, graph %v", sc.World, sc.HUD, sc.Graph)
	}
}

// hudFits fails the test if the HUD's text, as shown, has a line wider
// than its column or was cut by its canvas.
func hudFits(t *testing.T, name string, d *Demo) {
	t.Helper()
	if len(d.ov.shown) == 0 {
		t.Fatalf("%s: no HUD text", name)
	}
	width := d.hudWidth()
	cols := hud.Columns(width)
	for _, line := range bytes.Split(d.ov.shown, []byte("\n")) {
		if len(line) > cols {
			t.Errorf("%s: a HUD line of %d characters, wider than its column's %d: %q", name, len(line), cols, line)
		}
	}
	if d.ov.panel.Dx() > width {
		t.Errorf("%s: the HUD's text is %d pixels wide, its column %d", name, d.ov.panel.Dx(), width)
	}
	if d.ov.text.Cut() {
		t.Errorf("%s: the HUD's text was cut at its canvas (%dx%d):\n%s", name, HUDMaxWidth, HUDMaxHeight, d.ov.shown)
	}
}

// TestHUDLinesFitTheirPanel: no HUD line is cut, short or long form, on
// one machine with every unusual line on, and in a network game of
// netplay.MaxPlayers players, lobby and run (the longest status and the
// longest table), at the smallest window the issue names too.
func TestHUDLinesFitTheirPanel(t *testing.T) {
	for _, c := range []struct {
		help bool
		mode string
	}{{false, "-mode=substep"}, {true, "-mode=substep"}, {false, "-record=a-rather-long-recording-file-name.rec"}, {true, "-record=a-rather-long-recording-file-name.rec"}} {
		help := c.help
		args := []string{c.mode, "-render-load", "10ms", "-logic-load", "5ms", "-speed", "0.5", "-paused", "-fps-cap", "144", "-width", "320", "-height", "240"}
		if help {
			args = append(args, "-hud-help")
		}
		f := newFront(t, nil, nil, args...)
		// The culling's line at its widest: every cost measured, in the
		// tens of milliseconds.
		f.d.SetCull(hud.Cull{Known: true, On: true, Mode: "auto", Walk: 12345 * time.Microsecond, CostOn: 98765 * time.Microsecond, CostOff: 99999 * time.Microsecond})
		// And the form's: the longest mode's name (a page's without a GPU
		// timer), and both costs in the hundreds of milliseconds.
		f.d.SetSprites(hud.Sprites{Known: true, Quads: true, Mode: "auto, no GPU timer", CostQuads: 987654 * time.Microsecond, CostPoints: 999999 * time.Microsecond})
		for range 3 {
			f.step()
			f.clock.Advance(hudRefresh)
		}
		hudFits(t, fmt.Sprint("one machine, ", c.mode, ", help ", help), f.d)
	}
	for _, netcode := range []string{"lockstep", "rollback"} {
		manyPlayerHUD(t, netcode)
	}
}

// manyPlayerHUD checks the HUD's long form of every peer of a game of
// netplay.MaxPlayers players, in the host's lobby and in the game.
func manyPlayerHUD(t *testing.T, netcode string) {
	n := netplay.MaxPlayers
	g := newNetTestGame(t, lossy, []string{"-players", fmt.Sprint(n), "-bot", "1", "-hud-help", "-ticks", "100", "-netcode", netcode})
	g.clock.Advance(hudRefresh)
	g.peers[0].stepAt(g.clock.Now())
	hudFits(t, netcode+": a host waiting for players", g.peers[0].d)
	if !strings.Contains(string(g.peers[0].d.ov.shown), fmt.Sprintf("waiting for players 1/%d", n)) {
		t.Errorf("the lobby's HUD:\n%s", g.peers[0].d.ov.shown)
	}
	for i := 2; i <= n; i++ {
		j := newFront(t, g.clock, g.peers[0].d.p.Network, "-join", "127.0.0.1:7777", "-stats", "-net-timeout", "1m", "-bot", fmt.Sprint(i), "-hud-help", "-netcode", netcode)
		j.stepAt(g.clock.Now())
		g.peers = append(g.peers, j)
	}
	seen := false
	g.run(func(i int, f *front) []Key {
		if f.d.Sim().Net().Stats().Tick >= 50 && !seen {
			seen = true
			for k, p := range g.peers {
				hudFits(t, fmt.Sprint(netcode, ": peer ", k, " in the game"), p.d)
				if want := fmt.Sprint("your ball: ", p.d.Sim().Net().Index(), " "); !strings.Contains(string(p.d.ov.shown), want) || !strings.Contains(string(p.d.ov.shown), netcode) {
					t.Errorf("%s: peer %d's HUD lacks %q or the netcode:\n%s", netcode, k, want, p.d.ov.shown)
				}
			}
			if rb := strings.Contains(string(g.peers[1].d.ov.shown), "\nrollbacks "); rb != (netcode == "rollback") {
				t.Errorf("%s: rollback counts shown %v:\n%s", netcode, rb, g.peers[1].d.ov.shown)
			}
		}
		return nil
	})
	if !seen {
		t.Fatal("the game never reached tick 50")
	}
}

// TestNetworkGameHighlightsYourBall: in a network game each peer draws
// its own ball, ball i for player i, in the player's colour from the
// start.
func TestNetworkGameHighlightsYourBall(t *testing.T) {
	g := newNetTestGame(t, netsim.Conditions{}, []string{"-players", "3", "-bot", "1", "-ticks", "30"}, []string{"-bot", "2"}, []string{"-bot", "3"})
	g.run(nil)
	for i, f := range g.peers {
		idx := f.d.Sim().Net().Index()
		if sc := f.scene; !sc.Highlight || sc.HighlightBall != idx {
			t.Errorf("peer %d (player %d): highlight %v ball %d", i, idx, sc.Highlight, sc.HighlightBall)
		}
	}
}

var _ = time.Second

// TestOverlaysChangeInTheSameFrames: over 3 s of frames of a millisecond
// (and of 7 ms), the HUD's text is renewed some 10 times a second and the
// graph some 30, and every frame that renews the text renews the graph
// too: a window pays for each frame that changes the overlays, whatever
// it changes. A key that changes a setting shows on the HUD in the very
// next frame all the same. With the graph off, the text keeps its rate.
func TestOverlaysChangeInTheSameFrames(t *testing.T) {
	for _, c := range []struct {
		frame time.Duration
		graph bool
	}{{time.Millisecond, true}, {7 * time.Millisecond, true}, {time.Millisecond, false}} {
		name := fmt.Sprintf("frames of %v, graph %v", c.frame, c.graph)
		f := newFront(t, nil, nil, "-graph="+fmt.Sprint(c.graph))
		f.frame = c.frame
		start := f.clock.Now()
		texts, graphs := 0, 0
		for f.clock.Now()-start < 3*time.Second {
			f.step()
			text := f.scene.HUD != nil && len(f.scene.HUD.Changed) > 0
			graph := f.scene.Graph != nil && len(f.scene.Graph.Changed) > 0
			if text {
				texts++
			}
			if graph {
				graphs++
			}
			if text && c.graph && !graph {
				t.Fatalf("%s: at %v the HUD's text changed, the graph did not", name, f.clock.Now()-start)
			}
		}
		// The text's changes: every refresh but those that found the
		// same text, which the frame counter's changes make rare.
		if texts < 20 || texts > 31 {
			t.Errorf("%s: the HUD's text changed %d times in 3 s, want about 30", name, texts)
		}
		if c.graph && (graphs < 80 || graphs > 91) {
			t.Errorf("%s: the graph changed %d times in 3 s, want about 90", name, graphs)
		}
		// A key: the next frame shows it.
		f.step(KeySpace)
		if f.scene.HUD == nil || len(f.scene.HUD.Changed) == 0 || !strings.Contains(string(f.d.ov.shown), "draw at next position") {
			t.Errorf("%s: after Space the next frame's HUD changed %v:\n%s", name, f.scene.HUD != nil && len(f.scene.HUD.Changed) > 0, f.d.ov.shown)
		}
	}
}
