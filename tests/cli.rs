//! The `tms` binary end to end: the full key / signature / certificate / proof flow, and each
//! bad input a user can give, checked for its one-line message, exit code and no partial output.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

use halo2_base::halo2_proofs::halo2curves::group::GroupEncoding;
use tms_gadgets::{curve::GrumpkinAffine, proving::params::sha256_hex};

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

/// Runs `tms` with `args` (each a whitespace-free word) given as one string.
fn ok_s(dir: &Path, args: &str) -> String {
    ok(dir, &args.split_whitespace().collect::<Vec<_>>())
}

fn fails_s(dir: &Path, args: &str, needle: &str, output: Option<&str>) {
    fails(
        dir,
        &args.split_whitespace().collect::<Vec<_>>(),
        needle,
        output,
    )
}

fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const MSG: &str = "0x636f6d6d6974746565206365727469666963617465"; // "committee certificate"
const PTAU: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/vectors/pot10_tms_test.ptau"
);

/// A committee of 4 in `dir` (keys in `dir/keys`), members `signers` signing [`MSG`], a
/// certificate `cert.json`.
fn schnorr_certificate(dir: &Path, seed: u64, signers: &[usize]) {
    schnorr_certificate_of(dir, 4, seed, signers);
}

/// [`schnorr_certificate`] for a committee of `size`.
fn schnorr_certificate_of(dir: &Path, size: usize, seed: u64, signers: &[usize]) {
    ok_s(
        dir,
        &format!("committee --size {size} --seed {seed} --out committee.json --keys-dir keys"),
    );
    let mut sigs = vec![];
    for i in signers {
        ok_s(
            dir,
            &format!("sign --key keys/member-{i}.json --message {MSG} --out s{i}.json"),
        );
        sigs.push(format!("s{i}.json"));
    }
    ok_s(
        dir,
        &format!(
            "certify --committee committee.json --message {MSG} --out cert.json {}",
            sigs.join(" ")
        ),
    );
}

/// The verifying keys of the flow's committee (4 members, seed 7) on the k = 13 insecure
/// parameters, flat and Merkle (2 slots), as the tool made them before the layout's native work
/// moved ahead of it onto every thread: a change that must not move the layout is checked here.
const PINNED_FLAT_VK: &str = "b97d98aeb346dff68bcdfea33b85da305e0e4502bd5c995cbeac3dd387680c5b";
const PINNED_MERKLE_VK: &str = "af6353b879968e709a223b9011c0692a5e80d2d54165f17d8ea797bd36b29eb4";

#[test]
fn schnorr_flow_verifies_only_the_trusted_statement() {
    let d = workdir("cli-flow");
    schnorr_certificate(&d, 7, &[0, 2]);
    ok_s(&d, "setup --k 13 --insecure-test --out params.srs");
    let keygen = ok_s(
        &d,
        "keygen --committee committee.json --params params.srs --pk atms.pk --vk atms.vk",
    );
    let fp = keygen.trim().rsplit(' ').next().unwrap().to_string();
    assert_eq!(fp, PINNED_FLAT_VK, "{keygen}");
    let merkle = ok_s(
        &d,
        "keygen --committee committee.json --mode merkle --slots 2 --params params.srs \
         --pk merkle.pk --vk merkle.vk",
    );
    assert!(merkle.trim().ends_with(PINNED_MERKLE_VK), "{merkle}");
    let prove = "prove --committee committee.json --certificate cert.json --threshold 2 \
                 --params params.srs --pk atms.pk --proof proof.bin --public public.json";
    ok_s(&d, prove);
    let unpinned = format!(
        "verify --params params.srs --vk atms.vk --proof proof.bin --committee committee.json \
         --message {MSG}"
    );
    let verify = format!("{unpinned} --vk-fingerprint {fp}");
    let out = ok_s(&d, &format!("{verify} --threshold 2 --public public.json"));
    assert!(
        out.starts_with("verified (schnorr-atms): at least 2 of 4 committee members signed"),
        "{out}"
    );
    let stderr = tms(
        &d,
        &format!("{verify} --threshold 2")
            .split_whitespace()
            .collect::<Vec<_>>(),
    )
    .stderr;
    assert!(
        String::from_utf8_lossy(&stderr).contains("INSECURE"),
        "verify warns about test parameters"
    );
    let out = ok_s(&d, &format!("{unpinned} --threshold 2 --regenerate-vk"));
    assert!(out.contains("verifying key regenerated"), "{out}");
    // A key file the verifier neither pinned nor regenerates: refused, naming both ways.
    fails_s(
        &d,
        &format!("{unpinned} --threshold 2"),
        "atms.vk: a verifying key file is trusted only when pinned or regenerated: give \
         --vk-fingerprint HEX",
        None,
    );

    // A stronger claim than proved, another message, another committee: rejected.
    fails_s(
        &d,
        &format!("{verify} --threshold 3"),
        "does not verify",
        None,
    );
    fails_s(
        &d,
        &format!("{verify} --threshold 3 --public public.json"),
        "public.json: threshold 2 differs from --threshold 3",
        None,
    );
    fails_s(
        &d,
        &verify
            .replace(MSG, "0x00")
            .replace("--message", "--threshold 2 --message"),
        "does not verify",
        None,
    );
    fails_s(
        &d,
        &format!(
            "{} --threshold 2 --public public.json",
            verify.replace(MSG, "0x00")
        ),
        "public.json: message",
        None,
    );
    fails_s(
        &d,
        &format!(
            "{unpinned} --threshold 2 --vk-fingerprint {}",
            "0".repeat(64)
        ),
        "differs from --vk-fingerprint",
        None,
    );
    fails_s(&d, &verify, "give --threshold", None);
    // The verifier decides the threshold: never read from the prover's statement file, and
    // never 0 (a certificate of no signature certifies anything).
    fails_s(
        &d,
        &format!("{verify} --public public.json"),
        "give --threshold",
        None,
    );
    fails_s(
        &d,
        &format!("{verify} --threshold 0"),
        "--threshold 0",
        None,
    );

    // The attack of issue 13: a prover's own committee, all of it signing, proved with the
    // honest proving key (keys depend only on n) and its own statement file.
    let evil = d.join("evil");
    std::fs::create_dir_all(&evil).unwrap();
    schnorr_certificate(&evil, 666, &[0, 1, 2, 3]);
    for f in ["params.srs", "params.srs.sha256", "atms.pk", "atms.vk"] {
        std::fs::copy(d.join(f), evil.join(f)).unwrap();
    }
    ok_s(&evil, &prove.replace("--threshold 2", "--threshold 4"));
    std::fs::copy(d.join("committee.json"), evil.join("honest.json")).unwrap();
    let attack = format!(
        "verify --params params.srs --vk atms.vk --proof proof.bin --committee honest.json \
         --message {MSG} --vk-fingerprint {fp}"
    );
    fails_s(
        &evil,
        &format!("{attack} --threshold 4 --public public.json"),
        "public.json: commitment",
        None,
    );
    fails_s(
        &evil,
        &format!("{attack} --threshold 4"),
        "does not verify",
        None,
    );
    ok_s(
        &evil,
        &format!("{attack} --threshold 4").replace("honest.json", "committee.json"),
    );

    // A verifying key whose header was edited: refused by the fingerprint, and by regeneration.
    let mut vk = std::fs::read(d.join("atms.vk")).unwrap();
    let pos = vk.windows(4).position(|w| w == b"\"n\":").unwrap();
    vk[pos + 4] = b'5';
    std::fs::write(d.join("edited.vk"), &vk).unwrap();
    fails_s(
        &d,
        &format!("{} --threshold 2", verify.replace("atms.vk", "edited.vk")),
        "differs from --vk-fingerprint",
        None,
    );
    // Regenerated from the edited shape (a 5-member circuit), it is another key: refused too.
    let public: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("public.json")).unwrap()).unwrap();
    let commitment = public["commitment"].as_str().unwrap();
    fails_s(
        &d,
        &format!(
            "{} --threshold 2 --regenerate-vk",
            unpinned.replace("atms.vk", "edited.vk").replace(
                "--committee committee.json",
                &format!("--commitment {commitment}")
            )
        ),
        "edited.vk: differs from the verifying key regenerated from its shape",
        None,
    );

    // Threshold above what the certificate has, and above n.
    fails_s(
        &d,
        &prove
            .replace("--threshold 2", "--threshold 3")
            .replace("proof.bin", "p3.bin"),
        "2 valid signatures are below the threshold 3",
        Some("p3.bin"),
    );
    fails_s(
        &d,
        &prove
            .replace("--threshold 2", "--threshold 5")
            .replace("proof.bin", "p3.bin"),
        "--threshold: threshold 5 is above the 4 signature slots",
        Some("p3.bin"),
    );

    // Parameters: a ceremony file, halo2's format cut down, too small, fewer powers, changed.
    ok_s(&d, &format!("setup --k 10 --ptau {PTAU} --out small.srs"));
    assert!(d.join("small.srs.sha256").exists());
    ok_s(&d, "setup --k 10 --halo2 params.srs --out cut.srs");
    // Insecure test parameters are made afresh at the smaller size: what `--insecure-test` makes.
    ok_s(&d, "setup --k 10 --insecure-test --out fresh.srs");
    assert_eq!(
        std::fs::read(d.join("cut.srs")).unwrap(),
        std::fs::read(d.join("fresh.srs")).unwrap()
    );
    // The same k: the file is copied as it is (no Lagrange basis recomputed).
    ok_s(&d, "setup --k 10 --halo2 small.srs --out same.srs");
    assert_eq!(
        std::fs::read(d.join("same.srs")).unwrap(),
        std::fs::read(d.join("small.srs")).unwrap()
    );
    fails_s(
        &d,
        "setup --k 14 --halo2 params.srs --out more.srs",
        "2^14 are needed",
        Some("more.srs"),
    );
    // This committee fits 2^10 rows (GLV ladders), so the ceremony's k = 10 file keys it; a
    // committee of 8 needs 2^11 and is refused before any key is written.
    ok_s(
        &d,
        "committee --size 8 --seed 8 --out committee8.json --keys-dir keys8",
    );
    fails_s(
        &d,
        "keygen --committee committee8.json --params small.srs --pk x.pk --vk x.vk",
        "parameters too small",
        Some("x.pk"),
    );
    let small_keygen = "keygen --committee committee.json --params small.srs --pk x.pk --vk x.vk";
    ok_s(&d, small_keygen);
    std::fs::remove_file(d.join("x.pk")).unwrap();
    fails_s(
        &d,
        &format!("setup --k 11 --ptau {PTAU} --out big.srs"),
        "2^10 powers",
        Some("big.srs"),
    );
    let mut srs = std::fs::read(d.join("small.srs")).unwrap();
    let last = srs.len() - 1;
    srs[last] ^= 1;
    std::fs::write(d.join("small.srs"), srs).unwrap();
    fails_s(&d, small_keygen, "SHA-256 differs", Some("x.pk"));

    // A signature over another message; a message given twice or not at all.
    ok_s(
        &d,
        "sign --key keys/member-1.json --message 0x99 --out s1.json",
    );
    fails_s(
        &d,
        &format!("certify --committee committee.json --message {MSG} --out c.json s0.json s1.json"),
        "s1.json: signature over another message",
        Some("c.json"),
    );
    std::fs::write(d.join("msg.bin"), b"committee certificate").unwrap();
    ok_s(
        &d,
        &format!(
            "{} --threshold 2",
            verify.replace(&format!("--message {MSG}"), "--message-file msg.bin")
        ),
    );
}

/// The EVM path through the binary: `prove --transcript evm` writes the proof and its verifier
/// calldata, `verify --transcript evm` checks it natively (and the default transcript refuses it
/// with a hint), and `export-verifier` writes both contracts and says whether the verifier fits
/// EIP-170.
#[test]
fn evm_transcript_and_export_verifier() {
    let d = workdir("cli-evm");
    schnorr_certificate(&d, 9, &[0, 1, 3]);
    ok_s(&d, "setup --k 13 --insecure-test --out params.srs");
    ok_s(
        &d,
        "keygen --committee committee.json --params params.srs --pk atms.pk --vk atms.vk",
    );
    let out = ok_s(
        &d,
        "prove --committee committee.json --certificate cert.json --threshold 3 --params \
         params.srs --pk atms.pk --proof proof.bin --public public.json --transcript evm",
    );
    assert!(out.contains("evm transcript"), "{out}");
    let calldata = std::fs::read_to_string(d.join("proof.bin.calldata")).unwrap();
    let proof = std::fs::read(d.join("proof.bin")).unwrap();
    // `0x`, then three public inputs (32 bytes each) and the proof, in hex.
    let hex = calldata.trim().strip_prefix("0x").unwrap();
    assert_eq!(hex.len(), 2 * (3 * 32 + proof.len()));
    assert!(hex.bytes().all(|c| c.is_ascii_hexdigit()), "{calldata}");
    assert!(hex.ends_with(&proof.iter().map(|b| format!("{b:02x}")).collect::<String>()));
    let verify = format!(
        "verify --params params.srs --vk atms.vk --proof proof.bin --committee committee.json \
         --message {MSG} --threshold 3 --regenerate-vk"
    );
    let out = ok_s(&d, &format!("{verify} --transcript evm"));
    assert!(out.starts_with("verified (schnorr-atms)"), "{out}");
    fails_s(&d, &verify, "needs `--transcript evm`", None);

    let out = ok_s(
        &d,
        "export-verifier --vk atms.vk --params params.srs --regenerate-vk --out contracts",
    );
    assert!(out.contains("3 public inputs"), "{out}");
    assert!(out.contains("EIP-170"), "{out}");
    // The contract is tied to this verifier: the exact length of the proof `prove` wrote.
    let exact = format!("proofs of exactly {} bytes", proof.len());
    assert!(out.contains(&exact), "{out}");
    assert!(out.contains("AtmsCertificateVerifier: "), "{out}");
    for file in [
        "Halo2Verifier.sol",
        "Halo2Verifier.bin",
        "CertificateVerifier.sol",
        "AtmsCertificateVerifier.bin",
    ] {
        assert!(d.join("contracts").join(file).exists(), "{file}");
    }
    let wrapper = std::fs::read_to_string(d.join("contracts/CertificateVerifier.sol")).unwrap();
    assert!(!wrapper.contains("{{"), "a placeholder is left");
    assert!(
        wrapper.contains(&format!("PROOF_LENGTH = {};", proof.len())),
        "{wrapper}"
    );
    let bytecode = std::fs::read_to_string(d.join("contracts/Halo2Verifier.bin")).unwrap();
    let bytecode = bytecode.trim().strip_prefix("0x").unwrap();
    assert!(bytecode.bytes().all(|c| c.is_ascii_hexdigit()) && bytecode.len() > 1000);
    // `tms aggregate` takes Poseidon-transcript proofs only, one statement per proof, and its
    // verifier only aggregation keys; each is refused before any aggregation is laid out.
    let aggregate = "aggregate prove --params params.srs --vk atms.vk --aggregation-params \
                     params.srs --proof agg.proof --out-vk agg.vk";
    fails_s(
        &d,
        &format!("{aggregate} --proofs proof.bin --publics public.json"),
        "proof.bin: does not verify for public.json in the Poseidon transcript",
        Some("agg.proof"),
    );
    fails_s(
        &d,
        &format!("{aggregate} --proofs proof.bin proof.bin --publics public.json"),
        "one --publics statement per proof",
        Some("agg.proof"),
    );
    ok_s(
        &d,
        "prove --committee committee.json --certificate cert.json --threshold 3 --params \
         params.srs --pk atms.pk --proof poseidon.bin --public public.json --transcript poseidon",
    );
    let out = ok_s(
        &d,
        &format!(
            "{} --transcript poseidon",
            verify.replace("proof.bin", "poseidon.bin")
        ),
    );
    assert!(out.starts_with("verified (schnorr-atms)"), "{out}");
    fails_s(
        &d,
        &format!(
            "aggregate verify --params params.srs --vk atms.vk --regenerate-vk --inner-vk \
             atms.vk --inner-params params.srs --proof poseidon.bin --statement \
             committee.json,{MSG},3"
        ),
        "atms.vk: malformed aggregation key file",
        None,
    );

    // A contract is generated only from a key the exporter pinned or regenerated.
    fails_s(
        &d,
        "export-verifier --vk atms.vk --params params.srs --out unpinned",
        "--vk-fingerprint",
        Some("unpinned"),
    );
    // Parameters of another size than the key's are refused before any generation.
    ok_s(&d, "setup --k 12 --insecure-test --out small.srs");
    fails_s(
        &d,
        "export-verifier --vk atms.vk --params small.srs --regenerate-vk --out other",
        "small.srs",
        Some("other"),
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
            "0x05",
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
            "0x05",
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
    let first = members["members"][0]["public_key"]
        .as_str()
        .unwrap()
        .to_string();
    let pop = members["members"][0]["proof_of_possession"]
        .as_str()
        .unwrap();
    assert_eq!(
        pop.len(),
        2 + 128,
        "tms committee writes a proof of possession per key"
    );
    // The same registration (key and proof of possession) twice.
    let mut dup = members.clone();
    dup["members"][1] = dup["members"][0].clone();
    std::fs::write(d.join("dup.json"), dup.to_string()).unwrap();
    run(
        certify("dup.json"),
        "dup.json: committee members 0 and 1 have the same key",
    );

    // Proofs of possession: absent (a file from before them, or an entry without one),
    // another member's, malformed.
    let edited = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v = members.clone();
        edit(&mut v);
        std::fs::write(d.join(name), v.to_string()).unwrap();
    };
    let key = |v: &serde_json::Value, i: usize| v["members"][i]["public_key"].clone();
    edited("bare.json", &|v| {
        v["members"] = serde_json::json!([key(v, 0), key(v, 1)]);
    });
    run(
        certify("bare.json"),
        "bare.json: member 0 has no proof of possession",
    );
    edited("nopop.json", &|v| {
        v["members"][1] = serde_json::json!({"public_key": key(v, 1)});
    });
    run(
        certify("nopop.json"),
        "nopop.json: member 1 has no proof of possession",
    );
    edited("swapped.json", &|v| {
        let pop = v["members"][1]["proof_of_possession"].clone();
        v["members"][0]["proof_of_possession"] = pop;
    });
    run(
        certify("swapped.json"),
        "swapped.json: member 0's proof of possession does not verify",
    );
    // Member 0's own signature of a message, in the proof's form: not a proof of possession.
    let sig: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("s0.json")).unwrap()).unwrap();
    let r_s = format!(
        "{}{}",
        sig["r"].as_str().unwrap(),
        &sig["s"].as_str().unwrap()[2..]
    );
    edited("message.json", &|v| {
        v["members"][0]["proof_of_possession"] = serde_json::json!(r_s.clone());
    });
    run(
        certify("message.json"),
        "message.json: member 0's proof of possession does not verify",
    );
    edited("short.json", &|v| {
        v["members"][1]["proof_of_possession"] = serde_json::json!(first.clone());
    });
    run(
        certify("short.json"),
        "short.json: member 1's proof of possession must be 0x followed by 128 hex digits",
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

    // The same key with the (ignored) infinity flag set: a second encoding, refused.
    let last = u8::from_str_radix(&first[64..66], 16).unwrap() | 0x80;
    let flagged = format!("{}{last:02x}", &first[..64]);
    std::fs::write(d.join("flag.json"), committee.replace(&first, &flagged)).unwrap();
    run(
        certify("flag.json"),
        "flag.json: member 0's key is not the canonical encoding of its point",
    );

    run(certify("missing.json"), "missing.json: cannot read");
    fails(
        &d,
        &[
            "sign",
            "--key",
            "keys/nobody.json",
            "--message",
            "0x05",
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
        "--message: 0x followed by hex digits",
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

#[test]
fn field_elements_are_accepted_in_decimal_up_to_r_minus_one() {
    let d = workdir("cli-field");
    let r_minus_1 = "21888242871839275222246405745257275088548364400416034343698204186575808495616";
    let hex = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000000";
    let a = ok_s(
        &d,
        &format!("hash --hash poseidon --mode node {r_minus_1} 1"),
    );
    let b = ok_s(&d, &format!("hash --hash poseidon --mode node {hex} 1"));
    assert_eq!(a, b);
    let r = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
    fails_s(
        &d,
        &format!("hash --hash poseidon --mode node {r} 1"),
        "not below",
        None,
    );
}

#[test]
fn bls_keygen_on_far_too_small_parameters_is_refused_without_panic() {
    // A pairing's ~4.6 M cells at 2^12 rows overflow halo2-base's column estimate: keygen must
    // say the parameters are too small, not crash.
    let d = workdir("cli-bls-small-k");
    ok_s(
        &d,
        "committee --scheme bls-atms --size 8 --seed 1 --out committee.json --keys-dir keys",
    );
    ok_s(&d, "setup --k 12 --insecure-test --out small.srs");
    fails_s(
        &d,
        "keygen --scheme bls-atms --committee committee.json --capacity 4 --params small.srs --pk b.pk --vk b.vk",
        "parameters too small",
        Some("b.vk"),
    );
}

#[test]
fn bls_registration_checks_keys_and_certificates() {
    let d = workdir("cli-bls");
    ok_s(
        &d,
        "committee --scheme bls-atms --size 4 --seed 5 --out committee.json --keys-dir keys",
    );
    for i in [0, 1, 3] {
        ok_s(
            &d,
            &format!(
                "sign --scheme bls-atms --key keys/member-{i}.json --message {MSG} --out s{i}.json"
            ),
        );
    }
    let out = ok_s(
        &d,
        &format!("certify --scheme bls-atms --committee committee.json --message {MSG} --out cert.json s0.json s1.json s3.json"),
    );
    assert!(out.starts_with("certificate with 3 signers"), "{out}");
    let cert: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("cert.json")).unwrap()).unwrap();
    assert_eq!(cert["signers"], serde_json::json!([0, 1, 3]));
    // The whole circuit, pairing included, under MockProver (seconds, about 2.6 GB): the
    // CI-sized stand-in for the ignored real-proof flow below.
    let out = ok_s(
        &d,
        "check --scheme bls-atms --committee committee.json --certificate cert.json --threshold 3 --capacity 2",
    );
    assert!(
        out.starts_with("satisfied (bls-atms, MockProver, k = 20): at least 3 of 4"),
        "{out}"
    );
    fails_s(
        &d,
        "check --scheme bls-atms --committee committee.json --certificate cert.json --threshold 4 --capacity 2",
        "below the threshold",
        None,
    );

    // A Schnorr file given to a BLS command, and the other way round.
    fails_s(
        &d,
        &format!("certify --committee committee.json --message {MSG} --out c.json s0.json"),
        "committee.json: a \"bls-atms\" file, expected \"schnorr-atms\" (give --scheme bls-atms)",
        Some("c.json"),
    );

    let committee = std::fs::read_to_string(d.join("committee.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&committee).unwrap();
    let m = &v["members"];
    let certify = |file: &str| {
        format!("certify --scheme bls-atms --committee {file} --message {MSG} --out c.json s0.json")
    };
    // Member 1's proof of possession given for member 2: refused.
    let swapped = committee.replace(
        m[2]["proof_of_possession"].as_str().unwrap(),
        m[1]["proof_of_possession"].as_str().unwrap(),
    );
    std::fs::write(d.join("pop.json"), swapped).unwrap();
    fails_s(&d, &certify("pop.json"), "pop.json: ", Some("c.json"));
    let out = tms(
        &d,
        &certify("pop.json").split_whitespace().collect::<Vec<_>>(),
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("possession"),
        "{out:?}"
    );
    // A key registered twice (with its own valid proof).
    let dup = committee
        .replace(
            m[3]["public_key"].as_str().unwrap(),
            m[0]["public_key"].as_str().unwrap(),
        )
        .replace(
            m[3]["proof_of_possession"].as_str().unwrap(),
            m[0]["proof_of_possession"].as_str().unwrap(),
        );
    std::fs::write(d.join("dup.json"), dup).unwrap();
    fails_s(
        &d,
        &certify("dup.json"),
        "dup.json: committee members 0 and 3",
        Some("c.json"),
    );
    // A signature on another message; a signer outside the committee.
    ok_s(
        &d,
        "sign --scheme bls-atms --key keys/member-2.json --message 0x01 --out other.json",
    );
    fails_s(
        &d,
        &format!("certify --scheme bls-atms --committee committee.json --message {MSG} --out c.json s0.json other.json"),
        "other.json: signature over another message",
        Some("c.json"),
    );
    ok_s(
        &d,
        "committee --scheme bls-atms --size 2 --seed 9 --out outsiders.json --keys-dir out",
    );
    ok_s(
        &d,
        &format!("sign --scheme bls-atms --key out/member-0.json --message {MSG} --out x.json"),
    );
    fails_s(
        &d,
        &format!("certify --scheme bls-atms --committee committee.json --message {MSG} --out c.json x.json"),
        "x.json: the signer is not a member",
        Some("c.json"),
    );
}

/// Minutes (a BN254 pairing in the circuit): `cargo test --release --test cli -- --ignored`.
#[test]
#[ignore = "keygen and proof of a BN254 pairing: minutes; see the README"]
fn bls_flow_proves_and_verifies() {
    let d = workdir("cli-bls-flow");
    ok_s(
        &d,
        "committee --scheme bls-atms --size 4 --seed 5 --out committee.json --keys-dir keys",
    );
    for i in [0, 1, 3] {
        ok_s(
            &d,
            &format!(
                "sign --scheme bls-atms --key keys/member-{i}.json --message {MSG} --out s{i}.json"
            ),
        );
    }
    ok_s(
        &d,
        &format!("certify --scheme bls-atms --committee committee.json --message {MSG} --out cert.json s0.json s1.json s3.json"),
    );
    ok_s(&d, "setup --k 20 --insecure-test --out params.srs");
    ok_s(&d, "keygen --scheme bls-atms --committee committee.json --capacity 2 --params params.srs --pk b.pk --vk b.vk");
    ok_s(&d, "prove --scheme bls-atms --committee committee.json --certificate cert.json --threshold 3 --params params.srs --pk b.pk --proof proof.bin --public public.json");
    let verify = format!(
        "verify --scheme bls-atms --params params.srs --vk b.vk --proof proof.bin --committee committee.json --message {MSG} --regenerate-vk"
    );
    let out = ok_s(&d, &format!("{verify} --threshold 3 --public public.json"));
    assert!(
        out.starts_with("verified (bls-atms): at least 3 of 4"),
        "{out}"
    );
    fails_s(
        &d,
        &format!("{verify} --threshold 4"),
        "does not verify",
        None,
    );
    fails_s(
        &d,
        &verify
            .replace(MSG, "0x00")
            .replace("--message", "--threshold 3 --message"),
        "does not verify",
        None,
    );
}

#[test]
fn mithril_flow_registers_signs_proves_and_verifies() {
    let d = workdir("cli-mithril");
    ok_s(
        &d,
        "committee --scheme mithril --size 6 --seed 1 --out stakes.json --keys-dir keys",
    );
    let out = ok_s(
        &d,
        "register --stakes stakes.json --preset preprod --out registration.json",
    );
    assert!(out.contains("m = 100, k = 5, phi_f = 7/10"), "{out}");
    let mut sigs = vec![];
    for i in 0..6 {
        let out = ok_s(
            &d,
            &format!("sign --scheme mithril --registration registration.json --key keys/member-{i}.json --message {MSG} --out s{i}.json"),
        );
        if out.contains("signature written") {
            sigs.push(format!("s{i}.json"));
        }
    }
    ok_s(
        &d,
        &format!("certify --scheme mithril --committee registration.json --message {MSG} --out cert.json {}", sigs.join(" ")),
    );
    ok_s(&d, "setup --k 15 --insecure-test --out params.srs");
    ok_s(&d, "keygen --scheme mithril --committee registration.json --params params.srs --pk m.pk --vk m.vk");
    ok_s(&d, "prove --scheme mithril --committee registration.json --certificate cert.json --params params.srs --pk m.pk --proof proof.bin --public public.json");
    let verify = format!(
        "verify --scheme mithril --params params.srs --vk m.vk --proof proof.bin --committee registration.json --message {MSG} --regenerate-vk"
    );
    let out = ok_s(&d, &format!("{verify} --public public.json"));
    assert!(
        out.starts_with("verified (mithril): 5 distinct lottery indices below m = 100"),
        "{out}"
    );
    // Another message, another registration (other stakes), a claimed quorum other than k.
    fails_s(&d, &verify.replace(MSG, "0x00"), "does not verify", None);
    let stakes = std::fs::read_to_string(d.join("stakes.json")).unwrap();
    std::fs::write(
        d.join("stakes2.json"),
        stakes.replacen("\"stake\": 1000", "\"stake\": 999", 1),
    )
    .unwrap();
    ok_s(
        &d,
        "register --stakes stakes2.json --preset preprod --out other.json",
    );
    fails_s(
        &d,
        &format!(
            "{} --public public.json",
            verify.replace("registration.json", "other.json")
        ),
        "public.json: commitment",
        None,
    );
    fails_s(
        &d,
        &verify.replace("registration.json", "other.json"),
        "does not verify",
        None,
    );
    fails_s(
        &d,
        &format!("{verify} --threshold 4"),
        "the registration's quorum is k = 5",
        None,
    );
    // The registration digest alone (what a contract stores) is a statement too: the circuit
    // computes H(m) itself, and the digest binds k and the depth of the verifying key's shape.
    let public: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("public.json")).unwrap()).unwrap();
    let digest = public["commitment"].as_str().unwrap();
    let by_digest = verify.replace(
        "--committee registration.json",
        &format!("--commitment {digest}"),
    );
    let out = ok_s(&d, &format!("{by_digest} --public public.json"));
    assert!(
        out.starts_with("verified (mithril): 5 distinct lottery indices won by registered parties"),
        "{out}"
    );
    fails_s(
        &d,
        &verify.replace(
            "--committee registration.json",
            &format!("--commitment 0x{:0>64}", 1),
        ),
        "does not verify",
        None,
    );
    fails_s(&d, &by_digest.replace(MSG, "0x00"), "does not verify", None);
    fails_s(
        &d,
        &format!("{by_digest} --threshold 4"),
        "the verifying key's quorum is k = 5",
        None,
    );

    // Bad registrations: a zero stake, a key twice, parameters out of range.
    std::fs::write(
        d.join("zero.json"),
        stakes.replacen("\"stake\": 1000", "\"stake\": 0", 1),
    )
    .unwrap();
    fails_s(
        &d,
        "register --stakes zero.json --preset preprod --out r.json",
        "zero.json: ",
        Some("r.json"),
    );
    fails_s(
        &d,
        "register --stakes stakes.json --m 10 --k 11 --phi-f 1/5 --out r.json",
        "parameters",
        Some("r.json"),
    );
    fails_s(
        &d,
        "register --stakes stakes.json --m 10 --k 5 --phi-f 6/5 --out r.json",
        "parameters",
        Some("r.json"),
    );
    fails_s(
        &d,
        "register --stakes stakes.json --out r.json",
        "--preset",
        Some("r.json"),
    );
    // A certificate whose signer slot names another party.
    let cert = std::fs::read_to_string(d.join("cert.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&cert).unwrap();
    let party = v["signers"][0]["party"].as_u64().unwrap();
    let forged = cert.replacen(
        &format!("\"party\": {party}"),
        &format!("\"party\": {}", (party + 1) % 6),
        1,
    );
    std::fs::write(d.join("forged.json"), forged).unwrap();
    fails_s(
        &d,
        "prove --scheme mithril --committee registration.json --certificate forged.json --params params.srs --pk m.pk --proof p2.bin --public p2.json",
        "forged.json: ",
        Some("p2.bin"),
    );
}

/// Issue 19's two crashes: a parameters file of random bytes with a matching `.sha256` record
/// (halo2's reader unwrapped inside halo2curves), and a committee size that asked for terabytes.
#[test]
fn random_parameters_and_huge_committees_are_refused_in_one_line() {
    let d = workdir("cli-crashes");
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let junk: Vec<u8> = (0..100_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    std::fs::write(d.join("junk.srs"), &junk).unwrap();
    let digest = sha256_hex(&junk);
    std::fs::write(d.join("junk.srs.sha256"), format!("{digest}  junk.srs\n")).unwrap();
    ok_s(
        &d,
        "committee --size 2 --seed 1 --out committee.json --keys-dir keys",
    );
    std::fs::write(d.join("proof.bin"), b"not a proof").unwrap();
    std::fs::write(d.join("x.vk"), b"not a key").unwrap();
    fails_s(
        &d,
        "verify --params junk.srs --vk x.vk --proof proof.bin --committee committee.json --message 0x01 --threshold 1",
        "junk.srs: not a KZG parameters file",
        None,
    );
    // Four bytes claiming k = 2^31: refused before anything is allocated.
    std::fs::write(d.join("huge.srs"), [0, 0, 0, 128]).unwrap();
    fails_s(
        &d,
        "keygen --committee committee.json --params huge.srs --pk x.pk --vk y.vk",
        "huge.srs: not a KZG parameters file: k = 2147483648 is above 28",
        Some("x.pk"),
    );
    fails_s(
        &d,
        "committee --size 100000000000 --out big.json --keys-dir big",
        "--size: 100000000000 is outside 1..=1048576",
        Some("big.json"),
    );
    // A key file whose header claims a billion advice columns.
    let header = br#"{"format":"tms-schnorr-atms-vk-v3","shape":{"n":2,"mode":"flat","k":11,"verification":"per-signature"},"config":{"base":{"k":11,"num_advice_per_phase":[1000000000],"num_fixed":1,"num_lookup_advice_per_phase":[],"lookup_bits":null,"num_instance_columns":1},"custom_gates":true},"break_points":[]}"#;
    let mut vk = (header.len() as u32).to_le_bytes().to_vec();
    vk.extend_from_slice(header);
    std::fs::write(d.join("wide.vk"), vk).unwrap();
    ok_s(&d, "setup --k 11 --insecure-test --out p.srs");
    fails_s(
        &d,
        "verify --params p.srs --vk wide.vk --proof proof.bin --committee committee.json --message 0x01 --threshold 1 --regenerate-vk",
        "wide.vk: malformed key file: column configuration out of bounds",
        None,
    );
}

/// Insecure test parameters for 2^22 rows at `dir/out`: from the cached ones when a test made
/// them already (the same seed; making 2^22 powers takes several minutes).
fn setup_k22(dir: &Path, out: &str) {
    let cached = tms_gadgets::proving::params::params_dir().join("kzg_bn254_22.insecure-test.srs");
    if cached.exists() {
        let cached = cached.to_str().unwrap();
        ok(
            dir,
            &["setup", "--k", "22", "--halo2", cached, "--out", out],
        );
    } else {
        ok(
            dir,
            &["setup", "--k", "22", "--insecure-test", "--out", out],
        );
    }
}

/// A Mithril chain of `epochs` in `dir`: registrations `r0.json ..= r{epochs}.json` (six
/// parties each, seeds 10 + e, preprod), and certificates `c{e}.json` of epoch `e` signed by
/// `r{e}` on application message `0x0e` handing over to `r{e+1}`.
fn mithril_chain(dir: &Path, epochs: usize) {
    for e in 0..=epochs {
        ok_s(
            dir,
            &format!(
                "committee --scheme mithril --size 6 --seed {} --out stakes{e}.json --keys-dir keys{e}",
                10 + e
            ),
        );
        ok_s(
            dir,
            &format!("register --stakes stakes{e}.json --preset preprod --out r{e}.json"),
        );
    }
    for e in 0..epochs {
        let next = e + 1;
        let mut sigs = vec![];
        for i in 0..6 {
            let out = ok_s(
                dir,
                &format!("sign --scheme mithril --registration r{e}.json --next-registration r{next}.json --epoch {e} --key keys{e}/member-{i}.json --message 0x{e:02x} --out s{e}-{i}.json"),
            );
            if out.contains("signature written") {
                sigs.push(format!("s{e}-{i}.json"));
            }
        }
        ok_s(
            dir,
            &format!("certify --scheme mithril --committee r{e}.json --next-registration r{next}.json --epoch {e} --message 0x{e:02x} --out c{e}.json {}", sigs.join(" ")),
        );
    }
}

/// The error line of a `tms` run expected to fail before writing `output`.
fn error_line(dir: &Path, args: &str, output: &str) -> String {
    let out = tms(dir, &args.split_whitespace().collect::<Vec<_>>());
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "tms {args}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!dir.join(output).exists(), "{output} written");
    stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line: {stderr}"))
        .to_string()
}

/// The text after `after` in `line` up to `until`.
fn between<'a>(line: &'a str, after: &str, until: char) -> &'a str {
    let start = line
        .find(after)
        .unwrap_or_else(|| panic!("{after:?} in {line:?}"))
        + after.len();
    let rest = &line[start..];
    &rest[..rest.find(until).unwrap_or(rest.len())]
}

/// `tms chain extend`'s step key cache (`--step-cache DIR`, `DIR/chain-step.keys`) is checked
/// before any keygen or proof: a file that is not a step key file, one for another certificate
/// key, one for other parameters, and one whose bytes do not match its SHA-256 trailer are each
/// refused with one line naming the file and what to do, and nothing is written. (Made and
/// reused at k = 22: `mithril_chain_extends_one_epoch_at_a_time`, ignored; the file's own checks
/// at k = 12: `tms_aggregation::step_cache`'s tests.)
#[test]
fn a_step_key_cache_is_checked_before_use() {
    let d = workdir("cli-step-cache");
    mithril_chain(&d, 1);
    ok_s(&d, "setup --k 12 --insecure-test --out params.srs");
    ok_s(
        &d,
        "keygen --scheme mithril --committee r0.json --params params.srs --pk m.pk --vk m.vk",
    );
    std::fs::create_dir_all(d.join("cache")).unwrap();
    let extend = "chain extend --registration r0.json --next-registration r1.json --certificate c0.json --params params.srs --pk m.pk --chain-params params.srs --step-cache cache --proof chain1.proof --vk step.vk";
    let cache = d.join("cache/chain-step.keys");
    let hint = "; remove it, pass --regenerate-step-keys to replace it, or --step-cache DIR";
    // A header (and `body`, then a trailer of zeros) as `tms chain extend` writes it.
    let write = |certificate_key: &str, params: &str| {
        let header = format!(
            r#"{{"format":"tms-chain-step-keys-v1","certificate_key":"{certificate_key}","step_key":"0x00","params":"{params}","config":{{"degree":12,"num_advice":1,"num_lookup_advice":1,"num_fixed":1,"lookup_bits":11}},"break_points":[[]],"num_instances":17,"advice_cells":1}}"#
        );
        let mut bytes = b"TMSSTEPK".to_vec();
        bytes.extend((header.len() as u32).to_le_bytes());
        bytes.extend(header.as_bytes());
        bytes.extend([7u8; 100]);
        bytes.extend([0u8; 32]);
        std::fs::write(&cache, bytes).unwrap();
    };

    let line = error_line(
        &d,
        &extend.replace("--step-cache cache", "--step-cache missing"),
        "chain1.proof",
    );
    assert!(
        line.contains("missing: not a directory (for the step key cache)"),
        "{line}"
    );

    std::fs::write(&cache, b"not step keys").unwrap();
    let line = error_line(&d, extend, "chain1.proof");
    assert!(
        line.contains(
            "cache/chain-step.keys: not a step key file: it does not start with TMSSTEPK"
        ) && line.contains(hint),
        "{line}"
    );

    let other = format!("0x{}1", "0".repeat(63));
    write(&other, "k=12 sha256:00");
    let line = error_line(&d, extend, "chain1.proof");
    assert!(
        line.contains(&format!(
            "cache/chain-step.keys: keys for certificate key {other}, not for this certificate key (0x"
        )) && line.contains(hint),
        "{line}"
    );
    let certificate_key = between(&line, "not for this certificate key (", ')').to_string();
    assert_eq!(certificate_key.len(), 66, "{line}");

    write(&certificate_key, "k=12 sha256:00");
    let line = error_line(&d, extend, "chain1.proof");
    assert!(
        line.contains("keys made at other parameters (k=12 sha256:00), not these (k=12 sha256:"),
        "{line}"
    );
    let params = between(&line, "not these (", ')').to_string();

    // The right certificate key and parameters, bytes that are not those hashed.
    write(&certificate_key, &params);
    let line = error_line(&d, extend, "chain1.proof");
    assert!(
        line.contains("cache/chain-step.keys: altered or truncated: its SHA-256 trailer does not match its contents")
            && line.contains(hint),
        "{line}"
    );
    assert!(!d.join("step.vk").exists());
}

#[test]
fn mithril_chain_links_are_checked_before_proving() {
    let d = workdir("cli-chain-links");
    mithril_chain(&d, 2);
    let prove = |certs: &str, regs: &str, tree: &str| {
        format!("chain prove --registrations {regs} --certificates {certs} --params none.srs --pk none.pk --chain-params none.srs --tree {tree} --proof chain.proof --vk chain.vk")
    };
    // Reordered certificates, a registration skipped, a tree for another length.
    fails_s(
        &d,
        &prove("c1.json c0.json", "r0.json r1.json r2.json", "2,1,0"),
        "c1.json",
        Some("chain.proof"),
    );
    fails_s(
        &d,
        &prove("c0.json c1.json", "r0.json r2.json r2.json", "2,1,0"),
        "c0.json: epoch 0's certificate does not hand over to r2.json",
        Some("chain.proof"),
    );
    fails_s(
        &d,
        &prove("c0.json c1.json", "r0.json r1.json r2.json", "1,1,0"),
        "--tree 1,1,0 proves 1 epochs; 2 certificates given",
        Some("chain.proof"),
    );
    fails_s(
        &d,
        &prove("c0.json", "r0.json r1.json r2.json", "1,1,0"),
        "1 certificates need 2 registrations",
        None,
    );
    // The chain is sound, so the next missing thing is the parameters file.
    fails_s(
        &d,
        &prove("c0.json c1.json", "r0.json r1.json r2.json", "2,1,0"),
        "none.srs",
        Some("chain.proof"),
    );
    // `chain extend` checks its link before reading parameters too: the hand-over, then the
    // previous chain proof's end (a file of 17 words, then the proof).
    let extend = |cert: &str, next: &str, previous: &str| {
        format!("chain extend --registration r1.json --next-registration {next} --certificate {cert} --params none.srs --pk none.pk --chain-params none.srs{previous} --proof ext.proof --vk ext.vk")
    };
    fails_s(
        &d,
        &extend("c1.json", "r1.json", ""),
        "c1.json: the certificate does not hand over to r1.json",
        Some("ext.proof"),
    );
    fails_s(
        &d,
        &extend("c0.json", "r2.json", ""),
        "c0.json",
        Some("ext.proof"),
    );
    std::fs::write(d.join("short.proof"), [0u8; 17 * 32]).unwrap();
    fails_s(
        &d,
        &extend("c1.json", "r2.json", " --previous short.proof"),
        "short.proof: this proof file starts with 17 words",
        Some("ext.proof"),
    );
    let mut elsewhere = vec![0u8; 17 * 32 + 1];
    elsewhere[13 * 32 + 31] = 5; // the chain's last registration digest: 5
    std::fs::write(d.join("elsewhere.proof"), elsewhere).unwrap();
    fails_s(
        &d,
        &extend("c1.json", "r2.json", " --previous elsewhere.proof"),
        "but the chain of elsewhere.proof ends at 0x0000000000000000000000000000000000000000000000000000000000000005",
        Some("ext.proof"),
    );
    // Epoch 1's certificate cannot start a chain (the genesis epoch is 0)...
    fails_s(
        &d,
        &extend("c1.json", "r2.json", ""),
        "c1.json: the certificate does not hand over to r2.json at epoch 0 (it signs for: epoch 1",
        Some("ext.proof"),
    );
    // ...epoch 0's can: the next missing thing is the parameters file.
    fails_s(
        &d,
        "chain extend --registration r0.json --next-registration r1.json --certificate c0.json --params none.srs --pk none.pk --chain-params none.srs --proof ext.proof --vk ext.vk",
        "none.srs",
        Some("ext.proof"),
    );
    // `chain wrap` reads the step key and the chain proof before any parameters.
    std::fs::write(d.join("not-a-key.vk"), b"not a key").unwrap();
    fails_s(
        &d,
        "chain wrap --proof short.proof --vk not-a-key.vk --chain-params none.srs --out-proof w.proof --out-vk w.vk",
        "not-a-key.vk",
        Some("w.proof"),
    );
    // A signature for another hand-over cannot enter a certificate; a chain certificate is not
    // a plain one.
    let sig = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.starts_with("s0-"))
        .unwrap();
    fails_s(
        &d,
        &format!("certify --scheme mithril --committee r0.json --next-registration r2.json --epoch 0 --message 0x00 --out x.json {sig}"),
        "signed for another next registration or epoch",
        Some("x.json"),
    );
    fails_s(
        &d,
        &format!("certify --scheme mithril --committee r0.json --next-registration r1.json --epoch 1 --message 0x00 --out x.json {sig}"),
        "signed for another next registration or epoch",
        Some("x.json"),
    );
    fails_s(
        &d,
        &format!("certify --scheme mithril --committee r0.json --next-registration r1.json --message 0x00 --out x.json {sig}"),
        "--next-registration needs --epoch",
        Some("x.json"),
    );
    fails_s(
        &d,
        &format!("certify --scheme mithril --committee r0.json --message 0x00 --out x.json {sig}"),
        "signed for another next registration",
        Some("x.json"),
    );
    fails_s(
        &d,
        "sign --scheme schnorr-atms --key keys0/member-0.json --next-registration r1.json --message 0x00 --out x.json",
        "--next-registration applies to --scheme mithril only",
        Some("x.json"),
    );
    ok_s(&d, "setup --k 15 --insecure-test --out params.srs");
    ok_s(
        &d,
        "keygen --scheme mithril --committee r0.json --params params.srs --pk m.pk --vk m.vk",
    );
    fails_s(
        &d,
        "prove --scheme mithril --committee r0.json --certificate c0.json --params params.srs --pk m.pk --proof p.bin --public p.json",
        "prove chains with `tms chain prove`",
        Some("p.bin"),
    );
    // The verifier refuses a key file that is not an aggregation key and a short proof file.
    std::fs::write(d.join("short.proof"), [0u8; 100]).unwrap();
    let verify = "chain verify --genesis r0.json --last-registration r2.json --message 0x01 --epochs 2 --params params.srs";
    let m_vk = sha256_hex(&std::fs::read(d.join("m.vk")).unwrap());
    fails_s(
        &d,
        &format!("{verify} --vk m.vk --vk-fingerprint {m_vk} --proof short.proof"),
        "m.vk: malformed aggregation key file",
        None,
    );
}

/// A root key the prover handed over, labelled as the expected statement: every aggregation
/// verify command refuses it unless the verifier pinned or regenerates its own key, and a pin
/// of the honest key refuses the forgery (its bytes differ). The forgery is checked before any
/// parameter or proof is read, so a stand-in file serves.
#[test]
fn aggregation_keys_the_prover_hands_over_are_refused() {
    let d = workdir("cli-forged-keys");
    schnorr_certificate(&d, 5, &[0, 1]);
    let header = br#"{"format":"tms-aggregation-vk-v1","statement":"mithril-chain","config":{"degree":16,"num_advice":1,"num_lookup_advice":1,"num_fixed":1,"lookup_bits":15},"num_instances":16,"chain":null}"#;
    let mut forged = (header.len() as u32).to_le_bytes().to_vec();
    forged.extend_from_slice(header);
    forged.extend_from_slice(&[7u8; 64]);
    std::fs::write(d.join("forged.vk"), &forged).unwrap();
    let honest = "ab".repeat(32);
    let commands = [
        "chain verify --genesis-digest 1 --last-digest 2 --message 0x01 --epochs 8 --params p.srs --vk forged.vk --proof x.proof".to_string(),
        format!("aggregate verify --params p.srs --vk forged.vk --proof x.proof --statement committee.json,{MSG},2"),
        format!("chunk verify --committee committee.json --message {MSG} --threshold 2 --params p.srs --vk forged.vk --proof x.proof"),
    ];
    for command in &commands {
        fails_s(
            &d,
            command,
            "forged.vk: a verifying key file is trusted only when pinned or regenerated: give \
             --vk-fingerprint HEX (the fingerprint the keygen you ran printed) or \
             --regenerate-vk",
            None,
        );
        fails_s(
            &d,
            &format!("{command} --vk-fingerprint {honest}"),
            &format!(
                "forged.vk: fingerprint {} differs from --vk-fingerprint {honest}",
                sha256_hex(&forged)
            ),
            None,
        );
    }
}

/// A chain step key gets no contract: its proofs carry the step key's digest as their last
/// public input, which a bare verifier does not check (a stand-in of the step's shape makes a
/// base case for any genesis). Refused from the key file's header, pinned or not, pointing to
/// `tms chain wrap`; the file here is a header on a stand-in body.
#[test]
fn export_verifier_refuses_a_chain_step_key() {
    let d = workdir("cli-step-key");
    ok_s(&d, "setup --k 10 --insecure-test --out p.srs");
    let header = br#"{"format":"tms-aggregation-vk-v1","statement":"mithril-chain-step","config":{"degree":16,"num_advice":1,"num_lookup_advice":1,"num_fixed":1,"lookup_bits":15},"num_instances":17,"chain":null}"#;
    let mut step = (header.len() as u32).to_le_bytes().to_vec();
    step.extend_from_slice(header);
    step.extend_from_slice(&[7u8; 64]);
    std::fs::write(d.join("step.vk"), &step).unwrap();
    fails_s(
        &d,
        &format!(
            "export-verifier --vk step.vk --vk-fingerprint {} --params p.srs --out contracts",
            sha256_hex(&step)
        ),
        "step.vk: a chain step key: its proofs carry the step key's digest",
        Some("contracts"),
    );
}

/// A SNARK-Mithril chain extended one epoch at a time by the CLI (the genesis epoch, then a
/// second), the step key the same at both, made at the first and read back from the cache
/// beside the chain at the second; a cache for another certificate key and an altered one
/// refused; each chain verified under the pinned step key, and the one-change refusals; then
/// wrapped for contracts (`tms chain wrap`), verified under the pinned wrapper key and given its
/// ChainVerifier: `cargo test --release --test cli -- --ignored --nocapture
/// mithril_chain_extends` (one step keygen and two step proofs at k = 22, then the wrapper's
/// keygen and proof: about 25 minutes and 12 GiB on 2 cores).
#[test]
#[ignore = "one step keygen and two recursive step proofs at k = 22: about 25 minutes and 12 GiB"]
fn mithril_chain_extends_one_epoch_at_a_time() {
    let d = workdir("cli-chain-extend");
    mithril_chain(&d, 2);
    setup_k22(&d, "chain.srs");
    ok_s(&d, "setup --k 15 --halo2 chain.srs --out params.srs");
    ok_s(
        &d,
        "keygen --scheme mithril --committee r0.json --params params.srs --pk m.pk --vk m.vk",
    );
    let extend = |e: usize, previous: &str, vk: &str| {
        format!("chain extend --registration r{e}.json --next-registration r{}.json --certificate c{e}.json --params params.srs --pk m.pk --chain-params chain.srs{previous} --proof chain{}.proof --vk {vk}", e + 1, e + 1)
    };
    let out = ok_s(&d, &extend(0, "", "step.vk"));
    assert!(out.starts_with("chain of 1 epoch from genesis"), "{out}");
    assert!(
        out.contains("step keys made (") && out.contains("chain-step.keys"),
        "{out}"
    );
    // The step keys are cached beside the chain: the second epoch reads them back, checked.
    let out = ok_s(&d, &extend(1, " --previous chain1.proof", "step2.vk"));
    assert!(out.starts_with("chain of 2 epochs from genesis"), "{out}");
    assert!(out.contains("step keys reused from "), "{out}");
    println!("{out}");

    // A cache for another certificate key (another committee size: another circuit) is refused
    // before anything is proved, and so is a cache with one byte changed.
    ok_s(&d, "committee --scheme mithril --size 20 --seed 99 --out stakes-other.json --keys-dir keys-other");
    ok_s(
        &d,
        "register --stakes stakes-other.json --preset preprod --out other.json",
    );
    ok_s(&d, "keygen --scheme mithril --committee other.json --params params.srs --pk other.pk --vk other.vk");
    fails_s(
        &d,
        &extend(1, " --previous chain1.proof", "step3.vk").replace("--pk m.pk", "--pk other.pk"),
        "chain-step.keys: keys for certificate key 0x",
        Some("step3.vk"),
    );
    let cache = d.join("chain-step.keys");
    let honest = std::fs::read(&cache).unwrap();
    let mut altered = honest.clone();
    altered[honest.len() / 2] ^= 1;
    std::fs::write(&cache, &altered).unwrap();
    fails_s(
        &d,
        &extend(1, " --previous chain1.proof", "step3.vk"),
        "chain-step.keys: altered or truncated",
        Some("step3.vk"),
    );
    std::fs::write(&cache, &honest).unwrap();
    drop((honest, altered));
    let step = std::fs::read(d.join("step.vk")).unwrap();
    assert_eq!(
        step,
        std::fs::read(d.join("step2.vk")).unwrap(),
        "one step key"
    );
    let fp = sha256_hex(&step);
    let verify = |epochs: usize, last: usize, message: usize| {
        format!("chain verify --genesis r0.json --last-registration r{last}.json --message 0x{message:02x} --epochs {epochs} --params chain.srs --vk step.vk --vk-fingerprint {fp} --proof chain{epochs}.proof")
    };
    for epochs in [1, 2] {
        let out = ok_s(&d, &verify(epochs, epochs, epochs - 1));
        assert!(
            out.starts_with(&format!("verified: {epochs} SNARK-Mithril certificates")),
            "{out}"
        );
    }
    for (what, command) in [
        (
            "epochs",
            verify(2, 2, 1).replace("--epochs 2", "--epochs 3"),
        ),
        ("last registration", verify(2, 1, 1)),
        ("last message", verify(2, 2, 2)),
    ] {
        fails_s(
            &d,
            &command,
            "chain2.proof: the chain proof does not verify",
            None,
        );
        println!("refused: another {what}");
    }

    // Wrapped for contracts: verified as a tree's root is, under the pinned wrapper key, and
    // `export-verifier` gives it the chain's ChainVerifier.
    let out = ok_s(
        &d,
        "chain wrap --proof chain2.proof --vk step.vk --chain-params chain.srs --out-proof wrapped.proof --out-vk wrapped.vk",
    );
    assert!(out.starts_with("chain of 2 epochs from genesis"), "{out}");
    let wrapped_fp = sha256_hex(&std::fs::read(d.join("wrapped.vk")).unwrap());
    let verify_wrapped = |epochs: usize| {
        format!("chain verify --genesis r0.json --last-registration r2.json --message 0x01 --epochs {epochs} --params chain.srs --vk wrapped.vk --vk-fingerprint {wrapped_fp} --proof wrapped.proof")
    };
    let out = ok_s(&d, &verify_wrapped(2));
    assert!(
        out.starts_with("verified: 2 SNARK-Mithril certificates"),
        "{out}"
    );
    fails_s(
        &d,
        &verify_wrapped(3),
        "wrapped.proof: the chain proof does not verify",
        None,
    );
    let out = ok_s(
        &d,
        &format!("export-verifier --vk wrapped.vk --vk-fingerprint {wrapped_fp} --params chain.srs --out contracts"),
    );
    assert!(out.contains("ChainVerifier"), "{out}");
    println!("{out}");
    // A step key is what it wraps: the wrapper key is refused as one.
    fails_s(
        &d,
        "chain wrap --proof wrapped.proof --vk wrapped.vk --chain-params chain.srs --out-proof x.proof --out-vk x.vk",
        "wrapped.vk: a key for \"mithril-chain-wrapped\", not a chain step key",
        Some("x.proof"),
    );
}

/// A SNARK-Mithril chain proved and verified by the CLI, and the one-change refusals:
/// `cargo test --release --test cli -- --ignored --nocapture mithril_chain_proves`. The tree is
/// `TMS_CLI_CHAIN_TREE` (default `2,2,2`: 8 epochs, eight certificate proofs and seven
/// aggregation proofs at k = 22, about 50 minutes on 2 cores; `2,1,0`: 2 epochs, one
/// aggregation proof, about 10 minutes).
#[test]
#[ignore = "a tree of aggregation proofs: up to an hour; see the README"]
fn mithril_chain_proves_and_verifies() {
    let tree = std::env::var("TMS_CLI_CHAIN_TREE").unwrap_or_else(|_| "2,2,2".into());
    let numbers: Vec<usize> = tree.split(',').map(|n| n.parse().unwrap()).collect();
    let epochs = numbers[0] * numbers[1].pow(numbers[2] as u32);
    let d = workdir("cli-chain");
    mithril_chain(&d, epochs);
    setup_k22(&d, "chain.srs");
    ok_s(&d, "setup --k 15 --halo2 chain.srs --out params.srs");
    ok_s(
        &d,
        "keygen --scheme mithril --committee r0.json --params params.srs --pk m.pk --vk m.vk",
    );
    let regs: Vec<String> = (0..=epochs).map(|e| format!("r{e}.json")).collect();
    let certs: Vec<String> = (0..epochs).map(|e| format!("c{e}.json")).collect();
    let out = ok_s(
        &d,
        &format!(
            "chain prove --registrations {} --certificates {} --params params.srs --pk m.pk --chain-params chain.srs --tree {tree} --proof chain.proof --vk chain.vk",
            regs.join(" "),
            certs.join(" ")
        ),
    );
    println!("{out}");
    let last = epochs - 1;
    // The verifier makes the root key itself, from the certificate key and the tree alone.
    let fp = own_key(
        &d,
        &format!("chain keygen --params params.srs --vk m.vk --regenerate-vk --chain-params chain.srs --tree {tree} --out-vk own.vk"),
        "chain.vk",
    );
    let unpinned = format!("chain verify --genesis r0.json --last-registration r{epochs}.json --message 0x{last:02x} --epochs {epochs} --params chain.srs --vk chain.vk --proof chain.proof");
    let verify = format!("{unpinned} --vk-fingerprint {fp}");
    let out = ok_s(&d, &verify);
    println!("{out}");
    assert!(
        out.starts_with(&format!("verified: {epochs} SNARK-Mithril certificates")),
        "{out}"
    );
    let out = ok_s(
        &d,
        &format!("{unpinned} --regenerate-vk --tree {tree} --certificate-vk m.vk --certificate-params params.srs"),
    );
    assert!(out.contains("verifying key regenerated"), "{out}");
    // The attack: the aggregation key of one certificate (a circuit that exposes its inner
    // statement, not a chain's) relabelled `mithril-chain` with the tree's shape: it parses and
    // passes every label check, and is refused by the pin and by regeneration.
    let header_of = |file: &[u8]| -> serde_json::Value {
        let len = u32::from_le_bytes(file[..4].try_into().unwrap()) as usize;
        serde_json::from_slice(&file[4..4 + len]).unwrap()
    };
    let root_header = header_of(&std::fs::read(d.join("chain.vk")).unwrap());
    ok_s(
        &d,
        "aggregate keygen --scheme mithril --params params.srs --vk m.vk --regenerate-vk --count 1 --aggregation-params chain.srs --out-vk other.vk",
    );
    let other = std::fs::read(d.join("other.vk")).unwrap();
    let mut header = header_of(&other);
    header["statement"] = root_header["statement"].clone();
    header["chain"] = root_header["chain"].clone();
    header.as_object_mut().unwrap().remove("inner");
    let json = serde_json::to_vec(&header).unwrap();
    let other_len = u32::from_le_bytes(other[..4].try_into().unwrap()) as usize;
    let mut forged = (json.len() as u32).to_le_bytes().to_vec();
    forged.extend_from_slice(&json);
    forged.extend_from_slice(&other[4 + other_len..]);
    std::fs::write(d.join("forged.vk"), &forged).unwrap();
    fails_s(
        &d,
        &unpinned.replace("chain.vk", "forged.vk"),
        "forged.vk: a verifying key file is trusted only when pinned or regenerated",
        None,
    );
    fails_s(
        &d,
        &verify.replace("chain.vk", "forged.vk"),
        "forged.vk: fingerprint",
        None,
    );
    fails_s(
        &d,
        &format!("{unpinned} --regenerate-vk --tree {tree} --certificate-vk m.vk --certificate-params params.srs").replace("chain.vk", "forged.vk"),
        "forged.vk: differs from the verifying key regenerated",
        None,
    );
    for (from, to, why) in [
        (
            "--genesis r0.json".to_string(),
            "--genesis r1.json".to_string(),
            "does not verify".to_string(),
        ),
        (
            format!("--last-registration r{epochs}.json"),
            format!("--last-registration r{last}.json"),
            "does not verify".to_string(),
        ),
        (
            format!("--message 0x{last:02x}"),
            "--message 0xff".to_string(),
            "does not verify".to_string(),
        ),
        (
            format!("--epochs {epochs}"),
            format!("--epochs {}", epochs + 1),
            format!("closes chains of {epochs} epochs"),
        ),
    ] {
        fails_s(&d, &verify.replace(&from, &to), &why, None);
    }
}

/// Two Schnorr ATMS certificates (two committees) aggregated and verified by the CLI against
/// the verifier's statements, and refused in the other order:
/// `cargo test --release --test cli -- --ignored --nocapture aggregate_two`. One aggregation
/// proof at k = 22: about ten minutes on 2 cores.
#[test]
#[ignore = "an aggregation proof at k = 22: minutes; see the README"]
fn aggregate_two_schnorr_certificates_proves_and_verifies() {
    let d = workdir("cli-aggregate");
    setup_k22(&d, "agg.srs");
    ok_s(&d, "setup --k 13 --halo2 agg.srs --out params.srs");
    for (seed, name) in [(21, "a"), (22, "b")] {
        std::fs::create_dir_all(d.join(name)).unwrap();
        schnorr_certificate(&d.join(name), seed, &[0, 1, 3]);
        if name == "a" {
            ok_s(
                &d,
                "keygen --committee a/committee.json --params params.srs --pk atms.pk --vk atms.vk",
            );
        }
        ok_s(
            &d,
            &format!("prove --committee {name}/committee.json --certificate {name}/cert.json --threshold 3 --params params.srs --pk atms.pk --proof {name}.bin --public {name}.json --transcript poseidon"),
        );
    }
    let out = ok_s(
        &d,
        "aggregate prove --params params.srs --vk atms.vk --proofs a.bin b.bin --publics a.json b.json --aggregation-params agg.srs --proof agg.proof --out-vk agg.vk",
    );
    println!("{out}");
    // The verifier's own key, from the certificate key alone: the prover's, byte for byte.
    let fp = own_key(
        &d,
        "aggregate keygen --params params.srs --vk atms.vk --regenerate-vk --count 2 --aggregation-params agg.srs --out-vk own.vk",
        "agg.vk",
    );
    let verify = format!("aggregate verify --params agg.srs --vk agg.vk --vk-fingerprint {fp} --proof agg.proof --statement");
    let (a, b) = (
        format!("a/committee.json,{MSG},3"),
        format!("b/committee.json,{MSG},3"),
    );
    let out = ok_s(&d, &format!("{verify} {a} {b}"));
    assert!(
        out.starts_with("verified: 2 schnorr-atms certificates in one proof"),
        "{out}"
    );
    fails_s(&d, &format!("{verify} {b} {a}"), "does not verify", None);
    fails_s(
        &d,
        &format!("{verify} {a} {}", b.replace(",3", ",4")),
        "does not verify",
        None,
    );
    fails_s(
        &d,
        &format!("{verify} {a}"),
        "statements of schnorr-atms were given",
        None,
    );
    let out = ok_s(
        &d,
        &format!(
            "aggregate verify --params agg.srs --vk agg.vk --regenerate-vk --inner-vk atms.vk --inner-params params.srs --proof agg.proof --statement {a} {b}"
        ),
    );
    assert!(out.contains("verifying key regenerated"), "{out}");
}

/// Runs a keygen the verifier runs itself (`keygen` arguments) and returns the fingerprint it
/// prints, after checking that it is the fingerprint of the prover's key file `prover_vk`.
fn own_key(dir: &Path, keygen: &str, prover_vk: &str) -> String {
    let out = ok_s(dir, keygen);
    let fp = out.trim().trim_end_matches(')').rsplit(' ').next().unwrap();
    assert_eq!(
        fp,
        sha256_hex(&std::fs::read(dir.join(prover_vk)).unwrap()),
        "the verifier's keygen gives the prover's key: {out}"
    );
    fp.to_string()
}

/// A committee of 16 with `signers` signing [`MSG`]: `committee.json`, `cert.json`.
fn schnorr_committee_of_16(dir: &Path, signers: &[usize]) {
    schnorr_certificate_of(dir, 16, 17, signers);
}

#[test]
fn chunk_split_writes_one_committee_and_certificate_per_subtree() {
    let d = workdir("cli-chunk-split");
    schnorr_committee_of_16(&d, &[0, 1, 2, 5, 9, 12, 13, 15]);
    let out = ok_s(
        &d,
        "chunk split --committee committee.json --certificate cert.json --chunks 4 --out-dir chunks",
    );
    assert!(
        out.contains("16 members in 4 chunks of 4: 8 signatures (3 + 1 + 1 + 3)"),
        "{out}"
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("chunks/manifest.json")).unwrap()).unwrap();
    let chunks = manifest["chunks"].as_array().unwrap();
    assert_eq!(chunks.len(), 4);
    assert_eq!(chunks[3]["first_member"], 12);
    assert_eq!(chunks[3]["threshold"], 3);
    // Each chunk's certificate is re-indexed within its chunk and checks against its committee.
    let cert: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("chunks/chunk-3.certificate.json")).unwrap())
            .unwrap();
    let indices: Vec<u64> = cert["signatures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["index"].as_u64().unwrap())
        .collect();
    assert_eq!(indices, [0, 1, 3]);
    let committee: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("chunks/chunk-3.committee.json")).unwrap())
            .unwrap();
    let whole: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("committee.json")).unwrap()).unwrap();
    assert_eq!(
        committee["members"].as_array().unwrap()[..],
        whole["members"].as_array().unwrap()[12..16]
    );
    // Splits that are not subtrees, with a clear message and nothing written.
    fails_s(
        &d,
        "chunk split --committee committee.json --certificate cert.json --chunks 3 --out-dir three",
        "a power of two",
        Some("three"),
    );
    fails_s(
        &d,
        "chunk split --committee committee.json --certificate cert.json --chunks 32 --out-dir many",
        "at most 16",
        Some("many"),
    );
    // Joins refused before reading any proof or parameters.
    let join = "chunk join --committee committee.json --params p.srs --vk chunk.vk --aggregation-params agg.srs --proof j.proof --out-vk j.vk --proofs a.bin b.bin --publics a.json b.json";
    for (extra, why) in [
        (
            "--part 0/3",
            "--part 0/3: the committee splits into a power of two",
        ),
        ("--part 4/4", "subtree 4 of 4"),
        ("--part 1", "expected g/m"),
        (
            "--transcript blake2b",
            "--transcript: a join proof is in the EVM transcript",
        ),
    ] {
        fails_s(&d, &format!("{join} {extra}"), why, Some("j.proof"));
    }
    fails_s(
        &d,
        "chunk join --committee committee.json --params p.srs --vk chunk.vk --aggregation-params agg.srs --proof j.proof --out-vk j.vk --proofs a.bin b.bin c.bin --publics a.json b.json c.json",
        "--proofs: 3 inputs: a join takes a power of two, at least 1",
        Some("j.proof"),
    );
    // A wrap (one input) of subtree 1 given chunk 0's statement: refused before any proof.
    let chunk_0 = &chunks[0];
    std::fs::write(
        d.join("c0.json"),
        serde_json::json!({
            "version": manifest["version"],
            "scheme": "schnorr-atms",
            "shape": {},
            "commitment": chunk_0["root"],
            "message": manifest["message"],
            "threshold": chunk_0["threshold"],
        })
        .to_string(),
    )
    .unwrap();
    let wrap = "chunk join --committee committee.json --params p.srs --vk chunk.vk --aggregation-params agg.srs --proof j.proof --out-vk j.vk --proofs c0.bin --publics c0.json --transcript poseidon";
    fails_s(
        &d,
        &format!("{wrap} --part 1/4"),
        "not a proof for subtree 1 of 4: its commitment is not that root",
        Some("j.proof"),
    );
    // The same statement passes that check for subtree 0 and stops at the missing parameters.
    fails_s(&d, &format!("{wrap} --part 0/4"), "p.srs", Some("j.proof"));
}

/// The chunked flow through the binary: split a 16-member committee (11 signers) in 2, one key
/// for the chunks, a Poseidon-transcript proof per chunk, the join at k = 21 (minutes, several
/// GiB), then `chunk verify` from the trusted committee, message and threshold:
/// `cargo test --release --test cli -- --ignored --nocapture chunked_committee`.
#[test]
#[ignore = "chunk proofs and an aggregation proof at k = 21: minutes; see the README"]
fn chunked_committee_proves_and_verifies() {
    let d = workdir("cli-chunked");
    schnorr_committee_of_16(&d, &[0, 1, 2, 3, 4, 5, 6, 12, 13, 14, 15]);
    ok_s(
        &d,
        "chunk split --committee committee.json --certificate cert.json --chunks 2 --out-dir chunks",
    );
    ok_s(&d, "setup --k 21 --insecure-test --out agg.srs");
    ok_s(&d, "setup --k 15 --halo2 agg.srs --out params.srs");
    ok_s(
        &d,
        "keygen --committee chunks/chunk-0.committee.json --mode merkle --slots 8 --params params.srs --pk chunk.pk --vk chunk.vk",
    );
    for (i, t) in [(0, 7), (1, 4)] {
        ok_s(
            &d,
            &format!("prove --committee chunks/chunk-{i}.committee.json --certificate chunks/chunk-{i}.certificate.json --threshold {t} --params params.srs --pk chunk.pk --proof c{i}.bin --public c{i}.json --transcript poseidon"),
        );
    }
    let join = "chunk join --committee committee.json --params params.srs --vk chunk.vk --aggregation-params agg.srs --proof join.proof --out-vk join.vk";
    // Refused before proving: chunks out of order, a threshold above the chunks' sum.
    fails_s(
        &d,
        &format!("{join} --threshold 11 --proofs c1.bin c0.bin --publics c1.json c0.json"),
        "not a proof for chunk 0",
        Some("join.proof"),
    );
    fails_s(
        &d,
        &format!("{join} --threshold 12 --proofs c0.bin c1.bin --publics c0.json c1.json"),
        "the inputs prove 11 signers in all",
        Some("join.proof"),
    );
    let out = ok_s(
        &d,
        &format!("{join} --threshold 11 --proofs c0.bin c1.bin --publics c0.json c1.json"),
    );
    println!("{out}");
    // The verifier's own top key, from the chunk key and the tree alone: the joiner's.
    let fp = own_key(
        &d,
        "chunk keygen --params params.srs --vk chunk.vk --regenerate-vk --chunks 2 --aggregation-params agg.srs --out-vk own.vk",
        "join.vk",
    );
    let out = ok_s(
        &d,
        &format!("chunk verify --committee committee.json --message {MSG} --params agg.srs --vk join.vk --regenerate-vk --chunk-vk chunk.vk --chunk-params params.srs --chunks 2 --proof join.proof --threshold 11"),
    );
    assert!(out.contains("verifying key regenerated"), "{out}");
    let verify = format!(
        "chunk verify --committee committee.json --message {MSG} --params agg.srs --vk join.vk --vk-fingerprint {fp} --proof join.proof"
    );
    let out = ok_s(&d, &format!("{verify} --threshold 11"));
    assert!(
        out.starts_with("verified: at least 11 of the 16 members"),
        "{out}"
    );
    fails_s(
        &d,
        &format!("{verify} --threshold 12"),
        "does not verify",
        None,
    );
    // Another committee (chunk 0 alone) is another statement.
    fails_s(
        &d,
        &format!(
            "chunk verify --committee chunks/chunk-0.committee.json --message {MSG} --params agg.srs --vk join.vk --vk-fingerprint {fp} --proof join.proof --threshold 7"
        ),
        "does not verify",
        None,
    );
    // On the EVM: the generated verifier and CertificateVerifier (root and t = 11) in revm.
    let out = ok_s(&d, &format!("{verify} --threshold 11 --evm"));
    assert!(out.contains("verified on the EVM (revm)"), "{out}");
}
