// Package libdeps holds no code: its test checks that each of the
// library's modules (loop, physics, input, replay, atomicfile) brings a
// game nothing of the demo, each against its own short list of what it
// may depend on. One table here, rather than a copy of the test in each
// module: a helper shared by the modules' own tests would have to be a
// module that each of them requires, which is the very dependency the
// test forbids.
package libdeps
