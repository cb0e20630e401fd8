//! `cargo +nightly fuzz run encodings`: see `fuzz/README.md`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tms::fuzzing::encodings(data));
