#!/usr/bin/env bash
# The request path against the cheapest endpoint: wrk (2 threads, 32 connections, 10 s each)
# on `GET /healthz` and on `POST /v1/variants/international/moves` with the start position,
# one replica of the release build with its defaults (one worker per CPU, logging at its
# default level `info`, access log on, written to a file), in one run. Prints both rates and
# their ratio for each of ROUNDS rounds (the two endpoints alternate, so a slow spell of a
# shared machine falls on both), then the median ratio; with MIN_RATIO set, fails when the
# median is below it.
#
# Usage: benches/wrk-ratio.sh    (ROUNDS=3 DURATION=10s CONNECTIONS=32 THREADS=2 PORT=...)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk-ratio: install wrk (apt-get install wrk)" >&2; exit 2; }
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-10s}"
CONNECTIONS="${CONNECTIONS:-32}"
THREADS="${THREADS:-2}"
PORT="${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
# ARBITER_BIN: another build to measure (default: this tree's release build).
BIN="${ARBITER_BIN:-./target/release/arbiter}"
if [ -z "${ARBITER_BIN:-}" ]; then cargo build --release --quiet; fi
TMP="$(mktemp -d)"
"$BIN" serve --addr "127.0.0.1:$PORT" >"$TMP/arbiter.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
cat >"$TMP/moves.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"position": "W:W31-50:B1-20"}'
wrk.headers["Content-Type"] = "application/json"
LUA
rate() { awk '/Requests\/sec/ {print $2}'; }
errors() { awk '/Non-2xx|Socket errors/ {print}'; }
# Warm up both paths.
wrk -t1 -c4 -d2s "http://127.0.0.1:$PORT/healthz" >/dev/null
wrk -t1 -c4 -d2s -s "$TMP/moves.lua" "http://127.0.0.1:$PORT/v1/variants/international/moves" >/dev/null
ratios=()
for round in $(seq 1 "$ROUNDS"); do
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "http://127.0.0.1:$PORT/healthz" \
        >"$TMP/healthz.txt"
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$TMP/moves.lua" \
        "http://127.0.0.1:$PORT/v1/variants/international/moves" >"$TMP/moves.txt"
    h="$(rate <"$TMP/healthz.txt")"
    m="$(rate <"$TMP/moves.txt")"
    errors <"$TMP/healthz.txt"
    errors <"$TMP/moves.txt"
    ratio="$(python3 -c "print(f'{$m / $h:.3f}')")"
    ratios+=("$ratio")
    echo "round $round: GET /healthz $h req/s, POST /v1/variants/international/moves $m req/s, ratio $ratio"
done
median="$(python3 -c "import statistics, sys; print(f'{statistics.median(map(float, sys.argv[1:])):.3f}')" "${ratios[@]}")"
echo "ratio moves/healthz: $median (median of $ROUNDS rounds: ${ratios[*]})"
echo "access log lines written: $(grep -c 'arbiter::access' "$TMP/arbiter.log" || true)"
if [ -n "${MIN_RATIO:-}" ]; then
    python3 -c "import sys; sys.exit(0 if $median >= $MIN_RATIO else 1)" ||
        { echo "wrk-ratio: FAIL: median ratio $median below $MIN_RATIO" >&2; exit 1; }
fi
