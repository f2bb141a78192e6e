package netplay

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

type ball struct{ X, Y int32 }

type world struct {
	Tick  uint64
	Balls []ball
	Score map[string]int
	Name  string
	speed float64 // unexported: still state
	Blob  []byte
}

// jsonGame describes its state bytes (JSON of a world) as the world.
type jsonGame struct{}

func (jsonGame) Describe(b []byte) (any, error) {
	var w world
	err := json.Unmarshal(b, &w)
	return w, err
}

func TestDiffNamesTheFields(t *testing.T) {
	a := world{Tick: 50, Balls: []ball{{1, 2}, {3, 4}, {5, 6}}, Score: map[string]int{"a": 1, "b": 2}, Name: "x", Blob: []byte{1, 2, 3}}
	b := a
	b.Balls = []ball{{1, 2}, {3, 40}, {5, 6}, {7, 8}}
	b.Score = map[string]int{"a": 1, "c": 3}
	b.Blob = []byte{1, 9, 3}
	d := &differ{}
	d.value("", valueOf(a), valueOf(b))
	want := `  len(Balls): 3 vs 4
  Balls[1].Y: 4 vs 40
  Score["b"]: 2 vs missing
  Score["c"]: missing vs 3
  Blob bytes 1..1: 02 vs 09
`
	if got := d.text(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Through a Describer, from the bytes two peers exchange.
	la, _ := json.Marshal(a)
	lb, _ := json.Marshal(b)
	if got := diffStates(jsonGame{}, la, lb).text(); got != want {
		t.Errorf("through Describe: got\n%s\nwant\n%s", got, want)
	}
	// Unexported fields and floats by their bits.
	c, e := a, a
	c.speed, e.speed = math.NaN(), math.NaN()
	d = &differ{}
	d.value("", valueOf(c), valueOf(e))
	if len(d.lines) != 0 {
		t.Errorf("NaN against NaN: %q", d.lines)
	}
	e.speed = 1.5
	d = &differ{}
	d.value("", valueOf(c), valueOf(e))
	if d.text() != "  speed: NaN vs 1.5\n" {
		t.Errorf("an unexported float: %q", d.text())
	}
}

func TestDiffBytesAndBound(t *testing.T) {
	a := make([]byte, 100)
	b := make([]byte, 104)
	for i := 0; i < 100; i += 2 {
		b[i] = 1 // fifty ranges of one byte
	}
	d := diffStates(struct{}{}, a, b)
	lines := strings.Split(strings.TrimSuffix(d.text(), "\n"), "\n")
	if len(lines) != maxDiffs+1 || lines[0] != "  length: 100 vs 104 bytes" || lines[1] != "  bytes 0..0: 00 vs 01" ||
		lines[maxDiffs] != fmt.Sprintf("  ... and %d more", 51-maxDiffs) {
		t.Errorf("got %d lines:\n%s", len(lines), d.text())
	}
	long := make([]byte, 20)
	d = diffStates(nil, make([]byte, 20), append(long[:0], []byte("abcdefghijklmnopqrst")...))
	if d.text() != "  bytes 0..19: 00 00 00 00 00 00 00 00 ... vs 61 62 63 64 65 66 67 68 ...\n" {
		t.Errorf("a long range: %q", d.text())
	}
	if got := diffStates(jsonGame{}, []byte("{"), []byte("{}")).lines[0]; !strings.HasPrefix(got, "(Describe: ") {
		t.Errorf("a state Describe refuses: %q", got)
	}
}

func valueOf(v any) reflect.Value { return reflect.ValueOf(v) }
