// Command startfloor is the floor under the demo's start-up: the same
// headless window and OpenGL 3.3 core context (internal/platform), one
// trivial shader program and one point drawn and presented, and nothing
// of the demo. make bench runs it beside the demo and prints, as the
// demo's -stats does, the time from the process's start to that first
// frame, in ms: what the system, SDL and the GL driver cost before any
// program of this kind can show a frame on the machine at hand.
package main

import (
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/internal/platform"
	_ "github.com/interpdemo/interpdemo/internal/platform/preloadon" // as the demo does
)

func init() { runtime.LockOSThread() } // SDL and GL on the main thread

func main() {
	start := time.Now()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "startfloor:", err)
		os.Exit(1)
	}
	fmt.Printf("%.3f\n", float64(time.Since(start)+platform.PreMain(start))/1e6)
}

const vs = "#version 330 core\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 4.0; }\x00"
const fs = "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\x00"

func run() error {
	w, err := platform.Open(platform.Options{Headless: true, Width: 920, Height: 588, Title: "startfloor", Preload: true})
	if err != nil {
		return err
	}
	defer w.Close()
	if err := gl.Init(); err != nil {
		return err
	}
	prog := gl.CreateProgram()
	for _, s := range []struct {
		kind uint32
		src  string
	}{{gl.VERTEX_SHADER, vs}, {gl.FRAGMENT_SHADER, fs}} {
		sh := gl.CreateShader(s.kind)
		src, free := gl.Strs(s.src)
		gl.ShaderSource(sh, 1, src, nil)
		free()
		gl.CompileShader(sh)
		var ok int32
		if gl.GetShaderiv(sh, gl.COMPILE_STATUS, &ok); ok == 0 {
			return fmt.Errorf("shader does not compile")
		}
		gl.AttachShader(prog, sh)
	}
	gl.LinkProgram(prog)
	var vao uint32
	gl.GenVertexArrays(1, &vao)
	gl.BindVertexArray(vao)
	gl.Enable(gl.PROGRAM_POINT_SIZE)
	gl.UseProgram(prog)
	gl.ClearColor(0, 0, 0, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT)
	gl.DrawArrays(gl.POINTS, 0, 1)
	w.Swap()
	gl.Finish()
	return nil
}
