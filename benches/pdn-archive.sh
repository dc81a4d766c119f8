#!/usr/bin/env bash
# A PDN archive of GAMES games (20,000 by default), built by repeating the real games of
# tests/data/games/ (each folder's GameType added to the games that lack one, so that every
# game names its variant), judged game by game: by `arbiter judge --ndjson FILE`, and by one
# replica's `POST /v1/judge/pdn` with `Accept: application/x-ndjson` (curl --data-binary).
# Prints games and plies per second and the peak resident memory (VmHWM) of each. The archive
# is written to a temporary folder, never committed.
#
# FOLDER=international takes only that folder's games (GAMES=1430: each of them once, 1 426
# games as the reader counts them); KEEP=FILE keeps a copy of the archive.
#
# Usage: benches/pdn-archive.sh    (GAMES=20000 FOLDER=... KEEP=... PORT=... ARBITER_BIN=...)
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES="${GAMES:-20000}"
FOLDER="${FOLDER:-*}"
PORT="${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
BIN="${ARBITER_BIN:-${CARGO_TARGET_DIR:-target}/release/arbiter}"
if [ -z "${ARBITER_BIN:-}" ]; then cargo build --release --quiet --bin arbiter; fi
TMP="$(mktemp -d)"
PID=""
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; rm -rf "$TMP"' EXIT

python3 - "$TMP/archive.pdn" "$GAMES" "$FOLDER" <<'PY'
import glob, os, sys
out, want, folder = sys.argv[1], int(sys.argv[2]), sys.argv[3]
types = {"international": 20, "english": 21, "italian": 22, "russian": 25, "brazilian": 26,
         "czech": 29, "frisian": 40}
games = []
for path in sorted(glob.glob(f"tests/data/games/{folder}/*.pdn")):
    gametype = types[os.path.basename(os.path.dirname(path))]
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    # Split before each tag section; add the GameType after the last tag of a section (the
    # first GameType tag of a game is the one read, so a game's own tag wins).
    lines, game, in_tags = text.replace("\r\n", "\n").split("\n"), [], False
    for line in lines:
        is_tag = line.lstrip().startswith("[")
        if is_tag and not in_tags and any(l.strip() for l in game):
            games.append("\n".join(game).strip() + "\n")
            game = []
        if in_tags and not is_tag:
            game.append(f'[GameType "{gametype}"]')
        in_tags = is_tag
        game.append(line)
    if any(l.strip() for l in game):
        games.append("\n".join(game).strip() + "\n")
with open(out, "w", encoding="utf-8") as f:
    for i in range(want):
        f.write(games[i % len(games)] + "\n")
print(f"pdn-archive: {want} games ({len(games)} distinct) in {os.path.getsize(out)} bytes",
      file=sys.stderr)
PY

if [ -n "${KEEP:-}" ]; then cp "$TMP/archive.pdn" "$KEEP"; fi

report() { # name, ndjson file, seconds, peak kB
    python3 - "$@" <<'PY'
import json, sys
name, path, seconds, peak = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
games = plies = 0
last = None
for line in open(path):
    d = json.loads(line)
    if "index" in d:
        games += 1
        plies += d.get("plies") or 0
    else:
        last = d
print(f"{name}: {games} games, {plies} plies in {seconds:.2f} s: {games / seconds:,.0f} games/s, "
      f"{plies / seconds:,.0f} plies/s; peak RSS {peak / 1024:.1f} MiB; last line {json.dumps(last)}")
PY
}

# The command line.
/usr/bin/time -f '%e %M' -o "$TMP/cli.time" "$BIN" judge --ndjson "$TMP/archive.pdn" >"$TMP/cli.ndjson"
read -r secs kb <"$TMP/cli.time"
report "arbiter judge --ndjson" "$TMP/cli.ndjson" "$secs" "$kb"

# One replica (one worker, engine slots as by default), its VmHWM read after the stream.
ARBITER_LOG=warn "$BIN" serve --addr "127.0.0.1:$PORT" --workers 1 >"$TMP/serve.log" 2>&1 &
PID=$!
for _ in $(seq 1 100); do
    curl --noproxy '*' -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
    sleep 0.1
done
before="$(awk '/^VmHWM:/ {print $2}' "/proc/$PID/status")"
start="$(date +%s.%N)"
curl --noproxy '*' -sS -H 'content-type: text/plain' -H 'accept: application/x-ndjson' \
    --data-binary @"$TMP/archive.pdn" "http://127.0.0.1:$PORT/v1/judge/pdn" >"$TMP/http.ndjson"
end="$(date +%s.%N)"
peak="$(awk '/^VmHWM:/ {print $2}' "/proc/$PID/status")"
report "HTTP stream (curl --data-binary)" "$TMP/http.ndjson" "$(echo "$end - $start" | bc)" "$peak"
echo "replica peak RSS before the stream: $((before / 1024)) MiB"
cmp -s "$TMP/cli.ndjson" "$TMP/http.ndjson" && echo "the CLI's lines and the stream's are the same" ||
    { echo "pdn-archive: the CLI's lines and the stream's differ" >&2; exit 1; }
