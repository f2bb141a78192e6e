package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/loop"
)

// The tests run the example on a manual clock (-manual-clock): the Limiter's
// waits advance it instead of sleeping, so frame k happens at exactly k
// frame intervals and the output is a pure function of the flags. Nothing
// sleeps and nothing is timed.

// frameCells runs the example with args (stdin empty, not a terminal) and
// returns the ball's cell in every frame, whether each frame said
// interpolation was on, and the tick count of the exit line.
func frameCells(t *testing.T, args ...string) (cells []int, interp []bool, ticks int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("terminal %v: exit status %d; stderr: %s", args, code, stderr.String())
	}
	body, exit := splitExit(t, stdout.String())
	var frames int
	if _, err := fmt.Sscanf(exit, "ticks=%d frames=%d", &ticks, &frames); err != nil {
		t.Fatalf("exit line %q: %v", exit, err)
	}
	for _, line := range strings.Split(body, "\r")[1:] {
		if len(line) != lineLen-1 || line[0] != '|' || line[cols+1] != '|' {
			t.Fatalf("malformed frame %q", line)
		}
		cell := strings.IndexByte(line[1:cols+1], 'O')
		if cell < 0 || strings.Count(line[1:cols+1], "O") != 1 || strings.Trim(line[1:cols+1], "-O") != "" {
			t.Fatalf("frame %q: want one O on a line of -", line)
		}
		switch status := line[cols+2:]; status {
		case on:
			interp = append(interp, true)
		case off:
			interp = append(interp, false)
		default:
			t.Fatalf("frame %q: status %q", line, status)
		}
		cells = append(cells, cell)
	}
	if len(cells) != frames {
		t.Fatalf("%d frames drawn, the exit line says %d", len(cells), frames)
	}
	return cells, interp, ticks
}

// splitExit splits the output into the frames and the exit line.
func splitExit(t *testing.T, out string) (frames, exit string) {
	t.Helper()
	out, ok := strings.CutSuffix(out, "\n")
	i := strings.LastIndexByte(out, '\n')
	if !ok || i < 0 {
		t.Fatalf("output %q does not end with an exit line", out)
	}
	return out[:i], out[i+1:]
}

// The reference model, derived from the example's description rather than
// its code: the ball starts at 0 with next = 16 units and moves 16 units a
// tick back and forth on [0, 236] (60 cells of 4 units). Unfolded, its next
// position after n ticks is 16(n+1); folding that line into [0, 236]
// (a triangle wave) gives the bounces.
func fold(u int64) int64 {
	u %= 2 * maxX
	if u > maxX {
		u = 2*maxX - u
	}
	return u
}

// modelCell is the cell frame k is drawn in, frames being interval apart
// from time 0 on a loop of tick-long ticks: after an elapsed time e the
// fixed-tick loop has run ceil(e/tick)-1 ticks (its strict >), and draws
// at (e - ticks*tick)/tick of the way from last to next. All in integers,
// rounded to the nearest cell.
func modelCell(k int, interval, tick time.Duration, interp bool) (cell int, ticks int64) {
	e := int64(k) * int64(interval)
	T := int64(tick)
	ticks = max(0, (e+T-1)/T-1)
	last, next := fold(speed*ticks), fold(speed*(ticks+1))
	if !interp {
		return int(next / unitsPerCell), ticks
	}
	r := e - ticks*T              // time into the tick in progress, in [0, T]
	num := last*T + r*(next-last) // the drawn position × T
	// Rounded to the nearest cell, halves up.
	return int((2*num + unitsPerCell*T) / (2 * unitsPerCell * T)), ticks
}

var runs = []struct {
	tick time.Duration
	fps  int
}{
	{40 * time.Millisecond, 60}, // the demo's settings
	{40 * time.Millisecond, 10}, // slower than the logic: 2 or 3 ticks a frame
	{200 * time.Millisecond, 60},
}

func TestOutputMatchesModel(t *testing.T) {
	const frames = 150 // long enough to bounce off both ends at every setting
	for _, c := range runs {
		for _, interp := range []bool{true, false} {
			name := fmt.Sprintf("tick=%v,fps=%d,interp=%v", c.tick, c.fps, interp)
			t.Run(name, func(t *testing.T) {
				cells, status, ticks := frameCells(t, "-manual-clock", "-frames", fmt.Sprint(frames),
					"-tick", c.tick.String(), "-fps", fmt.Sprint(c.fps), fmt.Sprintf("-interp=%v", interp))
				if len(cells) != frames {
					t.Fatalf("%d frames, want %d", len(cells), frames)
				}
				interval := time.Second / time.Duration(c.fps)
				for k, got := range cells {
					want, _ := modelCell(k, interval, c.tick, interp)
					if got != want || status[k] != interp {
						t.Fatalf("frame %d: ball in cell %d (interpolation %v), want cell %d (interpolation %v)", k, got, status[k], want, interp)
					}
				}
				if _, want := modelCell(frames-1, interval, c.tick, interp); int64(ticks) != want {
					t.Errorf("%d ticks, want %d", ticks, want)
				}
			})
		}
	}
}

// TestInterpolationShowsInBetweenCells checks the effect the example is for,
// as properties of its output: without interpolation the ball is only ever
// in the cells its ticks put it in, 4 cells apart; with it, it also shows in
// the cells in between, and moves steadily between bounces.
func TestInterpolationShowsInBetweenCells(t *testing.T) {
	args := []string{"-manual-clock", "-frames", "150", "-tick", "40ms", "-fps", "60"}
	onCells, _, _ := frameCells(t, args...)
	offCells, _, ticks := frameCells(t, append(args, "-interp=false")...)

	tickCells := map[int]bool{}
	for n := int64(0); n <= int64(ticks); n++ {
		tickCells[int(fold(speed*(n+1))/unitsPerCell)] = true
	}
	off := map[int]bool{}
	for k, c := range offCells {
		if !tickCells[c] {
			t.Errorf("interpolation off, frame %d: ball in cell %d, which no tick put it in", k, c)
		}
		off[c] = true
	}
	var between []int
	for _, c := range onCells {
		if !off[c] {
			between = append(between, c)
		}
	}
	if len(between) == 0 {
		t.Errorf("interpolated frames show no cell the non-interpolated run never shows: cells %v", onCells)
	}

	// Between bounces the ball moves one way: its direction turns only
	// within one tick's move (4 cells) of an end of the line, and it
	// never moves more than one tick's move in one frame (60 FPS, 25
	// ticks per second: less than a tick a frame).
	const reach = speed / unitsPerCell
	dir := 0
	for k := 1; k < len(onCells); k++ {
		d := onCells[k] - onCells[k-1]
		if d > reach || -d > reach {
			t.Errorf("frame %d: the ball jumped %d cells (%d to %d)", k, d, onCells[k-1], onCells[k])
		}
		if d == 0 {
			continue
		}
		s := 1
		if d < 0 {
			s = -1
		}
		if dir != 0 && s != dir && onCells[k-1] > reach && onCells[k-1] < cols-1-reach {
			t.Errorf("frame %d: the ball turned at cell %d, away from the ends", k, onCells[k-1])
		}
		dir = s
	}
}

// TestRealClock runs the example as a person would, on the real clock:
// only the shape of the output is checked, not its timing.
func TestRealClock(t *testing.T) {
	cells, _, _ := frameCells(t, "-frames", "6", "-fps", "120")
	if len(cells) != 6 {
		t.Errorf("%d frames, want 6", len(cells))
	}
}

// TestKeys types Space then Q on stdin once the first frame is drawn:
// interpolation goes off and the example quits (it has no frame limit, so
// it runs until it reads the Q). The keys wait for the first frame, as a
// person's would: typed at once, the reader may hand them over before it.
func TestKeys(t *testing.T) {
	var stderr bytes.Buffer
	stdout := &firstWrite{drawn: make(chan struct{})}
	stdin := io.MultiReader(waitReader{stdout.drawn}, strings.NewReader(" q"))
	if code := run([]string{"-manual-clock"}, stdin, stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d; stderr: %s", code, stderr.String())
	}
	body, _ := splitExit(t, stdout.String())
	frames := strings.Split(body, "\r")
	last := frames[len(frames)-1]
	if !strings.HasSuffix(last, off) {
		t.Errorf("last frame %q: interpolation should be off after Space", last)
	}
	if !strings.HasSuffix(frames[1], on) {
		t.Errorf("first frame %q: interpolation should start on", frames[1])
	}
}

// firstWrite is an output that closes drawn at its first write.
type firstWrite struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	drawn chan struct{}
}

func (w *firstWrite) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.buf.Len() == 0 {
		close(w.drawn)
	}
	return w.buf.Write(p)
}

func (w *firstWrite) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// waitReader reads nothing, at the end, once ready is closed.
type waitReader struct{ ready <-chan struct{} }

func (r waitReader) Read([]byte) (int, error) {
	<-r.ready
	return 0, io.EOF
}

func TestIndependentHandlesKeysAndSignals(t *testing.T) {
	keys := make(chan byte, 4)
	sig := make(chan os.Signal, 1)
	g := &game{interp: true, keys: keys, sig: sig}
	keys <- ' '
	g.Independent(loop.FixedFrame{})
	if g.interp || g.quit {
		t.Fatalf("after Space: interp %v quit %v, want false false", g.interp, g.quit)
	}
	keys <- ' '
	keys <- 'x'
	g.Independent(loop.FixedFrame{})
	if !g.interp || g.quit {
		t.Fatalf("after Space, x: interp %v quit %v, want true false", g.interp, g.quit)
	}
	for _, k := range []byte{'q', 'Q', 3} {
		g.quit = false
		keys <- k
		g.Independent(loop.FixedFrame{})
		if !g.quit {
			t.Errorf("key %q did not quit", k)
		}
	}
	g.quit = false
	sig <- os.Interrupt
	g.Independent(loop.FixedFrame{})
	if !g.quit {
		t.Error("SIGINT did not quit")
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-frames", "-1"}, {"-tick", "0"}, {"-tick", "-40ms"}, {"-fps", "0"}, {"-fps", "x"}, {"extra"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2; stderr: %s", args, code, stderr.String())
		}
	}
}

// A frame (keys, ticks, the drawn line) allocates nothing.
func TestFrameDoesNotAllocate(t *testing.T) {
	clock := loop.NewManualClock(0)
	fixed, err := loop.NewFixed(loop.FixedConfig{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	limiter, err := loop.NewLimiter(time.Second / 60)
	if err != nil {
		t.Fatal(err)
	}
	g := &game{interp: true, out: io.Discard, line: make([]byte, lineLen), b: newBall(),
		keys: make(chan byte), sig: make(chan os.Signal)}
	d := loop.Driver{Clock: clock, Loop: fixed, Game: g, Limiter: limiter}
	if _, err := d.Frame(); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(200, func() { d.Frame() }); n != 0 {
		t.Errorf("%v allocations per frame, want 0", n)
	}
	if g.b.last == 0 && g.b.next == speed {
		t.Error("no tick ran in 200 frames")
	}
}
