//! The Cardano module's verifier ([`CardanoVerifier`]) on the committed Cardano fixtures
//! (`wasm/fixtures/cardano/`): the honest proof verifies, every one-change case (another message,
//! commitment or threshold, a changed, cut or padded proof, the other transcript) is refused and
//! the library verifier (full parameters) gives the same verdict; a key or parameter file whose
//! fingerprint is not the pinned one is refused before it is read, and so is a key file of
//! another scheme or backend. No case panics. `tests/wasm_agreement.rs` runs the same fixtures
//! against `tms verify --backend cardano`, the Node test through the WebAssembly build.
//!
//! `cargo test -p tms-wasm --test cardano -- --ignored make_cardano_fixtures` writes the fixtures
//! (keygen and proving with the insecure seeded test parameters: seconds).

use std::{
    fs,
    panic::{catch_unwind, AssertUnwindSafe},
};

use ff::PrimeField;
use midnight_curves::Fq as Base;
use rand_chacha::{rand_core::SeedableRng, ChaCha20Rng};
use serde_json::json;
use tms_cardano::{
    backend::{kzg_params, verifier_params, verifier_params_file, vk_to_bytes, Vk},
    key_file::VkFile,
};
mod common;

use common::{dir as fixture_dir, median_ms, unhex, Fixture, FixtureStatement};
use tms_wasm::{
    cardano::{CardanoStatement, CardanoVerifier},
    pin::{hex, sha256_hex},
};

fn base_hex(x: &Base) -> String {
    let mut b = x.to_repr();
    b.as_mut().reverse();
    hex(b.as_ref())
}

/// The tool's verifying key file (`tms keygen --backend cardano`): header, shape, key.
fn key_file(scheme: &str, shape: serde_json::Value, vk: &Vk) -> Vec<u8> {
    let file = VkFile {
        header: json!({ "version": 1, "scheme": scheme, "backend": "cardano" }),
        shape,
        vk: hex(&vk_to_bytes(vk)),
    };
    format!("{}\n", serde_json::to_string_pretty(&file).unwrap()).into_bytes()
}

const MESSAGE: &[u8] = b"tms light client: epoch 42 committee handover";

#[test]
#[ignore = "writes wasm/fixtures/cardano (keygen and proving: seconds)"]
fn make_cardano_fixtures() {
    use schnorr_atms_jubjub::{
        prover::{self, DefaultTranscriptHash},
        AtmsInstance, AtmsShape, AtmsWitness, Certificate, CommitmentMode, Committee, SigningKey,
    };
    let mut rng = ChaCha20Rng::seed_from_u64(42);
    let message = schnorr_atms_jubjub::message_to_field(MESSAGE);
    // Schnorr ATMS: 4 members, 3 sign, threshold 3, flat commitment.
    let members: Vec<SigningKey> = (0..4).map(|_| SigningKey::random(&mut rng)).collect();
    let committee =
        Committee::new(members.iter().map(SigningKey::verifying_key).collect()).unwrap();
    let signatures: Vec<_> = members[..3]
        .iter()
        .map(|sk| (sk.verifying_key(), sk.sign(message)))
        .collect();
    let certificate = Certificate::aggregate(&committee, message, &signatures).unwrap();
    let mut shape = AtmsShape {
        n: 4,
        mode: CommitmentMode::Flat,
        k: 10,
    };
    shape.k = prover::min_k(&shape);
    let witness = AtmsWitness::new(shape, &committee, &certificate, 3).unwrap();
    let instance = AtmsInstance::from_trusted(&shape, &committee, MESSAGE, 3).unwrap();
    let params = kzg_params(shape.k);
    let params_file = verifier_params_file(&params).unwrap();
    fs::create_dir_all(fixture_dir("cardano", "")).unwrap();
    fs::write(fixture_dir("cardano", "").join("params.bin"), &params_file).unwrap();
    let keys = prover::keygen(&params, shape).unwrap();
    let proof = prover::prove::<DefaultTranscriptHash>(&params, &keys, &witness, &mut rng).unwrap();
    let vk = key_file("schnorr-atms", json!({ "n": 4, "k": shape.k }), keys.vk());
    let statement = FixtureStatement {
        backend: Some("cardano".into()),
        scheme: "schnorr-atms".into(),
        commitment: base_hex(&instance.commitment),
        message: hex(MESSAGE),
        threshold: Some(3),
        transcript: "blake2b".into(),
        vk_fingerprint: sha256_hex(&vk),
        params_fingerprint: sha256_hex(&params_file),
        k: shape.k,
    };
    write_cardano("schnorr-atms", &statement, &vk, &proof);

    // SNARK-Mithril: 8 parties (stakes 100 to 800) on preprod parameters (m = 100, k = 5).
    use mithril_jubjub::{
        aggregate, native::SigningKey as MithrilKey, prover as mithril_prover, MithrilInstance,
        MithrilShape, MithrilWitness, Parameters, Registration, Signer, SingleSignature,
    };
    let parameters = Parameters::PREPROD;
    let sks: Vec<MithrilKey> = (0..8).map(|_| MithrilKey::random(&mut rng)).collect();
    let entries: Vec<_> = sks
        .iter()
        .enumerate()
        .map(|(i, sk)| (sk.verifying_key(), 100 * (i as u64 + 1)))
        .collect();
    let registration = Registration::new(parameters, &entries).unwrap();
    let singles: Vec<SingleSignature> = sks
        .iter()
        .map(|sk| Signer::new(*sk, &registration).unwrap().sign(message))
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
        .into_iter()
        .flatten()
        .collect();
    let certificate = aggregate(&registration, message, &singles).unwrap();
    let instance = MithrilInstance::from_trusted(&registration, MESSAGE);
    let mut shape = MithrilShape {
        signer_slots: certificate.signers.len(),
        index_slots: parameters.k() as usize,
        depth: registration.depth(),
        k: 10,
    };
    shape.k = mithril_prover::min_k(&shape);
    let witness = MithrilWitness::new(shape, instance, &certificate).unwrap();
    let params = kzg_params(shape.k);
    assert_eq!(
        verifier_params_file(&params).unwrap(),
        params_file,
        "the test parameters' verifier part depends on k"
    );
    let keys = mithril_prover::keygen(&params, shape).unwrap();
    let proof = mithril_prover::prove(&params, &keys, &witness, &mut rng).unwrap();
    let vk = key_file(
        "mithril",
        json!({
            "signer_slots": shape.signer_slots,
            "index_slots": shape.index_slots,
            "depth": shape.depth,
            "k": shape.k,
        }),
        keys.vk(),
    );
    let statement = FixtureStatement {
        backend: Some("cardano".into()),
        scheme: "mithril".into(),
        commitment: base_hex(&registration.commitment().digest()),
        message: hex(MESSAGE),
        threshold: Some(shape.index_slots as u64),
        transcript: "blake2b".into(),
        vk_fingerprint: sha256_hex(&vk),
        params_fingerprint: sha256_hex(&params_file),
        k: shape.k,
    };
    write_cardano("mithril", &statement, &vk, &proof);
}

/// One case: the fixture's statement with one change (or none) and the proof it gives.
struct Case {
    name: String,
    statement: CardanoStatement,
    proof: Vec<u8>,
}

fn honest(f: &Fixture) -> CardanoStatement {
    let s = &f.statement;
    CardanoStatement {
        commitment: s.commitment.clone(),
        message: unhex(&s.message),
        threshold: s.threshold,
        transcript: s.transcript.clone(),
    }
}

/// The honest case and one change each.
fn cases(f: &Fixture) -> Vec<Case> {
    let case = |name: &str, change: &dyn Fn(&mut CardanoStatement), proof: Vec<u8>| {
        let mut statement = honest(f);
        change(&mut statement);
        Case {
            name: name.into(),
            statement,
            proof,
        }
    };
    let p = f.proof.clone();
    let mut all = vec![
        case("honest", &|_| {}, p.clone()),
        case("another message", &|s| s.message.push(b'!'), p.clone()),
        case(
            "another commitment",
            &|s| {
                let last = if s.commitment.ends_with('0') {
                    "1"
                } else {
                    "0"
                };
                s.commitment.replace_range(s.commitment.len() - 1.., last);
            },
            p.clone(),
        ),
        case(
            "threshold + 1",
            &|s| s.threshold = s.threshold.map(|t| t + 1),
            p.clone(),
        ),
        case(
            "threshold - 1",
            &|s| s.threshold = s.threshold.map(|t| t - 1),
            p.clone(),
        ),
        case(
            "evm transcript",
            &|s| s.transcript = "evm".into(),
            p.clone(),
        ),
        case("proof cut by one byte", &|_| {}, p[..p.len() - 1].to_vec()),
        case(
            "proof one byte longer",
            &|_| {},
            [p.as_slice(), &[0]].concat(),
        ),
    ];
    for at in [0, 31, p.len() / 2, p.len() - 1] {
        let mut changed = p.clone();
        changed[at] ^= 1;
        all.push(case(&format!("proof byte {at} changed"), &|_| {}, changed));
    }
    all
}

fn pinned(f: &Fixture) -> CardanoVerifier {
    let s = &f.statement;
    CardanoVerifier::new(
        &s.scheme,
        &f.vk,
        &s.vk_fingerprint,
        &f.params,
        &s.params_fingerprint,
    )
    .unwrap()
}

/// The library's verdict with the full parameters: the key read as the tool reads it.
fn library_verifies(f: &Fixture, c: &Case) -> bool {
    let s = &c.statement;
    if s.transcript != "blake2b" {
        return false;
    }
    let vp = verifier_params(&kzg_params(f.statement.k));
    let mut repr = [0u8; 32];
    repr.copy_from_slice(&unhex(&s.commitment));
    repr.reverse();
    let Some(commitment) = Option::<Base>::from(Base::from_repr(repr)) else {
        return false;
    };
    let read = |h: &serde_json::Value| match h["backend"] == "cardano" {
        true => Ok(()),
        false => Err("not a cardano key file".to_string()),
    };
    if f.statement.scheme == "schnorr-atms" {
        let (_, vk) = tms_cardano::key_file::read_vk_file::<
            serde_json::Value,
            serde_json::Value,
            schnorr_atms_jubjub::AtmsCircuit,
        >(&f.vk, read)
        .unwrap();
        let instance = schnorr_atms_jubjub::AtmsInstance::from_trusted_commitment(
            commitment,
            &s.message,
            s.threshold.unwrap(),
        );
        schnorr_atms_jubjub::prover::verify::<schnorr_atms_jubjub::prover::DefaultTranscriptHash>(
            &vp, &vk, &instance, &c.proof,
        )
        .is_ok()
    } else {
        let (shape, vk) = tms_cardano::key_file::read_vk_file::<
            serde_json::Value,
            serde_json::Value,
            mithril_jubjub::MithrilCircuit,
        >(&f.vk, read)
        .unwrap();
        s.threshold == shape["index_slots"].as_u64()
            && mithril_jubjub::prover::verify_digest(
                &vp,
                &vk,
                commitment,
                schnorr_atms_jubjub::message_to_field(&s.message),
                &c.proof,
            )
            .is_ok()
    }
}

/// Every case: the package refuses all but the honest one, with one line and no panic, and the
/// library verifier agrees.
fn agrees(scheme: &str, verdict_says: &str) {
    let f = load_cardano(scheme);
    let verifier = pinned(&f);
    for c in cases(&f) {
        let verdict = catch_unwind(AssertUnwindSafe(|| verifier.verify(&c.statement, &c.proof)))
            .unwrap_or_else(|_| panic!("{scheme} {}: the package panicked", c.name));
        assert_eq!(
            verdict.is_ok(),
            c.name == "honest",
            "{scheme} {}: {verdict:?}",
            c.name
        );
        assert_eq!(
            library_verifies(&f, &c),
            verdict.is_ok(),
            "{scheme} {}: the library and the package differ",
            c.name
        );
        match verdict {
            Ok(v) => {
                assert!(v.starts_with(verdict_says), "{v}");
                assert!(v.contains(&f.statement.vk_fingerprint), "{v}");
            }
            Err(e) => assert!(
                !e.contains('\n') && !e.is_empty(),
                "{scheme} {}: {e}",
                c.name
            ),
        }
    }
    let statement = honest(&f);
    println!(
        "wasm-verify runtime=native backend=cardano scheme={scheme} proof_bytes={} median_ms={:.1}",
        f.proof.len(),
        median_ms(|| {
            verifier.verify(&statement, &f.proof).unwrap();
        })
    );
}

#[test]
fn schnorr_atms_agrees_with_the_library() {
    agrees(
        "schnorr-atms",
        "verified (schnorr-atms, cardano): at least 3 of 4",
    );
}

#[test]
fn mithril_agrees_with_the_library() {
    agrees(
        "mithril",
        "verified (mithril, cardano): 5 distinct lottery indices",
    );
}

#[test]
fn pins_and_key_files_are_checked_before_verifying() {
    let f = load_cardano("schnorr-atms");
    let s = &f.statement;
    let new = |scheme: &str, vk: &[u8], vk_pin: &str, params: &[u8], params_pin: &str| {
        catch_unwind(AssertUnwindSafe(|| {
            CardanoVerifier::new(scheme, vk, vk_pin, params, params_pin)
        }))
        .expect("no panic")
        .err()
        .expect("refused")
    };
    let (vk, params) = (&f.vk[..], &f.params[..]);
    let (vk_pin, params_pin) = (&s.vk_fingerprint[..], &s.params_fingerprint[..]);
    let other_pin = sha256_hex(b"another file");
    // A changed key or parameters under the pin: refused by the pin.
    let mut changed_vk = f.vk.clone();
    *changed_vk.last_mut().unwrap() ^= 1;
    let e = new("schnorr-atms", &changed_vk, vk_pin, params, params_pin);
    assert!(
        e.contains("verifying key: fingerprint") && e.contains("differs"),
        "{e}"
    );
    let e = new("schnorr-atms", vk, &other_pin, params, params_pin);
    assert!(e.contains("differs from the pinned"), "{e}");
    let e = new("schnorr-atms", vk, vk_pin, params, &other_pin);
    assert!(e.starts_with("verifier parameters: fingerprint"), "{e}");
    let e = new("schnorr-atms", vk, "0x1234", params, params_pin);
    assert!(e.contains("give 64 hex digits"), "{e}");
    // Files that match their pins but are not what the verifier needs: refused when read.
    let e = new("mithril", vk, vk_pin, params, params_pin);
    assert!(
        e.contains("\"schnorr-atms\" key file, expected \"mithril\""),
        "{e}"
    );
    let bn254_vk = fs::read(fixture_dir("cardano", "").join("../schnorr-atms/vk.bin")).unwrap();
    let e = new(
        "schnorr-atms",
        &bn254_vk,
        &sha256_hex(&bn254_vk),
        params,
        params_pin,
    );
    assert!(e.starts_with("verifying key: malformed JSON"), "{e}");
    let bn254_params = fs::read(fixture_dir("cardano", "").join("../params.bin")).unwrap();
    let e = new(
        "schnorr-atms",
        vk,
        vk_pin,
        &bn254_params,
        &sha256_hex(&bn254_params),
    );
    assert!(e.contains("388 bytes, expected 96"), "{e}");
    let e = new("bls-atms", vk, vk_pin, params, params_pin);
    assert!(e.contains("the Cardano backend verifies"), "{e}");
    // A statement the verifier cannot hold.
    let verifier = pinned(&f);
    let mut statement = honest(&f);
    statement.threshold = None;
    let e = verifier.verify(&statement, &f.proof).unwrap_err();
    assert!(e.contains("give the threshold"), "{e}");
    statement.threshold = Some(0);
    assert!(verifier.verify(&statement, &f.proof).is_err());
    statement.threshold = Some(3);
    statement.commitment = format!("0x{}", "f".repeat(64));
    let e = verifier.verify(&statement, &f.proof).unwrap_err();
    assert!(
        e.contains("not below the BLS12-381 scalar field modulus"),
        "{e}"
    );
    statement.commitment = "0x12".into();
    let e = verifier.verify(&statement, &f.proof).unwrap_err();
    assert!(e.contains("give 0x followed by 64 hex digits"), "{e}");
}

fn load_cardano(scheme: &str) -> Fixture {
    common::load("cardano", scheme)
}

fn write_cardano(scheme: &str, statement: &FixtureStatement, vk: &[u8], proof: &[u8]) {
    common::write("cardano", scheme, statement, vk, proof)
}
