#!/usr/bin/env bash
# Builds blst's C (the version in Cargo.lock, from cargo's registry) and blst-driver.c into one
# wasm32 module with the given clang flags, as the blst crate's build script would for the
# Cardano module (its defines, then the flags last), to compare compiler flags on blst alone:
#   bash wasm/bench/blst-flags.sh OUT.wasm -O2
#   bash wasm/bench/blst-flags.sh OUT.wasm -O3 -mllvm -inline-threshold=1000
#   node wasm/bench/blst-bench.mjs A.wasm B.wasm ...
# CC (default clang) picks the compiler; linked by the Rust toolchain's rust-lld.
set -euo pipefail
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
version=$(grep -A1 '^name = "blst"$' "$here/../../Cargo.lock" | sed -n 's/^version = "\(.*\)"$/\1/p')
blst=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"blst-$version"/blst | head -n 1)
lld=$(ls "$(rustc --print sysroot)"/lib/rustlib/*/bin/rust-lld | head -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common=(--target=wasm32-unknown-unknown -ffreestanding -fno-builtin -Wno-unused-function
    -Wno-unused-command-line-argument -D__BLST_NO_ASM__ "-DSCRATCH_LIMIT=(45 * 1024)")
"${CC:-clang}" "${common[@]}" "$@" -c "$blst/src/server.c" -o "$work/server.o"
"${CC:-clang}" "${common[@]}" "$@" -I"$blst/bindings" -c "$here/blst-driver.c" -o "$work/driver.o"
"$lld" -flavor wasm --no-entry --export-dynamic -o "$out" "$work/server.o" "$work/driver.o"
echo "blst-flags $out bytes=$(wc -c < "$out") gzip_bytes=$(gzip -9 < "$out" | wc -c) flags: $*"
