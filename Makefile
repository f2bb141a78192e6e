# interpdemo — see README.md.
GO ?= go
BIN ?= bin/interpdemo
ARGS ?=

# Packages that are pure Go (no cgo): tested with the race detector
# (those that start goroutines), and on a 32-bit target.
PURE := ./internal/sim/... ./internal/report/... ./internal/trace/... \
	./internal/stats/... ./internal/hud/... ./render/positions/... ./render/letterbox/... \
	./render/occlusion/... ./render/paint/... ./render/adaptive/... ./internal/demo/... ./internal/web/... ./examples/terminal/... ./examples/replay/...
# The library's own modules (loop, physics, input, replay, atomicfile,
# netplay and its transport), nested in this repository so that a game
# importing them gets none of the demo's dependencies: pure Go too,
# through every step that PURE goes through. make test names their
# packages from here (LIBPKGS: the workspace, go.work, reaches them, as
# it does from their folders), in the same go command as PURE's, so that
# go test runs the packages of every module side by side, two at a time
# on two cores: the race detector's pass took 139 s module by module and
# 94 s so (2026-12-02, this 2-core machine). A pattern does not reach
# into a nested module (./netplay/... is not ./netplay/webrtc/...):
# each module is named.
LIBS := loop physics input replay atomicfile netplay netplay/webrtc
LIBPKGS := $(foreach m,$(LIBS),./$(m)/...)
# inlibs runs a command in each of LIBS' folders, stopping at a failure.
inlibs = for m in $(LIBS); do (cd $$m && echo "($$m) $(1)" && $(1)) || exit 1; done
# The 386 tests run all of LIBS but netplay/webrtc (WebRTC and a
# WebSocket lobby over real sockets, too slow and timing-bound under
# qemu-i386's emulation), which is built for 386 and vetted there, not run.
LIBS386 := loop physics input replay atomicfile netplay
LIBPKGS386 := $(foreach m,$(LIBS386),./$(m)/...)
# The demo's core and what it stands on, as the web page builds them
# (GOOS=js GOARCH=wasm): make test vets them there, with the page itself
# (internal/web, cmd/web), whose tests run it in Chromium, and LIBS in
# their folders.
WASM := ./internal/sim/... \
	./internal/demo/... ./internal/hud/... ./internal/report/... ./internal/trace/... ./internal/stats/... ./render/positions/... ./render/letterbox/... \
	./render/occlusion/... ./render/paint/... ./render/adaptive/... ./internal/room/...
# The oldest Go the module supports (go.mod's go line), fetched through
# the module proxy: the library's modules, which games build with their
# own Go, are tested with it; the demo's pure packages are compiled and
# vetted with it, tests included (an API newer than it fails there).
GOMIN := $(shell sed -n 's/^go //p' go.mod)
# staticcheck, pinned: make lint fetches it through the module proxy.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
# The same for what the page builds (the page, the demo's core under it,
# and the library's modules): built for this machine, run with
# GOOS=js GOARCH=wasm (go run's -exec), so that it checks them as the
# browser's build sees them (code only the native build uses is unused
# there). (GOOS=js before go run builds the tool itself
# for js/wasm, which this machine cannot execute.)
STATICCHECK_WASM ?= $(GO) run -exec 'env GOOS=js GOARCH=wasm' honnef.co/go/tools/cmd/staticcheck@v0.8.2
# Debian/Ubuntu packages: the SDL2 headers to build, Xvfb and xdotool to test.
BUILD_PKGS := libsdl2-dev pkg-config
# (libgl1-mesa-dri and libegl-mesa0 are Mesa's llvmpipe, the GL the tests
# draw with: under Xvfb through GLX, headless through EGL.)
TEST_PKGS := xvfb xdotool libgl1-mesa-dri libegl-mesa0
# The Ebitengine examples (examples/ebiten, examples/ebiten-netplay): the X11 and OpenGL headers to
# build it, and xvfb-run (which needs xauth) to give its tests a display.
EBITEN_PKGS := libx11-dev libxrandr-dev libxcursor-dev libxinerama-dev libxi-dev libxxf86vm-dev libgl1-mesa-dev xvfb xauth

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: api all build run test test-pure test-gl test-386 bench lint deps test-deps clean fuzz plot test-ebiten test-ebiten-deps web serve browser-deps lobby

all: build

# Install the SDL2 development files when pkg-config cannot find them.
deps:
	@pkg-config --exists sdl2 2>/dev/null || { \
		echo "make: installing $(BUILD_PKGS) (SDL2 headers for go-sdl2)"; \
		$(APT) update -qq && $(APT) install -y -qq $(BUILD_PKGS); }

test-deps: deps
	@command -v Xvfb >/dev/null && command -v xdotool >/dev/null && \
	{ ! command -v dpkg >/dev/null || dpkg -s libgl1-mesa-dri libegl-mesa0 >/dev/null 2>&1; } || { \
		echo "make: installing $(TEST_PKGS) (the GL and end-to-end tests run under Xvfb)"; \
		$(APT) update -qq && $(APT) install -y -qq $(TEST_PKGS); }

build: deps
	$(GO) build -o $(BIN) .

run: build
	./$(BIN) $(ARGS)

# The demo as a web page: the same core compiled to WebAssembly, drawn
# with WebGL2 (cmd/web, internal/web). make serve serves it on 127.0.0.1.
WEB ?= bin/web
WEBADDR ?= 127.0.0.1:8080
web:
	@mkdir -p $(WEB)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -o $(WEB)/interpdemo.wasm ./cmd/web
	cp cmd/web/index.html $(WEB)/index.html
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(WEB)/wasm_exec.js

serve: web
	$(GO) run ./cmd/serve -dir $(WEB) -addr $(WEBADDR)

# A lobby (cmd/lobby) for games over WebRTC, on LOBBYADDR: it prints the
# commands of two native players and the page's URLs (the page on
# WEBADDR, make serve's) that play one game in its room ROOM, at the
# address it really listens on (make lobby LOBBYADDR=127.0.0.1:0 picks a port).
LOBBYADDR ?= 127.0.0.1:8780
ROOM ?= r1
lobby: build web
	$(GO) build -o bin/lobby ./cmd/lobby
	./bin/lobby -addr $(LOBBYADDR) -show-room $(ROOM) -show-page http://$(WEBADDR)/

# The browser the web page's tests run in: Debian's chromium.
browser-deps:
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null || { \
		echo "make: installing chromium (the web page's tests run in it, headless)"; \
		$(APT) update -qq && $(APT) install -y -qq chromium; }

# Every test. INTERPDEMO_REQUIRE_GL=1 turns "no display / no GL context"
# skips into failures: here the tests must really run. The race detector
# runs on the pure packages that start a goroutine (scripts/racepkgs
# says which): it reports accesses from two goroutines, and the others
# (the simulation, the loop, netplay's core, the demo's core) start
# none, by design, so there it can find nothing (the pass over them all
# took 200 s of make test's 14 minutes, 2026-12-05, this 2-core
# machine). -parallel 8: the root package's network games (t.Parallel)
# wait on real time, not on the CPU, and go test runs its parallel tests
# only once its others are done: with go test's default of one a core
# they ran 2 at a time (239 s for those tests alone against 134 with 6,
# 2026-11-27); with 8 the phase took 82 s against 92 with 6, the CPU
# half busy in both (2026-12-02, this 2-core machine). The longest games
# (e2e_games_test.go, first in go test's order) take the slots first:
# behind the lobby's tests, a 75 s game started late and the phase took
# 127 s (2026-12-05). The library's modules' whole tests run in the same
# go command, beside the demo's packages. The pacing test (the demo on
# simulated displays, 37 s) measures how evenly frames wake and show:
# beside the other packages' tests (go test runs two at a time here)
# CI's machine woke it late in every attempt (2026-12-03). Where the
# system lets it run the demo in real time (chrt: root, as in CI) other
# load does not reach it (two spinning loops beside it, 2026-12-06), and
# it runs beside the Ebitengine examples' tests; elsewhere alone, before
# them.
PACINGTEST := ^TestPacingOnSimulatedDisplay$$
PACING := INTERPDEMO_REQUIRE_GL=1 $(GO) test -count=1 -timeout 5m -run '$(PACINGTEST)' .
PACINGLOG := $(or $(TMPDIR),/tmp)/interpdemo-pacing.log
test: test-deps browser-deps
	$(GO) vet ./... $(LIBPKGS)
	@dirs=$$($(GO) list -f '{{.Dir}}' $(PURE) $(LIBPKGS)) && pkgs=$$(echo "$$dirs" | $(GO) run ./scripts/racepkgs) && \
		[ -n "$$pkgs" ] && echo "go test -race -short -count=1" $$pkgs && $(GO) test -race -short -count=1 $$pkgs
	GOOS=js GOARCH=wasm $(GO) vet $(WASM) ./internal/web/... ./cmd/web/... $(LIBPKGS)
	$(MAKE) --no-print-directory test-386
	GOTOOLCHAIN=go$(GOMIN) $(GO) vet $(PURE)
	GOTOOLCHAIN=go$(GOMIN) $(GO) test -short -count=1 $(LIBPKGS)
	INTERPDEMO_REQUIRE_GL=1 $(GO) test -count=1 -parallel 8 -timeout 20m -skip '$(PACINGTEST)' ./... $(LIBPKGS)
	@if chrt -f 1 true 2>/dev/null; then \
		echo "$(PACING) (in real time, beside test-ebiten; its output after)"; \
		$(PACING) >$(PACINGLOG) 2>&1 & p=$$!; \
		$(MAKE) --no-print-directory test-ebiten; e=$$?; \
		wait $$p; q=$$?; cat $(PACINGLOG); [ $$e = 0 ] && [ $$q = 0 ]; \
	else \
		echo "$(PACING)" && $(PACING) && $(MAKE) --no-print-directory test-ebiten; \
	fi

# The pure packages as 32-bit code. An amd64 kernel with IA32 emulation
# (most of them) runs 386 programs natively, and every test runs. A kernel
# without it (exec format error) runs them under qemu-i386, QEMU's user
# mode (Debian's qemu-user, installed here when missing), through
# .ci/qemu-386-exec, which says how and why. Two packages' tests
# raise signals of their own (SIGXFSZ from a full file, SIGINT to a child)
# and crash QEMU's 386 emulation the same way: there they are compiled and
# linked for 386, not run, and make says so. (Packages named from here:
# the workspace lets go list reach atomicfile, a module of LIBS386, from
# the top.) Every module's packages go in one go test, which runs two at
# a time: module by module, the library's ran one at a time (115 s for
# the 386 pass, 2026-12-05, this 2-core machine).
PURE386_SIGNALS := ./atomicfile/... ./examples/terminal/...
T386 := $(or $(TMPDIR),/tmp)/interpdemo-386
test-386:
	@rm -rf $(T386) && mkdir -p $(T386)
	@GOARCH=386 $(GO) test -c -o $(T386)/probe.test ./physics/
	@if $(T386)/probe.test -test.run '^$$' >/dev/null 2>&1; then \
		echo "GOARCH=386 $(GO) test -short -count=1 $(PURE) $(LIBPKGS386)"; \
		GOARCH=386 $(GO) test -short -count=1 $(PURE) $(LIBPKGS386) || exit 1; \
	else \
		command -v qemu-i386 >/dev/null || { \
			echo "make: installing qemu-user (this kernel cannot run 32-bit programs: the 386 tests run under qemu-i386)"; \
			$(APT) update -qq && $(APT) install -y -qq qemu-user; }; \
		GODEBUG=asyncpreemptoff=1 qemu-i386 $(T386)/probe.test -test.run '^$$' >/dev/null 2>&1 || { \
			echo "make: qemu-i386 cannot run a 386 test binary"; exit 1; }; \
		signals=$$(GOARCH=386 $(GO) list $(PURE386_SIGNALS)) || exit 1; \
		pkgs=$$(GOARCH=386 $(GO) list $(PURE) $(LIBPKGS386)) || exit 1; \
		run=$$(echo "$$pkgs" | grep -v -x -F "$$signals"); \
		echo "make: NOTE: this kernel cannot run 32-bit (386) programs: the 386 tests run under qemu-i386"; \
		echo "GOARCH=386 $(GO) test -exec $(CURDIR)/.ci/qemu-386-exec -short -count=1" $$run; \
		GOARCH=386 $(GO) test -exec $(CURDIR)/.ci/qemu-386-exec -short -count=1 $$run || exit 1; \
		echo "make: NOTE: the 386 tests of $(PURE386_SIGNALS) raise signals QEMU cannot deliver: compiled and linked for 386, not run"; \
		for p in $$signals; do \
			GOARCH=386 $(GO) test -c -o $(T386)/$$(echo $$p | tr / _).test $$p || exit 1; \
		done; \
	fi
	@cd netplay/webrtc && echo "(netplay/webrtc) GOARCH=386 $(GO) vet ./..." && GOARCH=386 $(GO) vet ./...
	@rm -rf $(T386)

# The Ebitengine example is a module of its own, so that this one does not
# depend on Ebitengine; go test ./... above does not reach it. On Linux
# Ebitengine connects to the X server when its package is initialised, so
# even its display-free tests need a display: xvfb-run gives them Xvfb's.
# examples/ebiten-netplay also builds for the browser (GOOS=js), and its
# tests play it in headless Chromium against a native copy.
test-ebiten-deps:
	@{ ! command -v dpkg >/dev/null || dpkg -s $(EBITEN_PKGS) >/dev/null 2>&1; } && command -v xvfb-run >/dev/null || { \
		echo "make: installing $(EBITEN_PKGS) (to build the Ebitengine example and test it under Xvfb)"; \
		$(APT) update -qq && $(APT) install -y -qq $(EBITEN_PKGS); }

test-ebiten: test-ebiten-deps browser-deps
	cd examples/ebiten && $(GO) vet ./... && \
		xvfb-run -a -s "-screen 0 1280x1024x24 -nolisten tcp" $(GO) test -count=1 -timeout 5m ./...
	cd examples/ebiten-netplay && $(GO) vet ./... && GOOS=js GOARCH=wasm $(GO) vet ./... && \
		xvfb-run -a -s "-screen 0 1280x1024x24 -nolisten tcp" $(GO) test -count=1 -timeout 5m ./...

# Go benchmarks and the headless scenario matrix -> docs/PERFORMANCE.md
# (about 40 minutes on a 2-core machine). perf, if installed, adds where the CPU time goes.
bench: build test-ebiten-deps browser-deps
	$(GO) run ./cmd/bench -bin $(BIN) -go $(GO)

lint: deps test-ebiten-deps
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...
	$(STATICCHECK_WASM) $(WASM) ./internal/web/... ./cmd/web/... $(LIBPKGS)
	@$(call inlibs,$(GO) vet ./... && $(STATICCHECK) ./...)
	cd examples/ebiten && $(GO) vet ./... && $(STATICCHECK) ./...
	cd examples/ebiten-netplay && $(GO) vet ./... && $(STATICCHECK) ./... && \
		GOOS=js GOARCH=wasm $(GO) vet ./... && $(STATICCHECK_WASM) ./...
	@# The other engines make bench runs beside the demo: modules of their own, outside the workspace.
	for d in cmd/bench/engines/ebiten cmd/bench/engines/raylib; do \
		(cd $$d && GOWORK=off $(GO) vet ./... && GOWORK=off $(STATICCHECK) ./...) || exit 1; done
	@# Rooms of human size: no Go file outside the tests over 800 lines, no
	@# function over 80, in every module (scripts/roomsize, one line for each).
	$(GO) run ./scripts/roomsize
	@# The library's public API (netplay, netplay/udp, netplay/netsim,
	@# netplay/webrtc, loop) against its baseline in api/: any change fails
	@# until it is recorded (make api) in the same change.
	GO="$(GO)" ./scripts/api.sh check

# Record the library's public API as the baseline make lint checks
# against (api/), after changing it on purpose (say so in CHANGELOG.md).
api:
	GO="$(GO)" ./scripts/api.sh record

# Each fuzz target for 30 s (FUZZTIME=… to change).
FUZZTIME ?= 30s
# A target fails on a failing input, which go test writes under the
# package's testdata/fuzz. Go 1.26's fuzzing can also end a clean run with
# "context deadline exceeded" as -fuzztime runs out, writing nothing
# (golang/go#75804, a race in its coordinator, fixed in Go 1.27; seen here
# on 2026-12-04): that is said, and not counted as a failure.
FUZZOUT := $(or $(TMPDIR),/tmp)/interpdemo-fuzz
fuzz:
	@for pkg in loop physics input replay netplay lobby; do \
		dir=.; case $$pkg in loop|physics|input|replay|netplay) dir=$$pkg; pkg=. ;; lobby) dir=netplay/webrtc; pkg=./lobby ;; *) pkg=./$$pkg ;; esac; \
		for f in $$(cd $$dir && $(GO) test -list '^Fuzz' $$pkg | grep ^Fuzz); do \
			echo "== $$dir $$pkg $$f"; \
			corpus=$$dir/$${pkg#./}/testdata/fuzz/$$f; before=$$(ls $$corpus 2>/dev/null | wc -l); \
			{ (cd $$dir && $(GO) test $$pkg -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME)); echo $$? >$(FUZZOUT).rc; } 2>&1 | tee $(FUZZOUT).log; \
			[ "$$(cat $(FUZZOUT).rc)" = 0 ] && continue; \
			if [ "$$(ls $$corpus 2>/dev/null | wc -l)" = "$$before" ] && grep -q '^    context deadline exceeded$$' $(FUZZOUT).log && ! grep -q 'Failing input' $(FUZZOUT).log; then \
				echo "make fuzz: $$f ended with Go's 'context deadline exceeded' as -fuzztime ran out and wrote no failing input (golang/go#75804): not a failure"; \
			else exit 1; fi; \
		done; \
	done

# The pictures of the README and docs/LOOP.md, each from real runs of the demo (headless):
#   docs/screenshot.png     the window: 100 balls, ghosts on
#   docs/interpolation.gif  one ball at 5 ticks per second and 25 FPS with
#                           ghosts: 2 s interpolated, then 2 s not
#   docs/interpolation.png  where ball 0 is drawn at 60 FPS: off,
#                           interpolated, extrapolated, with the ticks
#   docs/trace-300ms.png    frame times with a 300 ms render load
#   docs/web.png            the web page in headless Chromium (a test takes it)
PLOTTMP := bin/plot
plot: build browser-deps
	mkdir -p $(PLOTTMP)
	./$(BIN) -headless -balls 100 -ghosts -duration 3s -screenshot docs/screenshot.png
	./$(BIN) -headless -width 613 -height 460 -radius 16 -tick 200ms -ghosts -fps-cap 25 -duration 2s -graph=false -gif $(PLOTTMP)/on.gif
	./$(BIN) -headless -width 613 -height 460 -radius 16 -tick 200ms -ghosts -fps-cap 25 -duration 2s -graph=false -interp=false -gif $(PLOTTMP)/off.gif
	$(GO) run ./cmd/figures gifcat -o docs/interpolation.gif $(PLOTTMP)/on.gif $(PLOTTMP)/off.gif
	./$(BIN) -headless -fps-cap 60 -duration 1.7s -hud=false -graph=false -interp=false -trace $(PLOTTMP)/off.csv
	./$(BIN) -headless -fps-cap 60 -duration 1.7s -hud=false -graph=false -trace $(PLOTTMP)/on.csv
	./$(BIN) -headless -fps-cap 60 -duration 1.7s -hud=false -graph=false -extrapolate -trace $(PLOTTMP)/extrapolate.csv
	$(GO) run ./cmd/figures positions -o docs/interpolation.png -from 1s -to 1.5s \
		-title "ball 0's x as drawn at 60 FPS, logic at 25 ticks per second" \
		"off: steps at the tick rate=$(PLOTTMP)/off.csv" \
		"interpolated: smooth, one tick behind=$(PLOTTMP)/on.csv" \
		"extrapolated: ahead, overshoots at the wall=$(PLOTTMP)/extrapolate.csv"
	./$(BIN) -headless -render-load 300ms -duration 6s -hud=false -graph=false -trace docs/trace-300ms.csv
	$(GO) run ./cmd/plottrace -title "interpdemo -render-load 300ms: every frame runs MAX_LOOPS=5 ticks and discards debt" \
		-o docs/trace-300ms.png docs/trace-300ms.csv
	INTERPDEMO_REQUIRE_GL=1 INTERPDEMO_WEB_SCREENSHOT=$(CURDIR)/docs/web.png $(GO) test -count=1 -run '^TestWebSpaceTogglesInterpolation$$' .
	rm -rf $(PLOTTMP)

clean:
	rm -rf bin
	rm -f interpdemo bench plottrace
