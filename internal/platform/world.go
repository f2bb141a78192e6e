package platform

/*
#cgo pkg-config: x11
#include <stdlib.h>
#include <string.h>
#include <X11/Xlib.h>

typedef int (*make_current_fn)(void *dpy, unsigned long drawable, void *ctx);
typedef void (*swap_fn)(void *dpy, unsigned long drawable);

static int call_make_current(void *f, void *dpy, unsigned long d, void *ctx) { return ((make_current_fn)f)(dpy, d, ctx); }
static void call_swap(void *f, void *dpy, unsigned long d) { ((swap_fn)f)(dpy, d); }

// world_create makes a child window of parent at x, y, w x h, with the
// parent's visual and colormap (the GL context's), no background (GL
// paints every pixel of it) and no input of its own: key and mouse
// events fall through to the parent, SDL's window. It is mapped.
static unsigned long world_create(void *dpy, unsigned long parent, int x, int y, int w, int h) {
	Display *d = dpy;
	XWindowAttributes wa;
	if (!XGetWindowAttributes(d, parent, &wa)) return 0;
	XSetWindowAttributes sa;
	memset(&sa, 0, sizeof sa);
	sa.colormap = wa.colormap;
	sa.background_pixmap = None;
	sa.border_pixel = 0;
	Window c = XCreateWindow(d, parent, x, y, w, h, 0, wa.depth, InputOutput, wa.visual,
		CWColormap | CWBackPixmap | CWBorderPixel, &sa);
	XMapWindow(d, c);
	XSync(d, False);
	return c;
}

static void world_place(void *dpy, unsigned long c, int x, int y, int w, int h) {
	XMoveResizeWindow(dpy, c, x, y, w, h);
	XSync(dpy, False);
}

static void world_map(void *dpy, unsigned long c, int on) {
	if (on) XMapWindow(dpy, c); else XUnmapWindow(dpy, c);
	XSync(dpy, False);
}

static void world_destroy(void *dpy, unsigned long c) {
	XDestroyWindow(dpy, c);
	XSync(dpy, False);
}

// world_watch opens a connection of its own to the display of dpy and
// asks it for the child's exposures: SDL reads the events of its own
// connection and drops those of windows it does not know.
static void *world_watch(void *dpy, unsigned long c) {
	Display *ev = XOpenDisplay(DisplayString((Display *)dpy));
	if (!ev) return NULL;
	XSelectInput(ev, c, ExposureMask | StructureNotifyMask);
	XSync(ev, False);
	return ev;
}

// world_exposed drains the watching connection's events and reports
// whether the child lost pixels it showed (exposed or mapped again).
static int world_exposed(void *ev) {
	int exposed = 0;
	while (XPending(ev)) {
		XEvent e;
		XNextEvent(ev, &e);
		if (e.type == Expose || e.type == MapNotify) exposed = 1;
	}
	return exposed;
}

static void world_unwatch(void *ev) { XCloseDisplay(ev); }
*/
import "C"

import (
	"errors"
	"fmt"
	"image"
	"unsafe"

	"github.com/veandco/go-sdl2/sdl"
)

// The world in a window of its own. A window whose overlays lie beside
// the world (the HUD's column, the graph's strip) repaints the world's
// part on nearly every frame, and the overlays' parts a few times a
// second. With one GL drawable for the whole window, a software
// rasterizer clears the whole drawable at memory speed but a part of it
// only by drawing it, and the window's frames cost more than the world
// alone would. On X11 the world gets a child window of its own over its
// part of the window, with a GL drawable of its own (the same context,
// made current on it), in which every frame is the frame a window of the
// world's size would draw; the overlays are drawn into the window's own
// drawable, around it, only when they change. Both present parts where
// GLX can (GLX_MESA_copy_sub_buffer), and the X server keeps what each
// showed; elsewhere (NVIDIA's GLX) the world's window swaps every frame,
// whole, as a window of the world's size would, and the window swaps
// only in the frames where the overlays change: a frame presents the
// world's pixels, not the whole window's.

// errNoSplit: the world cannot have a window of its own here.
var errNoSplit = errors.New("the world cannot have a window of its own here (X11 windows with GLX only)")

// worldWindow is the world's child window, once made, and the second
// context that draws around it. Each context keeps its drawable: Mesa's
// software GLX gives a context made current on another drawable new
// buffers (shared memory made and attached anew, a millisecond or more),
// so the window's context moves to the child once, when the world is
// split off, and a second context, sharing its objects (the overlays'
// textures), draws around it in the window.
type worldWindow struct {
	win         C.ulong        // the child window, its GLX drawable too
	watch       unsafe.Pointer // a connection of our own, for its exposures
	area        image.Rectangle
	mapped      bool
	makeCurrent unsafe.Pointer // glXMakeCurrent
	swap        unsafe.Pointer // glXSwapBuffers
	layers      sdl.GLContext  // the second context, on the window; nil until UseLayers
	current     surface        // where GL draws now
	// resized: the driver still has the child's old size. Mesa's
	// software GLX asks the X server for a drawable's size when a
	// context is made current on it anew (or at a swap), so UseWorld
	// binds the context elsewhere and back.
	resized bool
}

// surface is what a context is current on.
type surface int

const (
	onWindow surface = iota // the window's context, on the window
	onWorld                 // the window's context, on the world's window
	onLayers                // the second context, on the window
)

// CanSplitWorld reports whether the world can have a window of its own
// (SplitWorld): X11 windows with GLX.
func (w *Window) CanSplitWorld() bool { return w.glx != nil && w.glx.ctx != nil }

// SplitWorld gives the world a child window over area (window pixels,
// origin top left), making it if need be, moving it if area moved, and
// showing it if it was hidden. fresh says the child's pixels are lost
// (new, shown again, or resized): its next frame must be drawn whole and
// swapped (SwapWorld), for the GL driver learns a drawable's size at a
// swap. The context stays current where it was.
func (w *Window) SplitWorld(area image.Rectangle) (fresh bool, err error) {
	if !w.CanSplitWorld() {
		return false, errNoSplit
	}
	s := w.glx
	if area.Empty() {
		return false, errNoSplit
	}
	ww := w.world
	if ww == nil {
		ww = &worldWindow{
			makeCurrent: sdl.GLGetProcAddress("glXMakeCurrent"),
			swap:        sdl.GLGetProcAddress("glXSwapBuffers"),
		}
		if ww.makeCurrent == nil || ww.swap == nil {
			return false, errNoSplit
		}
		ww.win = C.world_create(s.dpy, s.drawable, C.int(area.Min.X), C.int(area.Min.Y), C.int(area.Dx()), C.int(area.Dy()))
		if ww.win == 0 {
			return false, errNoSplit
		}
		ww.watch = C.world_watch(s.dpy, ww.win)
		ww.area, ww.mapped = area, true
		w.world = ww
		// A drawable of its own has an interval of its own where GLX
		// keeps one a drawable (GLX_EXT_swap_control: 1 until set), and
		// the world's window swaps where parts cannot be presented.
		s.setInterval(ww.win, w.interval)
		return true, nil
	}
	if area != ww.area {
		C.world_place(s.dpy, ww.win, C.int(area.Min.X), C.int(area.Min.Y), C.int(area.Dx()), C.int(area.Dy()))
		if area.Size() != ww.area.Size() {
			fresh, ww.resized = true, true
		}
		ww.area = area
	}
	if !ww.mapped {
		C.world_map(s.dpy, ww.win, 1)
		ww.mapped, fresh = true, true
	}
	return fresh, nil
}

// UnsplitWorld hides the world's window, if there is one, and makes the
// context current on the window again: the window draws the world
// itself.
func (w *Window) UnsplitWorld() {
	ww := w.world
	if ww == nil || !ww.mapped {
		return
	}
	w.UseWindow()
	C.world_map(w.glx.dpy, ww.win, 0)
	ww.mapped = false
}

// WorldSplit reports whether the world is in a window of its own now.
func (w *Window) WorldSplit() bool { return w.world != nil && w.world.mapped }

// UseWorld makes the window's context current on the world's window: GL
// draws there, in its own pixels (origin at its top left), until
// UseLayers or UseWindow.
func (w *Window) UseWorld() {
	ww := w.world
	if ww == nil || !ww.mapped || (ww.current == onWorld && !ww.resized) {
		return
	}
	if ww.resized {
		C.call_make_current(ww.makeCurrent, w.glx.dpy, w.glx.drawable, w.glx.ctx)
		ww.resized = false
	}
	C.call_make_current(ww.makeCurrent, w.glx.dpy, ww.win, w.glx.ctx)
	ww.current = onWorld
}

// UseLayers makes a second context, made on first use and sharing the
// window's context's objects (textures, buffers, programs; not vertex
// arrays or framebuffers), current on the window: it draws around the
// world's window (the layers), with GL objects of its own where they are
// not shared. It fails where SDL cannot make the context.
func (w *Window) UseLayers() error {
	ww := w.world
	if ww == nil {
		return errNoSplit
	}
	if ww.current == onLayers {
		return nil
	}
	if ww.layers == nil {
		// SDL makes the context current on the window; the window's
		// context must be current for it to share its objects.
		w.UseWindow()
		if err := sdl.GLSetAttribute(sdl.GL_SHARE_WITH_CURRENT_CONTEXT, 1); err != nil {
			return err
		}
		c, err := w.win.GLCreateContext()
		sdl.GLSetAttribute(sdl.GL_SHARE_WITH_CURRENT_CONTEXT, 0)
		if err != nil {
			return fmt.Errorf("a second GL context: %w", err)
		}
		ww.layers = c
		// SDL's own idea of the current context stays the window's (it
		// unbinds a context it deletes that it thinks current).
		if err := w.win.GLMakeCurrent(w.ctx); err != nil {
			return err
		}
	}
	C.call_make_current(ww.makeCurrent, w.glx.dpy, w.glx.drawable, unsafe.Pointer(ww.layers))
	ww.current = onLayers
	return nil
}

// UseWindow makes the window's context current on the window itself.
func (w *Window) UseWindow() {
	if ww := w.world; ww != nil && ww.current != onWindow {
		C.call_make_current(ww.makeCurrent, w.glx.dpy, w.glx.drawable, w.glx.ctx)
		ww.current = onWindow
	}
}

// PresentWorldParts shows the rectangles rects (the world's window's
// pixels, origin at its top left) of the world's back buffer. Call it
// with the world's window current.
func (w *Window) PresentWorldParts(rects []image.Rectangle) {
	ww := w.world
	h := ww.area.Dy()
	for _, r := range rects {
		if !r.Empty() {
			w.glx.presentOn(ww.win, r.Min.X, h-r.Max.Y, r.Dx(), r.Dy())
		}
	}
}

// SwapWorld shows the world's whole back buffer (after SplitWorld said
// fresh). Call it with the world's window current.
func (w *Window) SwapWorld() {
	C.call_swap(w.world.swap, w.glx.dpy, w.world.win)
}

// WorldExposed reports whether the world's window lost what it showed
// since the last call (another window covered it, say): its next frame
// must be drawn whole. It reads the X server's events; call it when the
// window's own events are read, not every frame.
func (w *Window) WorldExposed() bool {
	ww := w.world
	return ww != nil && ww.watch != nil && C.world_exposed(ww.watch) != 0
}

// WorldXWindow is the world's child window's X11 id, 0 if none: for tests
// that read what the X server shows.
func (w *Window) WorldXWindow() uint64 {
	if w.world == nil {
		return 0
	}
	return uint64(w.world.win)
}

// closeWorld destroys the second context and the world's window, the
// window's context current on the window itself again. What was made in
// the second context must have been deleted (with UseLayers) before.
func (w *Window) closeWorld() {
	ww := w.world
	if ww == nil {
		return
	}
	w.UseWindow()
	if ww.layers != nil {
		sdl.GLDeleteContext(ww.layers)
	}
	C.world_destroy(w.glx.dpy, ww.win)
	if ww.watch != nil {
		C.world_unwatch(ww.watch)
	}
	w.world = nil
}
