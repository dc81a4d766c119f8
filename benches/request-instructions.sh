#!/usr/bin/env bash
# Instructions the server runs per request, counted with callgrind: a steadier figure than
# requests per second on a shared machine. The release build serves N1, then N2 requests on one
# keep-alive connection under `valgrind --tool=callgrind` (defaults: logging at `info`, access
# log on); the difference of the two totals over N2 - N1 leaves out start-up and shut-down.
#
# Usage: benches/request-instructions.sh [moves|healthz]   (N1=200 N2=1200)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || {
    echo "request-instructions: install valgrind (apt-get install valgrind)" >&2
    exit 2
}
KIND="${1:-moves}"
N1="${N1:-200}"
N2="${N2:-1200}"
# ARBITER_BIN: another build to measure (default: this tree's release build).
BIN="${ARBITER_BIN:-./target/release/arbiter}"
if [ -z "${ARBITER_BIN:-}" ]; then cargo build --release --quiet; fi
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/client.py" <<'PY'
import http.client, sys
port, n, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
c = http.client.HTTPConnection("127.0.0.1", port)
for _ in range(n):
    if kind == "moves":
        c.request("POST", "/v1/variants/international/moves",
                  body=b'{"position": "W:W31-50:B1-20"}',
                  headers={"Content-Type": "application/json"})
    else:
        c.request("GET", "/healthz")
    r = c.getresponse()
    r.read()
    assert r.status == 200, r.status
PY
total() {
    local n="$1" port
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.$n" \
        "$BIN" serve --addr "127.0.0.1:$port" >"$TMP/log.$n" 2>&1 &
    local pid=$!
    for _ in $(seq 1 300); do
        curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
        sleep 0.1
    done
    python3 "$TMP/client.py" "$port" "$n" "$KIND"
    kill "$pid"
    wait "$pid" || true
    awk '/^(summary|totals):/ {print $2; exit}' "$TMP/cg.$n"
}
a="$(total "$N1")"
b="$(total "$N2")"
python3 -c "print(f'$KIND: {($b - $a) / ($N2 - $N1):,.0f} instructions per request')"
