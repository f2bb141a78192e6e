package render

import (
	"fmt"
	"strings"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// GL debug output (KHR_debug, core in OpenGL 4.3). In a debug context the
// driver logs what it finds wrong, in words ("GL_INVALID_ENUM in
// glEnable(...)"), at the call that did it. No callback is installed: a
// callback comes from the driver, possibly on another thread, through cgo;
// the log is read instead, on the thread that draws, after each frame.

// debugLog reads the context's debug message log.
type debugLog struct {
	on    bool  // a debug context with KHR_debug
	first error // the first error reported, kept
	buf   [1024]byte
	// One message's fields, as the driver writes them: here, not on the
	// stack, which a pointer given to C would move to the heap at every
	// read.
	source, typ, id, severity uint32
	length                    int32
}

func (d *debugLog) init(major, minor int32) {
	var flags int32
	gl.GetIntegerv(gl.CONTEXT_FLAGS, &flags)
	if flags&gl.CONTEXT_FLAG_DEBUG_BIT == 0 || !hasKHRDebug(major, minor) {
		return
	}
	d.on = true
	gl.Enable(gl.DEBUG_OUTPUT)
	// Synchronous: a message is logged during the call that caused it.
	gl.Enable(gl.DEBUG_OUTPUT_SYNCHRONOUS)
}

// hasKHRDebug reports whether the context has glGetDebugMessageLog: GL 4.3
// or the KHR_debug extension.
func hasKHRDebug(major, minor int32) bool {
	if major > 4 || (major == 4 && minor >= 3) {
		return true
	}
	var n int32
	gl.GetIntegerv(gl.NUM_EXTENSIONS, &n)
	for i := int32(0); i < n; i++ {
		if gl.GoStr(gl.GetStringi(gl.EXTENSIONS, uint32(i))) == "GL_KHR_debug" {
			return true
		}
	}
	return false
}

// Debugging reports whether the context is a debug context whose messages
// DebugErr reads.
func (r *Renderer) Debugging() bool { return r.debug.on }

// DebugErr reads the debug messages logged since the last call and returns
// the first error the driver has reported so far: a message of type error,
// or of high severity, as one line naming its type, severity and text.
// Other messages are read and dropped. Without a debug context it is nil,
// but for a ball program that could not be made on first use (a driver
// that compiled the first and fails another), whose error it returns
// first. It allocates only when it finds an error.
func (r *Renderer) DebugErr() error {
	if r.progErr != nil {
		return r.progErr
	}
	d := &r.debug
	if !d.on {
		return nil
	}
	for d.first == nil {
		if gl.GetDebugMessageLog(1, int32(len(d.buf)), &d.source, &d.typ, &d.id, &d.severity, &d.length, &d.buf[0]) == 0 {
			break
		}
		if d.typ == gl.DEBUG_TYPE_ERROR || d.severity == gl.DEBUG_SEVERITY_HIGH {
			n := max(0, min(int(d.length), len(d.buf)))
			msg := strings.Join(strings.Fields(strings.TrimRight(string(d.buf[:n]), "\x00")), " ")
			d.first = fmt.Errorf("GL debug: %s (%s severity, id %d): %s", debugTypeName(d.typ), debugSeverityName(d.severity), d.id, msg)
		}
	}
	return d.first
}

func debugTypeName(t uint32) string {
	switch t {
	case gl.DEBUG_TYPE_ERROR:
		return "error"
	case gl.DEBUG_TYPE_DEPRECATED_BEHAVIOR:
		return "deprecated behaviour"
	case gl.DEBUG_TYPE_UNDEFINED_BEHAVIOR:
		return "undefined behaviour"
	case gl.DEBUG_TYPE_PORTABILITY:
		return "portability"
	case gl.DEBUG_TYPE_PERFORMANCE:
		return "performance"
	}
	return fmt.Sprintf("type 0x%x", t)
}

func debugSeverityName(s uint32) string {
	switch s {
	case gl.DEBUG_SEVERITY_HIGH:
		return "high"
	case gl.DEBUG_SEVERITY_MEDIUM:
		return "medium"
	case gl.DEBUG_SEVERITY_LOW:
		return "low"
	case gl.DEBUG_SEVERITY_NOTIFICATION:
		return "notification"
	}
	return fmt.Sprintf("0x%x", s)
}
