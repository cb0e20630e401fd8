#!/usr/bin/env bash
# Builds the npm package wasm/npm: the verifier compiled to WebAssembly (tms_verifier.wasm) next
# to its JavaScript (tms_verifier.js for browsers and bundlers, node.js for Node) and TypeScript
# types. Needs only `rustup target add wasm32-unknown-unknown`: no wasm-bindgen, no wasm-pack.
#
# halo2-base 0.5.5 depends on halo2-axiom with its default features, whose `multicore` refuses
# to compile for wasm32 unless `target_feature = "atomics"` is set. We set that cfg (it changes
# which source compiles, not the instructions: no atomic instruction or shared memory is
# emitted), so maybe-rayon uses rayon, which on wasm32-unknown-unknown runs every job on the
# calling thread (rayon-core >= 1.11: the pool falls back to the current thread when threads are
# unsupported).
set -euo pipefail
cd "$(dirname "$0")/.."
RUSTFLAGS='--cfg target_feature="atomics" -A explicit_builtin_cfgs_in_flags' \
    cargo build --release --target wasm32-unknown-unknown -p tms-wasm
cp "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/tms_wasm.wasm" wasm/npm/tms_verifier.wasm
bytes=$(wc -c < wasm/npm/tms_verifier.wasm)
echo "wasm-size bytes=$bytes gzip_bytes=$(gzip -9 -c wasm/npm/tms_verifier.wasm | wc -c)"
