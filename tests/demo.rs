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

#[test]
fn cardano_demo_proves_verifies_and_measures_the_plutus_budget() {
    let out = Command::new(env!("CARGO_BIN_EXE_tms"))
        .args(["demo", "--backend", "cardano"])
        .output()
        .expect("run tms demo --backend cardano");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "tms demo --backend cardano failed: {}\n{}",
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("| verified | true |"), "{stdout}");
    for pv in [10, 11] {
        assert!(
            stdout.lines().any(
                |l| l.starts_with("plutus-budget scheme=schnorr-atms case=honest ")
                    && l.ends_with(&format!("pv={pv}"))
            ),
            "{stdout}"
        );
    }
}

#[test]
fn mithril_cardano_demo_proves_verifies_and_measures_the_plutus_budget() {
    let out = Command::new(env!("CARGO_BIN_EXE_tms"))
        .args(["demo", "--scheme", "mithril", "--backend", "cardano"])
        .output()
        .expect("run tms demo --scheme mithril --backend cardano");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "tms demo --scheme mithril --backend cardano failed: {}\n{}",
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("| verified | true |"), "{stdout}");
    for pv in [10, 11] {
        assert!(
            stdout.lines().any(
                |l| l.starts_with("plutus-budget scheme=mithril case=honest ")
                    && l.ends_with(&format!("pv={pv}"))
            ),
            "{stdout}"
        );
    }
}
