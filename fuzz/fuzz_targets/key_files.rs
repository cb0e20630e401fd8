//! `cargo +nightly fuzz run key_files`: see `fuzz/README.md`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tms::fuzzing::key_files(data));
