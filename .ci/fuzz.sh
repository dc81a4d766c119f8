#!/usr/bin/env bash
# Fuzzing for CI: builds the cargo-fuzz targets of fuzz/ with sanitizers off (so stable Rust
# will do; optimised, with debug assertions and overflow checks) and runs each target for a
# bounded time from its committed corpus (fuzz/corpus/<target>). A crash, a panic, an input
# that takes more than 10 s or a process above 1 GiB fails the script; the failing input is
# printed (base64) and kept under fuzz/artifacts/<target>/.
#
# Installs cargo-fuzz if it is missing. New inputs found during the run go to a temporary
# directory, so the committed corpus is left as it is.
#
# Environment: FUZZ_SECONDS (per target, default 45), FUZZ_TARGETS (default: every target).
# Cold machine, 2 cores: about 10 minutes (cargo install ~30 s, build ~6.5 min, 4 x 45 s of
# fuzzing); 14 minutes when the cores are shared with other work.
set -euo pipefail

cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-45}"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "==> cargo install cargo-fuzz --locked"
    cargo install cargo-fuzz --locked --version '^0.13'
fi

echo "==> cargo fmt --check (fuzz/)"
cargo fmt --manifest-path fuzz/Cargo.toml -- --check

echo "==> cargo fuzz build -s none"
cargo fuzz build -s none

targets="${FUZZ_TARGETS:-$(cargo fuzz list)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

failed=0
for target in $targets; do
    echo "==> fuzz $target for ${seconds}s"
    mkdir -p "$work/$target" "fuzz/artifacts/$target"
    log="$work/$target.log"
    touch "$work/$target.start"
    if cargo fuzz run -s none "$target" "$work/$target" "fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
        -print_final_stats=1 >"$log" 2>&1; then
        grep -E '^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed_units|average_exec_per_sec|slowest_unit_time_sec|peak_rss_mb)' \
            "$log" || true
    else
        failed=1
        echo "!! $target failed:"
        grep -A 4 'panicked at' "$log" | head -n 30 || true
        echo "!! the end of its log:"
        tail -n 60 "$log"
        find "fuzz/artifacts/$target" -type f -newer "$work/$target.start" | while read -r input; do
            echo "!! failing input $input (base64; reproduce with: cargo fuzz run -s none $target $input):"
            base64 -w 76 "$input" | head -n 200
        done
    fi
done

if [ "$failed" -ne 0 ]; then
    echo "==> fuzzing found failures"
    exit 1
fi
echo "==> fuzzing passed"
