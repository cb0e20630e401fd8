//! On-chain verification end to end: a small Schnorr ATMS and a small SNARK-Mithril
//! certificate are proved in the EVM transcript, their generated verifiers and the contracts tied
//! to them (`CertificateVerifier.sol`) are compiled (solc-js) and deployed in revm, an honest
//! certificate is accepted, and one-change certificates are refused: a changed proof byte,
//! another message, another committee digest, a stronger threshold (the proof is for a lower
//! one), a longer and a shorter proof. Misdeployments are refused at construction: no code at
//! the verifier address, another contract's code there, a statement layout of another kind.
//! Replay protection keys on the statement: a proof with a scalar word raised by r verifies,
//! but its statement is consumed already. The gas of each verification is printed
//! (`cargo test -p tms-evm -- --nocapture`), with the verifier's size against EIP-170's limit
//! (measured with the limit lifted: see the gas table of `docs/src/guides/evm.md`).
//!
//! Needs `npm ci --prefix evm/solc` (README set-up; `.ci/run` does it).

mod common;

use common::construction_refused;
use halo2_base::halo2_proofs::{
    halo2curves::{
        bn256::{Bn256, Fr},
        ff::{Field, PrimeField},
    },
    poly::kzg::commitment::ParamsKZG,
};
use mithril_snark::{Parameters, PhiF};
use revm::primitives::Address;
use schnorr_atms::{AtmsInstance, AtmsShape, CommitmentMode, Verification};
use tms_evm::{
    certificate::{
        is_error, word_fr, word_u64, Contracts, Deployment, GasReport, StatementKind, Trusted,
    },
    gas_line,
    machine::Machine,
    verifier::calldata,
    EIP170_LIMIT,
};
use tms_gadgets::{
    message::message_to_field,
    proving::{params::kzg_params, verify_shplonk, Transcript},
};

const NO_CODE: &str = "NoVerifierCode()";
const WRONG_VERIFIER: &str = "WrongVerifier()";
const LAYOUT: &str = "LayoutMismatch(uint256,uint256)";
const WRONG_KIND: &str = "WrongStatementKind(uint256,uint256)";
const ZERO_THRESHOLD: &str = "ZeroThreshold()";
const LENGTH: &str = "WrongProofLength(uint256,uint256)";
const REJECTED: &str = "ProofRejected()";
const CONSUMED: &str = "AlreadyConsumed(bytes32)";

/// What a test proved: the verifier's inputs and the statement a contract trusts. For an outer
/// proof, `public_inputs` start with the accumulator limbs and `proof` carries them in front.
struct Proved {
    params: halo2_base::halo2_proofs::poly::kzg::commitment::ParamsKZG<
        halo2_base::halo2_proofs::halo2curves::bn256::Bn256,
    >,
    vk: halo2_base::halo2_proofs::plonk::VerifyingKey<
        halo2_base::halo2_proofs::halo2curves::bn256::G1Affine,
    >,
    message: Vec<u8>,
    public_inputs: Vec<Fr>,
    proof: Vec<u8>,
    trusted: Trusted,
    /// Accumulator limbs in front of `proof` (12 for an outer proof).
    accumulator_words: usize,
}

/// `trusted` with its digest moved by one.
fn other_committee(trusted: &Trusted) -> Trusted {
    match *trusted {
        Trusted::Atms {
            committee,
            threshold,
        } => Trusted::Atms {
            committee: committee + Fr::ONE,
            threshold,
        },
        Trusted::Mithril { registration } => Trusted::Mithril {
            registration: registration + Fr::ONE,
        },
        Trusted::MithrilBatch {
            registration,
            certificates,
        } => Trusted::MithrilBatch {
            registration: registration + Fr::ONE,
            certificates,
        },
        Trusted::Chain { genesis } => Trusted::Chain {
            genesis: genesis + Fr::ONE,
        },
    }
}

/// `proof` with the 32-byte scalar word at `at` raised by r: the generated verifier reduces it
/// mod r, so the proof still verifies (the word is below r, the sum below 2^256).
fn plus_r(proof: &[u8], at: usize) -> Vec<u8> {
    let r = hex::decode(Fr::MODULUS.trim_start_matches("0x")).unwrap();
    assert_eq!(r.len(), 32);
    let mut out = proof.to_vec();
    let mut carry = 0u16;
    for i in (0..32).rev() {
        let sum = u16::from(out[at + i]) + u16::from(r[i]) + carry;
        out[at + i] = sum as u8;
        carry = sum >> 8;
    }
    assert_eq!(carry, 0);
    out
}

/// Deploys the verifier pair for `proved`, checks the honest certificate, the one-change ones
/// and the misdeployments, and returns the contracts and the gas of the honest
/// `verifyCertificate` call.
fn check_on_chain(name: &str, proved: &Proved) -> (Contracts, u64) {
    let split = proved.accumulator_words * 32;
    assert!(verify_shplonk(
        &proved.params,
        &proved.vk,
        &proved.proof[split..],
        &proved.public_inputs,
        Transcript::Evm
    ));
    let contracts = Contracts::build_with_accumulator(
        &proved.params,
        &proved.vk,
        proved.public_inputs.len(),
        proved.accumulator_words,
        proved.trusted.kind(),
    )
    .unwrap();
    // The length written into the contracts is the prover's, computed from the key alone.
    assert_eq!(contracts.binding.proof_length, proved.proof.len() - split);
    assert_eq!(contracts.binding.num_instances, proved.public_inputs.len());
    // The honest certificate passes, through the generated verifier alone (the calldata
    // `tms prove --transcript evm` writes) and through the contract. Measured with the EIP-170
    // limit lifted: the gas table of `docs/src/guides/evm.md` gives the sizes.
    let report = GasReport::measure(
        &contracts,
        &proved.trusted,
        &proved.public_inputs,
        &proved.message,
        &proved.proof,
    )
    .unwrap();
    let mut machine = Machine::new(false);
    let honest = Deployment::deploy(&mut machine, &contracts, &proved.trusted).unwrap();
    // Whether `trusted`'s deployment accepts `message` and `proof`.
    let mut accepts = |trusted: &Trusted, message: &[u8], proof: &[u8]| {
        let deployment = Deployment::deploy(&mut machine, &contracts, trusted).unwrap();
        deployment
            .verify_certificate(&mut machine, message, proof)
            .unwrap()
            .success
    };
    // The honest certificate passes here too: each refusal below is its one change's.
    assert!(accepts(&proved.trusted, &proved.message, &proved.proof));
    // A bit of a commitment (of an accumulator limb for an outer proof), of the middle, of the
    // final opening.
    for at in [31, proved.proof.len() / 2, proved.proof.len() - 1] {
        let mut tampered = proved.proof.clone();
        tampered[at] ^= 1;
        let accepted = accepts(&proved.trusted, &proved.message, &tampered);
        assert!(!accepted, "{name}: a proof with byte {at} changed");
    }
    let mut other_message = proved.message.clone();
    other_message.push(b'!');
    let accepted = accepts(&proved.trusted, &other_message, &proved.proof);
    assert!(!accepted, "{name}: another message");
    let accepted = accepts(
        &other_committee(&proved.trusted),
        &proved.message,
        &proved.proof,
    );
    assert!(!accepted, "{name}: another committee's contract");
    if let Trusted::Atms {
        committee,
        threshold,
    } = proved.trusted
    {
        let stricter = Trusted::Atms {
            committee,
            threshold: threshold + 1,
        };
        let accepted = accepts(&stricter, &proved.message, &proved.proof);
        assert!(
            !accepted,
            "{name}: a proof for t = {threshold}, a contract requiring {}",
            threshold + 1
        );
    }

    // Proof length: the verifier itself ignores trailing bytes (so a longer proof verified
    // through the old contract); the contract takes exactly its length.
    let mut longer = proved.proof.clone();
    longer.extend([0u8; 32]);
    let raw = machine
        .call(
            honest.verifier,
            calldata(&proved.public_inputs, &longer[split..]),
        )
        .unwrap();
    assert!(
        raw.success,
        "{name}: the verifier alone ignores trailing bytes"
    );
    for changed in [
        [proved.proof.as_slice(), &[0u8]].concat(),
        longer,
        proved.proof[..proved.proof.len() - 1].to_vec(),
        proved.proof[..proved.proof.len() - 32].to_vec(),
    ] {
        let call = honest
            .verify_certificate(&mut machine, &proved.message, &changed)
            .unwrap();
        assert!(
            !call.success && is_error(&call.output, LENGTH),
            "{name}: a proof of {} bytes, {} expected",
            changed.len(),
            proved.proof.len()
        );
    }

    // Misdeployments. A call to an address without code succeeds with no data, as the
    // verifier's success does: the old contract pointed there accepted every proof.
    let empty = Address::repeat_byte(0x42);
    assert!(machine.call(empty, vec![1, 2, 3]).unwrap().success);
    assert!(
        construction_refused(&mut machine, &contracts, &proved.trusted, empty, NO_CODE),
        "{name}: a verifier address without code"
    );
    // A contract for t = 0 would accept a certificate of no signature: not deployable.
    if let Trusted::Atms { committee, .. } = proved.trusted {
        let vacuous = Trusted::Atms {
            committee,
            threshold: 0,
        };
        assert!(
            construction_refused(
                &mut machine,
                &contracts,
                &vacuous,
                honest.verifier,
                ZERO_THRESHOLD
            ),
            "{name}: a contract for t = 0"
        );
    }
    // Code that is not the exported verifier (here the contract itself).
    assert!(
        construction_refused(
            &mut machine,
            &contracts,
            &proved.trusted,
            honest.wrapper,
            WRONG_VERIFIER
        ),
        "{name}: another contract's code"
    );
    // Every other statement kind in front of this verifier. `MithrilBatchVerifier` takes N
    // from the verifier, so it fits any even statement (a batch of one is a Mithril
    // certificate's statement, of two a chain's word count): words alone cannot tell those
    // apart, the key's statement kind does (`WrongStatementKind`).
    let digest = Fr::from(5);
    let words = proved.trusted.statement_words();
    let fits = |other: &Trusted| match other {
        Trusted::MithrilBatch { .. } => words.is_multiple_of(2),
        _ => other.statement_words() == words,
    };
    for other in [
        Trusted::MithrilBatch {
            registration: digest,
            certificates: 1,
        },
        Trusted::Atms {
            committee: digest,
            threshold: 1,
        },
        Trusted::Mithril {
            registration: digest,
        },
        Trusted::Chain { genesis: digest },
    ] {
        if other.kind() == proved.trusted.kind() {
            continue;
        }
        let error = if fits(&other) { WRONG_KIND } else { LAYOUT };
        assert!(
            construction_refused(&mut machine, &contracts, &other, honest.verifier, error),
            "{name}: {} in front of this verifier",
            other.contract()
        );
    }

    // Proof bytes are malleable: the last evaluation (the word before SHPLONK's two opening
    // points) raised by r verifies. Replay protection keys on the statement, so the malleated
    // proof of a consumed statement is refused.
    let malleated = plus_r(&proved.proof, proved.proof.len() - 128 - 32);
    assert_ne!(malleated, proved.proof);
    let call = honest
        .verify_certificate(&mut machine, &proved.message, &malleated)
        .unwrap();
    assert!(call.success, "{name}: the malleated proof verifies");
    let first = honest
        .consume_certificate(&mut machine, &proved.message, &proved.proof)
        .unwrap();
    assert!(first.success, "{name}: the first certificate is consumed");
    for again in [&malleated, &proved.proof] {
        let call = honest
            .consume_certificate(&mut machine, &proved.message, again)
            .unwrap();
        assert!(
            !call.success && is_error(&call.output, CONSUMED),
            "{name}: a statement consumed twice"
        );
    }
    println!("record: {name} {report}");
    println!(
        "{}",
        gas_line(
            &format!("{name} verifyCertificate"),
            report.certificate_call_gas,
            report.verifier_bytes
        )
    );
    (contracts, report.certificate_call_gas)
}

/// Four of a committee of six sign `message` (flat commitment, at most 4 halo2-base columns).
fn four_of_six(message: &[u8]) -> schnorr_atms::AtmsWitness {
    schnorr_atms::example_witness(
        (6, 4),
        CommitmentMode::Flat,
        Verification::PerSignature,
        message_to_field(message),
        7,
        4,
    )
    .unwrap()
}

#[test]
fn schnorr_atms_certificate_on_chain() {
    const THRESHOLD: u64 = 4;
    let message = b"tms evm test: epoch 7 committee handover".to_vec();
    let witness = four_of_six(&message);
    let shape: AtmsShape = witness.shape;
    let params = kzg_params(shape.k);
    let keys = schnorr_atms::keygen(&params, shape).unwrap();
    let proof =
        schnorr_atms::prove_with_transcript(&params, &keys, &witness, Transcript::Evm).unwrap();
    // The contract's statement is the verifier's own, built from the committee commitment.
    let instance =
        AtmsInstance::from_trusted_commitment(witness.instance.commitment, &message, THRESHOLD);
    assert_eq!(instance, witness.instance);
    // A Blake2b proof is not an EVM proof.
    let blake = schnorr_atms::prove(&params, &keys, &witness).unwrap();
    assert!(!verify_shplonk(
        &params,
        keys.vk(),
        &blake,
        &instance.to_public_inputs(),
        Transcript::Evm
    ));
    let trusted = Trusted::Atms {
        committee: instance.commitment,
        threshold: THRESHOLD,
    };
    let (contracts, gas) = check_on_chain(
        &format!("schnorr-atms 4 of 6 flat t={THRESHOLD} k={}", shape.k),
        &Proved {
            params: params.clone(),
            vk: keys.vk().clone(),
            message: message.clone(),
            public_inputs: instance.to_public_inputs(),
            proof,
            trusted,
            accumulator_words: 0,
        },
    );
    assert!(gas > 21_000);

    // The old `bindsThreshold = false` in front of this verifier: the verifier reads the first
    // proof word as the threshold. One signer of the same committee proves t = 1 ...
    let weak = schnorr_atms::example_witness(
        (6, 1),
        CommitmentMode::Flat,
        Verification::PerSignature,
        message_to_field(&message),
        7,
        4,
    )
    .unwrap();
    assert_eq!(weak.shape, shape);
    assert_eq!(weak.instance.commitment, instance.commitment);
    assert_eq!(weak.instance.threshold, 1);
    let weak_proof =
        schnorr_atms::prove_with_transcript(&params, &keys, &weak, Transcript::Evm).unwrap();
    let carried = [word_u64(1).as_slice(), &weak_proof].concat();
    let mut machine = Machine::new(false);
    let honest = Deployment::deploy(&mut machine, &contracts, &trusted).unwrap();
    // ... and the calldata that contract sent, [commitment, m] then the caller's bytes, passed.
    let old = machine
        .call(
            honest.verifier,
            calldata(&[instance.commitment, instance.message], &carried),
        )
        .unwrap();
    assert!(old.success, "the two-word layout lets the caller choose t");
    // Now the two-word layout cannot be deployed in front of it, and the three-word contract
    // refuses the weak proof with or without the carried threshold word.
    let two_words = Trusted::Mithril {
        registration: instance.commitment,
    };
    assert!(construction_refused(
        &mut machine,
        &contracts,
        &two_words,
        honest.verifier,
        LAYOUT
    ));
    let call = honest
        .verify_certificate(&mut machine, &message, &weak_proof)
        .unwrap();
    assert!(
        !call.success && is_error(&call.output, REJECTED),
        "t = 1 < 4"
    );
    let call = honest
        .verify_certificate(&mut machine, &message, &carried)
        .unwrap();
    assert!(
        !call.success && is_error(&call.output, LENGTH),
        "t = 1 carried"
    );

    // The old `accumulatorWords = 12` in front of this (certificate) verifier: contracts
    // exported for a 12-limb verifier are tied to that verifier's code, not this one's, and
    // this verifier's contracts to this one's.
    let outer =
        Contracts::build_with_accumulator(&params, keys.vk(), 15, 12, StatementKind::Atms).unwrap();
    assert_eq!(outer.binding.accumulator_words, 12);
    assert_ne!(
        outer.binding.verifier_codehash,
        contracts.binding.verifier_codehash
    );
    assert!(construction_refused(
        &mut machine,
        &outer,
        &trusted,
        honest.verifier,
        WRONG_VERIFIER
    ));
    let outer_verifier = machine.deploy(outer.verifier.creation.clone()).unwrap();
    assert!(construction_refused(
        &mut machine,
        &contracts,
        &trusted,
        outer_verifier.address,
        WRONG_VERIFIER
    ));
}

/// A SNARK-Mithril certificate of `message` (m = 40, k = 3, 5 parties) proved with
/// `transcript`: the circuit's k, the parameters, keys, proof and the verifier's own statement.
fn mithril_example(
    message: &[u8],
    transcript: Transcript,
) -> (
    u32,
    ParamsKZG<Bn256>,
    mithril_snark::MithrilKeys,
    Vec<u8>,
    mithril_snark::MithrilInstance,
) {
    let parameters = Parameters::new(40, 3, PhiF::new(7, 10).unwrap()).unwrap();
    let ex = mithril_snark::example_certificate_on(
        parameters,
        5,
        None,
        11,
        false,
        Some(message_to_field(message)),
    )
    .unwrap();
    let witness = ex.witness(4).unwrap();
    let params = kzg_params(witness.shape.k);
    let keys = mithril_snark::keygen(&params, witness.shape).unwrap();
    let proof = mithril_snark::prove_with_transcript(&params, &keys, &witness, transcript).unwrap();
    let instance = mithril_snark::MithrilInstance::from_trusted(&ex.registration, message);
    (witness.shape.k, params, keys, proof, instance)
}

#[test]
fn mithril_certificate_on_chain() {
    let message = b"tms evm test: mithril epoch 7".to_vec();
    let (k, params, keys, proof, instance) = mithril_example(&message, Transcript::Evm);
    check_on_chain(
        &format!("mithril m=40 k=3 circuit k={k}"),
        &Proved {
            params,
            vk: keys.vk().clone(),
            message,
            public_inputs: instance.to_public_inputs(),
            proof,
            trusted: Trusted::Mithril {
                registration: instance.commitment.digest(),
            },
            accumulator_words: 0,
        },
    );
}

/// A BLS ATMS committee of 4 (seeded keys with proofs of possession), members 0, 1 and 3
/// signing `message`: the shape (k = 20), the committee and the witness for `threshold`.
fn bls_three_of_four(
    message: &[u8],
    threshold: u64,
) -> (
    bls_atms::AtmsShape,
    bls_atms::Committee,
    bls_atms::AtmsWitness,
) {
    use rand::SeedableRng;
    use tms_gadgets::signature::bls::SecretKey;
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2026);
    let sks: Vec<SecretKey> = (0..4).map(|_| SecretKey::random(&mut rng)).collect();
    let members: Vec<_> = sks
        .iter()
        .map(|sk| (sk.public_key(), sk.prove_possession()))
        .collect();
    let committee = bls_atms::Committee::register(&members).unwrap();
    let signed = message_to_field(message);
    let signatures: Vec<_> = [0, 1, 3]
        .iter()
        .map(|&i| (i, sks[i].sign(signed)))
        .collect();
    let shape = bls_atms::AtmsShape::auto(4, 3, 20);
    let witness =
        bls_atms::AtmsWitness::new(shape, &committee, message, &signatures, threshold).unwrap();
    (shape, committee, witness)
}

/// BLS ATMS 3 of 4 (threshold 2) on chain: a pairing circuit at k = 20, minutes here. Run with
/// `cargo test --release -p tms-evm --test certificates -- --ignored --nocapture bls`.
///
/// Its statement's message input is `m = keccak-256(bytes) mod r` (the circuit hashes `m` to G2
/// itself), so `AtmsCertificateVerifier` builds it from the message bytes: the checks of the
/// Schnorr ATMS's contract (`check_on_chain`), and the verifier's size and gas.
#[test]
#[ignore = "a pairing proof at k = 20: minutes"]
fn bls_atms_certificate_on_chain_gas() {
    const THRESHOLD: u64 = 2;
    let message = b"tms evm test: BLS certificate".to_vec();
    let (shape, committee, witness) = bls_three_of_four(&message, THRESHOLD);
    let params = kzg_params(shape.k);
    let keys = bls_atms::keygen(&params, shape).unwrap();
    let proof = bls_atms::prove_with_transcript(&params, &keys, &witness, Transcript::Evm).unwrap();
    let instance =
        bls_atms::AtmsInstance::from_trusted(&shape, &committee, &message, THRESHOLD).unwrap();
    let public_inputs = instance.to_public_inputs();
    // The message input is keccak-256(bytes) mod r, what a contract computes from the bytes
    // (the circuit hashes it to G2 itself).
    assert_eq!(
        public_inputs[bls_atms::AtmsInstance::MESSAGE],
        message_to_field(&message)
    );
    // Through `AtmsCertificateVerifier` (the statement's layout is the Schnorr ATMS's): the
    // honest certificate, the one-change refusals and the misdeployments of `check_on_chain`.
    let proved = Proved {
        params,
        vk: keys.vk().clone(),
        message,
        public_inputs,
        proof,
        trusted: Trusted::Atms {
            committee: committee.digest(shape.hash),
            threshold: THRESHOLD,
        },
        accumulator_words: 0,
    };
    let (contracts, gas) = check_on_chain("bls-atms 3 of 4", &proved);
    println!(
        "record: bls-atms 3 of 4 t={THRESHOLD} {} verifier_bytes={} verifyCertificate_gas={gas} \
         evm_proof_bytes={}",
        keys.stats,
        contracts.verifier.runtime.len(),
        proved.proof.len()
    );
}

/// A thin outer proof of a Schnorr ATMS certificate (snark-verifier-sdk's aggregation circuit
/// over the certificate proof in the Poseidon transcript): its verifier and gas, and the same
/// one-change refusals through `AtmsCertificateVerifier` exported with 12 accumulator words.
/// At the outer k of the final wrapper (default 23: one advice column, the cheapest layout of
/// `wrapper_shapes.rs`; `TMS_OUTER_K` for another) the verifier deploys with EIP-170 enforced.
/// Minutes and several GiB:
/// `cargo test --release -p tms-evm --test certificates -- --ignored --nocapture outer`.
/// With `TMS_OUTER_SAVE=DIR` it writes the final wrapper's key file, proof file and statement
/// there: the fixture of `tests/final_wrapper.rs` (`evm/tests/fixtures/final-wrapper`).
#[test]
#[ignore = "an aggregation proof: minutes and several GiB"]
fn schnorr_atms_outer_proof_on_chain() {
    use tms_aggregation::certificate_snark;
    const THRESHOLD: u64 = 4;
    let message = b"tms evm test: outer proof of epoch 7".to_vec();
    let witness = four_of_six(&message);
    let inner_params = kzg_params(witness.shape.k);
    let keys = schnorr_atms::keygen(&inner_params, witness.shape).unwrap();
    let inner_proof =
        schnorr_atms::prove_with_transcript(&inner_params, &keys, &witness, Transcript::Poseidon)
            .unwrap();
    let inner_public = witness.instance.to_public_inputs();
    assert!(verify_shplonk(
        &inner_params,
        keys.vk(),
        &inner_proof,
        &inner_public,
        Transcript::Poseidon
    ));
    let snark = certificate_snark(&inner_params, keys.vk(), &inner_public, inner_proof).unwrap();
    let wrapped = wrap("outer", snark, &inner_public);
    let Wrapped { outer, carried, .. } = &wrapped;
    if let Some(dir) = std::env::var_os("TMS_OUTER_SAVE") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        let shape = serde_json::to_value(witness.shape).unwrap();
        let vk_file = outer.vk_file_with_inner("aggregate schnorr-atms x1", None, Some(shape));
        std::fs::write(dir.join("wrapper.vk"), &vk_file).unwrap();
        std::fs::write(dir.join("wrapper.proof"), carried).unwrap();
        let statement = serde_json::json!({
            "committee": format!("0x{}", hex::encode(word_fr(&witness.instance.commitment))),
            "message": format!("0x{}", hex::encode(&message)),
            "threshold": THRESHOLD,
            "vk_fingerprint": tms_gadgets::proving::keys::fingerprint(&vk_file),
        });
        std::fs::write(
            dir.join("statement.json"),
            serde_json::to_string_pretty(&statement).unwrap() + "\n",
        )
        .unwrap();
    }
    let trusted = Trusted::Atms {
        committee: witness.instance.commitment,
        threshold: THRESHOLD,
    };
    wrapped_on_chain("schnorr-atms 4 of 6 outer", wrapped, &message, trusted);
}

/// An outer proof of one certificate proof and what it needs on chain.
struct Wrapped {
    k: u32,
    params: halo2_base::halo2_proofs::poly::kzg::commitment::ParamsKZG<
        halo2_base::halo2_proofs::halo2curves::bn256::Bn256,
    >,
    outer: tms_aggregation::AggregationKeys,
    public_inputs: Vec<Fr>,
    /// What `verifyCertificate` takes: the accumulator words, then the proof.
    carried: Vec<u8>,
}

/// Wraps `snark` (public inputs `inner_public`) in an outer proof (EVM transcript) at k =
/// `TMS_OUTER_K`, default 23 (the final wrapper's one advice column), and prints its `record:`
/// line as `name`.
fn wrap(name: &str, snark: tms_aggregation::Snark, inner_public: &[Fr]) -> Wrapped {
    use tms_aggregation::{
        aggregation_keygen, aggregation_layout, aggregation_prove, proof_file, ExposeAll,
        ACCUMULATOR_LIMBS,
    };
    use tms_gadgets::proving::stats::{peak_rss_mib, process_cpu_seconds};
    let k: u32 = std::env::var("TMS_OUTER_K")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(23);
    let params = kzg_params(k);
    // The layout first (seconds): what keygen and the prove will hold.
    let (config, cells) = aggregation_layout(&params, k, vec![snark.clone()], &ExposeAll).unwrap();
    println!("layout: {name} k={k} advice_cells={cells} config={config:?}");
    let cpu = process_cpu_seconds();
    let outer = aggregation_keygen(&params, k, vec![snark.clone()], &ExposeAll).unwrap();
    let keygen_cpu = process_cpu_seconds() - cpu;
    let cpu = process_cpu_seconds();
    let (public_inputs, proof) =
        aggregation_prove(&params, &outer, vec![snark], &ExposeAll, Transcript::Evm).unwrap();
    let prove_cpu = process_cpu_seconds() - cpu;
    assert_eq!(&public_inputs[ACCUMULATOR_LIMBS..], inner_public);
    println!(
        "record: {name} k={k} advice_cells={} config={:?} keygen_cpu_s={keygen_cpu:.1} \
         prove_cpu_s={prove_cpu:.1} peak_rss_mib={:.0} outer_proof_bytes={}",
        outer.advice_cells,
        outer.config,
        peak_rss_mib(),
        proof.len()
    );
    let carried = proof_file(&public_inputs[..ACCUMULATOR_LIMBS], &proof);
    Wrapped {
        k,
        params,
        outer,
        public_inputs,
        carried,
    }
}

/// Deploys `contracts` for `trusted` **with EIP-170 enforced** and checks that `carried` verifies
/// there for `message`, at the `gas` measured with the limit lifted.
fn verifies_on_mainnet(
    contracts: &Contracts,
    trusted: &Trusted,
    message: &[u8],
    carried: &[u8],
    gas: u64,
) {
    let mut mainnet = Machine::new(true);
    let deployment = Deployment::deploy(&mut mainnet, contracts, trusted)
        .expect("the verifier deploys under EIP-170");
    let call = deployment
        .verify_certificate(&mut mainnet, message, carried)
        .unwrap();
    assert!(call.success && call.gas == gas);
}

/// A final wrapper's proof through the contract for `trusted` (the honest certificate, the
/// one-change refusals and misdeployments of `check_on_chain`, labelled `name`), then, where its
/// verifier is within EIP-170's limit, deployed and verified under mainnet's rules too (the
/// final wrapper's layout is chosen for that: `TMS_OUTER_K` may pick one that is not).
fn wrapped_on_chain(name: &str, wrapped: Wrapped, message: &[u8], trusted: Trusted) {
    let Wrapped {
        k,
        params,
        outer,
        public_inputs,
        carried,
    } = wrapped;
    let (contracts, gas) = check_on_chain(
        &format!("{name} k={k}"),
        &Proved {
            params,
            vk: outer.pk.get_vk().clone(),
            message: message.to_vec(),
            public_inputs,
            proof: carried.clone(),
            trusted,
            accumulator_words: tms_aggregation::ACCUMULATOR_LIMBS,
        },
    );
    let fits = contracts.verifier.runtime.len() <= EIP170_LIMIT;
    println!("record: {name} k={k} deploys_under_eip170={fits}");
    if fits {
        verifies_on_mainnet(&contracts, &trusted, message, &carried, gas);
    }
}

/// The Schnorr ATMS certificate through the final wrapper (one advice column, SHPLONK: the
/// cheapest deployable layout of `wrapper_shapes.rs`), in CI. Proving the wrapper takes minutes
/// and GiB (k = 23), so its key file, proof file and statement are committed
/// (`evm/tests/fixtures/final-wrapper`, written by the ignored `outer` test above with
/// `TMS_OUTER_SAVE`); this test pins the key's fingerprint as a verifier would, regenerates the
/// verifier and its contract from the key and the parameters' `[1]_1, [1]_2, [tau]_2` alone, deploys
/// them **with EIP-170 enforced**, verifies the certificate from the committee commitment, the
/// threshold and the message bytes, prints its gas, and refuses every one-change certificate
/// and misdeployment of `check_on_chain`.
#[test]
fn schnorr_atms_certificate_through_the_final_wrapper() {
    use halo2_base::halo2_proofs::poly::commitment::ParamsProver;
    use tms_aggregation::{read_vk_file, split_proof_file, ACCUMULATOR_LIMBS};
    use tms_gadgets::proving::keys::fingerprint;
    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/final-wrapper");
    // What the verifier pinned when it made the wrapper's key (the `outer` test prints it).
    const PINNED: &str = include_str!("fixtures/final-wrapper/PINNED");
    let read = |name: &str| std::fs::read(format!("{FIXTURE}/{name}")).unwrap();
    let vk_file = read("wrapper.vk");
    assert_eq!(fingerprint(&vk_file), PINNED.trim(), "the pinned key");
    let (header, vk) = read_vk_file(&vk_file).unwrap();
    assert_eq!(header.statement, "aggregate schnorr-atms x1");
    assert_eq!(header.config.num_advice, 1, "the final wrapper's layout");
    let statement: serde_json::Value = serde_json::from_slice(&read("statement.json")).unwrap();
    let hex_field =
        |v: &serde_json::Value| hex::decode(v.as_str().unwrap().trim_start_matches("0x")).unwrap();
    let mut committee_repr = hex_field(&statement["committee"]);
    committee_repr.reverse();
    let committee = Fr::from_repr(committee_repr.try_into().unwrap()).unwrap();
    let message = hex_field(&statement["message"]);
    let threshold = statement["threshold"].as_u64().unwrap();

    // The verifier's parameters: tau is the insecure seed's at every size, and a verifier needs
    // only the generators and [tau]_2 beside the key's k.
    let small = kzg_params(10);
    let g = small.get_g()[0];
    let params = small.from_parts(
        header.config.degree,
        vec![g],
        Some(vec![g]),
        small.g2(),
        small.s_g2(),
    );
    let carried = read("wrapper.proof");
    let (accumulator, proof) = split_proof_file(&carried).unwrap();
    let mut public_inputs = accumulator;
    public_inputs.extend([committee, message_to_field(&message), Fr::from(threshold)]);
    assert_eq!(public_inputs.len(), header.num_instances);
    assert!(tms_aggregation::aggregation_verify(
        &params,
        &vk,
        &public_inputs,
        &proof,
        Transcript::Evm
    ));
    let trusted = Trusted::Atms {
        committee,
        threshold,
    };
    let (contracts, gas) = check_on_chain(
        "schnorr-atms 4 of 6 final wrapper",
        &Proved {
            params,
            vk,
            message: message.clone(),
            public_inputs,
            proof: carried.clone(),
            trusted,
            accumulator_words: ACCUMULATOR_LIMBS,
        },
    );
    verifies_on_mainnet(&contracts, &trusted, &message, &carried, gas);
}

/// A SNARK-Mithril certificate (m = 40, k = 3, 5 parties) through the final wrapper (one
/// advice column, SHPLONK, k = 23 by default, `TMS_OUTER_K` for another): its verifier deploys
/// with EIP-170 enforced and `MithrilCertificateVerifier` passes every one-change refusal of
/// `check_on_chain`. Minutes and GiB:
/// `cargo test --release -p tms-evm --test certificates -- --ignored --nocapture mithril_final_wrapper`.
#[test]
#[ignore = "an aggregation proof at k = 23: minutes and GiB"]
fn mithril_final_wrapper_on_chain() {
    use tms_aggregation::certificate_snark;
    let message = b"tms evm test: mithril epoch 7 wrapped".to_vec();
    let (_, inner_params, keys, inner_proof, instance) =
        mithril_example(&message, Transcript::Poseidon);
    let inner_public = instance.to_public_inputs();
    let snark = certificate_snark(&inner_params, keys.vk(), &inner_public, inner_proof).unwrap();
    let wrapped = wrap("mithril final wrapper", snark, &inner_public);
    let trusted = Trusted::Mithril {
        registration: instance.commitment.digest(),
    };
    wrapped_on_chain("mithril m=40 k=3 final wrapper", wrapped, &message, trusted);
}

/// A BLS ATMS certificate (3 of 4, t = 2; the pairing circuit at k = 20, 21 advice columns)
/// through its final wrapper (`TMS_OUTER_K`, default 23: the inner proof's commitments take two
/// advice columns there): verified natively, then through `AtmsCertificateVerifier` with every
/// one-change refusal of `check_on_chain`, and with EIP-170 enforced when it fits. Minutes and
/// about 20 GiB: `cargo test --release -p tms-evm --test certificates -- --ignored --nocapture
/// bls_atms_final_wrapper`.
#[test]
#[ignore = "a pairing proof at k = 20 and an aggregation proof at k = 23: half an hour, ~20 GiB"]
fn bls_atms_final_wrapper_on_chain() {
    use tms_aggregation::certificate_snark;
    const THRESHOLD: u64 = 2;
    let message = b"tms evm test: BLS certificate wrapped".to_vec();
    let (shape, committee, witness) = bls_three_of_four(&message, THRESHOLD);
    let inner_params = kzg_params(shape.k);
    let keys = bls_atms::keygen(&inner_params, shape).unwrap();
    let inner_proof =
        bls_atms::prove_with_transcript(&inner_params, &keys, &witness, Transcript::Poseidon)
            .unwrap();
    let instance =
        bls_atms::AtmsInstance::from_trusted(&shape, &committee, &message, THRESHOLD).unwrap();
    let inner_public = instance.to_public_inputs();
    let snark = certificate_snark(&inner_params, keys.vk(), &inner_public, inner_proof).unwrap();
    drop(keys);
    let wrapped = wrap("bls-atms final wrapper", snark, &inner_public);
    let trusted = Trusted::Atms {
        committee: committee.digest(shape.hash),
        threshold: THRESHOLD,
    };
    wrapped_on_chain("bls-atms 3 of 4 final wrapper", wrapped, &message, trusted);
}
