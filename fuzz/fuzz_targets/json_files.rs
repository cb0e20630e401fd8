//! `cargo +nightly fuzz run json_files`: see `fuzz/README.md`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tms::fuzzing::json_files(data));
