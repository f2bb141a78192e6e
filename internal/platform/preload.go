package platform

/*
#cgo linux LDFLAGS: -ldl
#define _GNU_SOURCE
#include <stdlib.h> // glibc's, which defines __GLIBC__
#if defined(__linux__) && defined(__GLIBC__)
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// What the process had loaded when it started (the executable's own
// libraries), what file the preloading read, and what became of it.
static char *preload_base; // loaded_names' form
static size_t preload_nbase;
static char preload_file[4096];
static pthread_mutex_t preload_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t preload_cv = PTHREAD_COND_INITIALIZER;
static int preload_done = 1;  // no thread running
static int preload_used;      // the file was read and its libraries opened
static int preload_tried, preload_loaded;

// Defined, as 1, by the package internal/platform/preloadon, in the
// programs that preload.
extern int interpdemo_preload_on __attribute__((weak));

enum { preload_max_age = 24 * 60 * 60, preload_max_bytes = 64 * 1024 };

// The libraries loaded now, as names one after another, each ended by a
// NUL, in buf (n bytes); the bytes needed, which may be more than n.
struct loaded_buf { char *p; size_t n, used; };

static int loaded_add(struct dl_phdr_info *info, size_t size, void *data) {
	(void)size;
	struct loaded_buf *b = data;
	if (info->dlpi_name == NULL || info->dlpi_name[0] != '/') {
		return 0;
	}
	size_t k = strlen(info->dlpi_name) + 1;
	if (b->used + k <= b->n) {
		memcpy(b->p + b->used, info->dlpi_name, k);
	}
	b->used += k;
	return 0;
}

static size_t loaded_names(char *buf, size_t n) {
	struct loaded_buf b = {buf, n, 0};
	dl_iterate_phdr(loaded_add, &b);
	return b.used;
}
// preload_path is the preload file: $XDG_CACHE_HOME/interpdemo/gl-preload,
// or $HOME/.cache/interpdemo/gl-preload, as Go's os.UserCacheDir finds it.
static int preload_path(char *buf, size_t n) {
	const char *x = getenv("XDG_CACHE_HOME");
	int w;
	if (x != NULL && x[0] != '\0') {
		if (x[0] != '/') {
			return 0;
		}
		w = snprintf(buf, n, "%s/interpdemo/gl-preload", x);
	} else {
		const char *h = getenv("HOME");
		if (h == NULL || h[0] != '/') {
			return 0;
		}
		w = snprintf(buf, n, "%s/.cache/interpdemo/gl-preload", h);
	}
	return w > 0 && (size_t)w < n;
}

// preload_safe says whether path may be opened: an absolute path to a
// regular file that only its owner can write, the owner being root or
// this user.
static int preload_safe(const char *path) {
	struct stat st;
	if (path[0] != '/' || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		return 0;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		return 0;
	}
	return st.st_uid == 0 || st.st_uid == getuid();
}

static void *preload_run(void *arg) {
	(void)arg;
	FILE *f = fopen(preload_file, "re");
	char line[4096];
	int tried = 0, loaded = 0;
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		size_t k = strcspn(line, "\r\n");
		if (line[k] == '\0' && !feof(f)) {
			break; // a line too long: not ours
		}
		line[k] = '\0';
		if (line[0] == '\0') {
			continue;
		}
		tried++;
		// RTLD_NOW: every relocation done here, none left for the
		// driver's own dlopen on the main thread. RTLD_LOCAL: nothing
		// made visible that the driver's loader would not make so.
		if (preload_safe(line) && dlopen(line, RTLD_NOW | RTLD_LOCAL) != NULL) {
			loaded++;
		}
	}
	if (f != NULL) {
		fclose(f);
	}
	pthread_mutex_lock(&preload_mu);
	preload_tried = tried;
	preload_loaded = loaded;
	preload_done = 1;
	pthread_cond_broadcast(&preload_cv);
	pthread_mutex_unlock(&preload_mu);
	return NULL;
}

// preload_start runs as the executable is loaded, before Go's runtime
// starts: it notes the libraries loaded so far and, if the preload file
// is fresh, opens the libraries it lists on a thread of its own, with
// every signal blocked there (Go's handlers are for Go's threads).
__attribute__((constructor)) static void preload_start(void) {
	size_t n = loaded_names(NULL, 0);
	if ((preload_base = malloc(n)) != NULL) {
		preload_nbase = loaded_names(preload_base, n); // no library loads meanwhile: one thread
	}
	const char *off = getenv("INTERPDEMO_PRELOAD");
	if (&interpdemo_preload_on == NULL || !interpdemo_preload_on || (off != NULL && strcmp(off, "0") == 0) ||
	    !preload_path(preload_file, sizeof preload_file)) {
		preload_file[0] = '\0';
		return;
	}
	struct stat st;
	time_t now = time(NULL);
	if (stat(preload_file, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > preload_max_bytes ||
	    now - st.st_mtime > preload_max_age || st.st_mtime - now > 300) {
		return; // none, or stale: this start learns afresh (Open)
	}
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_t a;
	pthread_t t;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	preload_done = 0;
	preload_used = 1;
	if (pthread_create(&t, &a, preload_run, NULL) != 0) {
		preload_done = 1;
		preload_used = 0;
	}
	pthread_attr_destroy(&a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

// preload_wait waits up to ms milliseconds for the preloading thread to
// finish; it reports whether it has.
static int preload_wait(int ms) {
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&preload_mu);
	int r = 0;
	while (!preload_done && r != ETIMEDOUT) {
		r = pthread_cond_timedwait(&preload_cv, &preload_mu, &until);
	}
	int done = preload_done;
	pthread_mutex_unlock(&preload_mu);
	return done;
}

static void preload_status(int *used, int *tried, int *loaded) {
	pthread_mutex_lock(&preload_mu);
	*used = preload_used;
	*tried = preload_tried;
	*loaded = preload_loaded;
	pthread_mutex_unlock(&preload_mu);
}

static const char *preload_file_name(void) { return preload_file; }
static const char *preload_base_names(size_t *n) { *n = preload_nbase; return preload_base; }

#else
static int preload_wait(int ms) { (void)ms; return 1; }
static void preload_status(int *used, int *tried, int *loaded) { *used = *tried = *loaded = 0; }
static const char *preload_file_name(void) { return ""; }
static const char *preload_base_names(size_t *n) { *n = 0; return NULL; }
static size_t loaded_names(char *buf, size_t n) { (void)buf; (void)n; return 0; }
#endif
*/
import "C"

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/interpdemo/interpdemo/atomicfile"
)

// Loading the GL driver early.
//
// Most of a start's time before the first frame is the GL driver's
// loading: SDL opens libEGL or libGL, which opens the driver, and the
// dynamic loader maps it and its libraries and resolves their symbols,
// all on the main thread. Mesa's software driver (swrast_dri.so, with
// LLVM) alone takes 60 ms to open on this project's machine
// (dlopen(RTLD_NOW), 3 runs, 2026-11-28), while the machine's other core
// waits. Which libraries a start will open depends on the machine and
// its drivers, so the demo learns them: Open (with Options.Preload)
// writes the libraries that opening the window and context loaded to a
// file in the user's cache directory, and at the next start, as the
// executable is loaded and before Go's runtime starts, a thread of the
// platform's own opens them (preload_start), beside the main thread's
// start-up; when SDL opens the driver, it is already loaded. What the
// main thread gains is bounded by the loader: glibc holds a lock (its
// TLS lock) through a dlopen's mapping and relocating, and every
// pthread_create takes it, so the Go runtime's first new thread (sysmon,
// before any package's init) waits for the preloading to end; what
// overlaps is the end of the exec and the start of Go's runtime: 6 to
// 7 ms less start-up on this project's machine. A process
// that exits at once (a bad flag) waits for it too. Open waits for it
// before it changes the environment (setenv): the libraries' constructors
// read it as they load (getenv), and a setenv beside them may free the
// array a getenv is reading, on a thread where every signal is blocked,
// which kills the process with nothing said.
//
// The file is learned afresh once a day (a file older than that is not
// read, and the start that does not preload rewrites it), and where a
// start finds its driver loaded libraries the file did not list (another
// driver, a window rather than headless) the file gains them.
// INTERPDEMO_PRELOAD=0 turns both the preloading and the learning off.

// preloadEnv turns preloading and learning off when set to 0.
const preloadEnv = "INTERPDEMO_PRELOAD"

// preloadDeadline is how long Open waits for the start's preloading to
// finish before it changes the environment (about 60 ms here; a
// preloading that takes longer is left to run, and Open goes on).
const preloadDeadline = 5 * time.Second

// preloadState is what the start's preloading did: whether it read the
// file (used), how many libraries it listed (tried) and how many opened.
type preloadState struct {
	used          bool
	tried, loaded int
}

// waitPreload waits up to d for the start's preloading to finish and
// reports whether it has, with what it did.
func waitPreload(d time.Duration) (preloadState, bool) {
	done := C.preload_wait(C.int(d.Milliseconds())) != 0
	var used, tried, loaded C.int
	C.preload_status(&used, &tried, &loaded)
	return preloadState{used: used != 0, tried: int(tried), loaded: int(loaded)}, done
}

// preloadFile is the file the start read, or would have read: "" where
// there is none (no cache directory, or INTERPDEMO_PRELOAD=0).
func preloadFile() string { return C.GoString(C.preload_file_name()) }

// startLibraries are the libraries loaded when the executable started.
func startLibraries() []string {
	var n C.size_t
	p := C.preload_base_names(&n)
	if p == nil || n == 0 {
		return nil
	}
	return splitNames(unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n)))
}

// loadedLibraries are the libraries loaded now, by path, in load order.
func loadedLibraries() []string {
	buf := make([]byte, 16<<10)
	for {
		n := int(C.loaded_names((*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf))))
		if n <= len(buf) {
			return splitNames(buf[:n])
		}
		buf = make([]byte, n+n/4)
	}
}

// splitNames splits loaded_names' form: names, each ended by a NUL.
func splitNames(b []byte) []string {
	var out []string
	for s := range bytes.SplitSeq(b, []byte{0}) {
		if len(s) > 0 {
			out = append(out, string(s))
		}
	}
	return out
}

// nextPreload is what the preload file should list after a start whose
// window and context are open. st is what the start's preloading did
// from the libraries cached (the file's list), and since the libraries
// loaded since the process started. A start that did not preload writes
// since: what the driver loaded on its own. A start that preloaded
// keeps the file, unless the driver loaded libraries it did not list,
// which it adds, or some of its libraries did not open, when it writes
// since (what did open, and what the driver added).
func nextPreload(st preloadState, cached, since []string) (list []string, write bool) {
	if !st.used {
		return since, len(since) > 0
	}
	if st.loaded < st.tried {
		return since, true
	}
	list = slices.Clone(cached)
	for _, l := range since {
		if !slices.Contains(list, l) {
			list = append(list, l)
		}
	}
	return list, len(list) > len(cached)
}

// parsePreload reads the preload file's list: one absolute path a line.
func parsePreload(b []byte) []string {
	var out []string
	for l := range strings.Lines(string(b)) {
		if l = strings.TrimRight(l, "\r\n"); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// learnPreload updates the preload file after Open made the window and
// its context, as nextPreload decides. It waits for the start's
// preloading (long done, as a rule: the driver's loading waited for it)
// so that what it reads is whole. A cache it cannot write is no error:
// the next start loads the driver as it always did.
func learnPreload() error {
	name := preloadFile()
	if name == "" || os.Getenv(preloadEnv) == "0" {
		return nil
	}
	st, done := waitPreload(preloadDeadline)
	if !done {
		return nil
	}
	var cached []string
	if st.used {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil
		}
		cached = parsePreload(b)
	}
	start := startLibraries()
	var since []string
	for _, l := range loadedLibraries() {
		if !slices.Contains(start, l) {
			since = append(since, l)
		}
	}
	list, write := nextPreload(st, cached, since)
	if !write {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(name, func(w io.Writer) error {
		_, err := io.WriteString(w, strings.Join(list, "\n")+"\n")
		return err
	})
}
