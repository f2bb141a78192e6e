#!/usr/bin/env bash
# api.sh check|record: the public API of the library's packages against
# the baseline committed under api/ (apidiff's export data, one file a
# package). check fails on any change, compatible or not, naming it;
# record writes the baseline anew (do it in the change that changes the
# API on purpose, and say so in CHANGELOG.md). Run from the repository
# root; GO and APIDIFF may be set.
set -euo pipefail
mode=${1:?usage: api.sh check|record}
GO=${GO:-go}
APIDIFF=${APIDIFF:-"$GO run golang.org/x/exp/cmd/apidiff@v0.0.0-20261113113407-e3970619a1a4"}
root=$(pwd)
mod=github.com/interpdemo/interpdemo
# module folder, package folder inside it
pkgs="netplay:. netplay:udp netplay:netsim netplay/webrtc:. loop:."
failed=0
for p in $pkgs; do
	dir=${p%%:*} sub=${p#*:}
	path=$mod/$dir
	[ "$sub" = . ] || path=$path/$sub
	name=$(echo "${path#$mod/}" | tr / .)
	base=$root/api/$name.export
	case $mode in
	record)
		(cd "$dir" && $APIDIFF -w "$base" "$path")
		echo "api: recorded $path";;
	check)
		if [ ! -f "$base" ]; then
			echo "api: $path has no baseline ($base): record it with make api"; failed=1; continue
		fi
		out=$(cd "$dir" && $APIDIFF "$base" "$path")
		if [ -n "$out" ]; then
			echo "api: $path changed against its baseline (api/$name.export):"
			echo "$out" | sed 's/^/  /'
			failed=1
		fi;;
	*) echo "usage: api.sh check|record"; exit 2;;
	esac
done
if [ $failed = 1 ]; then
	echo "api: the library's public API changed: if on purpose, record it with make api and say so in CHANGELOG.md"
	exit 1
fi
