#!/usr/bin/env bash
# The pages in a real browser: installs Debian's Chromium (apt-get), Python Playwright (pip;
# its own browser download is not used) and axe-core (npm, pinned, into a temporary folder),
# starts the release build of `arbiter serve` on a free loopback port and runs, against it:
# - tests/browser/swagger_ui.py: every operation listed, "Try it out" on the moves, diagram,
#   play, judge and PDN operations with their examples, nothing fetched from another host, no
#   JavaScript error;
# - tests/browser/board.py: the board page played by clicks and the keyboard, each position
#   checked against the API's, with screenshots at desktop and phone width and an axe-core
#   scan; the screenshots are left in target/browser-artifacts/ (the CI artefacts).
# A few minutes after the build.
set -euo pipefail

cd "$(dirname "$0")/.."

log() { echo "browser: $*" >&2; }

SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
if ! command -v chromium >/dev/null 2>&1; then
    log "installing chromium (apt-get)"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
CHROMIUM="$(command -v chromium)"

pip_install() {
    python3 -m pip install --quiet --disable-pip-version-check "$@" 2>/dev/null ||
        python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "$@"
}
if ! python3 -c "import playwright.sync_api" >/dev/null 2>&1; then
    log "pip install playwright"
    pip_install "playwright>=1.40"
fi

# axe-core, the accessibility checker the board test injects into the page (pinned).
AXE_VERSION="4.10.3"
if ! command -v npm >/dev/null 2>&1; then
    log "installing npm (apt-get)"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null
fi
AXE_DIR="$(mktemp -d)"
trap 'rm -rf "$AXE_DIR"' EXIT
log "npm install axe-core@$AXE_VERSION"
npm install --silent --no-audit --no-fund --prefix "$AXE_DIR" "axe-core@$AXE_VERSION" >/dev/null
AXE_JS="$AXE_DIR/node_modules/axe-core/axe.min.js"
test -s "$AXE_JS"

log "building the release binary"
cargo build --release --quiet
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
TMP="$(mktemp -d)"
BIN="${CARGO_TARGET_DIR:-target}/release/arbiter"
"$BIN" serve --addr "127.0.0.1:$PORT" >"$TMP/arbiter.log" 2>&1 &
PID=$!
cleanup() {
    kill "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
    rm -rf "$TMP" "$AXE_DIR"
}
trap cleanup EXIT
for _ in $(seq 1 100); do
    if curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then break; fi
    sleep 0.1
done
python3 tests/browser/swagger_ui.py "http://127.0.0.1:$PORT" "$CHROMIUM"
ARTIFACTS="target/browser-artifacts"
rm -rf "$ARTIFACTS"
python3 tests/browser/board.py "http://127.0.0.1:$PORT" "$CHROMIUM" "$ARTIFACTS" "$AXE_JS"
log "screenshots of the board page: $ARTIFACTS/"
