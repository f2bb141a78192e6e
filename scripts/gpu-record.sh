#!/bin/bash
# Records the demo's headless ball matrix on a GPU machine, in the format of
# docs/gpu/*.jsonl (a header line, then one line a run), which
# `go run ./cmd/bench` shows in PERFORMANCE.md's section of recordings.
#
# Here: make build; build the reference (git worktree add ../ref 4222101 &&
# make -C ../ref build); bash ../shared/gpu/pack.sh bin/interpdemo
# ../ref/bin/interpdemo (fills .gpu/: this build as .gpu/bin/interpdemo, the
# reference as .gpu/bin/interpdemo-XXXXXX, their libraries, glvnd). Then one
# device run, carrying .gpu, with the commits named:
#   BUILD=$(git rev-parse --short HEAD) REF=4222101 bash scripts/gpu-record.sh
# and copy $OUT/gpu.jsonl to docs/gpu/DATE-HHMM-GPU.jsonl, named by its
# header's time (UTC): the names sort by time, and target 21 reads the
# newest.
# Env: NS (ball counts), S (seconds a run), ROUNDS, FORCED (ball counts also
# run with -cull on and off, in each round), PROF (a ball count: a CPU
# profile of each build there, after the rounds, to $OUT/prof-this.pprof and
# prof-ref.pprof), GPU_DIR (default .gpu).
set -u
cd "$(dirname "$0")/.." || exit 1
G=${GPU_DIR:-.gpu}
this=$G/bin/interpdemo
ref=$(ls "$G"/bin/interpdemo-* 2>/dev/null | head -1)
[ -x "$this" ] && [ -x "$ref" ] || { echo "gpu-record: want $G/bin/interpdemo and $G/bin/interpdemo-* (pack.sh)"; exit 1; }
[ -n "${BUILD:-}" ] && [ -n "${REF:-}" ] || { echo "gpu-record: name the commits: BUILD=... REF=..."; exit 1; }
if [ -d "$G/deb" ]; then for f in "$G"/deb/*.deb; do dpkg -x "$f" /; done; ldconfig; fi
v=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f $v ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$v
export LD_LIBRARY_PATH=$PWD/$G/lib SDL_VIDEODRIVER=offscreen
out=${OUT:-/tmp}/gpu.jsonl; runs=${OUT:-/tmp}/gpu-runs.jsonl # the runs so far, kept if the call runs out of time
: >"$runs"
# As the recordings name their machine: "NAME (one, driver D), N CPU cores".
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | awk -F', ' -v n="$(nvidia-smi -L 2>/dev/null | wc -l)" -v c="$(nproc)" \
  'NR==1 {k = n == 1 ? "one" : n; printf "%s (%s, driver %s), %s CPU cores", $1, k, $2, c}')
recorded=$(date -u '+%Y-%m-%d %H:%M UTC')
args="-headless -vsync off -hud=false -graph=false -stats -duration ${S:-4}s"
renderer=
one() { # build balls cull round binary [flags]
  local b=$1 n=$2 c=$3 r=$4 bin=$5; shift 5
  local s; s=$(timeout 120 "$bin" $args -balls "$n" "$@" 2>/tmp/gpu-record-err.txt | tail -1)
  case "$s" in \{*) ;; *) echo "gpu-record: $b $n balls failed: $(tail -1 /tmp/gpu-record-err.txt)"; s=null;; esac
  [ -z "$renderer" ] && [ "$s" != null ] && renderer=$(printf '%s' "$s" | sed -n 's/.*"gl_renderer":"\([^"]*\)".*/\1/p')
  printf '{"build":"%s","balls":%d,"cull":"%s","round":%d,"stats":%s}\n' "$b" "$n" "$c" "$r" "$s" >>"$runs"
  echo "$b $n ${c:+-cull $c }round $r: $(printf '%s' "$s" | grep -o '"fps":[0-9.]*')"
}
forced=${FORCED:-10000 100000}
for r in $(seq "${ROUNDS:-2}"); do
  for n in ${NS:-1 1000 10000 100000 1000000}; do
    one this "$n" "" "$r" "$this"
    one ref "$n" "" "$r" "$ref"
    case " $forced " in *" $n "*) for c in on off; do one this "$n" "$c" "$r" "$this" -cull "$c"; done;; esac
  done
done
if [ -n "${PROF:-}" ]; then
  timeout 120 "$this" $args -balls "$PROF" -cpuprofile "${OUT:-/tmp}/prof-this.pprof" >/dev/null 2>&1
  timeout 120 "$ref" $args -balls "$PROF" -cpuprofile "${OUT:-/tmp}/prof-ref.pprof" >/dev/null 2>&1
  echo "gpu-record: CPU profiles at $PROF balls in ${OUT:-/tmp}"
fi
cmd="SDL_VIDEODRIVER=offscreen BIN $args -balls N [-cull on|off]"
printf '{"header":{"recorded":"%s","gpu":"%s","gl_renderer":"%s","build":"%s","ref":"%s","command":"%s","order":"per round, at each ball count in turn: this build, %s'"'"'s, then (at %s balls) this build with -cull on and with -cull off","window":"not measured by this script"}}\n' \
  "$recorded" "${gpu:-unknown GPU}" "$renderer" "$BUILD" "$REF" "$cmd" "$REF" "${forced// /, }" >"$out"
cat "$runs" >>"$out"; rm -f "$runs"
echo "gpu-record: wrote $out"
