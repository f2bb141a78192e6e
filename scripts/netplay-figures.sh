#!/usr/bin/env bash
# The network figures of docs/NETPLAY.md: for 2, 1,000 and 100,000 balls,
# a two-player rollback game of headless peers with bots on 127.0.0.1
# (500 ticks), and a spectator that arrives 5 s in. Prints each peer's
# send rate and the spectator's join time and snapshot size, from -stats.
# Run from the repository root after make build. Only 127.0.0.1 is used.
set -euo pipefail
bin=${BIN:-bin/interpdemo}
common=(-headless -hud=false -graph=false -stats -net-timeout 30s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { grep -o "\"$1\":[0-9.]*" "$2" | cut -d: -f2; }
for balls in 2 1000 100000; do
	port=$((20000 + RANDOM % 20000))
	"$bin" "${common[@]}" -host "127.0.0.1:$port" -bot 1 -balls "$balls" -ticks 500 -netcode rollback >"$tmp/host" 2>"$tmp/host.err" &
	host=$!
	sleep 1
	"$bin" "${common[@]}" -join "127.0.0.1:$port" -bot 2 -netcode rollback >"$tmp/join" 2>"$tmp/join.err" &
	join=$!
	sleep 5
	"$bin" "${common[@]}" -spectate "127.0.0.1:$port" >"$tmp/spec" 2>"$tmp/spec.err"
	wait "$host" "$join"
	same=no
	[ "$(grep -o '"state_hash":"[0-9a-f]*"' "$tmp/host")" = "$(grep -o '"state_hash":"[0-9a-f]*"' "$tmp/spec")" ] && same=yes
	printf '%7s balls: send B/s host %s, joiner %s; spectator joined in %s ms from tick %s, snapshot %s bytes, same state hash: %s\n' \
		"$balls" "$(field net_send_bytes_per_s "$tmp/host")" "$(field net_send_bytes_per_s "$tmp/join")" \
		"$(field spectator_join_ms "$tmp/spec")" "$(field spectator_start_tick "$tmp/spec")" \
		"$(field spectator_snapshot_bytes "$tmp/spec")" "$same"
done
