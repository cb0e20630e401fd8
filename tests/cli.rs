//! The `tms` binary end to end: the full key / signature / certificate / proof flow, and each
//! bad input a user can give, checked for its one-line message, exit code and no partial output.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

use halo2_base::halo2_proofs::halo2curves::group::GroupEncoding;
use tms_gadgets::curve::GrumpkinAffine;

fn tms(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tms"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run tms")
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = tms(dir, args);
    assert!(
        out.status.success(),
        "tms {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs a command expected to fail; checks exit code 1, one line naming `needle`, and that
/// `output` was not created.
fn fails(dir: &Path, args: &[&str], needle: &str, output: Option<&str>) {
    let out = tms(dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "tms {args:?}: {stderr}");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line: {stderr}"));
    assert!(line.contains(needle), "expected {needle:?} in {line:?}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    if let Some(o) = output {
        assert!(!dir.join(o).exists(), "{o} was written despite the error");
    }
}

fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn full_flow_proves_and_verifies() {
    let d = workdir("cli-flow");
    ok(
        &d,
        &[
            "committee",
            "--size",
            "4",
            "--seed",
            "7",
            "--out",
            "committee.json",
            "--keys-dir",
            "keys",
        ],
    );
    ok(
        &d,
        &[
            "sign",
            "--key",
            "keys/member-0.json",
            "--message",
            "1234",
            "--out",
            "s0.json",
        ],
    );
    ok(
        &d,
        &[
            "sign",
            "--key",
            "keys/member-2.json",
            "--message",
            "1234",
            "--out",
            "s2.json",
        ],
    );
    ok(
        &d,
        &[
            "certify",
            "--committee",
            "committee.json",
            "--message",
            "1234",
            "--out",
            "cert.json",
            "s0.json",
            "s2.json",
        ],
    );
    ok(
        &d,
        &[
            "setup",
            "--k",
            "15",
            "--insecure-test",
            "--out",
            "params.srs",
        ],
    );
    ok(
        &d,
        &[
            "keygen",
            "--committee",
            "committee.json",
            "--params",
            "params.srs",
            "--pk",
            "atms.pk",
            "--vk",
            "atms.vk",
        ],
    );
    let prove = [
        "prove",
        "--committee",
        "committee.json",
        "--certificate",
        "cert.json",
        "--threshold",
        "2",
        "--params",
        "params.srs",
        "--pk",
        "atms.pk",
        "--proof",
        "proof.bin",
        "--public",
        "public.json",
    ];
    ok(&d, &prove);
    let out = ok(
        &d,
        &[
            "verify",
            "--params",
            "params.srs",
            "--vk",
            "atms.vk",
            "--public",
            "public.json",
            "--proof",
            "proof.bin",
        ],
    );
    assert!(out.starts_with("verified: at least 2 of 4"), "{out}");

    // The same proof against a stronger claim fails.
    let public = std::fs::read_to_string(d.join("public.json")).unwrap();
    std::fs::write(
        d.join("public3.json"),
        public.replace("\"threshold\": 2", "\"threshold\": 3"),
    )
    .unwrap();
    fails(
        &d,
        &[
            "verify",
            "--params",
            "params.srs",
            "--vk",
            "atms.vk",
            "--public",
            "public3.json",
            "--proof",
            "proof.bin",
        ],
        "does not verify",
        None,
    );

    // Threshold above what the certificate has, and above n.
    let mut p = prove;
    p[6] = "3";
    p[12] = "p3.bin";
    fails(
        &d,
        &p,
        "2 valid signatures are below the threshold 3",
        Some("p3.bin"),
    );
    p[6] = "5";
    fails(
        &d,
        &p,
        "--threshold: threshold 5 is above the 4 signature slots",
        Some("p3.bin"),
    );

    // Parameters too small for the circuit.
    let ptau = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/pot10_tms_test.ptau"
    );
    ok(
        &d,
        &["setup", "--k", "10", "--ptau", ptau, "--out", "small.srs"],
    );
    assert!(d.join("small.srs.sha256").exists());
    // halo2's raw format, cut down from 2^15 to 2^10 rows.
    ok(
        &d,
        &[
            "setup",
            "--k",
            "10",
            "--halo2",
            "params.srs",
            "--out",
            "cut.srs",
        ],
    );
    fails(
        &d,
        &[
            "setup",
            "--k",
            "16",
            "--halo2",
            "params.srs",
            "--out",
            "more.srs",
        ],
        "2^16 are needed",
        Some("more.srs"),
    );
    fails(
        &d,
        &[
            "keygen",
            "--committee",
            "committee.json",
            "--params",
            "small.srs",
            "--pk",
            "x.pk",
            "--vk",
            "x.vk",
        ],
        "parameters too small",
        Some("x.pk"),
    );

    // A ceremony file with fewer powers than asked for; a parameters file that changed.
    fails(
        &d,
        &["setup", "--k", "11", "--ptau", ptau, "--out", "big.srs"],
        "2^10 powers",
        Some("big.srs"),
    );
    let mut srs = std::fs::read(d.join("small.srs")).unwrap();
    let last = srs.len() - 1;
    srs[last] ^= 1;
    std::fs::write(d.join("small.srs"), srs).unwrap();
    fails(
        &d,
        &[
            "keygen",
            "--committee",
            "committee.json",
            "--params",
            "small.srs",
            "--pk",
            "x.pk",
            "--vk",
            "x.vk",
        ],
        "SHA-256 differs",
        Some("x.pk"),
    );

    // A signature over another message.
    ok(
        &d,
        &[
            "sign",
            "--key",
            "keys/member-1.json",
            "--message",
            "99",
            "--out",
            "s1.json",
        ],
    );
    fails(
        &d,
        &[
            "certify",
            "--committee",
            "committee.json",
            "--message",
            "1234",
            "--out",
            "c.json",
            "s0.json",
            "s1.json",
        ],
        "s1.json: signature over another message",
        Some("c.json"),
    );
}

#[test]
fn bad_inputs_are_named_without_panic_or_output() {
    let d = workdir("cli-bad");
    ok(
        &d,
        &[
            "committee",
            "--size",
            "2",
            "--seed",
            "3",
            "--out",
            "committee.json",
            "--keys-dir",
            "keys",
        ],
    );
    let committee = std::fs::read_to_string(d.join("committee.json")).unwrap();
    ok(
        &d,
        &[
            "sign",
            "--key",
            "keys/member-0.json",
            "--message",
            "5",
            "--out",
            "s0.json",
        ],
    );
    let certify = |file: &str| -> Vec<String> {
        [
            "certify",
            "--committee",
            file,
            "--message",
            "5",
            "--out",
            "c.json",
            "s0.json",
        ]
        .map(String::from)
        .to_vec()
    };
    let run = |args: Vec<String>, needle: &str| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(&d, &refs, needle, Some("c.json"));
    };

    std::fs::write(d.join("malformed.json"), "{\"version\": 1, \"scheme\": ").unwrap();
    run(certify("malformed.json"), "malformed.json: malformed JSON");

    std::fs::write(
        d.join("v2.json"),
        committee.replace("\"version\": 1", "\"version\": 2"),
    )
    .unwrap();
    run(certify("v2.json"), "v2.json: unsupported version 2");

    let members: serde_json::Value = serde_json::from_str(&committee).unwrap();
    let first = members["members"][0].as_str().unwrap().to_string();
    let dup = committee.replace(members["members"][1].as_str().unwrap(), &first);
    std::fs::write(d.join("dup.json"), dup).unwrap();
    run(
        certify("dup.json"),
        "dup.json: committee members 0 and 1 have the same key",
    );

    // An x coordinate with no point on the curve.
    let off_curve = (2u8..)
        .map(|x| {
            let mut repr = <GrumpkinAffine as GroupEncoding>::Repr::default();
            repr.as_mut()[0] = x;
            repr
        })
        .find(|r| bool::from(GrumpkinAffine::from_bytes(r).is_none()))
        .unwrap();
    let hex: String = off_curve
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    std::fs::write(
        d.join("curve.json"),
        committee.replace(&first, &format!("0x{hex}")),
    )
    .unwrap();
    run(
        certify("curve.json"),
        "curve.json: member 0's key is not a point on the Grumpkin curve",
    );

    run(certify("missing.json"), "missing.json: cannot read");
    fails(
        &d,
        &[
            "sign",
            "--key",
            "keys/nobody.json",
            "--message",
            "5",
            "--out",
            "x.json",
        ],
        "keys/nobody.json: cannot read",
        Some("x.json"),
    );
    fails(
        &d,
        &[
            "sign",
            "--key",
            "keys/member-0.json",
            "--message",
            "five",
            "--out",
            "x.json",
        ],
        "--message must be",
        Some("x.json"),
    );
}

#[test]
fn hash_matches_the_library() {
    let d = workdir("cli-hash");
    let out = ok(
        &d,
        &["hash", "--hash", "poseidon", "--mode", "node", "1", "2"],
    );
    // circomlib's poseidon([1, 2])
    assert_eq!(
        out.trim(),
        "0x115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a"
    );
    fails(
        &d,
        &["hash", "--hash", "poseidon", "--mode", "node", "1"],
        "exactly two",
        None,
    );
}
