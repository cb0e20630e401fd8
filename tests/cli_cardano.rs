//! The `tms` binary on the Cardano backend (`--backend cardano`: the Schnorr ATMS on Jubjub, KZG
//! over BLS12-381, insecure test parameters): committee, sign, certify, setup, keygen, prove and
//! verify accepted; verify's refusals (another message, a stricter threshold, an unpinned key, a
//! wrong fingerprint); export-plutus writing the validator and accepting the honest certificate;
//! files and schemes of the other backend refused in one line.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

fn tms(dir: &Path, args: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tms"))
        .current_dir(dir)
        .args(args.split_whitespace())
        .output()
        .expect("run tms")
}

fn ok(dir: &Path, args: &str) -> String {
    let out = tms(dir, args);
    assert!(
        out.status.success(),
        "tms {args} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs a command expected to fail: exit code 1, one error line containing `needle`, no panic.
fn fails(dir: &Path, args: &str, needle: &str) {
    let out = tms(dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "tms {args}: {stderr}");
    let lines: Vec<_> = stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].contains(needle),
        "expected {needle:?} in {:?}",
        lines[0]
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const MSG: &str = "0x636f6d6d6974746565206365727469666963617465"; // "committee certificate"
const B: &str = "--backend cardano";

#[test]
fn cardano_flow_verifies_only_the_trusted_statement() {
    let d = workdir("cli-cardano-flow");
    ok(
        &d,
        &format!("committee {B} --size 6 --seed 7 --out committee.json --keys-dir keys"),
    );
    let mut sigs = vec![];
    for i in [0, 2, 3, 5] {
        ok(
            &d,
            &format!("sign {B} --key keys/member-{i}.json --message {MSG} --out s{i}.json"),
        );
        sigs.push(format!("s{i}.json"));
    }
    let certify = format!(
        "certify {B} --committee committee.json --message {MSG} --out cert.json {}",
        sigs.join(" ")
    );
    assert!(ok(&d, &certify).contains("certificate with 4 signatures"));
    let committee = std::fs::read_to_string(d.join("committee.json")).unwrap();
    assert!(
        committee.contains("\"backend\": \"cardano\""),
        "{committee}"
    );

    let setup = ok(
        &d,
        &format!("setup {B} --k 13 --insecure-test --out params.srs"),
    );
    assert!(setup.contains("INSECURE"), "{setup}");
    let keygen = ok(
        &d,
        &format!(
            "keygen {B} --committee committee.json --params params.srs --pk atms.pk --vk atms.vk"
        ),
    );
    let fp = keygen.trim().rsplit(' ').next().unwrap().to_string();
    assert_eq!(fp.len(), 64, "{keygen}");
    ok(
        &d,
        &format!(
            "prove {B} --committee committee.json --certificate cert.json --threshold 3 \
             --params params.srs --pk atms.pk --proof proof.bin --public public.json"
        ),
    );

    let unpinned = format!(
        "verify {B} --params params.srs --vk atms.vk --proof proof.bin --committee committee.json"
    );
    let verify = format!("{unpinned} --vk-fingerprint {fp}");
    let out = ok(
        &d,
        &format!("{verify} --message {MSG} --threshold 3 --public public.json"),
    );
    assert!(
        out.starts_with(
            "verified (schnorr-atms, cardano): at least 3 of 6 committee members signed"
        ),
        "{out}"
    );
    assert!(out.contains("verifying key pinned"), "{out}");
    let stderr = tms(&d, &format!("{verify} --message {MSG} --threshold 3")).stderr;
    assert!(
        String::from_utf8_lossy(&stderr).contains("INSECURE"),
        "verify warns about test parameters"
    );
    let out = ok(
        &d,
        &format!("{unpinned} --message {MSG} --threshold 3 --regenerate-vk"),
    );
    assert!(out.contains("verifying key regenerated"), "{out}");
    // The commitment alone (what a script holds) does as well as the committee file.
    let public = std::fs::read_to_string(d.join("public.json")).unwrap();
    let commitment = public
        .split("\"commitment\": \"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap()
        .to_string();
    ok(
        &d,
        &format!(
            "verify {B} --params params.srs --vk atms.vk --proof proof.bin --commitment \
             {commitment} --message {MSG} --threshold 3 --vk-fingerprint {fp}"
        ),
    );

    // Refusals: another message, a stricter threshold, an unpinned key, a wrong fingerprint.
    fails(
        &d,
        &format!("{verify} --message 0x00 --threshold 3"),
        "proof.bin: the proof does not verify for the trusted statement",
    );
    fails(
        &d,
        &format!("{verify} --message {MSG} --threshold 4"),
        "proof.bin: the proof does not verify for the trusted statement",
    );
    fails(
        &d,
        &format!("{verify} --message 0x00 --threshold 3 --public public.json"),
        "public.json: message",
    );
    fails(
        &d,
        &format!("{unpinned} --message {MSG} --threshold 3"),
        "atms.vk: a verifying key file is trusted only when pinned or regenerated: give \
         --vk-fingerprint HEX",
    );
    fails(
        &d,
        &format!(
            "{unpinned} --message {MSG} --threshold 3 --vk-fingerprint {}",
            "0".repeat(64)
        ),
        "differs from --vk-fingerprint",
    );

    // export-plutus: the validator, and the honest certificate accepted with its budget.
    let out = ok(
        &d,
        &format!(
            "export-plutus --vk atms.vk --params params.srs --committee committee.json \
             --threshold 3 --proof proof.bin --message {MSG} --out plutus"
        ),
    );
    let script = std::fs::read(d.join("plutus/validator.cbor")).unwrap();
    assert!(
        out.contains(&format!("{} script bytes", script.len())),
        "{out}"
    );
    let budget = out
        .lines()
        .find(|l| l.starts_with("plutus-budget scheme=schnorr-atms case=honest "))
        .unwrap_or_else(|| panic!("no budget line: {out}"));
    println!("{budget}");
    assert!(d.join("plutus/redeemer.cbor").exists());
    // Without a proof: the script only; another message than the proof's is refused.
    ok(
        &d,
        &format!(
            "export-plutus --vk atms.vk --params params.srs --commitment {commitment} \
             --threshold 3 --protocol-version 11 --out plutus11"
        ),
    );
    assert!(d.join("plutus11/validator.cbor").exists());
    fails(
        &d,
        "export-plutus --vk atms.vk --params params.srs --committee committee.json \
         --threshold 3 --proof proof.bin --message 0x00 --out bad",
        "proof.bin: the proof does not verify",
    );
    assert!(!d.join("bad").exists());

    // The other backend's files and schemes: one line naming what exists.
    fails(
        &d,
        "keygen --committee committee.json --params params.srs --pk x.pk --vk x.vk",
        "committee.json: a cardano backend file, expected bn254 (give --backend cardano)",
    );
    fails(
        &d,
        &format!("committee {B} --scheme bls-atms --size 4 --out c.json --keys-dir k"),
        "--backend cardano runs --scheme schnorr-atms only",
    );
    fails(
        &d,
        &format!("setup {B} --k 13 --ptau x.ptau --out p.srs"),
        "no ceremony format is importable yet",
    );
}
