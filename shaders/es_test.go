package shaders

import (
	"strings"
	"testing"
)

// Every source adapts to WebGL2 by its first line alone: the rest of the
// text is the desktop's, byte for byte.
func TestWebGL2SwapsOnlyTheHeader(t *testing.T) {
	for name, src := range map[string]string{
		"ball.vert": BallVert, "ball.frag": BallFrag, "disc.frag": DiscFrag,
		"overlay.vert": OverlayVert, "overlay.frag": OverlayFrag, "marker.vert": MarkerVert, "marker.frag": MarkerFrag,
	} {
		es, err := WebGL2(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.HasPrefix(es, "#version 300 es\n") {
			t.Errorf("%s: starts %q", name, es[:min(len(es), 20)])
		}
		_, body, _ := strings.Cut(src, "\n")
		if !strings.HasSuffix(es, "\n"+body) || strings.Count(es, "#version") != 1 {
			t.Errorf("%s: the body changed or a version line remains", name)
		}
		if !strings.Contains(es, "precision highp float;") {
			t.Errorf("%s: no float precision", name)
		}
	}
}

func TestWebGL2RefusesAnotherHeader(t *testing.T) {
	for _, src := range []string{"", "#version 450 core\nvoid main() {}\n", "void main() {}\n#version 330 core\n"} {
		if _, err := WebGL2(src); err == nil {
			t.Errorf("%q: no error", src)
		}
	}
}

// A define goes right after the version line, where GLSL wants it, and
// the rest of the text is unchanged.
func TestWithDefine(t *testing.T) {
	got, err := WithDefine(DiscFrag, "WHOLE_FRAME")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(DiscFrag, "\n")
	if want := "#version 330 core\n#define WHOLE_FRAME\n" + body; got != want {
		t.Errorf("got %q..., want %q...", got[:50], want[:50])
	}
	if _, err := WithDefine("void main() {}\n", "X"); err == nil {
		t.Error("a source without the version line: no error")
	}
}
