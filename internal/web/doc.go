// Package web is the demo's front end in a browser: the same core
// (internal/demo, and through it the simulation, the loop and the pacer)
// compiled to WebAssembly, the flags read from the page's query, the
// loop driven by requestAnimationFrame (a call of the export
// interpdemo_frame a frame: loop.go), the world drawn with WebGL2 and
// the window's own shaders (package shaders, their version line swapped
// for GLSL ES 3.00), the HUD and the graph from package hud as in the
// window. cmd/web is its program; make web builds the page into bin/web.
//
// What the page decides lives here; what the demo decides lives in
// internal/demo. The files without a js build constraint (the query, the
// keys, the files) are tested on any platform; the rest runs in a
// browser, where the root package's browser tests drive it in Chromium.
package web
