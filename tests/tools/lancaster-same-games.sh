#!/usr/bin/env bash
# Checks that two herald binaries play the same Lancaster self-play games: the output of
# `selfplay lancaster` (outcome tallies, action totals) must be byte-identical apart from the
# timings of the last line, for 2..5 players unchecked and for a checked run.
# Usage: tests/tools/lancaster-same-games.sh BEFORE_BINARY AFTER_BINARY
set -euo pipefail
before=${1:?before binary}
after=${2:?after binary}
strip_timing() { sed -E 's/ elapsed_ms=[0-9]+ games_per_s=[0-9.]+$//'; }
status=0
run() {
  local a b
  a=$("$before" selfplay lancaster "$@" | strip_timing)
  b=$("$after" selfplay lancaster "$@" | strip_timing)
  if [[ "$a" == "$b" ]]; then
    echo "same: $* ($(tail -n1 <<<"$b"))"
  else
    echo "DIFFERENT: $*"
    diff <(echo "$a") <(echo "$b") || true
    status=1
  fi
}
for p in 2 3 4 5; do
  run --players "$p" --games 2000 --seed 1
done
run --players 3 --games 300 --check
exit $status
