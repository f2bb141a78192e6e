package shaders

import (
	"fmt"
	"strings"
)

// desktopHeader is the first line of every source here: GLSL 3.30, the
// language of OpenGL 3.3 core.
const desktopHeader = "#version 330 core\n"

// esHeader replaces it for WebGL2, whose language is GLSL ES 3.00. The
// two differ, for these shaders, only in that ES asks for the precision
// of floats and ints in the fragment stage, and of an integer sampler in
// any stage (ball.vert's isampler2D, with CELL_CULL); highp everywhere
// keeps the arithmetic of the desktop's shaders (positions up to 2^31
// fixed-point units, the palette's integer hash, ball indices).
const esHeader = "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp isampler2D;\n"

// WebGL2 is a shader source of this package adapted to WebGL2: its
// version line swapped for GLSL ES 3.00's header, the rest unchanged, so
// that the browser draws with the very shaders the window does. A source
// that does not start with the desktop's version line is an error.
func WebGL2(src string) (string, error) {
	body, ok := strings.CutPrefix(src, desktopHeader)
	if !ok {
		return "", fmt.Errorf("shaders: source does not start with %q", strings.TrimSpace(desktopHeader))
	}
	return esHeader + body, nil
}

// WithDefine is a shader source of this package with "#define name" on
// the line after its version line, for the sources that compile a
// variant of themselves with #ifdef. A source that does not start with
// the desktop's version line is an error.
func WithDefine(src, name string) (string, error) {
	body, ok := strings.CutPrefix(src, desktopHeader)
	if !ok {
		return "", fmt.Errorf("shaders: source does not start with %q", strings.TrimSpace(desktopHeader))
	}
	return desktopHeader + "#define " + name + "\n" + body, nil
}
