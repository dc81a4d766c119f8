#!/usr/bin/env bash
# Instructions of a perft from the start position, counted with callgrind: a steady figure
# where times on a shared machine are not. For each VARIANT:DEPTH, the release build's perft
# at DEPTH less its perft at depth 1, which leaves out start-up (building every variant's
# board and tables).
#
# Usage: benches/perft-instructions.sh [VARIANT:DEPTH ...]   (default: the narrow generator's
# variants at the depths of docs/performance.md's instruction table)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || {
    echo "perft-instructions: install valgrind (apt-get install valgrind)" >&2
    exit 2
}
# ARBITER_BIN: another build to measure (default: this tree's release build).
BIN="${ARBITER_BIN:-./target/release/arbiter}"
if [ -z "${ARBITER_BIN:-}" ]; then cargo build --release --quiet; fi
LIST=("$@")
if [ ${#LIST[@]} -eq 0 ]; then
    LIST=(international:7 killer:7 breakthrough:7 antidraughts:7 frisian:7 frysk:7 russian:9
        brazilian:9 pool:9 english:9 checkers:9 anti-checkers:9 czech:9 italian:9 portuguese:9
        spanish:9 canadian:6 sri-lankan:6 thai:7 turkish:6 corner:11 one-way:11 croda:5
        gothic:5)
fi
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" perft --variant "$1" \
        --depth "$2" 2>&1 >/dev/null | sed -n 's/.*I *refs: *//p' | tr -d ,
}
for vd in "${LIST[@]}"; do
    v="${vd%:*}"
    d="${vd#*:}"
    echo "$v $d $(($(instructions "$v" "$d") - $(instructions "$v" 1)))"
done
