package render

import (
	"fmt"
	"strings"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// Program is a linked GLSL program.
type Program struct {
	id uint32
}

// NewProgram compiles and links a vertex and a fragment shader. A compile or
// link failure is returned as an error that carries the driver's info log;
// nothing is left allocated on failure.
func NewProgram(name, vertSrc, fragSrc string) (*Program, error) {
	vs, err := compileShader(gl.VERTEX_SHADER, vertSrc)
	if err != nil {
		return nil, fmt.Errorf("%s vertex shader: %w", name, err)
	}
	defer gl.DeleteShader(vs)
	fs, err := compileShader(gl.FRAGMENT_SHADER, fragSrc)
	if err != nil {
		return nil, fmt.Errorf("%s fragment shader: %w", name, err)
	}
	defer gl.DeleteShader(fs)

	id := gl.CreateProgram()
	gl.AttachShader(id, vs)
	gl.AttachShader(id, fs)
	gl.LinkProgram(id)
	var ok int32
	gl.GetProgramiv(id, gl.LINK_STATUS, &ok)
	if ok == gl.FALSE {
		log := programLog(id)
		gl.DeleteProgram(id)
		return nil, fmt.Errorf("%s program: link failed: %s", name, log)
	}
	gl.DetachShader(id, vs)
	gl.DetachShader(id, fs)
	return &Program{id: id}, nil
}

// Use makes p the current program.
func (p *Program) Use() { gl.UseProgram(p.id) }

// Uniform returns the location of a uniform. An unknown name is an error:
// a typo in a uniform name must not silently turn into location -1.
func (p *Program) Uniform(name string) (int32, error) {
	loc := gl.GetUniformLocation(p.id, gl.Str(name+"\x00"))
	if loc < 0 {
		return -1, fmt.Errorf("uniform %q not found (unused uniforms are optimised away)", name)
	}
	return loc, nil
}

// uniform names a uniform of a program and where its location goes.
type uniform struct {
	loc  *int32
	name string
}

// uniforms sets the location of each of us (as Uniform does), and fails
// at the first one p lacks.
func (p *Program) uniforms(us ...uniform) error {
	for _, u := range us {
		var err error
		if *u.loc, err = p.Uniform(u.name); err != nil {
			return err
		}
	}
	return nil
}

// Delete frees the program. Call it on the thread that owns the context.
func (p *Program) Delete() {
	if p != nil && p.id != 0 {
		gl.DeleteProgram(p.id)
		p.id = 0
	}
}

func compileShader(kind uint32, src string) (uint32, error) {
	id := gl.CreateShader(kind)
	csrc, free := gl.Strs(src + "\x00")
	gl.ShaderSource(id, 1, csrc, nil)
	free()
	gl.CompileShader(id)
	var ok int32
	gl.GetShaderiv(id, gl.COMPILE_STATUS, &ok)
	if ok == gl.FALSE {
		var n int32
		gl.GetShaderiv(id, gl.INFO_LOG_LENGTH, &n)
		log := make([]byte, n+1)
		gl.GetShaderInfoLog(id, n, nil, &log[0])
		gl.DeleteShader(id)
		return 0, fmt.Errorf("compile failed: %s", cleanLog(log))
	}
	return id, nil
}

func programLog(id uint32) string {
	var n int32
	gl.GetProgramiv(id, gl.INFO_LOG_LENGTH, &n)
	log := make([]byte, n+1)
	gl.GetProgramInfoLog(id, n, nil, &log[0])
	return cleanLog(log)
}

// cleanLog turns a NUL-terminated, multi-line info log into one line.
func cleanLog(b []byte) string {
	s := string(b)
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "(empty info log)"
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " | ")), " ")
}
