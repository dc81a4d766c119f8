#!/usr/bin/env bash
# Load-balancer test: three `arbiter serve` replicas on loopback behind a real nginx, a mixed
# load (moves, play, judge) driven through nginx by wrk for LB_DURATION seconds, one replica
# killed with SIGKILL and another stopped with SIGTERM mid-run. Fails unless every request got
# a correct 2xx answer. Installs nginx and wrk (Debian packages) when missing.
#
#   deploy/lb-test.sh            # LB_DURATION=24 LB_CONNECTIONS=16 LB_THREADS=2 by default
set -euo pipefail

cd "$(dirname "$0")/.."

DURATION="${LB_DURATION:-24}"
CONNECTIONS="${LB_CONNECTIONS:-16}"
THREADS="${LB_THREADS:-2}"
SHUTDOWN_TIMEOUT=5

log() { echo "lb-test: $*" >&2; }
fail() { log "FAIL: $*"; exit 1; }

# --- tools ------------------------------------------------------------------------------
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
        fail "need root (or sudo) to install: $*"
    fi
}
NGINX="$(command -v nginx || true)"
[ -z "$NGINX" ] && [ -x /usr/sbin/nginx ] && NGINX=/usr/sbin/nginx
if [ -z "$NGINX" ] || ! command -v wrk >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1; then
    log "installing nginx-light, wrk and curl (apt-get)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        nginx-light wrk curl >/dev/null
    NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
fi
# The Debian package may start the system nginx; this test never uses or touches it.

log "building the release binary"
cargo build --release --locked --bin arbiter >&2
BIN="${CARGO_TARGET_DIR:-target}/release/arbiter"
[ -x "$BIN" ] || fail "no binary at $BIN"

# --- setup ------------------------------------------------------------------------------
TMP="$(mktemp -d -t arbiter-lb.XXXXXX)"
chmod 755 "$TMP" # nginx workers may run as another user
PIDS=()
NGINX_STARTED=0
cleanup() {
    set +e
    if [ "$NGINX_STARTED" -eq 1 ] && [ -f "$TMP/nginx.pid" ]; then
        kill -QUIT "$(cat "$TMP/nginx.pid")" 2>/dev/null
    fi
    for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null; done
    [ -n "${WRK_PID:-}" ] && kill -KILL "$WRK_PID" 2>/dev/null
    sleep 0.3
    if [ "${KEEP_TMP:-0}" = 1 ]; then log "logs kept in $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Four free loopback ports (three replicas, nginx).
read -r P1 P2 P3 LB < <(python3 - <<'PY'
import socket
socks = [socket.socket() for _ in range(4)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])
for s in socks:
    s.close()
PY
)

CURL=(curl --noproxy '*' -sS --max-time 5)

wait_ok() { # url, seconds
    local deadline=$((SECONDS + $2))
    until "${CURL[@]}" -o /dev/null -f "$1" 2>/dev/null; do
        [ "$SECONDS" -lt "$deadline" ] || fail "$1 not answering after $2 s"
        sleep 0.1
    done
}

for port in "$P1" "$P2" "$P3"; do
    ARBITER_LOG=warn "$BIN" serve --addr "127.0.0.1:$port" --workers 1 \
        --shutdown-timeout "$SHUTDOWN_TIMEOUT" >"$TMP/arbiter-$port.log" 2>&1 &
    PIDS+=($!)
done
for port in "$P1" "$P2" "$P3"; do wait_ok "http://127.0.0.1:$port/readyz" 20; done
log "replicas on ports $P1 $P2 $P3 (pids ${PIDS[*]})"

UPSTREAMS=""
for port in "$P1" "$P2" "$P3"; do
    UPSTREAMS="${UPSTREAMS}server 127.0.0.1:${port} max_fails=1 fail_timeout=10s; "
done
sed -e "s|__PREFIX__|$TMP|g" -e "s|__LISTEN__|127.0.0.1:$LB|g" -e "s|__UPSTREAMS__|$UPSTREAMS|g" \
    deploy/nginx.conf.template >"$TMP/nginx.conf"
"$NGINX" -t -q -p "$TMP" -c "$TMP/nginx.conf" -e "$TMP/error.log" 2>&1 || fail "nginx -t"
"$NGINX" -p "$TMP" -c "$TMP/nginx.conf" -e "$TMP/error.log"
NGINX_STARTED=1
BASE="http://127.0.0.1:$LB"
wait_ok "$BASE/readyz" 10
log "nginx on port $LB"

count_moves() { python3 -c 'import json,sys; print(len(json.load(sys.stdin)["moves"]))'; }
spot_check() {
    local n
    n="$("${CURL[@]}" -f "$BASE/v1/variants/international/moves" | count_moves)"
    [ "$n" = 9 ] || fail "international start: expected 9 moves, got $n"
    n="$("${CURL[@]}" -f "$BASE/v1/variants/english/moves" | count_moves)"
    [ "$n" = 7 ] || fail "english start: expected 7 moves, got $n"
    "${CURL[@]}" -f -X POST "$BASE/v1/variants/international/judge" -H 'content-type: application/json' \
        -d '{"start_position": "W:W28:B23", "moves": ["28x19"], "declared_result": "2-0"}' |
        python3 -c 'import json,sys; b=json.load(sys.stdin); assert b["verdict"]=="white_wins" and b["agreement"]["agrees"] is True, b' ||
        fail "judge spot check"
}
spot_check

# Requests nginx refuses itself get problem documents (deploy/nginx.conf.template's
# error_page); a replica's own problem passes through as it is.
python3 - "$LB" <<'PY' || fail "problem documents of nginx's own answers"
import json, socket, sys
port = int(sys.argv[1])
def send(request):
    # Reads one answer, its body framed by Content-Length (nginx may linger before closing).
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data and (chunk := s.recv(65536)):
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        head = head.decode().lower()
        length = int(head.split("content-length: ")[1].split("\r\n")[0])
        while len(body) < length and (chunk := s.recv(65536)):
            body += chunk
    return int(head.split(" ")[1]), head, body
for request, status, code in [
    (b"GET /v1/variants HTTP/1.1 junk\r\nHost: t\r\n\r\n", 400, "bad-request"),
    (b"GET /v1/variants?x=" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 414, "uri-too-long"),
    (b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: " + b"b" * 20_000 + b"\r\n\r\n", 431,
     "request-header-fields-too-large"),
    (b"POST /v1/judge/pdn HTTP/1.1\r\nHost: t\r\nContent-Length: 2000000\r\n\r\n", 413,
     "payload-too-large"),
    (b"GET /v1/variants/chess HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 404,
     "unknown-variant"),
]:
    got, head, body = send(request)
    assert got == status, (request[:40], got, head)
    assert "content-type: application/problem+json" in head, head
    problem = json.loads(body)
    assert (problem["status"], problem["code"]) == (status, code), problem
    assert problem["type"] == f"urn:arbiter:problem:{code}", problem
PY

# --- load, with two replicas going away -------------------------------------------------
log "load: wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s through nginx"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s -s deploy/lb-mix.lua "$BASE" \
    >"$TMP/wrk.out" 2>&1 &
WRK_PID=$!
sleep $((DURATION / 3))
log "SIGKILL replica on port $P1"
kill -KILL "${PIDS[0]}"
sleep $((DURATION / 4))
log "SIGTERM replica on port $P2"
kill -TERM "${PIDS[1]}"
wait "$WRK_PID" || true
WRK_PID=""
cat "$TMP/wrk.out" >&2

# The SIGTERMed replica must have exited by itself, within its shutdown timeout, with code 0.
term_rc=0
wait "${PIDS[1]}" || term_rc=$?
[ "$term_rc" -eq 0 ] || fail "SIGTERMed replica exited with code $term_rc"

line="$(grep '^LBTEST ' "$TMP/wrk.out" || true)"
[ -n "$line" ] || fail "no summary from wrk"
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$line"; }
requests="$(field requests)"
answered="$(field answered)"
failures=$(($(field non2xx) + $(field badbody) + $(field connect) + $(field read) + $(field write) + $(field timeout)))
seconds="$(field seconds)"
rps="$(python3 -c "print(round($requests / $seconds))")"
retried="$(grep -c ', ' "$TMP/access.log" || true)"

spot_check # the survivor still answers correctly

echo "lb-test: requests=$requests answered=$answered failures=$failures throughput=${rps} req/s" \
    "duration=${seconds}s retried_by_nginx=$retried sigterm_exit_code=$term_rc"
[ "$requests" -gt 0 ] || fail "no requests made"
[ "$failures" -eq 0 ] || fail "$failures requests did not get a correct 2xx answer"
log "PASS"
