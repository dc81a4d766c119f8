#!/usr/bin/env bash
# The Python package (python/): built by pip from the source tree (PEP 517, maturin) in a fresh
# virtual environment, then its pytest suite, which compares the package's answers with a
# running `arbiter serve` (the binary `cargo test --release` built, passed in ARBITER_BIN:
# the suite fails, never skips, without it). The extension is built in the workspace's
# target directory ($CARGO_TARGET_DIR if set), beside what `cargo test --release` compiled.
set -euo pipefail

cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-$PWD/target}"
export ARBITER_BIN="$target/release/arbiter"
# Built by `cargo test --release` before this script in CI (built again here only if missing:
# a build for the binary alone unifies other features and would recompile its dependencies).
if [ ! -x "$ARBITER_BIN" ]; then
    cargo build --release --bin arbiter
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
py="$work/venv/bin/python"
echo "==> pip install ./python pytest mypy (fresh virtual environment)"
"$py" -m pip install --quiet --disable-pip-version-check ./python pytest mypy
echo "==> mypy.stubtest arbiter_draughts (the type stubs against the module)"
(cd "$work" && "$py" -m mypy.stubtest arbiter_draughts)
echo "==> pytest python/tests"
# Run from the repository root: the package imported is the installed one, not python/'s
# sources (which have no extension module).
"$py" -m pytest -q -p no:cacheprovider python/tests
