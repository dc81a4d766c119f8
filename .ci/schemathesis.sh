#!/usr/bin/env bash
# Schemathesis against a live `arbiter serve`: every operation of the API document
# (/api-docs/openapi.json), all checks, a fixed seed and a bounded number of examples, so that a
# run is reproducible. Fails on any failure. Installs schemathesis 4 with pip when missing.
#
#   .ci/schemathesis.sh     # ST_SEED=20240601 ST_MAX_EXAMPLES=50 by default
#
# Knobs: ST_SEED, ST_MAX_EXAMPLES (per operation and phase), ST_REQUEST_TIMEOUT (seconds, 10),
# ST_REPORT_DIR (keep the JUnit and NDJSON reports there), KEEP_TMP=1 keeps the server log,
# ST_CONFIG (a schemathesis.toml, default .ci/schemathesis.toml when it exists: per-operation
# check settings). Every check runs: `--checks all` without a config file; with one, the
# 4.x default (all checks on) instead, because `--checks all` on the command line overrides the
# file's per-operation `checks.NAME.enabled = false`.
# A failure prints its reproducing curl command; `st replay ID` needs the NDJSON report.
set -euo pipefail

cd "$(dirname "$0")/.."

SEED="${ST_SEED:-20240601}"
MAX_EXAMPLES="${ST_MAX_EXAMPLES:-50}"
REQUEST_TIMEOUT="${ST_REQUEST_TIMEOUT:-10}"

log() { echo "schemathesis.sh: $*" >&2; }
fail() { log "FAIL: $*"; exit 1; }

pip_install() {
    python3 -m pip install --quiet --disable-pip-version-check "$@" 2>/dev/null ||
        python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "$@"
}
# pip may put console scripts in ~/.local/bin.
export PATH="$HOME/.local/bin:$PATH"

# The flags below are those of schemathesis 4 (3.x spells several of them differently).
if ! command -v schemathesis >/dev/null 2>&1 ||
    ! schemathesis --version 2>/dev/null | grep -q 'version 4\.'; then
    log "pip install schemathesis (4.x)"
    pip_install 'schemathesis>=4,<5'
fi
log "$(schemathesis --version)"

log "building the release binary"
cargo build --release --locked --bin arbiter >&2
BIN="${CARGO_TARGET_DIR:-target}/release/arbiter"
[ -x "$BIN" ] || fail "no binary at $BIN"

TMP="$(mktemp -d -t arbiter-st.XXXXXX)"
SERVER_PID=""
cleanup() {
    set +e
    if [ -n "$SERVER_PID" ]; then
        kill -TERM "$SERVER_PID" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$SERVER_PID" 2>/dev/null
    fi
    if [ "${KEEP_TMP:-0}" = 1 ]; then log "server log kept in $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
ARBITER_LOG=warn "$BIN" serve --addr "127.0.0.1:$PORT" --workers 2 >"$TMP/arbiter.log" 2>&1 &
SERVER_PID=$!
BASE="http://127.0.0.1:$PORT"
# Loopback only: a proxy from the environment must not be used.
export NO_PROXY="127.0.0.1,localhost${NO_PROXY:+,$NO_PROXY}" no_proxy="127.0.0.1,localhost${no_proxy:+,$no_proxy}"
deadline=$((SECONDS + 20))
until curl --noproxy '*' -sf -o /dev/null --max-time 2 "$BASE/readyz"; do
    kill -0 "$SERVER_PID" 2>/dev/null || fail "arbiter serve exited: $(tail -5 "$TMP/arbiter.log")"
    [ "$SECONDS" -lt "$deadline" ] || fail "$BASE/readyz not answering after 20 s"
    sleep 0.1
done

REPORT_DIR="$(realpath -m "${ST_REPORT_DIR:-$TMP/report}")"
CONFIG="${ST_CONFIG:-.ci/schemathesis.toml}"
# Schemathesis 4 keeps a cache of earlier failures and replays them in later runs; a run must
# depend on its seed only, so the cache is off (the file's own settings come first; it must not
# have a [cache] table of its own).
if [ -f "$CONFIG" ]; then
    { cat "$CONFIG"; printf '\n'; } >"$TMP/schemathesis.toml"
    CHECKS=()
    log "config file $CONFIG (all checks on by default, its per-operation settings apply)"
else
    : >"$TMP/schemathesis.toml"
    CHECKS=(--checks all)
fi
printf '[cache]\nenabled = false\n' >>"$TMP/schemathesis.toml"
ST=(schemathesis --config-file "$TMP/schemathesis.toml" run)
log "${ST[*]} $BASE/api-docs/openapi.json ${CHECKS[*]} --seed $SEED --max-examples $MAX_EXAMPLES"
start=$SECONDS
rc=0
(cd "$TMP" && "${ST[@]}" "$BASE/api-docs/openapi.json" \
    "${CHECKS[@]}" \
    --seed "$SEED" \
    --max-examples "$MAX_EXAMPLES" \
    --generation-database none \
    --continue-on-failure \
    --request-timeout "$REQUEST_TIMEOUT" \
    --workers 1 \
    --no-color \
    --report junit,ndjson --report-dir "$REPORT_DIR") || rc=$?
log "schemathesis took $((SECONDS - start)) s, exit code $rc"

kill -0 "$SERVER_PID" 2>/dev/null || fail "arbiter serve died during the run"
if grep -qi 'panick' "$TMP/arbiter.log"; then
    grep -i 'panick' "$TMP/arbiter.log" >&2
    fail "arbiter panicked during the run"
fi
[ "$rc" -eq 0 ] || fail "schemathesis found failures (exit code $rc)"
log "PASS"
