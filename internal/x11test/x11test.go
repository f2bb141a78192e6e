// Package x11test lets end-to-end tests close a window the way a window
// manager does: by sending it a WM_DELETE_WINDOW client message, which SDL
// turns into SDL_QUIT. (xdotool's windowclose destroys the window instead,
// which no real user can do.) It also reads what a window shows, from the
// X server. It is only imported by tests.
package x11test

/*
#cgo pkg-config: x11
#include <stdlib.h>
#include <string.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

static int send_delete(const char *name, unsigned long win) {
	Display *d = XOpenDisplay(name);
	if (!d) return 1;
	Atom protocols = XInternAtom(d, "WM_PROTOCOLS", False);
	Atom del = XInternAtom(d, "WM_DELETE_WINDOW", False);
	XEvent ev;
	memset(&ev, 0, sizeof ev);
	ev.xclient.type = ClientMessage;
	ev.xclient.window = win;
	ev.xclient.message_type = protocols;
	ev.xclient.format = 32;
	ev.xclient.data.l[0] = del;
	ev.xclient.data.l[1] = CurrentTime;
	Status ok = XSendEvent(d, win, False, NoEventMask, &ev);
	XSync(d, False);
	XCloseDisplay(d);
	return ok ? 0 : 2;
}

// quiet is an X error handler that lets a request fail: Xlib's own ends
// the process, the whole test binary with it.
static int quiet(Display *d, XErrorEvent *e) { return 0; }

// get_pixels reads w x h pixels of window win, from its top left, as
// 0xRRGGBB each (a 24-bit TrueColor visual), into out.
static int get_pixels(const char *name, unsigned long win, int w, int h, unsigned int *out) {
	Display *d = XOpenDisplay(name);
	if (!d) return 1;
	int (*old)(Display *, XErrorEvent *) = XSetErrorHandler(quiet);
	XImage *img = XGetImage(d, win, 0, 0, w, h, AllPlanes, ZPixmap);
	XSetErrorHandler(old);
	if (!img) {
		XCloseDisplay(d);
		return 2;
	}
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			out[y * w + x] = (unsigned int)(XGetPixel(img, x, y) & 0xFFFFFF);
	XDestroyImage(img);
	XCloseDisplay(d);
	return 0;
}

// cover maps an override-redirect window (no window manager moves it) of
// w x h pixels over window win, at (x, y) in it, filled with colour
// pixel, then destroys it: the X server, keeping no copy of what it
// covered (no backing store), sends win and its children Expose events
// for it, and shows garbage there until they repaint. It returns once
// the server has done both.
static int cover(const char *name, unsigned long win, int cx, int cy, int w, int h, unsigned long pixel) {
	Display *d = XOpenDisplay(name);
	if (!d) return 1;
	Window child;
	int x, y;
	int (*old)(Display *, XErrorEvent *) = XSetErrorHandler(quiet);
	Bool ok = XTranslateCoordinates(d, win, DefaultRootWindow(d), 0, 0, &x, &y, &child);
	XSetErrorHandler(old);
	if (!ok) {
		XCloseDisplay(d);
		return 2;
	}
	XSetWindowAttributes sa;
	memset(&sa, 0, sizeof sa);
	sa.override_redirect = True;
	sa.background_pixel = pixel;
	Window c = XCreateWindow(d, DefaultRootWindow(d), x + cx, y + cy, w, h, 0, CopyFromParent, InputOutput,
		CopyFromParent, CWOverrideRedirect | CWBackPixel, &sa);
	XMapRaised(d, c);
	XSync(d, False);
	XDestroyWindow(d, c);
	XSync(d, False);
	XCloseDisplay(d);
	return 0;
}
*/
import "C"

import (
	"fmt"
	"image"
	"unsafe"
)

// Pixels reads what window win on display shows, w x h pixels from its
// top left, each 0xRRGGBB: what the X server holds, whatever the GL
// driver thinks its front buffer is.
func Pixels(display string, win uint64, w, h int) ([]uint32, error) {
	name := C.CString(display)
	defer C.free(unsafe.Pointer(name))
	out := make([]uint32, w*h)
	switch C.get_pixels(name, C.ulong(win), C.int(w), C.int(h), (*C.uint)(unsafe.Pointer(&out[0]))) {
	case 0:
		return out, nil
	case 1:
		return nil, fmt.Errorf("cannot open display %q", display)
	default:
		return nil, fmt.Errorf("XGetImage of window %d, %dx%d, failed (not that size, or not all on the screen)", win, w, h)
	}
}

// CloseWindow asks window win on display to close, as a window manager's
// close button does.
func CloseWindow(display string, win uint64) error {
	name := C.CString(display)
	defer C.free(unsafe.Pointer(name))
	switch C.send_delete(name, C.ulong(win)) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("cannot open display %q", display)
	default:
		return fmt.Errorf("XSendEvent to window %d failed", win)
	}
}

// Cover puts a window filled with colour pixel (0xRRGGBB) over the
// pixels of window win on display in r (from its top left), and takes
// it away: what it covered is lost, and the X server tells the windows
// it covered (win, its children) to repaint it, as when a user moves
// another window across.
func Cover(display string, win uint64, r image.Rectangle, pixel uint32) error {
	name := C.CString(display)
	defer C.free(unsafe.Pointer(name))
	switch C.cover(name, C.ulong(win), C.int(r.Min.X), C.int(r.Min.Y), C.int(r.Dx()), C.int(r.Dy()), C.ulong(pixel)) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("cannot open display %q", display)
	default:
		return fmt.Errorf("window %d: not on the display", win)
	}
}
