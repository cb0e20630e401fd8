//! End to end: the README's main job, run through the built `tms` binary.

use std::process::Command;

#[test]
fn demo_proves_and_verifies() {
    let out = Command::new(env!("CARGO_BIN_EXE_tms"))
        .arg("demo")
        .output()
        .expect("run tms demo");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "tms demo failed: {}\n{}",
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("| verified | true |"), "{stdout}");
}

#[test]
fn unknown_subcommand_exits_with_usage() {
    let out = Command::new(env!("CARGO_BIN_EXE_tms"))
        .arg("frobnicate")
        .output()
        .expect("run tms");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Usage: tms"));
}
