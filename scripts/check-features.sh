#!/usr/bin/env bash
# Every published crate builds with each of its features alone, in the style of
# `cargo hack check --each-feature --no-dev-deps`: for each crate of the workspace that is
# published (`publish` not `false`), `cargo check` with no default features, then with each
# feature alone, then with the defaults, then with every feature. The crates and their
# features are read from `cargo metadata`, so a new crate or feature is covered without
# editing this file. Only the library is checked (no tests, examples or dev-dependencies).
#
#   scripts/check-features.sh [--target-dir DIR] [CRATE...]
#
# The target directory is, in order: `--target-dir DIR`, `$CHECK_FEATURES_TARGET_DIR`,
# `$CARGO_TARGET_DIR`, the workspace's `target/`. Sharing the workspace's target is cheapest
# (dependencies compiled once per feature set); a directory of its own keeps a checkout's
# `target/` unchanged at the cost of a cold build. Naming crates checks only those.
# Exits non-zero after the last check if any check failed, and lists the failures.
set -euo pipefail
cd "$(dirname "$0")/.."

target_dir="${CHECK_FEATURES_TARGET_DIR:-${CARGO_TARGET_DIR:-}}"
crates=()
while [ $# -gt 0 ]; do
    case "$1" in
        --target-dir) target_dir="$2"; shift 2 ;;
        --target-dir=*) target_dir="${1#--target-dir=}"; shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) crates+=("$1"); shift ;;
    esac
done
if [ -n "$target_dir" ]; then
    export CARGO_TARGET_DIR="$target_dir"
fi

metadata="$(cargo metadata --format-version 1 --no-deps --locked)"
published="$(python3 scripts/workspace.py published <<<"$metadata" | cut -d' ' -f1)"
if [ ${#crates[@]} -eq 0 ]; then
    mapfile -t crates <<<"$published"
fi

failures=()
checks=0
start=$SECONDS
run() {
    local crate="$1"; shift
    checks=$((checks + 1))
    echo "==> cargo check -p $crate $*"
    if ! cargo check --locked --quiet -p "$crate" "$@"; then
        failures+=("cargo check -p $crate $*")
    fi
}
for crate in "${crates[@]}"; do
    # Every feature the manifest declares except `default` (optional dependencies are only
    # features here when the manifest names them, since it uses `dep:`).
    features="$(python3 scripts/workspace.py features "$crate" <<<"$metadata")"
    run "$crate" --no-default-features
    for feature in $features; do
        run "$crate" --no-default-features --features "$feature"
    done
    run "$crate"
    run "$crate" --all-features
done

echo "$checks checks in $((SECONDS - start)) s"
if [ ${#failures[@]} -gt 0 ]; then
    echo "failed:"
    printf '  %s\n' "${failures[@]}"
    exit 1
fi
echo "every feature builds alone"
