//! mithril-stm 0.13's own files through the `tms` binary (`--format mithril-stm`): the registration
//! closed by mithril-stm, its aggregate verification key and its signers' single signatures in
//! `tests/fixtures/mithril-stm/` (written by mithril-stm itself:
//! `benches/mithril-compare/src/interop.rs`, which CI also runs to check that mithril-stm reads the
//! committed signatures back and accepts them). Certified, proved and verified from the
//! registration (pinned key) and from the aggregate key alone (regenerated key); refused: a
//! changed signature byte, another message, another registration (at certify and at verify), a
//! certificate changed after certify, a bare root, keys of other parameters, malformed files.
//! And a chain of two mithril-stm certificates (`tms chain link|extend|verify --format
//! mithril-stm`), on mithril-stm's own signatures of the links.

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
    // The fixtures, copied in so that commands name them by relative paths.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mithril-stm");
    for entry in std::fs::read_dir(fixtures).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// The 32 bytes the fixtures' signers signed (mithril-stm's interop `MESSAGE`: 42 repeated).
const MSG: &str = "0x2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a";
const S: &str = "--scheme mithril --backend cardano --format mithril-stm";

/// The fixtures' signature files, in signer order.
fn signatures(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("signature-"))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "{names:?}");
    names
}

/// `text` with the first list of numbers after `"field":` changed in its first byte.
fn flip_first_byte(text: &str, field: &str) -> String {
    let at = text.find(&format!("\"{field}\":[")).unwrap() + field.len() + 4;
    let end = at + text[at..].find([',', ']']).unwrap();
    let byte: u8 = text[at..end].parse().unwrap();
    format!("{}{}{}", &text[..at], byte ^ 1, &text[end..])
}

#[test]
fn mithril_stm_files_flow_through_the_tool() {
    let d = workdir("cli-mithril-stm");
    let sigs = signatures(&d).join(" ");
    let out = ok(
        &d,
        &format!(
            "certify {S} --committee registration.json --message {MSG} --out cert.json {sigs}"
        ),
    );
    assert!(out.contains("certificate with 5 indices"), "{out}");

    // The message as Mithril signs it (its 64 hex digits) is the same message.
    std::fs::write(d.join("message.hex"), &MSG[2..]).unwrap();
    ok(
        &d,
        &format!("certify {S} --committee registration.json --message-file message.hex --out cert-hex.json {sigs}"),
    );
    assert_eq!(
        std::fs::read(d.join("cert.json")).unwrap(),
        std::fs::read(d.join("cert-hex.json")).unwrap()
    );
    // A signature in mithril's json-hex form (as signers send it to the aggregator) reads the same.
    let first = signatures(&d)[0].clone();
    let json = std::fs::read_to_string(d.join(&first)).unwrap();
    let hex: String = json.trim().bytes().map(|b| format!("{b:02x}")).collect();
    std::fs::write(d.join("json-hex.txt"), hex).unwrap();
    let rest: Vec<String> = signatures(&d).into_iter().skip(1).collect();
    ok(
        &d,
        &format!("certify {S} --committee registration.json --message {MSG} --out cert-jh.json json-hex.txt {}", rest.join(" ")),
    );

    ok(
        &d,
        "setup --backend cardano --k 14 --insecure-test --out p.srs",
    );
    let out = ok(
        &d,
        &format!("keygen {S} --committee registration.json --params p.srs --pk m.pk --vk m.vk"),
    );
    assert!(out.contains("mithril-stm 0.13's relation"), "{out}");
    let fp = out.trim().rsplit(' ').next().unwrap().to_owned();
    ok(&d, &format!("prove {S} --committee registration.json --certificate cert.json --params p.srs --pk m.pk --proof m.proof --public m.json"));
    let out = ok(&d, &format!("verify {S} --committee registration.json --message {MSG} --params p.srs --vk m.vk --proof m.proof --vk-fingerprint {fp}"));
    assert!(
        out.contains("verified (mithril-stm 0.13 relation, cardano): 5 distinct lottery indices below m = 50"),
        "{out}"
    );
    // The verifier holding only mithril-stm's aggregate verification key, the key regenerated.
    let out = ok(&d, &format!("verify {S} --committee aggregate-key.json --message {MSG} --params p.srs --vk m.vk --proof m.proof --regenerate-vk --public m.json"));
    assert!(out.contains("verifying key regenerated"), "{out}");

    // The Plutus validators of the key (the registration root a script parameter): the example
    // and both bridge forms. Their message rule hashes the script's bytes to the signed 32.
    let e = "export-plutus --scheme mithril --format mithril-stm --params p.srs --vk m.vk";
    let out = ok(
        &d,
        &format!(
            "{e} --committee aggregate-key.json --vk-fingerprint {fp} --insecure-test --out plutus"
        ),
    );
    assert!(
        out.contains("Plutus V3 validator (mithril") && out.contains("mithril-stm 0.13's relation"),
        "{out}"
    );
    assert!(d.join("plutus/validator.INSECURE-TEST.cbor").exists());
    ok(&d, &format!("{e} --committee registration.json --regenerate-vk --insecure-test --form observer --out observer"));
    assert!(d.join("observer/observer.INSECURE-TEST.cbor").exists());
    let policy = format!("0x{}", "3c".repeat(28));
    ok(&d, &format!("{e} --committee registration.json --vk-fingerprint {fp} --insecure-test --form state-thread --thread-policy {policy} --thread-name 0x7374 --out thread"));
    assert!(d.join("thread/state-thread.INSECURE-TEST.cbor").exists());
    // This certificate signs MSG itself, not the blake2b-256 of bytes a script holds: the
    // example's statement for MSG is another, so the proof is refused before any script runs.
    fails(&d, &format!("{e} --committee registration.json --vk-fingerprint {fp} --insecure-test --proof m.proof --message {MSG} --out x"), "does not verify for this statement");
    fails(
        &d,
        &format!("{e} --committee registration.json --vk-fingerprint {fp} --out x"),
        "INSECURE",
    );
    fails(&d, &format!("{e} --committee registration.json --vk-fingerprint {fp} --threshold 5 --insecure-test --out x"), "quorum k");
    fails(&d, &format!("export-plutus --scheme schnorr-atms --format mithril-stm --params p.srs --vk m.vk --committee registration.json --vk-fingerprint {fp} --insecure-test --out x"), "--scheme mithril");

    // Refused at verify: another message, another registration, a bare root, an unpinned key.
    let other_msg = format!("0x{}", "2b".repeat(32));
    fails(&d, &format!("verify {S} --committee registration.json --message {other_msg} --params p.srs --vk m.vk --proof m.proof --vk-fingerprint {fp}"), "does not verify");
    fails(&d, &format!("verify {S} --committee other-registration.json --message {MSG} --params p.srs --vk m.vk --proof m.proof --vk-fingerprint {fp}"), "does not verify");
    let root = std::fs::read_to_string(d.join("m.json")).unwrap();
    let root = root
        .split("\"commitment\": \"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    fails(&d, &format!("verify {S} --commitment {root} --message {MSG} --params p.srs --vk m.vk --proof m.proof --vk-fingerprint {fp}"), "give the trusted --committee");
    fails(&d, &format!("verify {S} --committee registration.json --message 0x2a --params p.srs --vk m.vk --proof m.proof --vk-fingerprint {fp}"), "32 bytes");
    fails(&d, &format!("verify {S} --committee registration.json --message {MSG} --threshold 4 --params p.srs --vk m.vk --proof m.proof --vk-fingerprint {fp}"), "quorum is k = 5");

    // Refused at certify: a changed response byte, another message, another registration.
    std::fs::write(d.join("changed.json"), flip_first_byte(&json, "response")).unwrap();
    fails(
        &d,
        &format!(
            "certify {S} --committee registration.json --message {MSG} --out x.json changed.json"
        ),
        "does not verify for its registered key",
    );
    fails(
        &d,
        &format!(
            "certify {S} --committee registration.json --message {other_msg} --out x.json {sigs}"
        ),
        "does not verify for its registered key",
    );
    fails(
        &d,
        &format!(
            "certify {S} --committee other-registration.json --message {MSG} --out x.json {sigs}"
        ),
        "does not verify for its registered key",
    );
    fails(&d, &format!("certify {S} --committee registration.json --message {MSG} --out x.json {first} {first}"), "signs twice");
    assert!(!d.join("x.json").exists());

    // A certificate changed after certify cannot be proved (the native check names why).
    let cert = std::fs::read_to_string(d.join("cert.json")).unwrap();
    let at = cert.find("\"signature\": \"0x").unwrap() + 16;
    let digit = if &cert[at + 70..at + 71] == "0" {
        "1"
    } else {
        "0"
    };
    let tampered = format!("{}{digit}{}", &cert[..at + 70], &cert[at + 71..]);
    std::fs::write(d.join("tampered.json"), tampered).unwrap();
    fails(&d, &format!("prove {S} --committee registration.json --certificate tampered.json --params p.srs --pk m.pk --proof x.proof --public x.json"), "does not verify");
    // The prover needs the entries; tms's own files and other schemes are refused.
    fails(&d, &format!("prove {S} --committee aggregate-key.json --certificate cert.json --params p.srs --pk m.pk --proof x.proof --public x.json"), "closed registration's entries");
    fails(&d, "prove --scheme mithril --backend cardano --committee registration.json --certificate cert.json --params p.srs --pk m.pk --proof x.proof --public x.json", "malformed JSON");
    fails(&d, &format!("certify --scheme schnorr-atms --backend cardano --format mithril-stm --committee registration.json --message {MSG} --out x.json {sigs}"), "--scheme mithril --backend cardano");
    let broken = std::fs::read_to_string(d.join("registration.json"))
        .unwrap()
        .replacen("\"phi_f\":0.5", "\"phi_f\":1.5", 1);
    std::fs::write(d.join("broken.json"), broken).unwrap();
    fails(
        &d,
        &format!("certify {S} --committee broken.json --message {MSG} --out x.json {sigs}"),
        "phi_f 1.5",
    );
    std::fs::write(d.join("notjson.json"), "{\"parameters\": 3}").unwrap();
    fails(
        &d,
        &format!("certify {S} --committee notjson.json --message {MSG} --out x.json {sigs}"),
        "not mithril-stm's registration JSON",
    );

    // A key whose constants (m, quorum) are not the registration's is refused by name: they are
    // constants of the circuit, not public inputs, so the verifier checks them against the
    // parameters it holds (before regenerating anything), and so does the prover.
    let vk = std::fs::read_to_string(d.join("m.vk")).unwrap();
    let vk51 = vk.replacen("\"m\": 50", "\"m\": 51", 1);
    assert_ne!(vk, vk51);
    std::fs::write(d.join("m51.vk"), vk51).unwrap();
    fails(&d, &format!("verify {S} --committee aggregate-key.json --message {MSG} --params p.srs --vk m51.vk --proof m.proof --regenerate-vk"), "the verifying key is for m = 51");
    let pk = std::fs::read(d.join("m.pk")).unwrap();
    let split = pk.iter().position(|&b| b == b'\n').unwrap();
    let head = String::from_utf8(pk[..split].to_vec()).unwrap();
    let head51 = head.replacen("\"m\":50", "\"m\":51", 1);
    assert_ne!(head, head51);
    std::fs::write(d.join("m51.pk"), [head51.as_bytes(), &pk[split..]].concat()).unwrap();
    fails(&d, &format!("prove {S} --committee registration.json --certificate cert.json --params p.srs --pk m51.pk --proof x.proof --public x.json"), "the proving key is for m = 51");
    assert!(!d.join("x.proof").exists());
}

/// Epoch `epoch`'s signature files.
fn chain_signatures(dir: &Path, epoch: usize) -> String {
    let prefix = format!("chain-epoch{epoch}-signature-");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&prefix))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "{names:?}");
    names.join(" ")
}

/// The chain fixtures' application messages, epochs 0 and 1.
const APPLICATIONS: [&str; 2] = [
    "0x0101010101010101010101010101010101010101010101010101010101010101",
    "0x0202020202020202020202020202020202020202020202020202020202020202",
];

/// The last word of a line that ends `(fingerprint HEX)` or `(fingerprint HEX); ...`.
fn fingerprint(out: &str) -> String {
    out.split("fingerprint ")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap()
        .to_owned()
}

/// A chain of mithril-stm certificates: the signatures of `chain-epoch<E>-signature-*.json` were
/// made by mithril-stm 0.13.0's own signers on the links `tms chain link` prints
/// (`benches/mithril-compare/src/interop.rs`, `interop_chain_fixtures_are_mithril_stm_files`):
/// epoch 0, `registration.json` hands over to `other-registration.json`; epoch 1, back. Certified
/// with the hand-over, extended twice (the second call reusing the cached step keys), verified
/// from what a verifier holds; refused: every one-change statement, a changed proof, another
/// accumulator, a certificate for another epoch, signatures on another link. Minutes: a step key
/// at k = 19 and two step proofs.
#[test]
fn mithril_stm_chain_extends_and_verifies() {
    let d = workdir("cli-stm-chain");
    let registrations = ["registration.json", "other-registration.json"];

    // The link epoch 0's signers signed, and the certificate on it.
    let link = ok(
        &d,
        &format!(
            "chain link --next-registration {} --epoch 0 --message {}",
            registrations[1], APPLICATIONS[0]
        ),
    );
    assert_eq!(link.trim().len(), 66, "{link}");
    for epoch in 0..2 {
        let out = ok(
            &d,
            &format!(
                "certify {S} --committee {} --next-registration {} --epoch {epoch} --message {} \
                 --out c{epoch}.json {}",
                registrations[epoch],
                registrations[1 - epoch],
                APPLICATIONS[epoch],
                chain_signatures(&d, epoch)
            ),
        );
        assert!(out.contains("certificate with 5 indices"), "{out}");
    }
    // Signatures on epoch 0's link do not certify epoch 1's, nor another application message.
    fails(
        &d,
        &format!(
            "certify {S} --committee registration.json --next-registration {} --epoch 1 \
             --message {} --out x.json {}",
            registrations[1],
            APPLICATIONS[0],
            chain_signatures(&d, 0)
        ),
        "does not verify",
    );
    fails(
        &d,
        &format!(
            "certify {S} --committee registration.json --next-registration {} --epoch 0 \
             --message {} --out x.json {}",
            registrations[1],
            APPLICATIONS[1],
            chain_signatures(&d, 0)
        ),
        "does not verify",
    );

    ok(
        &d,
        "setup --backend cardano --k 14 --insecure-test --out p.srs",
    );
    ok(
        &d,
        "setup --backend cardano --k 19 --insecure-test --out chain.srs",
    );
    ok(
        &d,
        &format!("keygen {S} --committee registration.json --params p.srs --pk m.pk --vk m.vk"),
    );
    let extend = "chain extend --format mithril-stm --params p.srs --pk m.pk --chain-params \
                  chain.srs --vk step.vk";
    // Epoch 1's certificate cannot start a chain.
    fails(
        &d,
        &format!(
            "{extend} --registration {} --next-registration {} --certificate c1.json --proof x.json",
            registrations[1], registrations[0]
        ),
        "this chain needs epoch 0",
    );
    let out = ok(
        &d,
        &format!(
            "{extend} --registration {} --next-registration {} --certificate c0.json \
             --proof chain1.json",
            registrations[0], registrations[1]
        ),
    );
    assert!(
        out.contains("chain of 1 epoch") && out.contains("step keys made"),
        "{out}"
    );
    let fp = fingerprint(&out);
    // Epoch 0's certificate again, on the chain of one epoch: refused before any proof.
    fails(
        &d,
        &format!(
            "{extend} --registration {} --next-registration {} --certificate c0.json \
             --previous chain1.json --proof x.json",
            registrations[0], registrations[1]
        ),
        "this chain needs epoch 1",
    );
    let out = ok(
        &d,
        &format!(
            "{extend} --registration {} --next-registration {} --certificate c1.json \
             --previous chain1.json --proof chain2.json",
            registrations[1], registrations[0]
        ),
    );
    assert!(
        out.contains("chain of 2 epochs") && out.contains("step keys reused"),
        "{out}"
    );
    assert_eq!(fingerprint(&out), fp, "one step key for the chain");

    let verify = |genesis: &str, last: &str, message: &str, epochs: u64, proof: &str| {
        format!(
            "chain verify --format mithril-stm --genesis {genesis} --last-registration {last} \
             --message {message} --epochs {epochs} --params chain.srs --vk step.vk \
             --vk-fingerprint {fp} --certificate-vk m.vk --certificate-params p.srs --proof {proof}"
        )
    };
    let out = ok(
        &d,
        &verify(
            registrations[0],
            registrations[0],
            APPLICATIONS[1],
            2,
            "chain2.json",
        ),
    );
    assert!(
        out.contains("verified: a chain of 2 mithril-stm certificates"),
        "{out}"
    );
    ok(
        &d,
        &verify(
            registrations[0],
            registrations[1],
            APPLICATIONS[0],
            1,
            "chain1.json",
        ),
    );
    // One change at a time.
    for (genesis, last, message, epochs) in [
        (registrations[1], registrations[0], APPLICATIONS[1], 2),
        (registrations[0], registrations[1], APPLICATIONS[1], 2),
        (registrations[0], registrations[0], APPLICATIONS[0], 2),
        (registrations[0], registrations[0], APPLICATIONS[1], 3),
        (registrations[0], registrations[0], APPLICATIONS[1], 1),
    ] {
        fails(
            &d,
            &verify(genesis, last, message, epochs, "chain2.json"),
            "refused",
        );
    }
    // A changed proof byte; the accumulator of the chain of one epoch in the file of two.
    let file = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(d.join(name)).unwrap()).unwrap()
    };
    let mut changed = file("chain2.json");
    let proof = changed["proof"].as_str().unwrap().to_owned();
    let at = proof.len() / 2;
    let digit = if &proof[at..=at] == "0" { "1" } else { "0" };
    changed["proof"] = format!("{}{digit}{}", &proof[..at], &proof[at + 1..]).into();
    std::fs::write(d.join("changed.json"), changed.to_string()).unwrap();
    let mut swapped = file("chain2.json");
    swapped["accumulator"] = file("chain1.json")["accumulator"].clone();
    std::fs::write(d.join("swapped.json"), swapped.to_string()).unwrap();
    for proof in ["changed.json", "swapped.json"] {
        fails(
            &d,
            &verify(
                registrations[0],
                registrations[0],
                APPLICATIONS[1],
                2,
                proof,
            ),
            "refused",
        );
    }
    // The step key regenerated from the certificate key; a step key not pinned is refused.
    let out = ok(
        &d,
        &verify(
            registrations[0],
            registrations[0],
            APPLICATIONS[1],
            2,
            "chain2.json",
        )
        .replace(&format!("--vk-fingerprint {fp}"), "--regenerate-vk"),
    );
    assert!(out.contains("verifying key regenerated"), "{out}");
    fails(
        &d,
        &verify(
            registrations[0],
            registrations[0],
            APPLICATIONS[1],
            2,
            "chain2.json",
        )
        .replace(&format!("--vk-fingerprint {fp}"), ""),
        "pinned or regenerated",
    );
    fails(
        &d,
        "chain keygen --format mithril-stm --params p.srs --vk m.vk --regenerate-vk \
         --chain-params chain.srs --out-vk x.vk",
        "--step",
    );
}
