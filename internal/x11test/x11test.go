// Package x11test lets end-to-end tests close a window the way a window
// manager does: by sending it a WM_DELETE_WINDOW client message, which SDL
// turns into SDL_QUIT. (xdotool's windowclose destroys the window instead,
// which no real user can do.) It is only imported by tests.
package x11test

/*
#cgo pkg-config: x11
#include <stdlib.h>
#include <string.h>
#include <X11/Xlib.h>

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
*/
import "C"

import (
	"fmt"
	"unsafe"
)

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
