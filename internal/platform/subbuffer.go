package platform

/*
#include <stdlib.h>
#include <string.h>

typedef void *(*current_fn)(void);
typedef unsigned long (*drawable_fn)(void);
typedef const char *(*query_ext_fn)(void *dpy, int screen);
typedef int (*query_ctx_fn)(void *dpy, void *ctx, int attr, int *value);
typedef void (*copy_sub_fn)(void *dpy, unsigned long drawable, int x, int y, int w, int h);

static void *call_current(void *f) { return ((current_fn)f)(); }
static unsigned long call_drawable(void *f) { return ((drawable_fn)f)(); }
static const char *call_query_ext(void *f, void *dpy, int screen) { return ((query_ext_fn)f)(dpy, screen); }
static int call_query_ctx(void *f, void *dpy, void *ctx, int attr, int *value) { return ((query_ctx_fn)f)(dpy, ctx, attr, value); }
static void call_copy_sub(void *f, void *dpy, unsigned long d, int x, int y, int w, int h) { ((copy_sub_fn)f)(dpy, d, x, y, w, h); }

// has_ext reports whether the space-separated list exts names ext.
static int has_ext(const char *exts, const char *ext) {
	size_t n = strlen(ext);
	for (const char *p = exts; p && (p = strstr(p, ext)) != NULL; p += n) {
		if ((p == exts || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) {
			return 1;
		}
	}
	return 0;
}
*/
import "C"

import (
	"unsafe"

	"github.com/veandco/go-sdl2/sdl"
)

// glxScreen is GLX_SCREEN, glXQueryContext's attribute for a context's
// screen.
const glxScreen = 0x800C

// subBuffer presents parts of a window's back buffer with
// GLX_MESA_copy_sub_buffer: glXCopySubBufferMESA copies a rectangle of the
// back buffer to the front and leaves the back buffer as it is. A window
// that presents that way and never swaps keeps every pixel it drew, so it
// can repaint only what changed, as a pbuffer can.
type subBuffer struct {
	copy     unsafe.Pointer // glXCopySubBufferMESA
	dpy      unsafe.Pointer // the context's X display
	drawable C.ulong        // the window's GLX drawable
	ctx      unsafe.Pointer // the GLX context
}

// newSubBuffer looks for GLX_MESA_copy_sub_buffer among the extensions the
// current GLX context can use (the client's and the X server's), and
// returns nil where there is none: not GLX (Wayland, EGL, offscreen), or
// a GLX without it.
func newSubBuffer(driver string) *subBuffer {
	if driver != "x11" {
		return nil
	}
	proc := func(name string) unsafe.Pointer { return sdl.GLGetProcAddress(name) }
	curDpy, curCtx, curDrawable := proc("glXGetCurrentDisplay"), proc("glXGetCurrentContext"), proc("glXGetCurrentDrawable")
	queryExt, queryCtx, copySub := proc("glXQueryExtensionsString"), proc("glXQueryContext"), proc("glXCopySubBufferMESA")
	for _, f := range []unsafe.Pointer{curDpy, curCtx, curDrawable, queryExt, queryCtx, copySub} {
		if f == nil {
			return nil
		}
	}
	dpy := C.call_current(curDpy)
	ctx := C.call_current(curCtx)
	drawable := C.call_drawable(curDrawable)
	if dpy == nil || ctx == nil || drawable == 0 {
		return nil
	}
	var screen C.int
	if C.call_query_ctx(queryCtx, dpy, ctx, glxScreen, &screen) != 0 {
		return nil
	}
	name := C.CString("GLX_MESA_copy_sub_buffer")
	defer C.free(unsafe.Pointer(name))
	if C.has_ext(C.call_query_ext(queryExt, dpy, screen), name) == 0 {
		return nil
	}
	return &subBuffer{copy: copySub, dpy: dpy, drawable: drawable, ctx: ctx}
}

// present copies the rectangle at x, y (window pixels from the bottom
// left, as GL counts) of w×h pixels from the back buffer to the window.
// It flushes GL first (the extension's own glFlush).
func (s *subBuffer) present(x, y, w, h int) { s.presentOn(s.drawable, x, y, w, h) }

// presentOn is present for drawable d, a window of the same context.
func (s *subBuffer) presentOn(d C.ulong, x, y, w, h int) {
	C.call_copy_sub(s.copy, s.dpy, d, C.int(x), C.int(y), C.int(w), C.int(h))
}
