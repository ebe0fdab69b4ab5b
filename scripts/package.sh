#!/usr/bin/env bash
# Packages every published crate of the workspace as `cargo publish` would, builds each
# packaged crate from its `.crate` alone (cargo's verification: a file the build needs but
# the package leaves out fails here), and prints each crate's packaged size.
#
#   scripts/package.sh [CARGO PACKAGE OPTIONS...]    e.g. --no-verify, --allow-dirty
#
# The published crates are the workspace members whose `publish` is not `false`, read from
# `cargo metadata`, so a new crate is covered without editing this file. They are packaged
# in one `cargo package` call, so crates that depend on each other verify against the
# packaged (unpublished) versions of each other. The `.crate` files land in
# `$CARGO_TARGET_DIR/package/` (else `target/package/`).
set -euo pipefail
cd "$(dirname "$0")/.."

metadata="$(cargo metadata --format-version 1 --no-deps --locked)"
target_dir="$(python3 scripts/workspace.py target-dir <<<"$metadata")"
mapfile -t crates < <(python3 scripts/workspace.py published <<<"$metadata")

args=()
for crate in "${crates[@]}"; do
    args+=(-p "${crate%% *}")
done
# Verification reads the packaged crates through a local registry whose sources cargo
# extracts under $CARGO_HOME/registry/src/-<hash>/ and never extracts again for the same
# name and version: a second run would build the first run's sources. Drop those copies.
for crate in "${crates[@]}"; do
    rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"${crate%% *}-${crate##* }"
done
start=$SECONDS
cargo package --locked "${args[@]}" "$@"
echo "packaged in $((SECONDS - start)) s"

printf '\n%-20s %12s %8s %14s\n' crate ".crate bytes" files "unpacked bytes"
for crate in "${crates[@]}"; do
    name="${crate%% *}" version="${crate##* }"
    file="$target_dir/package/$name-$version.crate"
    bytes="$(stat -c %s "$file")"
    files="$(tar -tzf "$file" | grep -vc '/$')"
    unpacked="$(tar -xzOf "$file" | wc -c)"
    printf '%-20s %12s %8s %14s\n' "$name" "$bytes" "$files" "$unpacked"
done
