package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/interpdemo/interpdemo/cmd/bench/engines/scene"
)

// The page beside Ebitengine's own WebAssembly build of the same scene
// (cmd/bench/engines/ebiten, built with GOOS=js GOARCH=wasm), in the same
// headless Chromium, in turn: the page with its defaults, the page with
// its overlays off, and Ebitengine, at each ball count, a round in each
// of their orders (peerOrders), so that each runs after each as often,
// and each run from a quiet browser (pageRunner.settle).

// peerBalls are the ball counts of the page against Ebitengine's wasm;
// peerOrders the rounds at each, the order the programs run in each, for
// peerSecs each: the machine's speed swings by a third from one run to
// the next at 1 ball, and a median of six short runs holds better than
// one of three long ones. In one order, run after run, the page's default
// ran after Ebitengine each time: at 1 ball 0.61 times its overlays-off
// frame rate, against 0.87 with the two swapped (6 rounds each).
var (
	peerBalls  = []int{1, 1000, 10_000}
	peerOrders = [...][3]int{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}}
)

const peerSecs = "4s"

// ebitenWasm names Ebitengine's build in the page's comparison.
const ebitenWasm = "Ebitengine v2.8.8, wasm"

// peerNames are the programs of the comparison, in the order they run.
var peerNames = [3]string{"page, default", "page, overlays off", ebitenWasm}

// peerResults are the page's and Ebitengine's frame rates (and the
// page's tick rates): fps[program][ball count index] holds one figure a
// round.
type peerResults struct {
	secs     string
	fps, tps [3][][]float64
}

// peerQueries are the page's queries of the comparison at n balls.
func peerQueries(n int, secs string) [2]string {
	q := fmt.Sprintf("balls=%d&vsync=off&duration=%s&stats", n, secs)
	return [2]string{q, q + "&hud=false&graph=false"}
}

// measurePeer runs the page and Ebitengine's wasm in turn in pr's
// browser.
func measurePeer(o *options, pr *pageRunner) (*peerResults, error) {
	if err := buildEbitenWasm(o, pr.dir); err != nil {
		return nil, err
	}
	e := &peerResults{secs: o.dur(peerSecs)}
	for i := range e.fps {
		e.fps[i] = make([][]float64, len(peerBalls))
		e.tps[i] = make([][]float64, len(peerBalls))
	}
	for bi, n := range peerBalls {
		for _, order := range peerOrders {
			for _, i := range order {
				fps, tps, err := pr.peer(i, n, e.secs)
				if err != nil {
					return nil, err
				}
				e.fps[i][bi] = append(e.fps[i][bi], fps)
				e.tps[i][bi] = append(e.tps[i][bi], tps)
			}
		}
	}
	return e, nil
}

// peer runs program i of peerNames at n balls for secs, and returns its
// frame and tick rates.
func (pr *pageRunner) peer(i, n int, secs string) (fps, tps float64, err error) {
	if i < 2 {
		s, err := pr.page(peerQueries(n, secs)[i])
		if err != nil {
			return 0, 0, err
		}
		return s.FPS, s.TPS, nil
	}
	r, err := pr.ebiten(n, secs)
	return r.FPS, r.TPS, err
}

// buildEbitenWasm builds cmd/bench/engines/ebiten for the browser into
// dir/ebiten, with its page.
func buildEbitenWasm(o *options, dir string) error {
	out := filepath.Join(dir, "ebiten")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	b := exec.Command(o.goTool, "build", "-trimpath", "-o", filepath.Join(out, "ebiten.wasm"), ".")
	b.Dir = filepath.Join("cmd", "bench", "engines", "ebiten")
	b.Env = append(os.Environ(), "GOWORK=off", "GOOS=js", "GOARCH=wasm")
	if msg, err := b.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s for js/wasm: %v: %s", b.Dir, err, msg)
	}
	js, err := os.ReadFile(filepath.Join(dir, "wasm_exec.js"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "wasm_exec.js"), js, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "index.html"), []byte(ebitenPage), 0o644)
}

// ebitenPage runs ebiten.wasm with the query's balls and duration as its
// flags, its canvas the scene's 640x480 pixels (Ebitengine sizes it to
// the page's body, which it makes the window's), and leaves the result
// line it prints in window.result, its exit status in window.exitCode.
const ebitenPage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>ebiten</title>
<style>body { width: 640px !important; height: 480px !important; }</style>
</head><body>
<script src="wasm_exec.js"></script>
<script>
  const q = new URLSearchParams(location.search);
  const go = new Go();
  go.argv = ["ebiten", "-balls", q.get("balls"), "-duration", q.get("duration")];
  go.exit = (code) => { window.exitCode = code; };
  const log = console.log;
  console.log = (...a) => {
    const s = a.join(" ");
    if (s.startsWith('{"engine"')) window.result = s;
    else window.lastLine = s;
    log(...a);
  };
  WebAssembly.instantiateStreaming(fetch("ebiten.wasm"), go.importObject)
    .then((r) => go.run(r.instance))
    .catch((e) => { window.lastLine = String(e); window.exitCode = 1; });
</script>
</body></html>
`

// ebiten runs Ebitengine's build of the scene at balls for secs in a
// page of the browser and returns its result line.
func (pr *pageRunner) ebiten(balls int, secs string) (scene.Result, error) {
	ctx := pr.ctx
	var res scene.Result
	pr.settle()
	p, err := pr.browser.NewPage(ctx, pr.url+"/ebiten/?balls="+strconv.Itoa(balls)+"&duration="+secs)
	if err != nil {
		return res, err
	}
	defer p.Close()
	if err := p.WaitFor(ctx, `window.exitCode !== undefined`); err != nil {
		return res, fmt.Errorf("%s, %d balls: %v", ebitenWasm, balls, err)
	}
	var line, last string
	p.Eval(ctx, `window.result || ""`, &line)
	p.Eval(ctx, `window.lastLine || ""`, &last)
	if err := json.Unmarshal([]byte(line), &res); err != nil || res.Balls != balls || res.FPS <= 0 {
		return res, fmt.Errorf("%s, %d balls: no result line: %q", ebitenWasm, balls, last)
	}
	return res, nil
}

// med is program i's median frame rate at ball count index bi.
func (e *peerResults) med(i, bi int) float64 { return median(e.fps[i][bi]) }

// write writes the comparison's table.
func (e *peerResults) write(p func(string, ...any)) {
	if e == nil {
		return
	}
	q := peerQueries(0, e.secs)
	p("\nBeside Ebitengine: `cmd/bench/engines/ebiten` built for js/wasm (a 640x480 canvas), the page with `?%s`, and with `%s`, the three in turn, a round in each of their %d orders, each run from a quiet browser. FPS and TPS: the medians of the rounds.\n\n",
		strings.Replace(q[0], "balls=0", "balls=N", 1), strings.TrimPrefix(q[1], q[0]), len(peerOrders))
	p("| balls | page, default FPS | page, overlays off FPS | %s FPS | page TPS (default, off) | default / Ebitengine | off / Ebitengine | default / off |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n", ebitenWasm)
	for bi, n := range peerBalls {
		p("| %s |", commas(int64(n)))
		for i := range peerNames {
			p(" %.1f |", e.med(i, bi))
		}
		p(" %.2f, %.2f |", median(e.tps[0][bi]), median(e.tps[1][bi]))
		p(" %.2fx | %.2fx | %.2fx |\n", e.med(0, bi)/e.med(2, bi), e.med(1, bi)/e.med(2, bi), e.med(0, bi)/e.med(1, bi))
	}
}

// targets writes the comparison's targets, numbered from n: the page
// leads Ebitengine's wasm, its overlays cost little, its logic holds.
func (e *peerResults) targets(row func(n int, target, measured string, ok bool), n int) {
	if e == nil {
		return
	}
	var lead, off, cost []string
	leadOK, costOK, tpsOK := true, true, true
	minTPS := 25.0
	for bi, b := range peerBalls {
		at := " at " + commas(int64(b))
		def, no, eb := e.med(0, bi), e.med(1, bi), e.med(2, bi)
		lead = append(lead, fmt.Sprintf("%.2fx", def/eb))
		off = append(off, fmt.Sprintf("%.2fx", no/eb))
		leadOK = leadOK && def >= 2*eb && no >= 1.5*eb
		if b <= 1000 {
			cost = append(cost, fmt.Sprintf("%.2fx%s", def/no, at))
			costOK = costOK && def >= 0.9*no
		}
		if b >= 1000 {
			t := min(median(e.tps[0][bi]), median(e.tps[1][bi]))
			minTPS = min(minTPS, t)
			tpsOK = tpsOK && t >= 24.5
		}
	}
	counts := "1, 1,000 and 10,000 balls"
	row(n, "the page in headless Chromium beside "+ebitenWasm+" (medians of rounds in turn): at least 2x its frame rate with the page's defaults at "+counts+", and 1.5x with the overlays off",
		"default "+strings.Join(lead, ", ")+"; overlays off "+strings.Join(off, ", "), leadOK)
	row(n+1, "the page's default frame rate at least 0.9x its own with the overlays off, at 1 and 1,000 balls", strings.Join(cost, ", "), costOK)
	row(n+2, "the page's TPS at least 24.5 at 1,000 and 10,000 balls, default and overlays off", fmt.Sprintf("lowest %.2f", minTPS), tpsOK)
}

// webPeerOnly measures only the page beside Ebitengine's wasm and
// prints the table and its targets.
func webPeerOnly(o *options, p func(string, ...any)) error {
	pr, err := startPages(o)
	if err != nil {
		return err
	}
	defer pr.stop()
	e, err := measurePeer(o, pr)
	if err != nil {
		return err
	}
	p("In headless %s.\n", pr.browser.Version())
	e.write(p)
	p("\n| # | target | measured | met |\n|---|---|---|---|\n")
	e.targets(targetRow(p), 22)
	return nil
}
