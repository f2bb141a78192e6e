#!/bin/sh
# api-size.sh: the exported identifiers of netplay and netplay/udp as
# go doc -all lists them (types, functions, methods, constants, variables;
# struct fields and promoted methods not counted), and the lines of the
# smallest complete two-player game over a real network
# (examples/netplay/main.go: two processes over UDP).
# Usage: sh scripts/api-size.sh (from the repository root).
set -e
for p in ./netplay ./netplay/udp; do
	printf '%s: ' "$p"
	go doc -all "$p" | awk '
/^type [A-Z]/ {t++}
/^func [A-Z]/ {f++}
/^func \([^)]*\) [A-Z]/ {m++}
/^const [A-Z]/ {c++}
/^var [A-Z]/ {v++}
/^const \(/ {inc=1; next}
/^var \(/ {inv=1; next}
/^\)/ {inc=0; inv=0; next}
inc && /^\t[A-Z][A-Za-z0-9_]*( |$)/ {c++}
inv && /^\t[A-Z][A-Za-z0-9_]*( |$)/ {v++}
END {printf "types %d, funcs %d, methods %d, consts %d, vars %d: %d\n", t, f, m, c, v, t+f+m+c+v}'
done
awk '{n++} /^[ \t]*$/ {b++; next} /^[ \t]*\/\// {c++} END {printf "examples/netplay/main.go: %d lines, %d of code\n", n, n-b-c}' examples/netplay/main.go
