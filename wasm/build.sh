#!/usr/bin/env bash
# Builds the npm package wasm/npm: the verifiers compiled to WebAssembly (tms_verifier.wasm: BN254;
# tms_verifier_cardano.wasm: the Cardano backend) next to their JavaScript (tms_verifier.js for
# browsers and bundlers, node.js for Node) and TypeScript types. Needs
# `rustup target add wasm32-unknown-unknown`, Node (to post-process the BN254 module) and, for
# the Cardano module, a clang that targets wasm32 (blst is C): no wasm-bindgen, no wasm-pack.
#
# BN254: halo2-base 0.5.5 depends on halo2-axiom with its default features, whose `multicore`
# refuses to compile for wasm32 unless `target_feature = "atomics"` is set. We set that cfg (it
# changes which source compiles, not the instructions: no atomic instruction or shared memory is
# emitted), so maybe-rayon uses rayon, which on wasm32-unknown-unknown runs every job on the
# calling thread (rayon-core >= 1.11: the pool falls back to the current thread when threads are
# unsupported).
#
# Cardano: a second module, built without that cfg: midnight-curves turns on getrandom's `js`
# source, which brings wasm-bindgen, and wasm-bindgen does not compile under the cfg on stable.
# The verifier never draws randomness, but wasm-bindgen's imports survive linking (a cdylib keeps
# every `#[no_mangle]` function of its dependencies, wasm-bindgen's `__wbindgen_describe_*`
# among them): the package gives each wasm-bindgen import a stub that throws and refuses any
# other import at load (wasm/test/cardano.test.mjs checks the list). It builds in its own target
# directory: the two modules' RUSTFLAGS differ, which would otherwise rebuild each one's
# dependencies every time.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/tms_wasm.wasm"
size() {
    local file=$1 backend=$2
    echo "wasm-size backend=$backend bytes=$(wc -c < "$file") gzip_bytes=$(gzip -9 -c "$file" | wc -c)"
}
RUSTFLAGS='--cfg target_feature="atomics" -A explicit_builtin_cfgs_in_flags' \
    cargo build --release --target wasm32-unknown-unknown -p tms-wasm --no-default-features \
    --features bn254
# The 2 MiB `Fr::from(u64)` table of halo2curves-axiom is cut out here and computed at load
# (wasm/strip-fr-table.mjs, wasm/src/fr_table.rs); the package refuses a module whose table
# disagrees with field arithmetic.
size "$target" bn254-with-fr-table
node wasm/strip-fr-table.mjs "$target" wasm/npm/tms_verifier.wasm
# The `name` section (debug names, about 0.18 MB) is never read when verifying: both modules ship
# without it (wasm/strip-names.mjs; profile the modules as linked, which keep it).
node wasm/strip-names.mjs wasm/npm/tms_verifier.wasm wasm/npm/tms_verifier.wasm
size wasm/npm/tms_verifier.wasm bn254
cardano_target="${CARGO_TARGET_DIR:-target}/wasm-cardano"
# blst (C; all of midnight-curves' BLS12-381 arithmetic) has no assembly on wasm32: its portable
# Montgomery multiplication `mul_mont_n` takes the limb count n at run time, with a
# variable-length array, and at blst's own -O2 clang leaves it a call. A higher inlining
# threshold makes clang inline it into each fixed-size caller (mul_mont_384, mul_mont_sparse_256,
# ...), where n is a constant: loops unrolled, no VLA. Measured (docs/src/guides/browser-build.md,
# "The Cardano module"): SNARK-Mithril and Schnorr ATMS verification about 25-30% faster, the
# module 58 KB larger gzipped; -O3 or -msimd128 alone gained nothing. The cc crate applies these
# flags after blst's -O2, and only blst is C in this build. The Rust side is linked with fat LTO
# and one codegen unit (this build's own target directory; the workspace's release profile keeps
# thin LTO): 27 KB smaller gzipped, no slower.
CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
CFLAGS_wasm32_unknown_unknown="${CFLAGS_wasm32_unknown_unknown:--O3 -mllvm -inline-threshold=1000}" \
CC_wasm32_unknown_unknown="${CC_wasm32_unknown_unknown:-clang}" CARGO_TARGET_DIR="$cardano_target" \
    cargo build --release --target wasm32-unknown-unknown -p tms-wasm --no-default-features \
    --features cardano
size "$cardano_target/wasm32-unknown-unknown/release/tms_wasm.wasm" cardano-with-names
node wasm/strip-names.mjs "$cardano_target/wasm32-unknown-unknown/release/tms_wasm.wasm" \
    wasm/npm/tms_verifier_cardano.wasm
size wasm/npm/tms_verifier_cardano.wasm cardano
