//! The `tms` binary on the Cardano backend (`--backend cardano`: the Schnorr ATMS on Jubjub, KZG
//! over BLS12-381, insecure test parameters): committee, sign, certify, setup, keygen, prove and
//! verify accepted; verify's refusals (another message, a stricter threshold, an unpinned key, a
//! wrong fingerprint); export-plutus writing the validator of a pinned or regenerated key (an
//! unpinned one refused) and accepting the honest certificate;
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
    // Too few rows: refused before keygen, with the k the circuit needs (one layout at the
    // parameters' k, then the search for the figure).
    ok(
        &d,
        &format!("setup {B} --k 11 --insecure-test --out small.srs"),
    );
    fails(
        &d,
        &format!("keygen {B} --committee committee.json --params small.srs --pk x.pk --vk x.vk"),
        "2^11 rows, the circuit needs k >= 12",
    );
    assert!(!d.join("x.pk").exists());
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

    // export-plutus: test parameters are refused unless asked for, and a threshold of 0.
    let export = format!(
        "export-plutus --vk atms.vk --params params.srs --committee committee.json \
         --threshold 3 --proof proof.bin --message {MSG} --vk-fingerprint {fp} --out plutus"
    );
    fails(&d, &export, "INSECURE seeded test parameters");
    assert!(!d.join("plutus").exists());
    fails(
        &d,
        &format!(
            "{} --insecure-test",
            export.replace("--threshold 3", "--threshold 0")
        ),
        "--threshold: 0 accepts a certificate without signatures",
    );
    // The validator, named insecure with a note beside it, and the honest certificate
    // accepted with its budget.
    let out = ok(&d, &format!("{export} --insecure-test"));
    assert!(out.contains("verifying key pinned"), "{out}");
    assert!(!d.join("plutus/validator.cbor").exists());
    let note = std::fs::read_to_string(d.join("plutus/INSECURE-TEST-PARAMETERS.txt")).unwrap();
    assert!(note.contains("never deploy"), "{note}");
    let script = std::fs::read(d.join("plutus/validator.INSECURE-TEST.cbor")).unwrap();
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
             --threshold 3 --protocol-version 11 --regenerate-vk --insecure-test --out plutus11"
        ),
    );
    // A script is made only from a key the exporter pinned or regenerated, as for verify.
    fails(
        &d,
        "export-plutus --vk atms.vk --params params.srs --committee committee.json \
         --threshold 3 --out unpinned",
        "--vk-fingerprint",
    );
    assert!(!d.join("unpinned").exists());
    assert!(d.join("plutus11/validator.INSECURE-TEST.cbor").exists());
    // The bridge forms: the state thread (its script and genesis datum) and the observer.
    let bridge = format!(
        "export-plutus --vk atms.vk --params params.srs --commitment {commitment} --threshold 3 \
         --regenerate-vk --insecure-test"
    );
    let policy = format!("0x{}", "ab".repeat(28));
    let out = ok(
        &d,
        &format!(
            "{bridge} --form state-thread --thread-policy {policy} --thread-name 0x74686d73 \
             --out st"
        ),
    );
    assert!(out.contains("state-thread validator"), "{out}");
    assert!(d.join("st/state-thread.INSECURE-TEST.cbor").exists());
    assert!(d.join("st/genesis-datum.cbor").exists());
    assert!(d.join("st/INSECURE-TEST-PARAMETERS.txt").exists());
    ok(&d, &format!("{bridge} --form observer --out obs"));
    assert!(d.join("obs/observer.INSECURE-TEST.cbor").exists());
    fails(
        &d,
        &format!("{bridge} --form state-thread --out st2"),
        "give --thread-policy and --thread-name",
    );
    fails(
        &d,
        &format!("{bridge} --form observer --proof proof.bin --message {MSG} --out obs2"),
        "--form example only",
    );
    fails(
        &d,
        &format!(
            "export-plutus --vk atms.vk --params params.srs --committee committee.json \
             --threshold 3 --proof proof.bin --message 0x00 --vk-fingerprint {fp} \
             --insecure-test --out bad"
        ),
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
        "--backend cardano runs --scheme schnorr-atms and mithril",
    );
    fails(
        &d,
        &format!("setup {B} --k 13 --ptau x.ptau --out p.srs"),
        "--ptau and --halo2 are BN254 formats",
    );
}

/// `tms setup --backend cardano --srs`: a midnight-format SRS of a larger size (random tau, not
/// Midnight's: named as such) is imported, cut to k, and the parameters prove and verify; the
/// same file with one power changed is refused in one line with nothing written; `--srs` on
/// BN254 is refused.
#[test]
fn a_ceremony_srs_is_imported_checked_and_used() {
    use midnight_proofs::utils::SerdeFormat;
    use rand_chacha::{rand_core::SeedableRng, ChaCha20Rng};
    let d = workdir("cli-cardano-srs");
    let srs = tms_cardano::backend::Params12::unsafe_setup(14, ChaCha20Rng::seed_from_u64(99));
    let mut bytes = vec![];
    srs.write_custom(&mut bytes, SerdeFormat::RawBytes).unwrap();
    std::fs::write(d.join("srs14"), &bytes).unwrap();

    let out = ok(&d, &format!("setup {B} --k 13 --srs srs14 --out p.srs"));
    assert!(
        out.contains("not one of Midnight's published files"),
        "{out}"
    );
    assert!(out.contains("cut to 2^13 rows"), "{out}");
    let stderr = String::from_utf8_lossy(
        &tms(&d, &format!("setup {B} --k 13 --srs srs14 --out q.srs")).stderr,
    )
    .into_owned();
    assert!(!stderr.contains("INSECURE"), "{stderr}");

    // The imported parameters serve the whole flow.
    ok(
        &d,
        &format!("committee {B} --size 4 --seed 5 --out committee.json --keys-dir keys"),
    );
    for i in [0, 1, 3] {
        ok(
            &d,
            &format!("sign {B} --key keys/member-{i}.json --message {MSG} --out s{i}.json"),
        );
    }
    ok(&d, &format!("certify {B} --committee committee.json --message {MSG} --out cert.json s0.json s1.json s3.json"));
    ok(
        &d,
        &format!("keygen {B} --committee committee.json --params p.srs --pk a.pk --vk a.vk"),
    );
    ok(&d, &format!("prove {B} --committee committee.json --certificate cert.json --threshold 3 --params p.srs --pk a.pk --proof a.proof --public a.json"));
    let out = ok(&d, &format!("verify {B} --committee committee.json --message {MSG} --threshold 3 --params p.srs --vk a.vk --proof a.proof --regenerate-vk"));
    assert!(out.contains("verified (schnorr-atms, cardano)"), "{out}");

    // [tau^5]_1 replaced by another valid point.
    let mut changed = bytes.clone();
    let mut other = vec![];
    midnight_proofs::utils::helpers::ProcessedSerdeObject::write(
        &(<midnight_curves::G1Projective as group::Group>::generator()
            * midnight_curves::Fq::from(3)),
        &mut other,
        SerdeFormat::RawBytes,
    )
    .unwrap();
    changed[4 + 96 * 5..4 + 96 * 6].copy_from_slice(&other);
    std::fs::write(d.join("changed"), &changed).unwrap();
    fails(
        &d,
        &format!("setup {B} --k 13 --srs changed --out bad.srs"),
        "not a powers-of-tau SRS",
    );
    assert!(!d.join("bad.srs").exists());
    fails(
        &d,
        &format!("setup {B} --k 15 --srs srs14 --out big.srs"),
        "needs 2^15",
    );
    fails(
        &d,
        "setup --k 13 --srs srs14 --out bn.srs",
        "--backend cardano",
    );
}

/// SNARK-Mithril on the Cardano backend through the tool: stakes, registration, lotteries,
/// aggregation, keys, a proof verified from the registration (pinned key) and from its digest
/// alone (regenerated key, with the prover's statement checked); another message, an unpinned
/// key, a threshold and an ATMS committee file are refused; export-plutus accepts the honest
/// certificate.
#[test]
fn mithril_on_cardano_flows_through_the_tool() {
    let d = workdir("cli-cardano-mithril");
    let s = "--scheme mithril --backend cardano";
    ok(
        &d,
        &format!("committee {s} --size 5 --seed 3 --stake 100 --out stakes.json --keys-dir keys"),
    );
    let out = ok(
        &d,
        "register --backend cardano --stakes stakes.json --m 40 --k 3 --phi-f 7/10 --out reg.json",
    );
    assert!(out.contains("cardano backend"), "{out}");
    let mut signatures = vec![];
    for i in 0..5 {
        ok(&d, &format!("sign {s} --registration reg.json --key keys/member-{i}.json --message {MSG} --out s{i}.json"));
        if d.join(format!("s{i}.json")).exists() {
            signatures.push(format!("s{i}.json"));
        }
    }
    ok(
        &d,
        &format!(
            "certify {s} --committee reg.json --message {MSG} --out cert.json {}",
            signatures.join(" ")
        ),
    );
    ok(&d, &format!("setup {B} --k 13 --insecure-test --out p.srs"));
    let out = ok(
        &d,
        &format!("keygen {s} --committee reg.json --params p.srs --pk m.pk --vk m.vk"),
    );
    let fp = out.trim().rsplit(' ').next().unwrap().to_owned();
    ok(&d, &format!("prove {s} --committee reg.json --certificate cert.json --params p.srs --pk m.pk --proof m.proof --public m.json"));
    let out = ok(&d, &format!("verify {s} --committee reg.json --message {MSG} --params p.srs --vk m.vk --proof m.proof --vk-fingerprint {fp}"));
    assert!(
        out.contains("verified (mithril, cardano): 3 distinct lottery indices below m = 40"),
        "{out}"
    );
    let public = std::fs::read_to_string(d.join("m.json")).unwrap();
    let digest = public
        .split("\"commitment\": \"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let out = ok(&d, &format!("verify {s} --commitment {digest} --message {MSG} --params p.srs --vk m.vk --proof m.proof --regenerate-vk --public m.json"));
    assert!(out.contains("verifying key regenerated"), "{out}");

    fails(&d, &format!("verify {s} --committee reg.json --message 0x00 --params p.srs --vk m.vk --proof m.proof --vk-fingerprint {fp}"), "does not verify");
    fails(&d, &format!("verify {s} --committee reg.json --message {MSG} --params p.srs --vk m.vk --proof m.proof"), "--vk-fingerprint");
    fails(&d, &format!("verify {s} --committee reg.json --message {MSG} --threshold 2 --params p.srs --vk m.vk --proof m.proof --vk-fingerprint {fp}"), "quorum is k = 3");
    fails(&d, &format!("prove {s} --committee reg.json --certificate cert.json --threshold 3 --params p.srs --pk m.pk --proof x.proof --public x.json"), "quorum k");
    fails(&d, &format!("verify {s} --committee stakes.json --message {MSG} --params p.srs --vk m.vk --proof m.proof --vk-fingerprint {fp}"), "malformed JSON");

    let out = ok(&d, &format!("export-plutus --scheme mithril --vk m.vk --params p.srs --committee reg.json --proof m.proof --message {MSG} --vk-fingerprint {fp} --insecure-test --out plutus"));
    assert!(
        out.contains("plutus-budget scheme=mithril case=honest"),
        "{out}"
    );
    assert!(d.join("plutus/validator.INSECURE-TEST.cbor").exists());
}

/// Cardano committee files carry each key's proof of possession, as BN254's do: a proof moved
/// to another member, and a file of bare keys (the format before proofs), are refused by name.
#[test]
fn cardano_committees_need_proofs_of_possession() {
    let d = workdir("cli-cardano-pop");
    let out = ok(
        &d,
        &format!("committee {B} --size 3 --seed 9 --out committee.json --keys-dir keys"),
    );
    assert!(out.contains("with proofs of possession"), "{out}");
    ok(&d, &format!("setup {B} --k 13 --insecure-test --out p.srs"));
    ok(
        &d,
        &format!("keygen {B} --committee committee.json --params p.srs --pk a.pk --vk a.vk"),
    );

    let mut file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("committee.json")).unwrap()).unwrap();
    let members = file["members"].as_array_mut().unwrap();
    let pop1 = members[1]["proof_of_possession"].clone();
    members[2]["proof_of_possession"] = pop1;
    std::fs::write(d.join("moved.json"), file.to_string()).unwrap();
    fails(
        &d,
        &format!("keygen {B} --committee moved.json --params p.srs --pk b.pk --vk b.vk"),
        "member 2's proof of possession does not verify",
    );

    let mut bare: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("committee.json")).unwrap()).unwrap();
    let keys: Vec<serde_json::Value> = bare["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["public_key"].clone())
        .collect();
    bare["members"] = serde_json::Value::Array(keys);
    std::fs::write(d.join("bare.json"), bare.to_string()).unwrap();
    fails(
        &d,
        &format!("keygen {B} --committee bare.json --params p.srs --pk c.pk --vk c.vk"),
        "member 0 has no proof of possession",
    );
}
