package platform

/*
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
static int keep_heap_top(int bytes) { return mallopt(M_TRIM_THRESHOLD, bytes); }
#else
static int keep_heap_top(int bytes) { return 0; }
#endif

// churn allocates n blocks of size bytes from the C heap, writes them,
// and frees them, last first: what a GL driver's per-frame buffers do.
static int churn(int n, int size) {
	void **p = malloc(n * sizeof(void *));
	if (p == NULL) {
		return 0;
	}
	for (int i = 0; i < n; i++) {
		if ((p[i] = malloc(size)) == NULL) {
			while (i-- > 0) {
				free(p[i]);
			}
			free(p);
			return 0;
		}
		memset(p[i], 1, size);
	}
	for (int i = n - 1; i >= 0; i--) {
		free(p[i]);
	}
	free(p);
	return 1;
}
*/
import "C"

import (
	"os"
	"strings"
	"sync"
)

// heapTopKept is how much free memory glibc's malloc may keep at the top
// of a heap before it gives it back to the system (M_TRIM_THRESHOLD; 128
// KiB by default, raised by glibc itself only after a large block mapped
// on its own is freed).
//
// The GL driver allocates and frees its buffers every frame through
// malloc. With the default, the heap's top was given back at the end of
// each frame and taken again in the next, every page of it faulted in
// afresh: llvmpipe at 10,000 balls, strace -e brk, about 8 to 14 calls a
// frame, grows of 192 KiB and trims of 896 KiB (2026-11-28). Kept, the
// same pages serve every frame: on this project's 2-core machine
// (llvmpipe, 2026-11-28 about 00:55 UTC, the builds' runs with and
// without it in turn, 3 s each) headless at 1 ball 66,000 FPS against
// 47,000, at 10,000 balls 80 to 95 against 65 to 75 (frame p99 26 ms
// against 44), at 100,000 balls 50 to 52 against 45 to 46 (p99 121
// against 215); in a window under Xvfb at 10,000 balls with the overlays
// off 75 to 79 FPS against 46 to 48; at 1,000,000 balls and in a window
// at 1,000 balls, no change. The cost is memory kept: 17 MiB more
// resident at 100,000 balls, 1 to 6 MiB at 1 to 10,000.
const heapTopKept = 32 << 20

var (
	keepHeapOnce sync.Once
	heapKept     bool // keepHeapTop set the threshold
)

// keepHeapTop sets heapTopKept as glibc's trim threshold, on its first
// call, and reports whether it is set: not where the user tunes glibc's
// malloc (MALLOC_TRIM_THRESHOLD_, or a glibc.malloc tunable in
// GLIBC_TUNABLES), and not with another C library.
func keepHeapTop() bool {
	keepHeapOnce.Do(func() {
		heapKept = !mallocTuned() && C.keep_heap_top(C.int(heapTopKept)) == 1
	})
	return heapKept
}

// mallocTuned reports whether the environment tunes glibc's malloc.
func mallocTuned() bool {
	if _, set := os.LookupEnv("MALLOC_TRIM_THRESHOLD_"); set {
		return true
	}
	return strings.Contains(os.Getenv("GLIBC_TUNABLES"), "glibc.malloc.")
}

// churnCHeap allocates n blocks of size bytes from the C heap, writes
// them and frees them; for tests.
func churnCHeap(n, size int) bool { return C.churn(C.int(n), C.int(size)) == 1 }
