package platform

/*
#include <stdlib.h>
#include <string.h>

typedef void *(*current_fn)(void);
typedef unsigned long (*drawable_fn)(void);
typedef const char *(*query_ext_fn)(void *dpy, int screen);
typedef int (*query_ctx_fn)(void *dpy, void *ctx, int attr, int *value);
typedef void (*copy_sub_fn)(void *dpy, unsigned long drawable, int x, int y, int w, int h);
typedef void (*swap_interval_fn)(void *dpy, unsigned long drawable, int interval);

static void *call_current(void *f) { return ((current_fn)f)(); }
static unsigned long call_drawable(void *f) { return ((drawable_fn)f)(); }
static const char *call_query_ext(void *f, void *dpy, int screen) { return ((query_ext_fn)f)(dpy, screen); }
static int call_query_ctx(void *f, void *dpy, void *ctx, int attr, int *value) { return ((query_ctx_fn)f)(dpy, ctx, attr, value); }
static void call_copy_sub(void *f, void *dpy, unsigned long d, int x, int y, int w, int h) { ((copy_sub_fn)f)(dpy, d, x, y, w, h); }
static void call_swap_interval(void *f, void *dpy, unsigned long d, int interval) { ((swap_interval_fn)f)(dpy, d, interval); }

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

// glxWindow is the window's GLX: its display, drawable and context, for
// the world's window (world.go), and what it offers beyond swaps.
// GLX_MESA_copy_sub_buffer's glXCopySubBufferMESA (Mesa's GLX, Xvfb's
// included; not NVIDIA's) copies a rectangle of the back buffer to the
// front and leaves the back buffer as it is: a window that presents that
// way and never swaps keeps every pixel it drew, so it can repaint only
// what changed, as a pbuffer can.
type glxWindow struct {
	dpy      unsafe.Pointer // the context's X display
	drawable C.ulong        // the window's GLX drawable
	ctx      unsafe.Pointer // the GLX context
	copy     unsafe.Pointer // glXCopySubBufferMESA, or nil: the window presents by swaps alone
	// glXSwapIntervalEXT (GLX_EXT_swap_control), or nil: where the swap
	// interval is a drawable's, the world's window needs the window's.
	interval unsafe.Pointer
}

// newGLXWindow finds the current GLX context's display and drawable, and
// GLX_MESA_copy_sub_buffer and GLX_EXT_swap_control among the extensions
// it can use (the client's and the X server's); copy stays nil where
// swapOnly. It returns nil where the window has no GLX: not X11
// (Wayland, EGL, offscreen).
func newGLXWindow(driver string, swapOnly bool) *glxWindow {
	if driver != "x11" {
		return nil
	}
	proc := func(name string) unsafe.Pointer { return sdl.GLGetProcAddress(name) }
	curDpy, curCtx, curDrawable := proc("glXGetCurrentDisplay"), proc("glXGetCurrentContext"), proc("glXGetCurrentDrawable")
	queryExt, queryCtx := proc("glXQueryExtensionsString"), proc("glXQueryContext")
	for _, f := range []unsafe.Pointer{curDpy, curCtx, curDrawable, queryExt, queryCtx} {
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
	g := &glxWindow{dpy: dpy, drawable: drawable, ctx: ctx}
	exts := C.call_query_ext(queryExt, dpy, screen)
	has := func(ext string) bool {
		name := C.CString(ext)
		defer C.free(unsafe.Pointer(name))
		return C.has_ext(exts, name) != 0
	}
	if !swapOnly && has("GLX_MESA_copy_sub_buffer") {
		g.copy = proc("glXCopySubBufferMESA")
	}
	if has("GLX_EXT_swap_control") {
		g.interval = proc("glXSwapIntervalEXT")
	}
	return g
}

// setInterval sets drawable d's swap interval, where the interval is a
// drawable's (GLX_EXT_swap_control); elsewhere it is the context's, and
// SDL set it.
func (g *glxWindow) setInterval(d C.ulong, interval int) {
	if g.interval != nil {
		C.call_swap_interval(g.interval, g.dpy, d, C.int(interval))
	}
}

// present copies the rectangle at x, y (window pixels from the bottom
// left, as GL counts) of w×h pixels from the back buffer to the window.
// It flushes GL first (the extension's own glFlush).
func (s *glxWindow) present(x, y, w, h int) { s.presentOn(s.drawable, x, y, w, h) }

// presentOn is present for drawable d, a window of the same context.
func (s *glxWindow) presentOn(d C.ulong, x, y, w, h int) {
	C.call_copy_sub(s.copy, s.dpy, d, C.int(x), C.int(y), C.int(w), C.int(h))
}
