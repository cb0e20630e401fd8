//! `cargo +nightly fuzz run parameter_files`: see `fuzz/README.md`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tms::fuzzing::parameter_files(data));
