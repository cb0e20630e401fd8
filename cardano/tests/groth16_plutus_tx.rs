//! The Groth16 validators (state thread and observer) in real Conway transactions, evaluated as a
//! node's phase two does (mainnet's PV 10 cost model and limits), on gnark v0.16.1 BLS12-381
//! proofs of a **TEST** circuit: `plutusToyCircuit` of `evm/groth16/plutus.go` (the Schnorr
//! ATMS's statement shape: commitment w², message, threshold; one BSB22 commitment), under an
//! **INSECURE** seeded setup. The proofs are the fixture `fixtures/groth16-toy.json`, one per
//! message the cases sign; when the cases change, the test writes the messages it needs and
//! says how to remake it:
//!
//! ```sh
//! cd evm/groth16 && go run . plutus-fixture -messages FILE -out ../../cardano/tests/fixtures/groth16-toy.json
//! ```
//!
//! Each case prints its `plutus-tx scheme=toy validator=groth16-...` line: honest accepted;
//! replayed, other outputs, another message (a changed next datum), another statement, a changed
//! proof word, an unincremented epoch, a threshold of 0, an extra hint byte refused.

use std::{collections::HashMap, sync::Mutex};

use tms_cardano::{
    backend::Fr,
    plutus::{
        self,
        bridge::ThreadLayout,
        groth16::{Groth16Error, Groth16Key, Groth16Verifier, PROOF_LEN},
        scenario::{self, Thread},
        tx::MAX_TX_CPU,
        Entry, MessageRule,
    },
};

const FIXTURE: &str = include_str!("fixtures/groth16-toy.json");
/// The same circuit with a hashed statement (one Groth16 input: keccak256 of the three words).
const FIXTURE_HASHED: &str = include_str!("fixtures/groth16-toy-hashed.json");

fn fr_decimal(v: &Fr) -> String {
    num_bigint::BigUint::from_bytes_le(&ff::PrimeField::to_repr(v)).to_string()
}

/// The fixture's proofs by their public inputs (decimal).
fn fixture_proofs(fixture: &str) -> HashMap<Vec<String>, Vec<u8>> {
    let v: serde_json::Value = serde_json::from_str(fixture).expect("the fixture is JSON");
    v["proofs"]
        .as_array()
        .expect("a list of proofs")
        .iter()
        .map(|p| {
            let public = p["public"]
                .as_array()
                .expect("public inputs")
                .iter()
                .map(|x| x.as_str().expect("decimal").to_string())
                .collect();
            let proof = hex::decode(p["proof"].as_str().expect("hex")).expect("hex");
            (public, proof)
        })
        .collect()
}

/// The toy circuit's proofs for messages made by the BN254 schemes' rule (keccak-256 mod
/// BN254's r): what a Groth16 wrapper of a BN254 certificate proves.
const FIXTURE_KECCAK: &str = include_str!("fixtures/groth16-toy-keccak.json");

#[test]
fn groth16_toy_plutus_tx_state_thread_and_observer() {
    bridge_cases(
        "toy",
        FIXTURE,
        "groth16-toy.json",
        "",
        MessageRule::Blake2bBls12381,
    );
}

#[test]
fn groth16_toy_hashed_plutus_tx_state_thread_and_observer() {
    bridge_cases(
        "toy-hashed",
        FIXTURE_HASHED,
        "groth16-toy-hashed.json",
        " -hashed",
        MessageRule::Blake2bBls12381,
    );
}

/// The validators of `tms export-plutus --groth16`: the message of the transaction made by the
/// BN254 rule, as a wrapped BN254 certificate signs it.
#[test]
fn groth16_toy_keccak_message_plutus_tx_state_thread_and_observer() {
    bridge_cases(
        "toy-keccak",
        FIXTURE_KECCAK,
        "groth16-toy-keccak.json",
        "",
        MessageRule::Keccak256Bn254,
    );
}

/// Every bridge case of both forms on the fixture `fixture` (file `name`, made with
/// `plutus-fixture{flag}`), the message made by `rule`.
fn bridge_cases(scheme: &str, fixture: &str, name: &str, flag: &str, rule: MessageRule) {
    // The fixture's key is INSECURE: accepted here only because this is a test.
    let key = Groth16Key::from_json(fixture)
        .and_then(|k| k.trusted(true))
        .expect("the fixture's key");
    let proofs = fixture_proofs(fixture);
    let (w, t) = (5u64, 3u64);
    let commitment = Fr::from(w * w);
    let missing = Mutex::new(vec![]);
    let certify_from = |m: Fr| {
        let public = vec![
            fr_decimal(&commitment),
            fr_decimal(&m),
            fr_decimal(&Fr::from(t)),
        ];
        proofs.get(&public).cloned().unwrap_or_else(|| {
            missing.lock().unwrap().push(fr_decimal(&m));
            vec![0; PROOF_LEN]
        })
    };
    // The last certificate made, with its message field (the observer's honest one, at the end).
    let last = Mutex::new((Fr::from(0u64), vec![]));
    let mut certify = |message: &[u8]| {
        let [m] = rule.fields(message)[..] else {
            panic!("a one-entry message rule")
        };
        let proof = certify_from(m);
        *last.lock().unwrap() = (m, proof.clone());
        proof
    };
    plutus::with_big_stack(|| {
        let v = Groth16Verifier {
            scheme,
            key: &key,
            message: rule,
        };
        let thread = Thread::toy(commitment, t);
        let (cases, bare) = scenario::state_thread_cases(&v, &thread, &mut certify).unwrap();
        let statement = [
            Entry::Param(commitment),
            Entry::Message,
            Entry::Threshold(t),
        ];
        let observer = scenario::observer_cases(&v, &statement, &mut certify).unwrap();
        let (m, proof) = last.lock().unwrap().clone();
        let bare_observer =
            scenario::bare_verifier_fixed(&v, &statement, &proof, &[commitment, m, Fr::from(t)]);
        let missing = missing.lock().unwrap();
        if !missing.is_empty() {
            let path = std::env::temp_dir().join(format!("tms-{name}.messages"));
            std::fs::write(&path, missing.join("\n") + "\n").unwrap();
            panic!(
                "the fixture lacks proofs for {} messages, written to {}: remake it with \
                 `cd evm/groth16 && go run . plutus-fixture{flag} -messages {} -out \
                 ../../cardano/tests/fixtures/{name}`",
                missing.len(),
                path.display(),
                path.display()
            );
        }
        scenario::verdict_per_form(scheme, &cases, &observer, [&bare, &bare_observer]).unwrap();
        for c in cases.iter().chain(&observer).filter(|c| c.expected) {
            println!(
                "plutus-tx-share scheme={scheme} validator={} cpu={} percent_of_tx={:.2} target_percent=25",
                c.validator,
                c.outcome.cpu,
                100.0 * c.outcome.cpu as f64 / MAX_TX_CPU as f64
            );
            assert!(c.outcome.cpu < MAX_TX_CPU);
        }
        // Both forms ran every case of the issue.
        for form in ["groth16-state-thread", "groth16-observer"] {
            for case in [
                "honest",
                "replayed-later-tx",
                "other-statement",
                "proof-word-changed",
            ] {
                assert!(
                    cases
                        .iter()
                        .chain(&observer)
                        .any(|c| c.validator == form && c.case == case),
                    "{form} {case} missing"
                );
            }
        }
    });
}

#[test]
fn groth16_key_refusals() {
    let v: serde_json::Value = serde_json::from_str(FIXTURE).unwrap();
    let key = &v["key"];
    assert!(matches!(
        Groth16Key::from_value(key).unwrap().trusted(false),
        Err(Groth16Error::Insecure(_))
    ));
    // The commitment's G not gamma.
    let mut k = key.clone();
    k["commitment_g_g2"] = k["beta_g2"].clone();
    assert_eq!(Groth16Key::from_value(&k), Err(Groth16Error::CommitmentG));
    // A point that is not one: alpha's x changed.
    let mut k = key.clone();
    let mut alpha = hex::decode(k["alpha_g1"].as_str().unwrap()).unwrap();
    alpha[47] ^= 1;
    k["alpha_g1"] = serde_json::Value::String(hex::encode(alpha));
    assert!(Groth16Key::from_value(&k).is_err());
    // A hashed input out of range.
    let mut k = key.clone();
    k["public_committed"] = serde_json::json!([3]);
    assert!(matches!(
        Groth16Key::from_value(&k),
        Err(Groth16Error::Format(_))
    ));
}

/// `proof` with the G1 point at `offset` moved by G1's generator (another valid point).
fn moved(proof: &[u8], offset: usize) -> Vec<u8> {
    use group::{prime::PrimeCurveAffine, Curve, GroupEncoding};
    use midnight_curves::{G1Affine, G1Projective};
    let mut repr = <G1Affine as GroupEncoding>::Repr::default();
    repr.as_mut().copy_from_slice(&proof[offset..offset + 48]);
    let p: G1Affine = Option::from(G1Affine::from_bytes(&repr)).expect("a point");
    let q = (G1Projective::from(p) + G1Affine::generator()).to_affine();
    let mut out = proof.to_vec();
    out[offset..offset + 48].copy_from_slice(q.to_bytes().as_ref());
    out
}

/// The bare Groth16 verifier on one fixture proof: accepted as made; refused with a proof of
/// knowledge that is wrong while the Groth16 equation holds (Pok moved: only the folded check
/// sees it), with A, C or Com moved, B replaced by another G2 point, each input changed, an input
/// raised by r (the same value mod r), a byte missing or extra, and a non-empty hints argument.
#[test]
fn groth16_bare_verifier_refusals() {
    use tms_cardano::plutus::{evaluate, groth16::verifier_term};
    use uplc::ast::{Program, Term};
    let key = Groth16Key::from_json(FIXTURE)
        .and_then(|k| k.trusted(true))
        .unwrap();
    let (public, proof) = fixture_proofs(FIXTURE).into_iter().next().expect("a proof");
    let inputs: Vec<num_bigint::BigInt> = public.iter().map(|s| s.parse().unwrap()).collect();
    let program = Program {
        version: (1, 1, 0),
        term: verifier_term(&key, inputs.len()),
    };
    let run = |proof: &[u8], hints: &[u8], inputs: &[num_bigint::BigInt]| {
        let mut args = vec![
            Term::byte_string(proof.to_vec()),
            Term::byte_string(hints.to_vec()),
        ];
        args.extend(inputs.iter().map(|x| Term::integer(x.clone())));
        evaluate(&program, args, 10).accepted
    };
    assert!(run(&proof, &[], &inputs), "honest proof refused");
    for (what, offset) in [("A", 0), ("C", 144), ("Com", 192), ("Pok", 240)] {
        assert!(
            !run(&moved(&proof, offset), &[], &inputs),
            "{what} moved accepted"
        );
    }
    // B: the G2 generator instead.
    let mut b = proof.clone();
    b[48..144].copy_from_slice(
        group::GroupEncoding::to_bytes(
            &<midnight_curves::G2Affine as group::prime::PrimeCurveAffine>::generator(),
        )
        .as_ref(),
    );
    assert!(!run(&b, &[], &inputs), "B replaced accepted");
    let r = num_bigint::BigInt::from_bytes_le(
        num_bigint::Sign::Plus,
        &ff::PrimeField::to_repr(&-Fr::from(1u64)),
    ) + 1;
    for i in 0..inputs.len() {
        let mut x = inputs.clone();
        x[i] += 1;
        assert!(!run(&proof, &[], &x), "input {i} changed accepted");
        let mut x = inputs.clone();
        x[i] += &r;
        assert!(!run(&proof, &[], &x), "input {i} + r accepted");
    }
    assert!(
        !run(&proof[..PROOF_LEN - 1], &[], &inputs),
        "a short proof accepted"
    );
    let mut long = proof.clone();
    long.push(0);
    assert!(!run(&long, &[], &inputs), "a long proof accepted");
    assert!(!run(&proof, &[0], &inputs), "a hint byte accepted");
}

/// The native verifier (`Groth16Key::verify`, behind `tms verify --groth16`) and the script
/// agree on every case of `groth16_bare_verifier_refusals`: the honest proof accepted by both,
/// each moved point, each changed input, an input raised by r, a short and a long proof refused
/// by both.
#[test]
fn groth16_native_verifier_agrees_with_the_script() {
    use num_bigint::{BigInt, BigUint};
    use tms_cardano::plutus::{evaluate, groth16::verifier_term};
    use uplc::ast::{Program, Term};
    let key = Groth16Key::from_json(FIXTURE)
        .and_then(|k| k.trusted(true))
        .unwrap();
    for (public, proof) in fixture_proofs(FIXTURE).into_iter().take(2) {
        let inputs: Vec<BigInt> = public.iter().map(|s| s.parse().unwrap()).collect();
        let program = Program {
            version: (1, 1, 0),
            term: verifier_term(&key, inputs.len()),
        };
        let agree = |what: &str, proof: &[u8], inputs: &[BigInt]| {
            let mut args = vec![Term::byte_string(proof.to_vec()), Term::byte_string(vec![])];
            args.extend(inputs.iter().map(|x| Term::integer(x.clone())));
            let script = evaluate(&program, args, 10).accepted;
            let words: Vec<BigUint> = inputs.iter().map(|x| x.to_biguint().unwrap()).collect();
            let native = key.verify(proof, &words);
            assert_eq!(
                script,
                native.is_ok(),
                "{what}: script {script}, native {native:?}"
            );
            script
        };
        assert!(agree("honest", &proof, &inputs));
        for (what, offset) in [("A", 0), ("C", 144), ("Com", 192), ("Pok", 240)] {
            assert!(!agree(what, &moved(&proof, offset), &inputs));
        }
        let r = BigInt::from_bytes_le(
            num_bigint::Sign::Plus,
            &ff::PrimeField::to_repr(&-Fr::from(1u64)),
        ) + 1;
        for i in 0..inputs.len() {
            let mut x = inputs.clone();
            x[i] += 1;
            assert!(!agree("input changed", &proof, &x));
            let mut x = inputs.clone();
            x[i] += &r;
            assert!(!agree("input + r", &proof, &x));
        }
        assert!(!agree("short", &proof[..PROOF_LEN - 1], &inputs));
        let mut long = proof.clone();
        long.push(0);
        assert!(!agree("long", &long, &inputs));
    }
    // A key with a hashed statement: the native verifier hashes the words as the script does.
    let hashed = Groth16Key::from_json(FIXTURE_HASHED)
        .and_then(|k| k.trusted(true))
        .unwrap();
    let (public, proof) = fixture_proofs(FIXTURE_HASHED).into_iter().next().unwrap();
    let words: Vec<BigUint> = public.iter().map(|s| s.parse().unwrap()).collect();
    let program = Program {
        version: (1, 1, 0),
        term: verifier_term(&hashed, words.len()),
    };
    let agree = |what: &str, words: &[BigUint]| {
        let mut args = vec![Term::byte_string(proof.clone()), Term::byte_string(vec![])];
        args.extend(words.iter().map(|x| Term::integer(BigInt::from(x.clone()))));
        let script = evaluate(&program, args, 10).accepted;
        let native = hashed.verify(&proof, words);
        assert_eq!(
            script,
            native.is_ok(),
            "hashed, {what}: script {script}, native {native:?}"
        );
        script
    };
    assert!(agree("honest", &words));
    for i in 0..words.len() {
        let mut x = words.clone();
        x[i] += 1u32;
        assert!(!agree("a word changed", &x));
    }
    assert!(!agree("a word missing", &words[1..]));
}

/// A Groth16 wrapper made by `program-prove-bls` (`evm/groth16/commands_bls.go`): the replay
/// circuit of a recorded halo2 verifier over BLS12-381 (`verifier_bls.go`), set up (INSECURE,
/// seeded), proved and checked by the Go twin of the Plutus verifier; `plutus-key.json` and
/// `wrapped.json` as the command wrote them, `report.txt` its measured steps.
struct ReplayWrapper {
    name: &'static str,
    key: &'static str,
    wrapped: &'static str,
    /// A wrapped certificate's statement as its verifier holds it (`statement.json`: the
    /// committee commitment, the message bytes and the threshold of a Schnorr ATMS; the
    /// registration digest and the message bytes of a SNARK-Mithril), whose words the proof
    /// must be for.
    statement: Option<&'static str>,
}

macro_rules! replay_file {
    ($name:literal, $file:literal) => {
        include_str!(concat!("fixtures/groth16-replay/", $name, "/", $file))
    };
}

macro_rules! replay_wrapper {
    ($name:literal) => {
        ReplayWrapper {
            name: $name,
            key: replay_file!($name, "plutus-key.json"),
            wrapped: replay_file!($name, "wrapped.json"),
            statement: None,
        }
    };
    ($name:literal, statement) => {
        ReplayWrapper {
            statement: Some(replay_file!($name, "statement.json")),
            ..replay_wrapper!($name)
        }
    };
}

/// The statement words of a `statement.json`, `m` made from the message bytes by the BN254
/// schemes' rule (a wrapped certificate is a BN254 one): a Schnorr ATMS's `[commitment, m, t]`,
/// or a SNARK-Mithril's `[digest, m]` (its registration digest; no threshold).
fn statement_words(statement: &str) -> Vec<num_bigint::BigUint> {
    let v: serde_json::Value = serde_json::from_str(statement).expect("statement.json is JSON");
    let hex_field = |name: &str| {
        hex::decode(v[name].as_str().expect("hex").trim_start_matches("0x")).expect("hex")
    };
    let m = MessageRule::Keccak256Bn254.fields(&hex_field("message"))[0];
    let m = num_bigint::BigUint::from_bytes_le(&ff::PrimeField::to_repr(&m));
    match v.get("threshold") {
        Some(t) => vec![
            num_bigint::BigUint::from_bytes_be(&hex_field("commitment")),
            m,
            t.as_u64().expect("a threshold").into(),
        ],
        None => vec![num_bigint::BigUint::from_bytes_be(&hex_field("digest")), m],
    }
}

/// The replay wrappers: the synthetic program (`program-synth`: 1,085,038 constraints), and the
/// same with its two statement words hashed into one public input (`"statement_hash":
/// "keccak256"` added to the program file: 1,348,287 constraints). Remade by
///
/// ```sh
/// cd evm/groth16 && go run . program-synth -out /tmp/synth && go run . program-prove-bls \
///   -program /tmp/synth/synthetic.program.json -witness /tmp/synth/synthetic.witness.json \
///   -seed insecure-test-seed -out ../../cardano/tests/fixtures/groth16-replay/synthetic
/// ```
const REPLAY_WRAPPERS: &[ReplayWrapper] = &[
    replay_wrapper!("synthetic"),
    replay_wrapper!("synthetic-hashed"),
    replay_wrapper!("schnorr-atms-final-wrapper", statement),
    replay_wrapper!("schnorr-atms-72-of-102-k22", statement),
    replay_wrapper!("schnorr-atms-1602-of-2001-hashed", statement),
    replay_wrapper!("snark-mithril-hashed", statement),
    replay_wrapper!("snark-mithril-observer-hashed", statement),
];

/// The statement words and proof of `wrapped.json`.
fn wrapped_proof(wrapped: &str) -> (Vec<num_bigint::BigUint>, Vec<u8>) {
    let v: serde_json::Value = serde_json::from_str(wrapped).expect("wrapped.json is JSON");
    let words = v["public"]
        .as_array()
        .expect("public words")
        .iter()
        .map(|w| w.as_str().expect("decimal").parse().expect("decimal"))
        .collect();
    let proof = hex::decode(v["proof"].as_str().expect("hex")).expect("hex");
    (words, proof)
}

/// Each replay wrapper's real Groth16 proof through the generated Plutus verifier (mainnet's
/// PV 10 cost model): accepted as made, with its budget printed; refused, by the script and by
/// the native verifier alike, with each statement word changed, A, C, Com or Pok moved, and a
/// byte missing. Its seeded key is refused without the test flag.
#[test]
fn groth16_replay_wrappers_in_the_plutus_verifier() {
    use num_bigint::{BigInt, BigUint};
    use tms_cardano::plutus::{evaluate, groth16::verifier_term, script_bytes};
    use uplc::ast::{Program, Term};
    for w in REPLAY_WRAPPERS {
        assert!(matches!(
            Groth16Key::from_json(w.key).unwrap().trusted(false),
            Err(Groth16Error::Insecure(_))
        ));
        let key = Groth16Key::from_json(w.key)
            .and_then(|k| k.trusted(true))
            .expect("the wrapper's key");
        let (words, proof) = wrapped_proof(w.wrapped);
        if let Some(statement) = w.statement {
            assert_eq!(
                words,
                statement_words(statement),
                "{}: the proof's words are not the statement the verifier builds",
                w.name
            );
        }
        let program = Program {
            version: (1, 1, 0),
            term: verifier_term(&key, words.len()),
        };
        let run = |proof: &[u8], words: &[BigUint]| {
            let mut args = vec![Term::byte_string(proof.to_vec()), Term::byte_string(vec![])];
            args.extend(words.iter().map(|x| Term::integer(BigInt::from(x.clone()))));
            let budget = evaluate(&program, args, 10);
            let native = key.verify(proof, words);
            assert_eq!(
                budget.accepted,
                native.is_ok(),
                "{}: script and native verifier disagree ({native:?})",
                w.name
            );
            budget
        };
        let honest = run(&proof, &words);
        assert!(honest.accepted, "{}: the wrapper's proof refused", w.name);
        println!(
            "plutus-bare scheme=replay-{} validator=groth16-bare words={} case=honest accepted=true cpu={} mem={} tx_cpu_percent={:.1} script_bytes={}",
            w.name,
            words.len(),
            honest.cpu,
            honest.mem,
            100.0 * honest.cpu as f64 / MAX_TX_CPU as f64,
            script_bytes(&program).len()
        );
        for i in 0..words.len() {
            let mut changed = words.clone();
            changed[i] += 1u32;
            assert!(
                !run(&proof, &changed).accepted,
                "{}: word {i} changed accepted",
                w.name
            );
        }
        for (what, offset) in [("A", 0), ("C", 144), ("Com", 192), ("Pok", 240)] {
            assert!(
                !run(&moved(&proof, offset), &words).accepted,
                "{}: {what} moved accepted",
                w.name
            );
        }
        assert!(!run(&proof[..PROOF_LEN - 1], &words).accepted);
    }
}
/// A wrapped certificate's fixture as its verifier reads it: the (INSECURE, test-flagged) key,
/// the statement of `statement.json`, and the proof, whose words are checked to be that
/// statement's (the message by the BN254 schemes' rule).
struct WrappedCertificate {
    key: Groth16Key,
    /// The committee commitment (Schnorr ATMS) or the registration digest (SNARK-Mithril).
    commitment: Fr,
    message: Vec<u8>,
    /// The Schnorr ATMS's threshold; SNARK-Mithril has none.
    threshold: Option<u64>,
    /// The statement words (`[commitment, m, t]`, `[digest, m]`) as BLS12-381 scalars (each
    /// below BN254's r).
    instance: Vec<Fr>,
    proof: Vec<u8>,
}

impl WrappedCertificate {
    fn read(w: &ReplayWrapper) -> WrappedCertificate {
        let statement = w.statement.expect("the certificate's statement");
        let key = Groth16Key::from_json(w.key)
            .and_then(|k| k.trusted(true))
            .expect("the wrapper's key");
        let (words, proof) = wrapped_proof(w.wrapped);
        assert_eq!(
            words,
            statement_words(statement),
            "{}: the proof's words",
            w.name
        );
        let v: serde_json::Value = serde_json::from_str(statement).unwrap();
        let message =
            hex::decode(v["message"].as_str().unwrap().trim_start_matches("0x")).expect("hex");
        let fr = |x: &num_bigint::BigUint| {
            let mut le = x.to_bytes_le();
            le.resize(32, 0);
            Option::<Fr>::from(<Fr as ff::PrimeField>::from_repr(le.try_into().unwrap()))
                .expect("a BN254 word is below BLS12-381's r")
        };
        let instance: Vec<Fr> = words.iter().map(fr).collect();
        WrappedCertificate {
            key,
            commitment: instance[0],
            message,
            threshold: v.get("threshold").map(|t| t.as_u64().unwrap()),
            instance,
            proof,
        }
    }

    /// The certificate on `m`: only the message it was made on has one; any other gets none (a
    /// proof of zeros, which no verifier accepts).
    fn certify(&self, m: &[u8]) -> Vec<u8> {
        if m == self.message {
            self.proof.clone()
        } else {
            vec![0; PROOF_LEN]
        }
    }

    fn verifier<'k>(&'k self, scheme: &'k str) -> Groth16Verifier<'k> {
        Groth16Verifier {
            scheme,
            key: &self.key,
            message: MessageRule::Keccak256Bn254,
        }
    }
}

/// The issue's cases, each run by a wrapped certificate's validator form.
fn assert_cases_ran(cases: &[scenario::Case], form: &str) {
    for case in [
        "honest",
        "replayed-later-tx",
        "copied-redeemer-other-outputs",
        "other-statement",
        "proof-word-changed",
    ] {
        assert!(
            cases.iter().any(|c| c.case == case),
            "{form}: {case} missing"
        );
    }
}

fn print_share(scheme: &str, honest: &scenario::Case) {
    assert!(honest.outcome.accepted);
    println!(
        "plutus-tx-share scheme={scheme} validator={} cpu={} percent_of_tx={:.2} target_percent=25",
        honest.validator,
        honest.outcome.cpu,
        100.0 * honest.outcome.cpu as f64 / MAX_TX_CPU as f64
    );
}

/// The Groth16 observer in real Conway transactions (mainnet's PV 10 cost model and limits) on
/// real wrapped certificates: Schnorr ATMS certificates (BN254, Poseidon transcript) on the
/// message of the observer's honest transaction, each aggregated alone in its final wrapper
/// (Poseidon transcript) and wrapped in Groth16 over BLS12-381 (INSECURE seeded setup) by
/// `tms aggregate wrap`, the statement's three words as the Groth16 inputs:
/// - `schnorr-atms-final-wrapper`: 2-of-4, the final wrapper at k = 23 (one advice column),
///   written by the ignored `cli_groth16::aggregate_wrap_end_to_end_on_a_certificate` with
///   `TMS_WRAP_FIXTURE_OUT=cardano/tests/fixtures/groth16-replay/schnorr-atms-final-wrapper`;
/// - `schnorr-atms-72-of-102-k22`: 72-of-102, the final wrapper at k = 22 (two advice
///   columns), made by the same commands from the CLI (`docs/src/guides/cardano-groth16.md`);
/// - `snark-mithril-observer-hashed`: a SNARK-Mithril certificate (preprod parameters, the six
///   parties of `snark-mithril-hashed`), its final wrapper at k = 22, wrapped with the statement
///   `[digest, m]` hashed into one input under the state thread's Groth16 key (one program, one
///   seeded setup), made by the commands of `docs/src/guides/cardano-groth16-runs.md`.
///
/// The honest transaction is accepted; each attack case of `scenario::observer_cases` is refused
/// (the replayed proof, the redeemer copied to other outputs, an extra hint byte, another
/// statement, a changed proof word), and the bare verifier accepts the proof with and without
/// the observer's fixed entries.
#[test]
fn groth16_wrapped_certificate_plutus_tx_observer() {
    for w in [
        replay_wrapper!("schnorr-atms-final-wrapper", statement),
        replay_wrapper!("schnorr-atms-72-of-102-k22", statement),
        replay_wrapper!("snark-mithril-observer-hashed", statement),
    ] {
        let c = WrappedCertificate::read(&w);
        assert_eq!(
            c.message,
            scenario::observer_honest_message(),
            "{}: the wrapped certificate signs the honest observer transaction's message",
            w.name
        );
        plutus::with_big_stack(|| {
            let v = c.verifier(w.name);
            // A Schnorr ATMS's [commitment, m, t], a SNARK-Mithril's [digest, m].
            let mut statement = vec![Entry::Param(c.commitment), Entry::Message];
            statement.extend(c.threshold.map(Entry::Threshold));
            let observer =
                scenario::observer_cases(&v, &statement, &mut |m: &[u8]| c.certify(m)).unwrap();
            let bare = scenario::bare_verifier(&v, &c.proof, &c.instance);
            let bare_fixed = scenario::bare_verifier_fixed(&v, &statement, &c.proof, &c.instance);
            scenario::verdict_per_form(v.scheme, &[], &observer, [&bare, &bare_fixed]).unwrap();
            assert_cases_ran(&observer, &format!("{} observer", w.name));
            print_share(v.scheme, &observer[0]);
        });
    }
}

/// The Groth16 state thread in real Conway transactions on a real wrapped certificate: a Schnorr
/// ATMS 1602-of-2001 certificate (BN254, k = 19, Poseidon transcript) on the message of the
/// thread's honest handover (`scenario::state_thread_honest_message`: the toy thread's token and
/// next state), aggregated alone in its final wrapper (k = 22) and wrapped by `tms aggregate
/// wrap --hash-statement` (one Groth16 input: keccak256 of the three words). The thread's genesis
/// holds the certificate's committee commitment and threshold. The honest handover is accepted;
/// each attack case of `scenario::state_thread_cases` is refused (a case whose message is not the
/// honest one gets a proof of zeros: the toy keys above have real proofs for those).
#[test]
fn groth16_wrapped_certificate_plutus_tx_state_thread() {
    let w = replay_wrapper!("schnorr-atms-1602-of-2001-hashed", statement);
    let c = WrappedCertificate::read(&w);
    let key: serde_json::Value = serde_json::from_str(w.key).unwrap();
    assert_eq!(key["statement_hash"], "keccak256", "a hashed-statement key");
    let thread = Thread::toy(c.commitment, c.threshold.expect("a Schnorr ATMS threshold"));
    state_thread_on(&w, &c, &thread);
}

/// `thread`'s cases run by the Groth16 state thread of the wrapped certificate `c` (fixture `w`),
/// whose message must be the thread's honest handover: the honest case accepted, the others
/// refused, the share of a transaction printed.
fn state_thread_on(w: &ReplayWrapper, c: &WrappedCertificate, thread: &Thread) {
    assert_eq!(
        c.message,
        scenario::state_thread_honest_message(thread).unwrap(),
        "the wrapped certificate signs the thread's honest handover"
    );
    plutus::with_big_stack(|| {
        let v = c.verifier(w.name);
        let (cases, bare) =
            scenario::state_thread_cases(&v, thread, &mut |m: &[u8]| c.certify(m)).unwrap();
        scenario::verdict_per_form(v.scheme, &cases, &[], [&bare, &bare]).unwrap();
        assert_cases_ran(&cases, "state thread");
        print_share(v.scheme, &cases[0]);
    });
}

/// The Groth16 state thread on a real wrapped SNARK-Mithril certificate: preprod parameters
/// (6 parties), BN254, k = 15, Poseidon transcript, signed on the honest handover of a thread
/// whose datum is the registration digest (`ThreadLayout::digest_message`, SNARK-Mithril's
/// `[digest, m]`; the next state's digest 36), aggregated alone in its final wrapper (k = 22) and
/// wrapped by `tms aggregate wrap --scheme mithril --hash-statement` (one Groth16 input:
/// keccak256 of the two words). The commands are `docs/src/guides/cardano-groth16-runs.md`'s.
/// The honest handover is accepted; each attack case of `scenario::state_thread_cases` is refused.
#[test]
fn groth16_wrapped_mithril_certificate_plutus_tx_state_thread() {
    let w = replay_wrapper!("snark-mithril-hashed", statement);
    let c = WrappedCertificate::read(&w);
    assert_eq!(c.threshold, None, "a SNARK-Mithril statement");
    let mut thread = Thread {
        layout: ThreadLayout::digest_message(),
        next_statement: vec![Fr::from(36u64)],
        ..Thread::toy(c.commitment, 0)
    };
    thread.genesis.statement.truncate(1);
    state_thread_on(&w, &c, &thread);
}
