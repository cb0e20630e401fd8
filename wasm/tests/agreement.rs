//! The package's verifier agrees with the library verifiers on the committed fixtures
//! (`wasm/fixtures/`): the honest proof verifies in both, every one-change case (another message,
//! commitment or threshold, a changed or cut proof byte, the other transcript) is refused by both,
//! and a key or parameter file whose fingerprint is not the pinned one is refused before it is
//! read. No case panics. The Node test (`wasm/test/verify.test.mjs`) runs the same fixtures
//! through the WebAssembly build.
//!
//! `cargo test -p tms-wasm --test agreement -- --ignored make_fixtures` writes the fixtures
//! (keygen and proving with the insecure seeded test parameters, k = 10: seconds).

use std::{
    fs,
    panic::{catch_unwind, AssertUnwindSafe},
};

use halo2_base::halo2_proofs::halo2curves::ff::Field;
use mithril_snark::Parameters;
use schnorr_atms::{AtmsInstance, CommitmentMode, Verification};
use tms_gadgets::{
    message::{field_bytes, message_to_field},
    proving::{keys::fingerprint, params::kzg_params, Transcript},
    Fr,
};
mod common;

use common::{dir as fixture_dir, median_ms, unhex, Fixture, FixtureStatement};
use tms_wasm::{
    params::verifier_params_file,
    pin::hex,
    verifier::{PinnedVerifier, Statement},
};

/// The advice columns `tms keygen` allows (its `MAX_ADVICE_COLUMNS`).
const MAX_ADVICE_COLUMNS: usize = 32;

const MESSAGE: &[u8] = b"tms light client: epoch 42 committee handover";

#[test]
#[ignore = "writes wasm/fixtures (keygen and proving: seconds)"]
fn make_fixtures() {
    let message = message_to_field(MESSAGE);
    // Schnorr ATMS: 4 members, 3 sign, threshold 3.
    let witness = schnorr_atms::example_witness(
        (4, 3),
        CommitmentMode::Flat,
        Verification::PerSignature,
        message,
        42,
        MAX_ADVICE_COLUMNS,
    )
    .unwrap();
    let params = kzg_params(witness.shape.k);
    let params_file = verifier_params_file(&params);
    fs::create_dir_all(fixture_dir("", "")).unwrap();
    fs::write(fixture_dir("", "").join("params.bin"), &params_file).unwrap();
    let keys = schnorr_atms::keygen(&params, witness.shape).unwrap();
    let proof = schnorr_atms::prove(&params, &keys, &witness).unwrap();
    let statement = FixtureStatement {
        backend: None,
        scheme: "schnorr-atms".into(),
        commitment: hex(&field_bytes(&witness.instance.commitment)),
        message: hex(MESSAGE),
        threshold: Some(witness.instance.threshold),
        transcript: "blake2b".into(),
        vk_fingerprint: fingerprint(&keys.vk_bytes()),
        params_fingerprint: fingerprint(&params_file),
        k: witness.shape.k,
    };
    write_bn254("schnorr-atms", &statement, &keys.vk_bytes(), &proof);

    // SNARK-Mithril: 8 parties on preprod parameters (m = 100, k = 5).
    let example = mithril_snark::example_certificate_on(
        Parameters::PREPROD,
        8,
        None,
        42,
        false,
        Some(message),
    )
    .unwrap();
    let witness = example.witness(MAX_ADVICE_COLUMNS).unwrap();
    let params = kzg_params(witness.shape.k);
    assert_eq!(
        verifier_params_file(&params),
        params_file,
        "the test parameters' verifier part depends on k"
    );
    let keys = mithril_snark::prover::keygen(&params, witness.shape).unwrap();
    let proof = mithril_snark::prover::prove(&params, &keys, &witness).unwrap();
    let statement = FixtureStatement {
        backend: None,
        scheme: "mithril".into(),
        commitment: hex(&field_bytes(&example.registration.commitment().digest())),
        message: hex(MESSAGE),
        threshold: Some(witness.shape.index_slots as u64),
        transcript: "blake2b".into(),
        vk_fingerprint: fingerprint(&keys.vk_bytes()),
        params_fingerprint: fingerprint(&params_file),
        k: witness.shape.k,
    };
    write_bn254("mithril", &statement, &keys.vk_bytes(), &proof);
}

/// The BLS ATMS fixture: 4 members, 3 sign, threshold 2, as `tms demo --scheme bls` (one
/// pairing in the circuit: keygen and proving take minutes, k = 20).
#[test]
#[ignore = "writes wasm/fixtures/bls-atms (keygen and proving with a pairing: minutes)"]
fn make_bls_fixture() {
    use bls_atms::{AtmsShape, AtmsWitness, Committee};
    use rand::SeedableRng;
    use tms_gadgets::signature::bls::SecretKey;
    const K: u32 = 20;
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2026);
    let sks: Vec<SecretKey> = (0..4).map(|_| SecretKey::random(&mut rng)).collect();
    let members: Vec<_> = sks
        .iter()
        .map(|sk| (sk.public_key(), sk.prove_possession()))
        .collect();
    let committee = Committee::register(&members).unwrap();
    let signed = message_to_field(MESSAGE);
    let signatures: Vec<_> = [0, 1, 3]
        .iter()
        .map(|&i| (i, sks[i].sign(signed)))
        .collect();
    let shape = AtmsShape::auto(4, 3, K);
    let witness = AtmsWitness::new(shape, &committee, MESSAGE, &signatures, 2).unwrap();
    let params = kzg_params(K);
    let params_file = fs::read(fixture_dir("", "").join("params.bin")).unwrap();
    assert_eq!(verifier_params_file(&params), params_file);
    let keys = bls_atms::keygen(&params, shape).unwrap();
    let proof = bls_atms::prove(&params, &keys, &witness).unwrap();
    let statement = FixtureStatement {
        backend: None,
        scheme: "bls-atms".into(),
        commitment: hex(&field_bytes(&committee.digest(shape.hash))),
        message: hex(MESSAGE),
        threshold: Some(2),
        transcript: "blake2b".into(),
        vk_fingerprint: fingerprint(&keys.vk_bytes()),
        params_fingerprint: fingerprint(&params_file),
        k: K,
    };
    write_bn254("bls-atms", &statement, &keys.vk_bytes(), &proof);
}

/// One client-side case: the statement and proof the package is handed.
#[derive(Clone)]
struct Case {
    name: String,
    commitment: String,
    message: Vec<u8>,
    threshold: Option<u64>,
    transcript: Transcript,
    proof: Vec<u8>,
}

impl Case {
    fn honest(f: &Fixture) -> Self {
        Self {
            name: "honest".into(),
            commitment: f.statement.commitment.clone(),
            message: unhex(&f.statement.message),
            threshold: f.statement.threshold,
            transcript: Transcript::Blake2b,
            proof: f.proof.clone(),
        }
    }

    /// The honest case and one change each.
    fn all(f: &Fixture) -> Vec<Self> {
        let honest = Self::honest(f);
        let with = |name: &str, change: &dyn Fn(&mut Case)| {
            let mut c = honest.clone();
            c.name = name.into();
            change(&mut c);
            c
        };
        let commitment = unhex(&honest.commitment);
        let mut other_commitment = commitment.clone();
        other_commitment[31] ^= 1;
        let n = honest.proof.len();
        let mut cases = vec![
            honest.clone(),
            with("another message", &|c| c.message.push(b'!')),
            with("another commitment", &|c| {
                c.commitment = hex(&other_commitment)
            }),
            with("evm transcript", &|c| c.transcript = Transcript::Evm),
            with("proof cut by one byte", &|c| {
                c.proof.pop();
            }),
            with("proof one byte longer", &|c| c.proof.push(0)),
            with("empty proof", &|c| c.proof.clear()),
        ];
        for at in [0, 31, 32, n / 2, n - 33, n - 1] {
            cases.push(with(&format!("proof byte {at} changed"), &|c| {
                c.proof[at] ^= 1
            }));
        }
        if let Some(t) = honest.threshold {
            cases.push(with("threshold + 1", &|c| c.threshold = Some(t + 1)));
            cases.push(with("threshold - 1", &|c| c.threshold = Some(t - 1)));
        }
        cases
    }

    fn statement(&self) -> Statement {
        Statement {
            commitment: self.commitment.clone(),
            message: self.message.clone(),
            threshold: self.threshold,
            transcript: self.transcript,
        }
    }
}

fn fr(hex_be: &str) -> Fr {
    let mut bytes = unhex(hex_be);
    bytes.reverse();
    let mut repr = [0u8; 32];
    repr.copy_from_slice(&bytes);
    use halo2_base::halo2_proofs::halo2curves::ff::PrimeField;
    Fr::from_repr(repr).unwrap()
}

/// The library verifier with the full test parameters, on the statement `tms verify` builds.
fn library_verifies(f: &Fixture, c: &Case) -> bool {
    let params = kzg_params(f.statement.k);
    match f.statement.scheme.as_str() {
        "schnorr-atms" => {
            let (shape, vk) = schnorr_atms::read_vk(&f.vk).unwrap();
            let Some(t) = c.threshold else { return false };
            let instance = AtmsInstance::from_trusted_commitment(fr(&c.commitment), &c.message, t);
            schnorr_atms::verify_with_vk(&params, &shape, &vk, &instance, &c.proof, c.transcript)
                .is_ok()
        }
        "bls-atms" => {
            let (shape, vk) = bls_atms::read_vk(&f.vk).unwrap();
            let Some(t) = c.threshold else { return false };
            let instance =
                bls_atms::AtmsInstance::from_trusted_digest(fr(&c.commitment), &c.message, t);
            bls_atms::verify_with_vk(&params, &shape, &vk, &instance, &c.proof, c.transcript)
                .is_ok()
        }
        "mithril" => {
            let (shape, vk) = mithril_snark::prover::read_vk(&f.vk).unwrap();
            // `tms verify` refuses a threshold other than the key's quorum before verifying.
            if c.threshold.is_some_and(|t| t != shape.index_slots as u64) {
                return false;
            }
            mithril_snark::prover::verify_digest_with_vk(
                &params,
                &vk,
                fr(&c.commitment),
                message_to_field(&c.message),
                &c.proof,
                c.transcript,
            )
            .is_ok()
        }
        other => panic!("fixture scheme {other}"),
    }
}

fn pinned(f: &Fixture) -> PinnedVerifier {
    PinnedVerifier::new(
        &f.statement.scheme,
        &f.vk,
        &f.statement.vk_fingerprint,
        &f.params,
        &f.statement.params_fingerprint,
    )
    .unwrap()
}

fn agrees(scheme: &str, verdict_says: &str) {
    let f = load_bn254(scheme);
    let verifier = pinned(&f);
    let honest = Case::honest(&f);
    // The native figure next to the WebAssembly ones the JavaScript tests print.
    let ms = median_ms(|| assert!(verifier.verify(&honest.statement(), &honest.proof).is_ok()));
    println!("wasm-verify runtime=native scheme={scheme} median_ms={ms:.1}");
    for case in Case::all(&f) {
        let ours = catch_unwind(AssertUnwindSafe(|| {
            verifier.verify(&case.statement(), &case.proof)
        }))
        .unwrap_or_else(|_| panic!("{scheme} {}: the package's verifier panicked", case.name));
        let library = library_verifies(&f, &case);
        let honest = case.name == "honest";
        assert_eq!(library, honest, "{scheme} {}: library verifier", case.name);
        match ours {
            Ok(verdict) => {
                assert!(honest, "{scheme} {}: accepted: {verdict}", case.name);
                assert!(verdict.contains(verdict_says), "{verdict}");
                assert!(verdict.contains(&f.statement.commitment), "{verdict}");
                assert!(verdict.contains(&f.statement.vk_fingerprint), "{verdict}");
            }
            Err(e) => {
                assert!(!honest, "{scheme}: the honest proof refused: {e}");
                assert!(!e.contains('\n'), "{scheme} {}: {e}", case.name);
            }
        }
    }
}

#[test]
fn schnorr_atms_agrees_with_the_library() {
    agrees("schnorr-atms", "at least 3 of 4 committee members signed");
}

#[test]
fn bls_atms_agrees_with_the_library() {
    agrees("bls-atms", "at least 2 of 4 committee members signed");
}

#[test]
fn mithril_agrees_with_the_library() {
    agrees(
        "mithril",
        "distinct lottery indices won by registered parties",
    );
}

/// What the package refuses before verifying: a key or parameters not matching their pins, a
/// missing or zero threshold, a malformed commitment, an unknown scheme or transcript.
#[test]
fn refusals_before_verifying() {
    let f = load_bn254("schnorr-atms");
    let s = &f.statement;
    let new = |scheme: &str, vk: &[u8], vk_pin: &str, params: &[u8], params_pin: &str| {
        PinnedVerifier::new(scheme, vk, vk_pin, params, params_pin).err()
    };
    let flip = |pin: &str| {
        let mut p = pin.to_string();
        let last = if p.ends_with('0') { "1" } else { "0" };
        p.replace_range(63.., last);
        p
    };
    let mut other_vk = f.vk.clone();
    *other_vk.last_mut().unwrap() ^= 1;
    let e = new(
        &s.scheme,
        &f.vk,
        &flip(&s.vk_fingerprint),
        &f.params,
        &s.params_fingerprint,
    );
    assert!(e.unwrap().contains("verifying key: fingerprint"));
    let e = new(
        &s.scheme,
        &other_vk,
        &s.vk_fingerprint,
        &f.params,
        &s.params_fingerprint,
    );
    assert!(e.unwrap().contains("differs from the pinned"));
    let e = new(
        &s.scheme,
        &f.vk,
        &s.vk_fingerprint,
        &f.params,
        &flip(&s.params_fingerprint),
    );
    assert!(e.unwrap().contains("verifier parameters: fingerprint"));
    let e = new(&s.scheme, &f.vk, "abc", &f.params, &s.params_fingerprint);
    assert!(e.unwrap().contains("64 hex digits"));
    let e = new(
        "stark",
        &f.vk,
        &s.vk_fingerprint,
        &f.params,
        &s.params_fingerprint,
    );
    assert!(e.unwrap().contains("scheme \"stark\""));
    // A Mithril or BLS ATMS verifier handed the Schnorr ATMS key (pinned: the client pinned the
    // wrong file).
    for scheme in ["mithril", "bls-atms"] {
        let e = new(
            scheme,
            &f.vk,
            &s.vk_fingerprint,
            &f.params,
            &s.params_fingerprint,
        );
        assert!(e.unwrap().starts_with("verifying key:"), "{scheme}");
    }
    // Parameters for another ceremony (the same file with s·g2 from another secret), pinned:
    // they read, and the proof is refused.
    let other_params = verifier_params_file(
        &halo2_base::halo2_proofs::poly::kzg::commitment::ParamsKZG::<
            halo2_base::halo2_proofs::halo2curves::bn256::Bn256,
        >::setup(1, rand::rngs::OsRng),
    );
    let v = PinnedVerifier::new(
        &s.scheme,
        &f.vk,
        &s.vk_fingerprint,
        &other_params,
        &fingerprint(&other_params),
    )
    .unwrap();
    let honest = Case::honest(&f);
    assert!(v.verify(&honest.statement(), &honest.proof).is_err());

    let v = pinned(&f);
    let refused = |change: &dyn Fn(&mut Statement)| {
        let mut st = honest.statement();
        change(&mut st);
        v.verify(&st, &honest.proof).unwrap_err()
    };
    assert!(refused(&|st| st.threshold = None).contains("give the threshold"));
    assert!(refused(&|st| st.threshold = Some(0)).contains("threshold 0"));
    assert!(refused(&|st| st.commitment = "0x12".into()).contains("64 hex digits"));
    let r = hex(&field_bytes(&-Fr::ONE)).replace("0x", "");
    // r itself (= -1 + 1): not below the modulus.
    let modulus = {
        let mut b = unhex(&r);
        *b.last_mut().unwrap() += 1;
        hex(&b)
    };
    assert!(refused(&|st| st.commitment = modulus.clone()).contains("not below"));
    assert_eq!(
        tms_wasm::verifier::parse_transcript("poseidon").unwrap_err(),
        "transcript \"poseidon\": give \"blake2b\" or \"evm\""
    );
}

fn load_bn254(scheme: &str) -> Fixture {
    common::load("", scheme)
}

fn write_bn254(scheme: &str, statement: &FixtureStatement, vk: &[u8], proof: &[u8]) {
    common::write("", scheme, statement, vk, proof)
}
