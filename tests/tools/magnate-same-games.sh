#!/usr/bin/env bash
# Checks that two herald binaries play the same Magnate self-play games: for every preset, with
# and without Courts (and a few rule options the presets leave alone), `selfplay magnate --games
# N --seed 1` must print the same outcome tallies and action totals; only the timings may differ.
# Usage: tests/tools/magnate-same-games.sh BASE_BINARY NEW_BINARY [GAMES]
set -euo pipefail
base=${1:?base binary}
new=${2:?new binary}
games=${3:-20000}
fail=0
strip() { sed -E 's/ elapsed_ms=[0-9]+ games_per_s=[0-9.]+//'; }
for preset in standard es it fr abstractplay; do
  for extra in "" "--option courts=true" "--option tax_dice=2" "--option trade=any_three" \
               "--option deed_dev_each_suit=true"; do
    # shellcheck disable=SC2086
    a=$("$base" selfplay magnate --games "$games" --seed 1 --preset "$preset" $extra 2>&1 | strip)
    # shellcheck disable=SC2086
    b=$("$new" selfplay magnate --games "$games" --seed 1 --preset "$preset" $extra 2>&1 | strip)
    if [ "$a" = "$b" ]; then
      echo "same: $preset $extra ($(echo "$b" | tail -1))"
    else
      echo "DIFFERENT: $preset $extra"; diff <(echo "$a") <(echo "$b") || true; fail=1
    fi
  done
done
exit $fail
