#!/usr/bin/env bash
# Issue 17: generate a TypeScript and a Python client from openapi/openapi.json, type-check both
# strictly, and play one Magnate game with each against a running herald.
#
#   openapi/clients/run.sh [BASE_URL]        (default http://127.0.0.1:8080)
#
# Needs node >= 20 with npm and python3 >= 3.11; the first run installs the pinned tools from
# the npm registry (typescript/node_modules) and PyPI (python/.venv). Each run registers four
# accounts: a server with the default REGISTRATIONS_PER_HOUR (30 per address) allows seven runs
# an hour from one address.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
base=${1:-http://127.0.0.1:8080}
base=${base%/}
timings=()

now() { date +%s.%N; }
# step NAME COMMAND...: runs the command, says what it ran and how long it took.
step() {
  local name=$1 t0 t1
  shift
  echo
  echo "== $name: $*"
  t0=$(now)
  "$@"
  t1=$(now)
  timings+=("$(awk -v n="$name" -v a="$t0" -v b="$t1" 'BEGIN { printf "%-48s %5.1f s", n, b - a }')")
}
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

echo "herald clients: $base"
node -e 'fetch(process.argv[1] + "/readyz").then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$base" \
  || { echo "no herald answering at $base/readyz (start one: cargo run --release)" >&2; exit 1; }

# ---------------------------------------------------------------- TypeScript
cd "$here/typescript"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "typescript: install (npm ci)" npm ci --no-audit --no-fund
fi
ts0=$(now)
step "typescript: generate schema.d.ts" npm run -s generate
step "typescript: type-check strictly + build (tsc)" npm run -s build
step "typescript: play one game" node dist/play.js "$base"
ts_total=$(seconds_since "$ts0")

# ---------------------------------------------------------------- Python
cd "$here/python"
if [ ! -x .venv/bin/python ] || [ requirements.txt -nt .venv/.installed ]; then
  install() { python3 -m venv .venv && .venv/bin/pip install -q --disable-pip-version-check -r requirements.txt && touch .venv/.installed; }
  step "python: install (venv + pip -r requirements)" install
fi
export PATH="$here/python/.venv/bin:$PATH" # the generator's post-hooks run ruff
py0=$(now)
step "python: generate herald_client" openapi-python-client generate --path ../../openapi.json \
  --config config.yaml --output-path generated --overwrite --fail-on-warning
step "python: type-check play.py (mypy --strict)" env MYPYPATH=generated mypy --strict play.py
step "python: play one game" env PYTHONPATH=generated python play.py "$base"
py_total=$(seconds_since "$py0")

echo
echo "== timings"
printf '   %s\n' "${timings[@]}"
echo "   typescript, generate + type-check + game:    ${ts_total} s"
echo "   python, generate + type-check + game:        ${py_total} s"
echo "both clients generated, type-checked strictly and played a game to the end"
