// Package preloadon turns on, in the program that imports it, the early
// loading of the GL driver's libraries that internal/platform does as
// the executable is loaded (see its preload.go): the demo and the
// start-up floor import it, and tests do not, but for platform's own,
// so that no other test process has a thread loading libraries beside
// what it measures.
package preloadon

/*
// Read by internal/platform's constructor through a weak reference: a
// program without this package has none, and preloads nothing.
int interpdemo_preload_on = 1;
*/
import "C"
